"""The plain terminal client: prompts and rich text, no full-screen UI.

Owns a person at the keyboard as a Player (``TerminalPlayer``), ``scopa local``
(``run_local_game``), ``scopa play``'s lobby and watching (``Lobby``, ``watch_table``,
``describe``), ``scopa bot`` (``BotRunner``, ``DelayedPlayer``) and record files on disk
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
    from .lobby import Lobby, describe, watch_table
    from .local import run_local_game
    from .recordfile import load_record, write_record

_EXPORTS = {
    "TerminalPlayer": "human",
    "run_local_game": "local",
    "Lobby": "lobby",
    "describe": "lobby",
    "watch_table": "lobby",
    "BotRunner": "botrunner",
    "DelayedPlayer": "botrunner",
    "load_record": "recordfile",
    "write_record": "recordfile",
}

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


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
