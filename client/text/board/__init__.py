"""The public picture of one game kept from its events, for either terminal client
(``BoardState``, a finished round as ``RoundResult``), and a finished round in words:
``round_parts`` (the table of ``round_table``, ``leftovers_line``, ``tie_note``); a board set
from a snapshot's public picture (``apply_public``).  No
Textual and no keyboard here."""

from __future__ import annotations

from .public import apply_public
from .roundbox import leftovers_line, round_parts, round_table, tie_note
from .state import BoardState, RoundResult

__all__ = ["BoardState", "RoundResult", "apply_public", "leftovers_line", "round_parts", "round_table", "tie_note"]
