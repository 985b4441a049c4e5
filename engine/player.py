"""The ``Player`` interface of a local game's seat: a bot, a person, a remote client."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Sequence

from .actions import Declare, Play
from .errors import IllegalMoveError
from .events import Event
from .view import View


class Player(ABC):
    """A seat's decision maker.  Asynchronous, so its driver can await anything."""

    __slots__ = ()  # a subclass may keep its fields in slots (one per seat on a server)
    name: str = "player"

    @abstractmethod
    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        """Pick one of ``legal`` (the game master checks it all the same)."""

    async def notify(self, event: Event) -> None:  # noqa: B027 - optional hook
        """Told about every public event and about this seat's own hand."""

    async def rejected(self, error: IllegalMoveError) -> None:  # noqa: B027 - optional hook
        """Told that its last answer was refused; ``choose`` will be asked again."""
