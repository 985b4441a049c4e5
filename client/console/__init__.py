"""The plain terminal client: prompts and rich text, no full-screen UI.

Owns a person at the keyboard as a Player (``TerminalPlayer``), ``scopa local``
(``run_local_game``), ``scopa play``'s lobby and watching (``Lobby``, ``watch_table``,
``describe``), ``scopa bot`` (``BotRunner``, ``DelayedPlayer``) and record files on disk
(``load_record``, ``write_record``).

Must never: import tui/ (the full-screen client stands beside it, not on it); what both
need lives below them (text/, net/, game/, seats).
"""

from __future__ import annotations

from .human import TerminalPlayer
from .local import run_local_game
from .lobby import Lobby, describe, watch_table
from .botrunner import BotRunner, DelayedPlayer
from .recordfile import load_record, write_record

__all__ = [
    "BotRunner",
    "DelayedPlayer",
    "Lobby",
    "TerminalPlayer",
    "describe",
    "load_record",
    "run_local_game",
    "watch_table",
    "write_record",
]
