"""The players a network game's board runs: the person at this keyboard, and a spectator."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from rich.text import Text

from scopa.engine import Declare, Event, IllegalMoveError, Play, View
from scopa.engine.player import Player

from ...text import reason_text
from ...text import tr
from ..board import BoardScreen
from .comeback import Comeback


class NetApp(Protocol):
    """What the players need of the network app: it shows the events, and knows what a
    seat coming back has missed."""

    autoplay: bool
    comeback: Comeback

    async def show_event(self, event: Event) -> None: ...


class NetPlayer(Player):
    """The person at this keyboard, seated at a server's table."""

    def __init__(self, name: str, app: NetApp, screen: BoardScreen) -> None:
        self.name = name
        self.net_app = app
        self.screen = screen

    async def notify(self, event: Event) -> None:
        await self.net_app.show_event(event)

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.net_app.comeback.caught_up(self.screen)  # a turn comes after the history
        board = self.screen.board
        board.viewer = view.seat
        board.sync(view)
        self.screen.refresh_board()
        if self.net_app.autoplay and len(legal) == 1 and len(view.hand) == 1:
            self.screen.autoplayed = True
            return legal[0]
        again = self.net_app.comeback.move_to_replay(legal)
        if again is not None:
            return again
        action = await self.screen.ask(legal)
        self.net_app.comeback.last_move = (list(legal), action)
        return action

    async def rejected(self, error: IllegalMoveError) -> None:
        self.net_app.comeback.last_move = None
        self.screen.say(Text(tr("Not allowed: {error}", error=reason_text(error)), style="yellow"))


class Watcher(Player):
    """A spectator's seatless player: it only follows the public events."""

    def __init__(self, app: NetApp) -> None:
        self.net_app = app

    async def notify(self, event: Event) -> None:
        await self.net_app.show_event(event)

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        raise RuntimeError("a spectator is never asked to play")
