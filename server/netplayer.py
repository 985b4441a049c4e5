"""NetworkPlayer: a remote seat as the game master sees it — a mailbox.

The game master awaits :meth:`NetworkPlayer.choose`; the player tells its table that a
turn is waiting and returns whatever the table puts in.  Everything else about the seat
(its connection, the your_turn sent to it, refusals, the turn clock, who plays for it
when it is away) belongs to the :class:`~scopa.server.table.Table`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from scopa.engine import Declare, Event, GameState, HandDealt, IllegalMoveError, Play, Player, View

Action = Play | Declare


class NetworkPlayer(Player):
    """A remote seat: a turn is handed to its table (``on_turn``), its answer comes back
    through :meth:`answer`; a dealt hand is handed to the table too (``on_hand``)."""

    __slots__ = ("seat", "name", "_on_turn", "_on_hand", "_answer", "legal", "bot")

    def __init__(self, seat: int, name: str, on_turn: Callable[[NetworkPlayer], None],
                 on_hand: Callable[[int, HandDealt], None]) -> None:
        self.seat = seat
        self.name = name or f"seat{seat}"
        self._on_turn = on_turn
        self._on_hand = on_hand
        self._answer: asyncio.Future[Action] | None = None
        self.legal: Sequence[Action] = ()
        """The legal moves of the turn waiting for an answer (empty between turns)."""
        self.bot: Player | None = None
        """A built-in bot that took the seat over when its grace period ran out."""

    async def take_turn(self, state: GameState, seat: int, legal: Sequence[Action]) -> Action:
        # The table builds the your_turn from the game it runs: no View is made here.
        if self.bot is not None:
            return await self.bot.take_turn(state, seat, legal)
        return await self._wait(legal)

    async def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if self.bot is not None:
            return await self.bot.choose(view, legal)
        return await self._wait(legal)

    async def _wait(self, legal: Sequence[Action]) -> Action:
        self.legal = legal
        self._answer = asyncio.get_running_loop().create_future()
        self._on_turn(self)  # the table numbers the turn, arms its clock and asks the client
        try:
            return await self._answer
        finally:
            self._answer = None
            self.legal = ()

    @property
    def waiting(self) -> bool:
        """Whether a turn of this seat waits for its answer."""
        return self._answer is not None and not self._answer.done()

    def answer(self, action: Action) -> None:
        """The table's answer to the waiting turn (one of ``legal``)."""
        if self._answer is not None and not self._answer.done():
            self._answer.set_result(action)

    async def notify(self, event: Event) -> None:
        # Public events go to the whole table once (Table.broadcast); only a hand is private.
        if isinstance(event, HandDealt):
            self._on_hand(self.seat, event)
        if self.bot is not None:
            await self.bot.notify(event)

    async def rejected(self, error: IllegalMoveError) -> None:
        """Not reached: the table only ever answers with one of the legal moves."""

    def abandon(self) -> None:
        if self._answer is not None and not self._answer.done():
            self._answer.cancel()
