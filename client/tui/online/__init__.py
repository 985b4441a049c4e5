"""The full-screen client against a server: ``NetApp`` (``scopa play --tui``), its lobby
(``LobbyScreen``, ``CreateTableScreen``, ``InviteScreen``), and the screens for the other
seats, a lost connection and coming back.

Must never: import console/, or be imported by the rest of tui/ (the local game and the
replay viewer run without a server).
"""

from __future__ import annotations

from .app import NetApp
from .lobby import CreateTableScreen, InviteScreen, LobbyScreen

__all__ = [
    "CreateTableScreen",
    "InviteScreen",
    "LobbyScreen",
    "NetApp",
]
