"""The full-screen terminal client (Textual): ``LocalGameApp`` (a game on this machine),
``NetApp`` (a game on a server, in online/) and ``ReplayApp`` (a game record, step by step).

Owns the board, its cards and move input, the dialogs and the screens.  Must never: import
console/ (the plain client); what both need lives below them (text/, net/, game/, seats).
"""

from __future__ import annotations

from .app import LocalGameApp
from .keywords import follow_language
from .online import NetApp
from .replay import ReplayApp

__all__ = [
    "LocalGameApp",
    "NetApp",
    "ReplayApp",
]

follow_language()  # every screen's key line in the language in effect when it is made
