"""The plain terminal client: prompts and rich text, no full-screen UI.

Owns a person at the keyboard as a Player (``TerminalPlayer``), ``scopa local``
(``run_local_game``), ``scopa play``'s lobby and watching (``Lobby``, ``watch_table``,
``describe``), its keyboard (``LineReader``) and the seat it keeps to come back to
(``SeatKeeper``, ``come_back``, ``back_line``, ``said_before``: the table chat said before it sat or came back), ``scopa bot`` (``BotRunner``, ``DelayedPlayer``) and record files on disk
(``load_record``, ``write_record``).

The names are imported on first use, so ``scopa local`` never loads the network code.

Must never: import tui/ (the full-screen client stands beside it, not on it); what both
need lives below them (text/, net/, game/, seats).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .botrunner import BotRunner, DelayedPlayer
    from .human import TerminalPlayer
    from .lobby import Lobby
    from .prompt import LineReader
    from .seatfile import SeatKeeper, back_line, come_back, said_before
    from .watching import describe, watch_table
    from .local import run_local_game
    from .recordfile import load_record, write_record

_EXPORTS = {
    "TerminalPlayer": "human",
    "run_local_game": "local",
    "Lobby": "lobby",
    "LineReader": "prompt",
    "SeatKeeper": "seatfile",
    "come_back": "seatfile",
    "back_line": "seatfile",
    "said_before": "seatfile",
    "describe": "watching",
    "watch_table": "watching",
    "BotRunner": "botrunner",
    "DelayedPlayer": "botrunner",
    "load_record": "recordfile",
    "write_record": "recordfile",
}

__all__ = [
    "BotRunner",
    "DelayedPlayer",
    "LineReader",
    "Lobby",
    "SeatKeeper",
    "TerminalPlayer",
    "back_line",
    "come_back",
    "describe",
    "load_record",
    "said_before",
    "run_local_game",
    "watch_table",
    "write_record",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
