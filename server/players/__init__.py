"""The players the server remembers: claimed names (:class:`Accounts`), ratings
(:class:`Rater`, and :func:`fresh`, a newcomer's rating; the rater decides with its fairness rules which games move them) and the
archive of finished games and their records (:class:`Archive`).

It reads tables and writes through the journal; it must never seat anyone, list tables or
import the lobby."""

from __future__ import annotations

from .accounts import Accounts
from .archive import Archive
from .rater import Rater, fresh

__all__ = ["Accounts", "Archive", "Rater", "fresh"]
