"""A table's commands → engine events and questions for a local :class:`Player`.

:class:`GameTranslator` is the sans-I/O half of :meth:`ClientSession.play_game`: it
takes one received command at a time, tells the Player what happened (the same
events a :class:`~scopa.engine.GameMaster` sends in a local game), asks it for a move on
``your_turn`` and returns the command body to send back.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TypeVar

from scopa.engine import (
    CardNotInHandError,
    Declare,
    Event,
    GameStarted,
    HandDealt,
    IllegalCaptureError,
    IllegalMoveError,
    NotYourTurnError,
    Play,
    Player,
    RuleSet,
)
from scopa.protocol import Body, ChatMessage, Command, ErrorCode, HandDeal, GameStart, SeatAway, Snapshot, YourTurn
from scopa.protocol import DeclarationMade as WireDeclared
from scopa.protocol import Error as WireError
from scopa.protocol import GameEnd as WireGameEnd
from scopa.protocol import CardPlayed as WirePlayed
from scopa.protocol import RoundEnd as WireRoundEnd
from scopa.protocol import RoundStart as WireRoundStart
from scopa.protocol.convert import (
    action_to_wire,
    event_from_wire,
    legal_from_wire,
    parse_card_strs,
    rules_from_wire,
    view_from_wire,
)

from .notices import SeatNotice, SeatTakenByBot, SeatWentAway, notice_from_wire

T = TypeVar("T")

# How often a Player may answer with something that is not a move before we pick for it.
_MAX_GARBAGE = 3

_MOVE_ERRORS: dict[ErrorCode, type[IllegalMoveError]] = {
    ErrorCode.NOT_YOUR_TURN: NotYourTurnError,
    ErrorCode.CARD_NOT_IN_HAND: CardNotInHandError,
    ErrorCode.ILLEGAL_CAPTURE: IllegalCaptureError,
    ErrorCode.ILLEGAL_MOVE: IllegalMoveError,
    ErrorCode.ILLEGAL_DECLARATION: IllegalMoveError,
    ErrorCode.GAME_NOT_STARTED: IllegalMoveError,
    ErrorCode.BAD_BODY: IllegalMoveError,
}


@dataclass
class GameResult:
    """How a network game ended, and what this seat saw of it."""

    table: str
    seat: int
    side: int | None
    names: tuple[str, ...]
    rules: RuleSet | None
    winner: int | None  # side; None if nobody (abandoned)
    totals: tuple[int, ...]
    reason: str  # target, trentino, all_denari, abandoned, or the `left` reason
    events: list[Event] = field(default_factory=list)  # the public events, in order
    rejected: int = 0  # moves the server refused
    chat: list[tuple[str, str]] = field(default_factory=list)  # (author, text)
    notices: list[SeatNotice] = field(default_factory=list)  # seats away, back, taken by a bot

    @property
    def won(self) -> bool:
        return self.winner is not None and self.winner == self.side


Reply = tuple[Body, str, int]
"""A body to send, its recipient and the ``re`` it answers."""


class GameTranslator:
    """Feeds one game's commands to a Player; :meth:`handle` returns what to send back."""

    def __init__(self, player: Player, seat: int, table: str,
                 on_notice: Callable[[SeatNotice], Awaitable[None] | None] | None = None,
                 on_snapshot: Callable[[Snapshot], Awaitable[None] | None] | None = None) -> None:
        self.player = player
        self.on_notice = on_notice
        """Told of every seat notice as it arrives (e.g. a terminal UI showing it)."""
        self.on_snapshot = on_snapshot
        """Told of a snapshot standing for missed events, in its place among the events."""
        self.notices: list[SeatNotice] = []
        self._away_seats: set[int] = set()  # seats told away (a bot taking a seat never away: its person left)
        self.seat = seat
        self.table = table
        self.rules: RuleSet | None = None
        self.names: tuple[str, ...] = ()
        self.side: int | None = None
        self.started = False
        self.over = False
        self.events: list[Event] = []
        self.rejected = 0
        self.chat: list[tuple[str, str]] = []
        self._end: WireGameEnd | None = None

    async def handle(self, command: Command) -> Reply | None:
        body = command.body
        if isinstance(body, GameStart):
            self.rules = rules_from_wire(body.rules)
            self.names = tuple(s.name for s in sorted(body.seats, key=lambda s: s.seat))
            self.side = next((s.side for s in body.seats if s.seat == self.seat), None)
        elif isinstance(body, WireRoundStart):
            await self._start(body.dealer)
            await self._public(event_from_wire(body, self.seat))
        elif isinstance(body, Snapshot) and body.you is not None:
            # Back after a reconnect the server could not replay: start from where it stands.
            self.rules = rules_from_wire(body.table.rules)
            self.names = tuple(s.name for s in sorted(body.seats, key=lambda s: s.seat))
            self.side = body.you.side
            await self._start(body.you.dealer)
            await self.player.notify(HandDealt(self.seat, tuple(parse_card_strs(body.you.hand)), body.you.stock))
            await _told(self.on_snapshot, body)
        elif isinstance(body, HandDeal):
            await self.player.notify(event_from_wire(body, self.seat))
        elif isinstance(body, YourTurn):
            return await self._turn(command, body)
        elif isinstance(body, WireError):
            error_type = _MOVE_ERRORS.get(body.code)
            if error_type is not None:
                self.rejected += 1
                await self.player.rejected(error_type(body.message))
        elif isinstance(body, (WirePlayed, WireDeclared, WireRoundEnd)):
            await self._public(event_from_wire(body, self.seat))
        elif isinstance(body, WireGameEnd):
            await self._start(0)
            self._end = body
            self.over = True
            await self._public(event_from_wire(body, self.seat))
        elif isinstance(body, ChatMessage):
            self.chat.append((body.author, body.text))
        elif (notice := notice_from_wire(body)) is not None:
            if isinstance(body, SeatAway) and body.seat == self.seat:  # our own, told again after a resume: we are
                await _told(self.on_notice, notice)  # back already, but a listener learns where the time away began
                return None
            if isinstance(notice, SeatTakenByBot) and notice.seat not in self._away_seats:
                notice = replace(notice, left=True)  # never away: its person left the game
            if isinstance(notice, SeatWentAway):
                self._away_seats.add(notice.seat)
            else:
                self._away_seats.discard(notice.seat)
            self.notices.append(notice)
            await _told(self.on_notice, notice)
        return None

    def result(self, left_reason: str | None = None) -> GameResult:
        end = self._end
        return GameResult(
            table=self.table, seat=self.seat, side=self.side, names=self.names, rules=self.rules,
            winner=end.winner if end else None, totals=tuple(end.totals) if end else (),
            reason=end.reason if end else (left_reason or "abandoned"),
            events=self.events, rejected=self.rejected, chat=self.chat, notices=self.notices,
        )  # fmt: skip

    async def _start(self, first_dealer: int) -> None:
        # The wire's game_start has no dealer; the engine's GameStarted does: it is the
        # first round_start's dealer (void deals are redealt by the same dealer, R10).
        if self.started or self.rules is None:
            return
        self.started = True
        await self._public(GameStarted(self.rules, self.names, first_dealer))

    async def _public(self, event: Event) -> None:
        self.events.append(event)
        await self.player.notify(event)

    async def _turn(self, command: Command, body: YourTurn) -> Reply:
        if self.rules is None:
            raise RuntimeError("your_turn before game_start")
        view = view_from_wire(body.view, self.rules)
        legal = legal_from_wire(body)
        for _ in range(_MAX_GARBAGE):
            action = await self.player.choose(view, legal)
            try:
                if not isinstance(action, (Play, Declare)):
                    raise TypeError(f"{action!r} is not a Play or a Declare")
                # `turn`: a play resent after a reconnect is never applied twice.
                return action_to_wire(action).model_copy(update={"turn": body.event}), command.sender, command.seq
            except Exception as exc:  # noqa: BLE001 - a Player's garbage must not end the game
                await self.player.rejected(IllegalMoveError(f"not a move: {exc}"))
        first = next(a for a in legal if isinstance(a, Play))
        return action_to_wire(first).model_copy(update={"turn": body.event}), command.sender, command.seq


async def _told(listener: Callable[[T], Awaitable[None] | None] | None, what: T) -> None:
    """Tell ``listener`` (if any) of ``what``, awaiting it when it answers with an awaitable."""
    if listener is not None:
        shown = listener(what)
        if shown is not None:
            await shown
