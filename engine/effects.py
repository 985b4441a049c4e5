"""What the game master asks its driver to do: the effects of one of its inputs.

A driver carries them out in order: a :class:`Journal` before the announcements that
follow it (a server makes the action durable first), an :class:`Ask` by asking the seat
(the game master then waits for :meth:`~scopa.engine.master.GameMaster.receive`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, Declare, Play
from .errors import IllegalMoveError
from .events import Event
from .rules import RuleSet
from .state import EndReason
from .view import View


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


@dataclass(frozen=True, slots=True)
class Ask:
    """Ask ``seat`` to choose one of ``legal``, from what it sees (``view``).  ``turn``
    numbers the question: asked again after a refused answer, it keeps its number."""

    seat: int
    legal: tuple[Play | Declare, ...]
    view: View
    turn: int


@dataclass(frozen=True, slots=True)
class Announce:
    """Tell ``event`` to everyone (``to`` None: every seat and any onlooker) or only to
    seat ``to`` (its own hand)."""

    event: Event
    to: int | None = None


@dataclass(frozen=True, slots=True)
class Journal:
    """Action number ``index`` of the game was applied: make it durable before carrying
    out the effects after this one."""

    index: int
    action: Action


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
