"""A table: its seats, its game master (the engine's GameMaster, the same state machine a
local game drives) and the loop that drives it, its numbered event log, spectators and
timers.  A remote seat is just its connection in the seat list."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Sequence

import msgpack

from scopa.bots import make_bot
from scopa.engine import (
    EndReason,
    Action,
    Declare,
    DealVoid,
    Event,
    GameMaster,
    GameStarted,
    GameState,
    HandDealt,
    IllegalMoveError,
    Play,
    Played,
    Play,
    Player,
    RoundEnded,
    RoundStarted,
    RuleSet,
)
from scopa.engine import View, mask_of
from scopa.engine.effects import Announce, Ask, Effect, GameOver, Journal as JournalAction, Refused
from scopa.engine.view import view as seat_view
from scopa.protocol import commands as wire
from scopa.engine.master import MAX_REFUSALS
from scopa.protocol.convert import (
    action_from_wire,
    event_to_wire,
    hand_deal_data,
    played_data,
    public_view_to_wire,
    round_tallies,
    rules_to_wire,
    view_to_wire,
    your_turn_payload,
)
from scopa.protocol import Addressed, ConnectionRole, LocalProtocolError, address
from scopa.protocol.codec import pack_body, pack_data
from scopa.protocol.errors import ErrorCode

from .clock import Clock, SystemClock, Timer, start_timer
from .session import ServerSession
from .journal import AppendAction, ClearSeat, FinishTable, Journal, RecordRefusal, SetSeat, StartTable
from .journal_values import FinishedTable, StoredTable
from .text import bot_name

log = logging.getLogger("scopa.server")


@dataclass(slots=True)
class Seat:
    name: str
    session: ServerSession | None  # None: a built-in bot, or a person who is away
    bot: Player | None = None
    token_digest: str = ""  # sha256 hex of the seat token: the token itself is never kept
    away: bool = False  # a person whose connection dropped (within the grace period)
    strategy: str = ""  # a built-in bot's strategy
    your_turn: Addressed | None = None  # the table's your_turn to this seat, addressed once


@dataclass(eq=False, slots=True)
class Table:
    """One table of the lobby."""

    id: str
    rules: RuleSet
    seed: int
    private: bool = False
    on_finished: Callable[[Table], None] | None = None
    on_result: Callable[[Table, FinishTable], None] | None = None  # journals the end (else: written as it is)
    on_vacated: Callable[[Table], None] | None = None  # a waiting table lost an away seat
    on_changed: Callable[[Table], None] | None = None
    """Told whenever what ``info()`` shows changes; the server coalesces these into one
    table_update per table and event-loop turn.  None: the update is sent at once."""
    seats: list[Seat | None] = field(default_factory=list)
    state: wire.TableState = wire.TableState.WAITING
    master: GameMaster | None = None
    task: asyncio.Task[None] | None = None
    players: list[Player | None] = field(default_factory=list)
    """Per seat, the bot that plays it (None: a person)."""
    storage: Journal | None = None  # journal of this table (None: no persistence)
    grace: float = 120.0  # seconds an away seat is kept before bot_takeover or abandoning
    bot_takeover: bool = True  # after the grace period a built-in bot plays the seat
    turn_timeout: float | None = None  # seconds a seat has to move; None: no turn clock
    clock: Clock = field(default_factory=SystemClock)
    log_limit: int = 10_000  # events kept for reconnecting clients (older ones: a snapshot)
    spectators: list[ServerSession] = field(default_factory=list)
    invite_digest: str = ""  # a private table: sha256 hex of its invite code (the code is never kept)
    update_interval: float = 0.0  # Limits.table_update_interval: spectator changes are coalesced
    end: wire.GameEnd | None = None  # how the game ended (also when abandoned)
    finish_reason: str = ""
    _event: int = 0
    _log: deque[LoggedEvent] = field(default_factory=deque)
    _log_base: int = 0  # the log holds every event numbered above this
    _grace_timers: dict[int, Timer] = field(default_factory=dict)
    _expiry: Timer | None = None  # a finished table's tokens: void when it fires
    closed: bool = False  # removed from the lobby (a table_update says state "closed")
    _update_timer: Timer | None = None
    _info: tuple[tuple[Any, ...], wire.TableInfo] | None = None
    _last_update: float | None = None
    _turns: dict[int, PendingTurn] = field(default_factory=dict)  # seat -> its turn waiting for an answer
    _turn_clock: Timer | None = None  # rings at _turn_clock_at, by the earliest deadline of a waiting turn
    _turn_clock_at: float | None = None
    _hands: dict[int, int] = field(default_factory=dict)  # seat -> its hand as last dealt (a card mask)
    _played: Addressed | None = None  # played, from this table to everyone, addressed once
    _bot_moves: set[asyncio.Task[None]] = field(default_factory=set)
    _people: frozenset[int] = frozenset()  # seats a person held when the game began: their hands go out
    _told: int = 0  # the game's actions journaled, which the table may have told of
    _inbox: asyncio.Queue[list[Effect]] = field(default_factory=asyncio.Queue)
    """Effects of the game master for the table's loop to carry out, in order."""
    taken_over: dict[int, str] = field(default_factory=dict)
    """Seats a bot took over during the game -> the person's seat token digest."""
    forfeits: list[int] = field(default_factory=list)
    """Seats whose person left the running game or did not come back to it, in order."""
    bot_factory: Callable[[str, str, int], Player] = make_bot  # (strategy, name, seed): the server's pool for bots that think
    party: str = field(init=False)  # table:<id>, its party on the wire
    everyone: str = field(init=False)  # table:<id>/all, the party of its public events

    def __post_init__(self) -> None:
        self.seats = [None] * self.rules.players
        self.party = f"table:{self.id}"
        self.everyone = f"table:{self.id}/all"


    def next_event(self) -> int:
        self._event += 1
        return self._event

    def sessions(self) -> list[ServerSession]:
        return [s.session for s in self.seats if s is not None and s.session is not None]

    def seat_infos(self) -> list[wire.SeatInfo]:
        return [wire.SeatInfo(seat=i, name=s.name, side=self.rules.side_of(i), bot=s.bot is not None)
                for i, s in enumerate(self.seats) if s is not None]

    def info(self) -> wire.TableInfo:
        """The table map of the lobby (kept until something in it changes: a listing
        page costs its page, not a model per table per call)."""
        key = (self.state, self.closed, self.private, self.turn_timeout, len(self.spectators),
               tuple((s.name, s.away) if s is not None else None for s in self.seats))
        if self._info is None or self._info[0] != key:
            self._info = (key, self._make_info())
        return self._info[1]

    def _make_info(self) -> wire.TableInfo:
        return wire.TableInfo(
            id=self.id,
            rules=rules_to_wire(self.rules),
            description=self.rules.describe()[:200],
            seats=[s.name if s else None for s in self.seats],
            state=wire.TableState.CLOSED if self.closed else self.state,
            private=self.private,
            spectators=len(self.spectators),
            away=[i for i, s in enumerate(self.seats) if s is not None and s.away],
            turn_timeout=self.turn_timeout,
        )

    def watchers(self) -> list[ServerSession]:
        """Everyone who gets the table's public events: connected seats and spectators."""
        return self.sessions() + self.spectators

    # ------------------------------------------------------------------ events

    def emit(self, body: wire.TableEvent, seat: int | None = None) -> None:
        """Log a numbered table event and send it: to everyone (``seat`` None: public) or
        to that seat only (a deal), if it is connected.  The body is packed once, and the
        log keeps it packed (a game's log is a few kilobytes, not a model per event)."""
        if isinstance(body, wire.GameEnd):
            self.end = body
        payload = pack_body(body)
        if seat is not None:
            self.emit_packed(body.NAME, body.event, payload, seat)
            return
        self._log_event(LoggedEvent(None, body.event, body.NAME, payload))
        self.send_all(body, payload)

    def emit_packed(self, name: str, event: int, payload: bytes, seat: int | None = None) -> None:
        """Like :meth:`emit`, for a body made as plain data and packed (``payload``) with
        no model built: the table's most frequent events, ``played`` and ``deal``."""
        self._log_event(LoggedEvent(seat, event, name, payload))
        if seat is None:
            self._send_all_packed(name, payload)
            return
        s = self.seats[seat]
        if s is not None and s.session is not None:
            self._send_to(s.session, name, payload)

    def _send_to(self, session: ServerSession, name: str, payload: bytes) -> None:
        """Command ``name`` from this table to one client, its body packed already."""
        addressed = self._address(name, session.party)
        if addressed is not None:
            session.send_prepared(addressed.prepare(payload))

    def _ask_seat(self, seat: Seat, payload: bytes) -> None:
        """A your_turn (its body packed) to the client of ``seat``, which is connected.
        It goes out on every move: it is addressed once per seat and client."""
        assert seat.session is not None
        addressed = seat.your_turn
        if addressed is None or addressed.recipient != seat.session.party:
            addressed = seat.your_turn = self._address(wire.YourTurn.NAME, seat.session.party)
            if addressed is None:
                return
        seat.session.send_prepared(addressed.prepare(payload))

    def _address(self, name: str, recipient: str) -> Addressed | None:
        """Command ``name`` from this table to ``recipient``, checked and packed up to its
        body (None, logged, if the protocol does not allow it)."""
        try:
            return address(ConnectionRole.SERVER, name, recipient=recipient, sender=self.party)
        except LocalProtocolError as exc:
            log.error("table %s: could not send %s to %s: %s", self.id, name, recipient, exc)
            return None

    def _log_event(self, logged: LoggedEvent) -> None:
        self._log.append(logged)
        while len(self._log) > self.log_limit:
            self._log_base = self._log.popleft().event

    def missed(self, seat: int | None, last_event: int) -> list[LoggedEvent] | None:
        """What ``seat`` (None: a spectator) may see after ``last_event`` (a your_turn is never logged: the
        pending one is sent again after them); None if the log no longer covers it (then
        a snapshot)."""
        if not self._log_base <= last_event <= self._event:
            return None
        return [e for e in self._log if e.event > last_event and (e.seat is None or e.seat == seat)]

    def snapshot(self, seat: int | None = None) -> wire.Snapshot:
        """The table now: for a seat (its own view too) or a spectator (public only)."""
        seats, sides = self.seat_infos(), self.rules.seats_by_side()
        public = you = None
        state = self.game_state()
        if state is not None:
            public = public_view_to_wire(seat_view(state, None))
            if seat is not None:
                you = view_to_wire(seat_view(state, seat))
        return wire.Snapshot(event=self._event, table=self.info(), seats=seats, sides=sides, public=public, you=you)

    def game_state(self) -> GameState | None:
        """The game as the table has told it so far (the game master may be a move or a
        deal further on while the table's loop awaits a journal write)."""
        return self.master.state_after(self._told) if self.master is not None else None

    # ------------------------------------------------------------------ away, back, watching

    def new_invite(self) -> str:
        """Make the table private with a fresh invite code (returned once, kept as a digest)."""
        code = secrets.token_urlsafe(18)
        self.private, self.invite_digest = True, token_digest(code)
        return code

    def admits(self, invite: str | None) -> bool:
        """Whether a client giving ``invite`` may join or watch (always, if public)."""
        if not self.private:
            return True
        return bool(invite) and bool(self.invite_digest) and hmac.compare_digest(
            self.invite_digest, token_digest(invite or ""))

    def find_token(self, token: str) -> int | None:
        """The seat whose token this is (digests compared in constant time), if any."""
        return self.find_digest(token_digest(token))

    def find_digest(self, digest: str) -> int | None:
        """The seat whose token has this sha256 digest, if any."""
        found = None
        for i, s in enumerate(self.seats):
            if s is not None and s.token_digest and hmac.compare_digest(s.token_digest, digest):
                found = i
        return found

    def seat_away(self, session: ServerSession) -> None:
        """A seated client's connection dropped (the game waiting or running): keep the
        seat for the grace period and wait for its client."""
        i = self.seat_of(session)
        session.table_id = None
        if i is None:
            return
        seat = self.seats[i]
        assert seat is not None
        seat.session, seat.away = None, True
        self._arm_grace(i)
        log.info("table %s: seat %s (%s) is away; waiting %ss", self.id, i, seat.name, self.grace)
        self.tell_seat(wire.SeatAway(seat=i, name=seat.name, grace_seconds=self.grace))
        self.announce_seats()

    def detach(self, session: ServerSession) -> None:
        """Forget a connection that is being replaced by a resuming one (same seat)."""
        for i, s in enumerate(self.seats):
            if s is not None and s.session is session:
                s.session = None
        session.table_id = None

    def resume(self, session: ServerSession, i: int, token: str, last_event: int, re: int) -> None:
        """The client of seat ``i`` is back: joined, then at a waiting table a snapshot
        (who sits where), else what it missed (or a snapshot, followed by the
        ``game_end`` if the game is over), then its pending turn; if the game ended
        meanwhile, then ``left``."""
        seat = self.seats[i]
        assert seat is not None
        timer = self._grace_timers.pop(i, None)
        if timer is not None:
            timer.cancel()
        seat.session, seat.away = session, False
        playing = self.state is wire.TableState.PLAYING
        session.send(wire.Joined(table=self.id, seat=i, side=self.rules.side_of(i), token=token, resumed=True),
                     re=re)
        if self.state is wire.TableState.WAITING:
            session.table_id = self.id
            session.send(self.snapshot(i), sender=self.party, recipient=session.party)
            log.info("table %s: seat %s (%s) is back", self.id, i, seat.name)
            self.tell_seat(wire.SeatBack(seat=i, name=seat.name))
            self.announce_seats()
            return
        missed = self.missed(i, last_event)
        if missed is None:
            session.send(self.snapshot(i), sender=self.party, recipient=session.party)
            if not playing and self.end is not None:
                session.send(self.end, sender=self.party, recipient=self.everyone)
        else:
            for e in missed:
                session.send_packed(e.name, e.payload, sender=self.party,
                                    recipient=self.everyone if e.seat is None else session.party)
        log.info("table %s: seat %s (%s) is back", self.id, i, seat.name)
        if playing:
            session.table_id = self.id
            self.tell_seat(wire.SeatBack(seat=i, name=seat.name))
            self.announce_seats()
            self._ask_again(i)
        else:
            seat.session = None
            session.send(wire.Left(table=self.id, reason=self.finish_reason or wire.LeftReason.GAME_OVER.value))

    def _arm_grace(self, i: int) -> None:
        old = self._grace_timers.pop(i, None)
        if old is not None:
            old.cancel()
        self._grace_timers[i] = start_timer(self.clock, self.grace, lambda: self._grace_expired(i),
                                            name=f"grace-{self.id}-{i}")

    def _grace_expired(self, i: int) -> None:
        self._grace_timers.pop(i, None)
        seat = self.seats[i]
        if seat is None or not seat.away:
            return
        if self.state is wire.TableState.WAITING:
            log.info("table %s: seat %s (%s) did not come back in %ss; it is free again",
                     self.id, i, seat.name, self.grace)
            self.seats[i] = None
            if self.storage is not None:
                self.storage.write(ClearSeat(self.id, i))
            if self.on_vacated is not None:
                self.on_vacated(self)
            return
        if self.state is not wire.TableState.PLAYING:
            return
        self.forfeits.append(i)
        if not self.bot_takeover:
            log.info("table %s: seat %s (%s) did not come back in %ss", self.id, i, seat.name, self.grace)
            self.abandon(f"seat {i} did not come back")
            return
        self.taken_over[i] = seat.token_digest
        bot = self.bot_factory("greedy", seat.name, self.seed + i)
        seat.away, seat.bot, seat.strategy, seat.token_digest = False, bot, "greedy", ""
        if i < len(self.players):
            self._take_over(i, YieldingBot(bot))
        if self.storage is not None:
            try:
                # The person's digest stays beside the bot: a restart still knows a bot took over.
                self.storage.write(SetSeat(self.id, i, seat.name, token_digest=self.taken_over[i], bot="greedy"))
            except Exception:  # noqa: BLE001 - the game goes on; only a restart would miss it
                log.exception("table %s: could not journal the bot taking seat %s", self.id, i)
        log.info("table %s: a bot takes seat %s (%s)", self.id, i, seat.name)
        self.tell_seat(wire.SeatReplaced(seat=i, name=seat.name, strategy="greedy"))
        self.announce_seats()

    def cancel_timers(self) -> None:
        for timer in self._grace_timers.values():
            timer.cancel()
        self._grace_timers.clear()
        for turn in list(self._turns.values()):
            self._settle(turn)
        for task in list(self._bot_moves):
            task.cancel()
        if self._update_timer is not None:
            self._update_timer.cancel()
            self._update_timer = None
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        if self._turn_clock is not None:
            self._turn_clock.cancel()
            self._turn_clock = self._turn_clock_at = None

    def _expire_tokens(self) -> None:
        """The grace period after the end is over: the seat tokens are void and the event
        log is freed (a client that comes back later gets ``bad_token``)."""
        self._expiry = None
        for s in self.seats:
            if s is not None:
                s.token_digest = ""
        self._log.clear()
        self._log_base = self._event

    def watch(self, session: ServerSession, re: int, last_event: int | None = None) -> None:
        """A spectator: a public snapshot now, then the public events.  Watching again
        (``last_event``: the last event it saw): the public events after it first, when
        the log still has them; a game that ended meanwhile ends with ``left``."""
        over = self.state is wire.TableState.FINISHED
        missed = self.missed(None, last_event) if last_event is not None else None
        for e in missed or ():
            session.send_packed(e.name, e.payload, sender=self.party, recipient=self.everyone)
        session.send(self.snapshot(None), sender=self.party, recipient=session.party, re=re)
        if over:
            if missed is None and self.end is not None:
                session.send(self.end, sender=self.party, recipient=self.everyone)
            session.send(wire.Left(table=self.id, reason=self.finish_reason or wire.LeftReason.GAME_OVER.value))
            return
        if session not in self.spectators:
            self.spectators.append(session)
        self.announce_spectators()

    def unwatch(self, session: ServerSession, re: int | None = None, tell: bool = True) -> None:
        if session in self.spectators:
            self.spectators.remove(session)
            if tell:
                session.send(wire.Left(table=self.id, reason=wire.LeftReason.UNWATCHED.value), re=re)
            self.announce_spectators()

    def announce_spectators(self) -> None:
        """Spectators came or went: a ``table_update``, but at most one per
        ``update_interval`` (the changes of an interval go out as one, at its end)."""
        if self._update_timer is not None:
            return  # one is due already; it will carry this change too
        now = self.clock.now()
        wait = 0.0 if self._last_update is None else self._last_update + self.update_interval - now
        if wait <= 0:
            self._last_update = now
            self.announce_seats()
            return
        self._update_timer = start_timer(self.clock, wait, self._flush_update, name=f"update-{self.id}")

    def _flush_update(self) -> None:
        self._update_timer = None
        self._last_update = self.clock.now()
        if self.state is not wire.TableState.FINISHED:
            self.announce_seats()

    # ------------------------------------------------------------------ seats

    def free_seat(self) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is None), None)

    def seat_client(self, session: ServerSession, token: str | None = None) -> tuple[int, str]:
        """Seat a client at the lowest free seat (R6: order of arrival); returns seat, token
        (the one the client chose, or a new random one)."""
        i = self.free_seat()
        assert i is not None and self.state is wire.TableState.WAITING
        token = token or secrets.token_urlsafe(24)
        seat = self.seats[i] = Seat(session.name or f"seat{i}", session, token_digest=token_digest(token))
        session.table_id = self.id
        if self.storage is not None:  # journaled before `joined` is sent
            self.storage.write(SetSeat(self.id, i, seat.name, token_digest=seat.token_digest))
        return i, token

    def seat_bot(self, strategy: str) -> int:
        i = self.free_seat()
        assert i is not None
        name = bot_name(strategy, i)
        self.seats[i] = Seat(name, None, bot=self.bot_factory(strategy, name, self.seed + i), strategy=strategy)
        if self.storage is not None:
            self.storage.write(SetSeat(self.id, i, name, bot=strategy))
        return i

    def unseat(self, session: ServerSession) -> None:
        for i, s in enumerate(self.seats):
            if s is not None and s.session is session:
                self.seats[i] = None
                if self.storage is not None:
                    self.storage.write(ClearSeat(self.id, i))
        session.table_id = None

    def seat_of(self, session: ServerSession) -> int | None:
        for i, s in enumerate(self.seats):
            if s is not None and s.session is session:
                return i
        return None

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.seats)

    def announce_seats(self) -> None:
        """What the table map shows changed (seats, state, away, spectators): a
        table_update to everyone at the table (and to lobby watchers), coalesced by the
        server when it set ``on_changed``."""
        if self.on_changed is not None:
            self.on_changed(self)
        else:
            self.send_update()

    def send_update(self) -> None:
        """The table_update, now, to everyone seated at or watching the table (not to the
        players a finished table already sent back to the lobby)."""
        body = wire.TableUpdate(table=self.info())
        for sess in self.watchers():
            if sess.table_id == self.id or sess in self.spectators:
                sess.send(body, sender=self.party, recipient=self.everyone)

    def tell_seat(self, body: wire.SeatAway | wire.SeatBack | wire.SeatReplaced) -> None:
        """Who is at the table, to the whole table; once the game has begun, a numbered
        event of the log, so that a client coming back learns of what it missed."""
        if self.master is None:
            self.send_all(body)
            return
        body = body.model_copy(update={"event": self.next_event()})
        payload = pack_body(body)
        self._log_event(LoggedEvent(None, self._event, body.NAME, payload))
        self.send_all(body, payload)

    def tell_all(self, body: wire.Body) -> None:
        """A public command that is not a numbered game event, to the whole table."""
        self.send_all(body)

    def send_all(self, body: wire.Body, payload: bytes | None = None) -> None:
        """``body`` to every connected seat and spectator, packed once for all of them
        (``payload``: packed already)."""
        self._send_all_packed(body.NAME, pack_body(body) if payload is None else payload)

    def _send_all_packed(self, name: str, payload: bytes) -> None:
        if name == wire.CardPlayed.NAME:  # on every move: addressed once
            addressed = self._played = self._played or self._address(name, self.everyone)
        else:
            addressed = self._address(name, self.everyone)
        if addressed is None:
            return
        prepared = addressed.prepare(payload)
        for sess in self.watchers():
            sess.send_prepared(prepared)

    # ------------------------------------------------------------------ the game

    def start(self, restore: Sequence[Action] = ()) -> None:
        """Start the game master (the seats are full); ``restore``: the journaled actions
        of a game to resume (after a server restart) instead of a new game."""
        seats = [s for s in self.seats if s is not None]
        assert len(seats) == len(self.seats)
        # A person's seat (session None: away until they come back with their token) has no bot.
        self.players = [YieldingBot(s.bot) if s.bot is not None else None for s in seats]
        self._people = frozenset(i for i, s in enumerate(seats) if s.bot is None)
        self.master = GameMaster(self.rules, self.seed, [s.name for s in seats])
        if restore:
            self.master.restore(restore)  # the seed's deals must match the journal's
            self._told = len(restore)
        elif self.storage is not None:
            self.storage.write(StartTable(self.id))
        self.state = wire.TableState.PLAYING
        if restore:  # event numbers go on above any the clients saw before the restart
            self._event = self._log_base = 16 * (len(restore) + 2)
        self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")
        for i, s in enumerate(self.seats):  # restored people: away until they resume
            if s is not None and s.bot is None and s.session is None:
                s.away = True
                self._arm_grace(i)
        self.announce_seats()  # the state is now "playing"
        log.info("table %s: game started (%s) with %s", self.id, self.rules.describe(),
                 ", ".join(s.name for s in self.seats if s))

    @classmethod
    def from_storage(cls, stored: StoredTable, storage: Journal,
                     on_finished: Callable[[Table], None] | None = None, **options: Any) -> Table:
        """A journaled game, rebuilt after a restart and resumed where it stood: bots from
        their strategy, people as away seats that keep their token digest (``options``:
        the server's grace, clock, turn_timeout)."""
        for key in ("bot_takeover", "turn_timeout"):  # the table's own options, as created
            if key in stored.options:
                options[key] = stored.options[key]
        table = cls(stored.id, stored.rules, stored.seed, private=stored.private, on_finished=on_finished,
                    invite_digest=str(stored.options.get("invite_digest") or ""), **options)
        for i, st in enumerate(stored.seats):
            assert st is not None
            if st.bot:
                table.seats[i] = Seat(st.name, None, bot=table.bot_factory(st.bot, st.name, stored.seed + i),
                                      strategy=st.bot)
                if st.token_digest:  # a person's seat a bot took over (the token opens it no more)
                    table.taken_over[i] = st.token_digest
            else:  # away until its client comes back with its token (hello resume)
                table.seats[i] = Seat(st.name, None, token_digest=st.token_digest or "", away=True)
        table.storage = storage
        table.start(restore=stored.actions)
        for i, s in enumerate(table.seats):
            if s is not None and s.away:
                table._arm_grace(i)  # the grace period starts again with the new process
        return table

    @classmethod
    def finished_from_storage(cls, done: FinishedTable, expires_in: float, **options: Any) -> Table:
        """A game that ended shortly before a restart, kept so that a client which missed
        its end can still resume: a snapshot, the ``game_end``, then ``left``, until
        ``expires_in`` seconds from now (``options``: the server's grace, clock)."""
        stored, result = done.table, done.result
        table = cls(stored.id, stored.rules, stored.seed, private=stored.private, **options)
        for i, st in enumerate(stored.seats):
            if st is not None:
                bot = make_bot(st.bot, st.name, seed=stored.seed + i) if st.bot else None
                table.seats[i] = Seat(st.name, None, bot=bot, token_digest=st.token_digest or "",
                                      strategy=st.bot or "")
        table.state, table.finish_reason = wire.TableState.FINISHED, wire.LeftReason.GAME_OVER.value
        table._event = table._log_base = _RESTORED_EVENTS  # any event a client saw is older
        table.end = wire.GameEnd(event=table.next_event(), winner=result.winner, totals=list(result.totals),
                                 reason=result.reason)
        table._expiry = start_timer(table.clock, max(expires_in, 0.0), table._expire_tokens,
                                    name=f"expiry-{table.id}")
        return table

    async def _run(self) -> None:
        """The table's loop: it carries out what the game master says, in order, from its
        start to the end of the game (the answers of people come through ``_inbox``)."""
        assert self.master is not None
        try:
            await self._carry_out(self.master.start())
            while self.state is wire.TableState.PLAYING:
                await self._carry_out(await self._inbox.get())
        except asyncio.CancelledError:
            raise
        except Exception:  # one table's failure must not touch any other table
            log.exception("table %s: game master failed; the game is abandoned", self.id)
            self.abandon("internal_error")

    async def _carry_out(self, effects: Iterable[Effect]) -> None:
        """Effects of the game master, in order: an action is journaled (the write
        awaited) before the announcements that follow it; a seat played by a bot is asked
        here, a person's seat gets its your_turn and answers through :meth:`receive`."""
        assert self.master is not None
        queue = deque(effects)
        while queue:
            effect = queue.popleft()
            if isinstance(effect, JournalAction):
                if self.storage is not None:
                    await self.storage.write(AppendAction.of(self.id, effect.index, effect.action))
                self._told = effect.index + 1
            elif isinstance(effect, Announce):
                await self._announce(effect)
            elif isinstance(effect, Ask):
                bot = self.players[effect.seat]
                if bot is None:
                    self._ask(effect)
                else:
                    queue.extend(self.master.receive(effect.seat, await bot.choose(effect.view, effect.legal)))
            elif isinstance(effect, Refused):  # a person's refusals are told at once, by receive()
                bot = self.players[effect.seat]
                if bot is not None:
                    await bot.rejected(effect.error or IllegalMoveError(f"{effect.answer!r} is not a legal move"))
            elif isinstance(effect, GameOver):
                record = effect.record
                log.info("table %s: game finished, winner side %s, totals %s (%s)",
                         self.id, record.winner, list(record.totals), record.reason)
                self._finish(wire.LeftReason.GAME_OVER.value)

    async def _announce(self, effect: Announce) -> None:
        """An event to the seats it is for: the bots, the table (public events) or the
        person whose hand was dealt."""
        event, to = effect.event, effect.to
        if to is not None:
            if to in self._people and isinstance(event, HandDealt):
                self._deal_hand(to, event)
            bot = self.players[to]
            if bot is not None:
                await bot.notify(event)
            return
        for bot in self.players:
            if bot is not None:
                await bot.notify(event)
        await self.broadcast(event)

    # ------------------------------------------------------------------ turns

    def _ask(self, ask: Ask) -> None:
        """A person's turn: number it, arm its clock (before anyone hears of it), then
        send the your_turn, packed once (a refusal or a reconnect sends the same bytes
        again).  An away seat is asked when it comes back."""
        assert self.master is not None
        event = self.next_event()
        payload = your_turn_payload(event, self.master.state, ask.seat, ask.legal)
        deadline = None if self.turn_timeout is None else self.clock.now() + self.turn_timeout
        self._turns[ask.seat] = PendingTurn(ask, event, payload, deadline)
        if deadline is not None:
            self._arm_turn_clock(deadline)
        self._ask_again(ask.seat)

    def _arm_turn_clock(self, deadline: float) -> None:
        """Make the table's one turn clock ring by ``deadline``.  A clock already set to
        ring earlier is left as it is (when it rings for a turn that is over, it sets
        itself for the turns still waiting), so a move costs no timer of its own."""
        if self._turn_clock is not None and self._turn_clock_at is not None and self._turn_clock_at <= deadline:
            return
        if self._turn_clock is not None:
            self._turn_clock.cancel()
        self._turn_clock_at = deadline
        self._turn_clock = self.clock.call_at(deadline, self._turn_clock_rang)

    def _turn_clock_rang(self) -> None:
        """Every turn whose time is up is played by the game master (the default move);
        the clock is set again for the turns still waiting."""
        self._turn_clock = self._turn_clock_at = None
        now = self.clock.now()
        for turn in list(self._turns.values()):
            if turn.deadline is not None and turn.deadline <= now:
                self.time_up(turn.ask.seat, turn.event)
        waiting = [t.deadline for t in self._turns.values() if t.deadline is not None]
        if waiting:
            self._arm_turn_clock(min(waiting))

    def _ask_again(self, seat: int) -> None:
        """The waiting your_turn of ``seat`` to its client, if both are there."""
        turn = self.pending(seat)
        s = self.seats[seat]
        if turn is not None and s is not None and s.session is not None:
            self._ask_seat(s, turn.payload)

    def turn_of(self, session: ServerSession) -> PendingTurn | None:
        """The turn of the seat of ``session`` waiting for its answer, if any."""
        seat = self.seat_of(session)
        return self.pending(seat) if seat is not None else None

    def pending(self, seat: int) -> PendingTurn | None:
        """The turn of ``seat`` waiting for its client's answer, if any."""
        return self._turns.get(seat)

    def _settle(self, turn: PendingTurn) -> None:
        """The turn is over (answered, played for the seat, or the game ended): its
        clock stops."""
        if self._turns.get(turn.ask.seat) is turn:
            del self._turns[turn.ask.seat]

    def _deal_hand(self, seat: int, event: HandDealt) -> None:
        """A person's hand, and which cards are new, to that seat."""
        known = self._hands.get(seat, 0)
        self._hands[seat] = mask_of(event.hand)
        number = self.next_event()
        new = [c for c in event.hand if not known >> c & 1]
        self.emit_packed(wire.HandDeal.NAME, number, pack_data(hand_deal_data(number, event.hand, new, event.stock_left)),
                         seat)

    def receive(self, session: ServerSession, body: wire.PlayCard | wire.MakeDeclaration, seq: int) -> None:
        """A play or declaration from a seated client, for the game master to take or
        refuse (the server itself refuses only what is not an answer to the waiting turn)."""
        seat = self.seat_of(session)
        if seat is None:
            session.error(ErrorCode.NOT_AT_TABLE, f"you are not seated at table {self.id}", re=seq, sender=self.party)
            return
        if self.state is not wire.TableState.PLAYING or self.master is None:
            session.error(ErrorCode.GAME_NOT_STARTED, f"the game at table {self.id} has not started", re=seq,
                          sender=self.party)
            return
        turn = self.pending(seat)
        if turn is None:
            session.error(ErrorCode.NOT_YOUR_TURN, f"it is seat {self.master.state.to_move}'s turn, not yours",
                          re=seq, sender=self.party)
            return
        if body.turn is not None and body.turn != turn.event:
            # A play for a turn that is over (e.g. resent after a reconnect): never applied twice.
            self._refuse(turn, ErrorCode.NOT_YOUR_TURN, f"turn {body.turn} is over; this is turn {turn.event}", seq)
            return
        try:
            action = action_from_wire(body)
        except ValueError as exc:
            self._answer(turn, None, seq, (ErrorCode.BAD_BODY, str(exc)))
            return
        self._answer(turn, action, seq, name=body.NAME)

    def refuse_unreadable(self, session: ServerSession, code: ErrorCode, message: str, seq: int | None) -> None:
        """A play or declare that could not be decoded (``bad_body``): refused like any
        other answer when a turn of the sender waits for one."""
        turn = self.turn_of(session)
        if turn is None:
            session.error(code, message, re=seq, sender=self.party)
            return
        self._answer(turn, None, seq, (code, message))

    def _answer(self, turn: PendingTurn, answer: Play | Declare | None, seq: int | None,
                refusal: tuple[ErrorCode, str] | None = None, name: str = "play") -> None:
        """The seat's answer to its waiting turn, to the game master (None: one that could
        not be read; ``refusal``: the error for it).  A refused answer is told at once,
        with the same your_turn again (PROTOCOL.md §7); an answer taken (or the default
        move the game master makes after MAX_REFUSALS refusals) ends the turn, and what
        follows goes to the table's loop."""
        assert self.master is not None
        seat = turn.ask.seat
        rest: list[Effect] = []
        for effect in self.master.receive(seat, answer):
            if isinstance(effect, Refused):
                code, message = refusal or _refusal(effect, name)
                s = self.seats[seat]
                if s is not None and s.session is not None:
                    s.session.error(code, message, re=seq, sender=self.party)
                if self.storage is not None:  # journaled: seat, action index, code, nth
                    self.storage.write(RecordRefusal(self.id, seat, turn.ask.turn, code.value, effect.refusals))
                if effect.refusals >= MAX_REFUSALS:
                    log.info("table %s: seat %s refused %s times; the game master plays", self.id, seat,
                             effect.refusals)
            elif effect is turn.ask:
                self._ask_again(seat)
            else:
                rest.append(effect)
        if rest:
            self._settle(turn)
            self._inbox.put_nowait(rest)

    def _refuse(self, turn: PendingTurn, code: ErrorCode, message: str, seq: int | None) -> None:
        """Refuse what is no answer to the waiting turn (not counted): the error, then the
        same your_turn."""
        s = self.seats[turn.ask.seat]
        if s is None or s.session is None:
            return
        s.session.error(code, message, re=seq, sender=self.party)
        self._ask_again(turn.ask.seat)  # PROTOCOL.md §7: the same your_turn again

    def time_up(self, seat: int, event: int | None = None) -> None:
        """``seat``'s turn clock ran out: the game master plays the default move for it
        (``timeout`` goes out with the ``played``).  ``event``: only if the waiting turn
        is that one."""
        turn = self.pending(seat)
        if turn is None or self.master is None or (event is not None and turn.event != event):
            return
        self._settle(turn)
        self._inbox.put_nowait(self.master.timeout(seat))

    def _take_over(self, seat: int, bot: Player) -> None:
        """A built-in bot plays ``seat`` from now on, the waiting turn too."""
        turn = self.pending(seat)
        self.players[seat] = bot
        if turn is None or self.master is None:
            return
        ask = turn.ask

        async def move() -> None:
            try:
                action: Action | None = await bot.choose(ask.view, ask.legal)
            except Exception:  # noqa: BLE001 - a failing bot must not stop the game
                log.exception("table %s: the bot of seat %s failed; the default move is played", self.id, seat)
                action = None
            if self.master is None or self.master.asking is not ask:
                return
            if action not in ask.legal:
                action = self.master.state.default_action()
            self._inbox.put_nowait(self.master.receive(seat, action))

        self._settle(turn)
        self._bot_moves.add(task := asyncio.create_task(move(), name=f"takeover-{self.id}-{seat}"))
        task.add_done_callback(self._bot_moves.discard)

    def abandon(self, reason: str, leaver: ServerSession | None = None, re: int | None = None) -> None:
        """End a running game with no winner (a player left or the game master failed);
        ``leaver`` (who asked to leave, with the seq of its leave_table) is told ``left``."""
        if self.state is not wire.TableState.PLAYING:
            return
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
        seat = self.seat_of(leaver) if leaver is not None else None
        if seat is not None:
            self.forfeits.append(seat)
        totals = list(self.master.state.totals) if self.master else []
        self.emit(wire.GameEnd(event=self.next_event(), winner=None, totals=totals, reason=EndReason.ABANDONED.value))
        log.info("table %s: game abandoned (%s)", self.id, reason)
        self._finish(wire.LeftReason.ABANDONED.value, leaver, re)

    def _finish(self, reason: str, leaver: ServerSession | None = None, re: int | None = None) -> None:
        self.state = wire.TableState.FINISHED
        self.finish_reason = reason
        self.cancel_timers()
        # A seat whose client is away (or drops right now) may still resume to learn how
        # the game ended: the log and the tokens are kept for the grace period.  With no
        # seat token at the table (bots only) nobody can come back: free it now.
        if any(st is not None and st.token_digest for st in self.seats):
            self._expiry = start_timer(self.clock, self.grace, self._expire_tokens, name=f"expiry-{self.id}")
        else:
            self._expire_tokens()
        self._store_result(reason)
        # The state is now "finished": told to the table at once, before anyone leaves it
        # (the coalesced update then reaches only the lobby watchers).
        self.send_update()
        if self.on_changed is not None:
            self.on_changed(self)
        for sess in self.sessions():
            if sess is leaver:
                sess.send(wire.Left(table=self.id, reason=wire.LeftReason.LEFT.value), re=re)
            else:
                sess.send(wire.Left(table=self.id, reason=reason))
            sess.table_id = None
        for sess in self.spectators:
            sess.send(wire.Left(table=self.id, reason=reason))
        self.spectators.clear()
        if self.on_finished is not None:
            self.on_finished(self)

    def _store_result(self, reason: str) -> None:
        if self.storage is None:
            return
        st = self.master.state if self.master is not None else None
        if reason == "game_over" and st is not None and st.end_reason is not None:
            reason = st.end_reason.value  # target, trentino, all_denari
        try:
            end = FinishTable(self.id, st.winner if st is not None and reason != "abandoned" else None,
                              tuple(st.totals) if st is not None else (), reason)
            if self.on_result is not None:
                self.on_result(self, end)  # journaled with who played and the ratings
            else:
                self.storage.write(end)
        except Exception:  # the game is over either way; a failed write is logged, not fatal
            log.exception("table %s: could not record the result", self.id)

    async def broadcast(self, event: Event) -> None:
        """A public engine event, as its wire command, to everyone at the table."""
        if isinstance(event, (DealVoid, HandDealt)):
            return  # a void deal has no wire command; hands go to their seats only
        if isinstance(event, Played):
            forced = event.forced_by.value if event.forced_by is not None else None
            number = self.next_event()
            self.emit_packed(wire.CardPlayed.NAME, number, pack_data(played_data(event, number, forced)))
            return
        # The round's tallies and the stock at a round start travel in their events: the
        # game master may be a deal further on when they are told.
        tallies = round_tallies(event) if isinstance(event, RoundEnded) else []
        seats = self.seat_infos() if isinstance(event, GameStarted) else []
        self.emit(event_to_wire(event, self.next_event(), seats=seats,
                                stock=event.stock_left if isinstance(event, RoundStarted) else 0, tallies=tallies))


class LoggedEvent(NamedTuple):
    """A numbered table event as it went out, kept for clients that come back."""

    seat: int | None  # None: public; else only that seat saw it (its deal)
    event: int
    name: str
    payload: bytes  # the body, packed


@dataclass(eq=False, slots=True)
class PendingTurn:
    """A seat's turn waiting for its client's answer."""

    ask: Ask  # the game master's question
    event: int
    payload: bytes  # the your_turn body, packed once
    deadline: float | None = None  # on the table's clock; None: no turn clock


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


_RESTORED_EVENTS = 1 << 40
"""Where a finished game restored after a restart numbers its events: above any event its
clients saw, so what they missed is always sent as a snapshot and the game_end."""


def token_digest(token: str) -> str:
    """What the server keeps of a seat token (the token itself is never stored or logged)."""
    return hashlib.sha256(token.encode()).hexdigest()
