"""Who asks a tournament command, and what carries tournaments across a cluster's
members (server/cluster/relay.py): a command's asker is a connection of this server, or a
player connected to another member whose command came to the member running the
tournament (:class:`RemoteAsker`: its answer goes back there)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode


class Asker(Protocol):
    """Who asked a tournament command: told its answer (``re``: the command's number)."""

    name: str | None
    client: str
    closed: bool

    def tell(self, body: wire.Body, re: int | None = None) -> None: ...

    def error(self, code: ErrorCode, message: str, re: int | None = None) -> None: ...


class TournamentRelay(Protocol):
    """Tournaments across the members of a cluster sharing one journal."""

    def ask(self, tournament: str, name: str, client: str, body: wire.Body,
            answer: Callable[[wire.Body | None], None]) -> None:
        """Carry out a player's command on the member running ``tournament``; ``answer``
        is told once with its answer (None: no member runs it now, or it did not answer)."""

    def tell(self, names: Sequence[str], body: wire.Body, seat: str | None = None) -> None:
        """Tell ``body`` to those of ``names`` connected to other members (``seat``: the
        table a seat is kept at for them: they are sent there)."""

    def arrived(self, name: str) -> None:
        """A player connected here by ``name``: told to the other members (the one running
        their tournament sends them to their seat)."""


@dataclass
class RemoteAsker:
    """A player connected to another member, asking a command of a tournament run here:
    the first thing told (the answer) goes back to that member."""

    name: str | None
    client: str
    answer: Callable[[wire.Body], None]
    closed: bool = False
    _answered: bool = field(default=False, repr=False)

    def tell(self, body: wire.Body, re: int | None = None) -> None:
        if not self._answered:
            self._answered = True
            self.answer(body)

    def error(self, code: ErrorCode, message: str, re: int | None = None) -> None:
        self.tell(wire.Error(code=code, message=message[:500]))
