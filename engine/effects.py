"""What the game master asks its driver to do: the effects of one of its inputs.

A driver carries them out in order: a :class:`Journal` before the announcements that
follow it (a server makes the action durable first), an :class:`Ask` by asking the seat
(the game master then waits for :meth:`~scopa.engine.master.GameMaster.receive`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .actions import Action, Declare, Play
from .errors import IllegalMoveError
from .events import Event, Forced, PlayMark, quick_init
from .rules import RuleSet
from .state import EndReason, GameState
from .view import View, view


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game: enough to replay it (rules, first dealer, actions)."""

    rules: RuleSet
    seed: int
    first_dealer: int
    actions: tuple[Action, ...]
    winner: int | None
    totals: tuple[int, ...]
    reason: EndReason | None
    rounds: int


class SeatView:
    """The view a question is asked with, made when first read (a server that builds
    its message from the game's numbers never makes it).  It can be read while the
    question waits: once it is answered, an unread view is gone."""

    __slots__ = ("_state", "_seat", "_view")

    def __init__(self, state: GameState, seat: int) -> None:
        self._state: GameState | None = state
        self._seat = seat
        self._view: View | None = None

    def get(self) -> View:
        if self._view is None:
            if self._state is None:
                raise ValueError("the question was answered before its view was read")
            self._view = view(self._state, self._seat)
        return self._view

    def close(self) -> None:
        """The question is answered: the game goes on, this view may no longer be made."""
        self._state = None


@quick_init
@dataclass(frozen=True, slots=True)
class Ask:
    """Ask ``seat`` to choose one of ``legal``, from what it sees (``view``).  ``turn``
    numbers the question: asked again after a refused answer, it keeps its number."""

    seat: int
    legal: tuple[Play | Declare, ...]
    seat_view: SeatView = field(repr=False, compare=False)
    turn: int = 0

    @property
    def view(self) -> View:
        """What ``seat`` sees (see :class:`SeatView`)."""
        return self.seat_view.get()


@quick_init
@dataclass(frozen=True, slots=True)
class Announce:
    """Tell ``event`` to everyone (``to`` None: every seat and any onlooker) or only to
    seat ``to`` (its own hand)."""

    event: Event
    to: int | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class Journal:
    """Action number ``index`` of the game was applied: make it durable before carrying
    out the effects after this one."""

    index: int
    action: Action
    seat: int | None = None  # who made a play or a declaration (None: a deal)
    forced: Forced | None = None  # why the game master made the play for the seat, when it did
    scopa: bool = False  # the play swept the table (R16), as announced

    def mark(self, bot: bool) -> PlayMark | None:
        """How this play came about (``bot``: a bot made it for the seat's person), as a
        journal keeps it beside the play; None: a declaration or a deal, or a play with
        no mark (no scopa, and the seat's own player made it)."""
        if not isinstance(self.action, Play) or not (bot or self.forced is not None or self.scopa):
            return None
        return PlayMark(self.forced, bot, self.scopa)


@dataclass(frozen=True, slots=True)
class Refused:
    """``seat``'s answer was refused (``answer`` None: it was not an action at all);
    ``error``: the engine's reason, when it has one; ``refusals``: this turn's so far."""

    seat: int
    answer: object
    error: IllegalMoveError | None
    refusals: int


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended (its last announcement has been made)."""

    record: GameRecord


Effect = Ask | Announce | Journal | Refused | GameOver
