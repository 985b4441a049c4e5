"""The turns of the people at a table: each waiting turn (its your_turn, its
deadline on the table's one turn clock), the answers to it for the game master, the
default move when its time is up, a built-in bot taking a seat over; what follows an
answer goes to the table's inbox (inbox.py)."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from dataclasses import dataclass
from typing import Any, Sequence

from scopa.engine import Action, Declare, Event, GameMaster, IllegalMoveError, Play, Player, View
from scopa.engine.effects import Ask, Effect, Refused
from scopa.engine.master import MAX_REFUSALS
from scopa.protocol import Prepared
from scopa.protocol import commands as wire
from scopa.protocol.codec import with_key
from scopa.protocol.convert import action_from_wire, your_turn_payload
from scopa.protocol.errors import ErrorCode

from ..core import metrics, Clock
from .broadcast import Broadcaster
from .broadcast import EventLog
from .seats import Seats
from ..conn import DeadlineEntry, Deadlines, Refusal, turn_queued
from .journaling import TableJournal
from .loop import Inbox

log = logging.getLogger("scopa.server")

READING_TIME = wire.READING_TIME  # the protocol's figure (welcome's reading_time); Turns.reading reads it there


@dataclass(eq=False, slots=True)
class PendingTurn:
    """A seat's turn waiting for its client's answer.  Its your_turn body is not kept:
    it goes out once as the turn starts, and is packed again from the game (which stands
    still while the turn waits) for the rare sending again (a refusal, a reconnect)."""

    ask: Ask  # the game master's question
    event: int
    deadline: float | None = None  # on the table's clock; None: no turn clock


class Turns:
    """The waiting turns of one table (seat -> its turn) and its one turn clock.  What
    follows an answer the game master took goes to ``inbox``, for the table's loop;
    ``master`` is the game master while the game runs (None: no answer is taken)."""

    __slots__ = ("table_id", "seats", "broadcaster", "events", "journal", "clock", "turn_timeout", "inbox", "master",
                 "_turns", "_clock", "_clock_at", "_clock_in", "_bot_moves", "arrived", "turn_from", "_reading")

    def __init__(self, table_id: str, seats: Seats, broadcaster: Broadcaster, events: EventLog, journal: TableJournal,
                 clock: Clock, turn_timeout: float | None, inbox: Inbox[list[Effect]]) -> None:
        self.table_id = table_id
        self.seats = seats
        self.broadcaster = broadcaster
        self.events = events
        self.journal = journal
        self.clock = clock
        self.turn_timeout = turn_timeout  # seconds a seat has to move; None: no turn clock
        self.inbox = inbox
        self.master: GameMaster | None = None
        self._turns: dict[int, PendingTurn] = {}
        self._clock: DeadlineEntry | None = None  # rings at _clock_at, by the earliest deadline of a waiting turn
        self._clock_in: Deadlines | None = None  # the queue _clock is armed in (the event loop's, known when armed)
        self._clock_at: float | None = None
        self._bot_moves: set[asyncio.Task[None]] | None = None  # made for the first bot that takes a seat over
        self.arrived = 0.0  # when a person's move now in the inbox came (time.perf_counter; 0: none)
        self.turn_from = 0.0
        """When the person's move whose turn passes on now was taken (its ``arrived``, kept
        past its broadcast), until the next person's your_turn is queued; 0: none (a bot is
        asked first: that your_turn is not timed)."""
        self._reading = 0
        """The seats (a bit each) whose first turn since the round dealt them a new hand
        is still to come: that turn gets READING_TIME more (:meth:`reading`)."""

    def ask(self, ask: Ask) -> None:
        """A person's turn: number it, arm its clock (before anyone hears of it), then
        send the your_turn (a refusal or a reconnect sends the same body again, packed
        anew).  An away seat is asked when it comes back."""
        assert self.master is not None
        seat = ask.seat
        event = self.events.next_event()
        payload = your_turn_payload(event, self.master.state, seat, ask.legal)
        reading = self.reading(seat)
        self._reading &= ~(1 << seat)
        deadline = None if self.turn_timeout is None or self.seats.waiting else self.clock.now() + self.turn_timeout + reading
        turn = self._turns[seat] = PendingTurn(ask, event, deadline)
        if deadline is not None:
            self._arm_clock(deadline)
        s = self.seats[seat]
        session = None if s is None else s.session
        if s is not None and session is not None:
            left = self._left_ms(turn)  # self._with_left(turn, payload), without the call
            self.broadcaster.ask_seat(s, payload if left is None else with_key(payload, "turn_left_ms", left))
        if self.turn_from:  # the your_turn that follows a person's move: timed when written
            if session is not None:
                turn_queued(session, self.turn_from)
            self.turn_from = 0.0

    def ask_again(self, seat: int) -> None:
        """The waiting your_turn of ``seat`` to its client, if both are there (its clock
        started again when it stood still while the game waited for its people)."""
        turn, s = self._turns.get(seat), self.seats[seat]
        if turn is not None and turn.deadline is None and self.turn_timeout is not None and not self.seats.waiting:
            turn.deadline = self.clock.now() + self.turn_timeout
            self._arm_clock(turn.deadline)
        if turn is not None and s is not None and s.session is not None and (payload := self._payload_now(turn)):
            self.broadcaster.ask_seat(s, payload)

    def turn_again(self, seat: int) -> Prepared | None:
        """The waiting your_turn of ``seat`` for its client to be sent, if both are there."""
        turn, s = self._turns.get(seat), self.seats[seat]
        if turn is None or s is None or s.session is None or not (payload := self._payload_now(turn)):
            return None
        return self.broadcaster.your_turn(s, payload)

    def _payload_now(self, turn: PendingTurn) -> bytes:
        """``turn``'s your_turn body, packed again from the game, with the time its clock
        has left now (``turn_left_ms``); empty when no game runs."""
        if self.master is None:
            return b""
        return self._with_left(turn, your_turn_payload(turn.event, self.master.state, turn.ask.seat, turn.ask.legal))

    def _with_left(self, turn: PendingTurn, payload: bytes) -> bytes:
        """``payload`` (``turn``'s your_turn body) with the time its clock has left now."""
        left = self._left_ms(turn)
        return payload if left is None else with_key(payload, "turn_left_ms", left)

    def _left_ms(self, turn: PendingTurn) -> int | None:
        """The milliseconds ``turn``'s clock has left now (rounded up: 0 only when it is
        up); None without a turn clock."""
        if turn.deadline is None:
            return None
        return min(max(0, math.ceil((turn.deadline - self.clock.now()) * 1000)), 3_600_000)

    def left_ms(self) -> int | None:
        """The time left now on the clock of the turn that waits (a seat moves at a time),
        for ``snapshot`` and ``seat_back``; None when no clocked turn waits."""
        lefts = [left for t in self._turns.values() if (left := self._left_ms(t)) is not None]
        return min(lefts) if lefts else None

    def reading(self, seat: int) -> float:
        """The seconds more than ``turn_timeout`` the turn of ``seat`` starting now gets:
        READING_TIME for a seat's first turn of a round (its new hand and the new board to
        read, the last round's box still on screen), whoever moved before it; else none."""
        return wire.READING_TIME if self._reading >> seat & 1 else 0.0

    def new_turn_ms(self, seat: int, round_start: bool = False) -> int | None:
        """The clock a turn of ``seat`` starting now gets (``played``, ``declared`` and
        ``round_start`` tell it for the seat to move next); None without a turn clock or
        for a built-in bot's seat, which has none.  ``round_start``: a round starts (the
        game's first, or one after a round's end), dealing every seat a new hand: each
        seat's first turn of it gets its reading time (:meth:`reading`; its ``ask`` too)."""
        if round_start:
            self._reading = (1 << len(self.seats)) - 1
        s = self.seats[seat]
        if self.turn_timeout is None or (s is not None and s.bot is not None):
            return None
        return min(math.ceil((self.turn_timeout + self.reading(seat)) * 1000), 3_600_000)

    def pending(self, seat: int) -> PendingTurn | None:
        """The turn of ``seat`` waiting for its client's answer, if any."""
        return self._turns.get(seat)

    def answers(self, seat: int | None, body: wire.PlayCard | wire.MakeDeclaration) -> bool:
        """Whether ``body`` from ``seat`` answers the turn of that seat waiting for it (its
        ``turn``, when given, is that turn's)."""
        turn = self._turns.get(seat) if seat is not None else None
        return turn is not None and (body.turn is None or body.turn == turn.event)

    def settle(self, turn: PendingTurn) -> None:
        """The turn is over (answered, played for the seat, or the game ended): its
        clock stops."""
        if self._turns.get(turn.ask.seat) is turn:
            del self._turns[turn.ask.seat]

    def _arm_clock(self, deadline: float) -> None:
        """Make the table's one turn clock ring by ``deadline``.  A clock already set to
        ring earlier is left as it is (when it rings for a turn that is over, it sets
        itself for the turns still waiting), so a move costs no timer of its own."""
        if self._clock is not None and self._clock_at is not None and self._clock_at <= deadline:
            return
        if self._clock is not None and self._clock_in is not None:
            self._clock_in.cancel(self._clock)
        # the clock's deadlines on this event loop, which the turn clock is one of (a timer
        # of the loop of its own costs several times as much memory)
        queue = self._clock_in = Deadlines.of(asyncio.get_running_loop(), self.clock)
        self._clock_at = deadline
        self._clock = queue.arm(deadline, self)

    def deadline_due(self) -> None:
        """Every turn whose time is up is played by the game master (the default move);
        the clock is set again for the turns still waiting."""
        self._clock = self._clock_at = None
        now = self.clock.now()
        for turn in list(self._turns.values()):
            if turn.deadline is not None and turn.deadline <= now and self.seats.waiting:
                turn.deadline = None  # the game waits for its people: no move is made for them
            elif turn.deadline is not None and turn.deadline <= now:
                self.time_up(turn.ask.seat, turn.event)
        waiting = [t.deadline for t in self._turns.values() if t.deadline is not None]
        if waiting:
            self._arm_clock(min(waiting))

    def time_up(self, seat: int, event: int | None = None) -> None:
        """``seat``'s turn clock ran out: the game master plays the default move for it
        (``timeout`` goes out with the ``played``).  ``event``: only if the waiting turn
        is that one."""
        turn = self._turns.get(seat)
        if turn is None or self.master is None or (event is not None and turn.event != event):
            return
        self.settle(turn)
        self.inbox.put_nowait(self.master.timeout(seat))

    def stop(self) -> None:
        """Every turn is over and the clock stops (the game ended or the table closes)."""
        self.turn_from = 0.0
        for turn in list(self._turns.values()):
            self.settle(turn)
        for task in list(self._bot_moves or ()):
            task.cancel()
        if self._clock is not None and self._clock_in is not None:
            self._clock_in.cancel(self._clock)
        self._clock = self._clock_at = None

    # ------------------------------------------------------------------ answers

    def receive(self, seat: int | None, body: wire.PlayCard | wire.MakeDeclaration, seq: int) -> Refusal | None:
        """A play or declaration from the client of ``seat`` (None: not seated here), for
        the game master to take or refuse (the server itself refuses only what is not an
        answer to the waiting turn): the refusal, for the client's session to send, or None."""
        party = self.broadcaster.party
        if seat is None:
            return Refusal(ErrorCode.NOT_AT_TABLE, f"you are not seated at table {self.table_id}", seq, party,
                           charged=True)
        if self.master is None:
            return Refusal(ErrorCode.GAME_NOT_STARTED, f"the game at table {self.table_id} has not started", seq,
                           party, charged=True)
        turn = self._turns.get(seat)
        if turn is None:
            return Refusal(ErrorCode.NOT_YOUR_TURN, f"it is seat {self.master.state.to_move}'s turn, not yours",
                           seq, party, charged=True)
        if body.turn is not None and body.turn != turn.event:
            # A play for a turn that is over (e.g. resent after a reconnect): never applied twice.
            return self._refuse(turn, ErrorCode.NOT_YOUR_TURN, f"turn {body.turn} is over; this is turn {turn.event}",
                                seq)
        try:
            action = action_from_wire(body)
        except ValueError as exc:
            return self._answer(turn, None, seq, (ErrorCode.BAD_BODY, str(exc)))
        return self._answer(turn, action, seq, name=body.NAME)

    def broadcast(self) -> None:
        """The person's move taken at ``arrived`` is broadcast now (after its journal write)."""
        metrics.MOVE_SECONDS.observe(time.perf_counter() - self.arrived)
        self.arrived = 0.0

    def refuse_unreadable(self, seat: int, code: ErrorCode, message: str, seq: int | None) -> Refusal | None:
        """A play or declare from ``seat`` that could not be decoded (``bad_body``): refused
        like any other answer when a turn of that seat waits for one."""
        turn = self._turns.get(seat)
        if turn is None:
            return Refusal(code, message, seq, self.broadcaster.party)
        return self._answer(turn, None, seq, (code, message))

    def _answer(self, turn: PendingTurn, answer: Play | Declare | None, seq: int | None,
                refusal: tuple[ErrorCode, str] | None = None, name: str = "play") -> Refusal | None:
        """The seat's answer to its waiting turn, to the game master (None: one that could
        not be read; ``refusal``: the error for it).  A refused answer comes back to be told
        at once, with the same your_turn again (PROTOCOL.md §7); an answer taken (or the
        default move the game master makes after MAX_REFUSALS refusals) ends the turn, and
        what follows goes to the table's loop."""
        assert self.master is not None
        arrived = time.perf_counter()
        seat = turn.ask.seat
        rest: list[Effect] = []
        refused: tuple[ErrorCode, str] | None = None
        again: Prepared | None = None
        for effect in self.master.receive(seat, answer):
            if isinstance(effect, Refused):
                refused = refusal or _refusal(effect, name)
                self.journal.refusal(seat, turn.ask.turn, refused[0].value, effect.refusals)
                if effect.refusals >= MAX_REFUSALS:
                    log.info("table %s: seat %s refused %s times; the game master plays", self.table_id, seat,
                             effect.refusals)
            elif effect is turn.ask:
                again = self.turn_again(seat)
            else:
                rest.append(effect)
        if rest:
            self.settle(turn)
            self.arrived = self.turn_from = arrived
            self.inbox.put_nowait(rest)
        if refused is None:
            return None
        return Refusal(refused[0], refused[1], seq, self.broadcaster.party, again)

    def _refuse(self, turn: PendingTurn, code: ErrorCode, message: str, seq: int | None) -> Refusal | None:
        """Refuse what is no answer to the waiting turn (charged, not counted): the error,
        then the same your_turn (PROTOCOL.md §7)."""
        s = self.seats[turn.ask.seat]
        if s is None or s.session is None:
            return None
        return Refusal(code, message, seq, self.broadcaster.party, self.turn_again(turn.ask.seat), charged=True)

    def take_over(self, seat: int, bot: Player) -> None:
        """A built-in bot plays ``seat`` from now on: its waiting turn too."""
        turn = self._turns.get(seat)
        if turn is None or self.master is None:
            return
        ask = turn.ask

        async def move() -> None:
            try:
                action: Action | None = await bot.choose(ask.view, ask.legal)
            except Exception:  # noqa: BLE001 - a failing bot must not stop the game
                log.exception("table %s: the bot of seat %s failed; the default move is played", self.table_id, seat)
                action = None
            if self.master is None or self.master.asking is not ask:
                return
            s = self.seats[seat]
            if s is not None and s.bot is None:  # its person took the seat back meanwhile: their turn
                self.ask(ask)
                return
            if action not in ask.legal:
                action = self.master.default_play()
            self.inbox.put_nowait(self.master.receive(seat, action))

        self.settle(turn)
        if self._bot_moves is None:
            self._bot_moves = set()
        self._bot_moves.add(task := asyncio.create_task(move(), name=f"takeover-{self.table_id}-{seat}"))
        task.add_done_callback(self._bot_moves.discard)


def _refusal(refused: Refused, name: str) -> tuple[ErrorCode, str]:
    """The error for a refused answer: the engine's reason when it has one."""
    answer = refused.answer
    if refused.error is not None and isinstance(answer, (Play, Declare)):
        return _error_code(refused.error, answer), str(refused.error)
    return ErrorCode.ILLEGAL_MOVE, f"{name} is not one of the legal moves"


def _error_code(exc: IllegalMoveError, action: Action) -> ErrorCode:
    if isinstance(action, Declare):
        return ErrorCode.ILLEGAL_DECLARATION
    try:
        return ErrorCode(exc.code)
    except ValueError:
        return ErrorCode.ILLEGAL_MOVE


class YieldingBot(Player):
    """A built-in bot at a server table.  It lets the event loop run before each of its
    moves: a bot answers at once, so without this a table of bots would play its whole
    game in one step of the loop and hold every other client up until it ended."""

    def __init__(self, bot: Player) -> None:
        self.bot = bot
        self.name = bot.name

    async def choose(self, view: View, legal: Sequence[Action]) -> Any:
        await asyncio.sleep(0)
        return await self.bot.choose(view, legal)  # type: ignore[arg-type]

    async def notify(self, event: Event) -> None:
        await self.bot.notify(event)

    async def rejected(self, error: IllegalMoveError) -> None:
        await self.bot.rejected(error)
