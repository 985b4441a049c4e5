"""What a table says, and to whom: its events (numbered and logged, each body packed once
for every recipient), its your_turns, and its spectators with their coalesced
``table_update``; and the numbered event log itself (:class:`EventLog`: every event a client
may need when it comes back, a seat resuming, a spectator watching again, kept packed as it
went out)."""

from __future__ import annotations

from array import array
from collections import deque

import logging
from typing import Callable, Iterable, NamedTuple

from scopa.engine import DealVoid, Declared, Event, GameStarted, HandDealt, Played, RoundEnded, RoundStarted, mask_of
from scopa.protocol import ConnectionRole, LocalProtocolError, Message, Packed, Prepared, prepare
from scopa.protocol import commands as wire
from scopa.protocol.codec import pack_body, pack_data
from scopa.protocol.convert import event_to_wire, hand_deal_data, played_data, round_tallies
from scopa.protocol.transitions import KIND_BY_NAME, sendable_states

from ..core import Clock, Timer, start_timer
from .seats import Seat, Seats
from ..conn import ServerSession

log = logging.getLogger("scopa.server")

_YOUR_TURN_STATES = sendable_states(ConnectionRole.SERVER, KIND_BY_NAME[wire.YourTurn.NAME])
"""The states of a connection a your_turn may go out in (:func:`~scopa.protocol.prepare`'s)."""

# Read on every move, as plain names: a model's class attribute (or an enum member) read
# from its class goes through its metaclass's ``__getattr__``, ten times slower.
_PLAYED = wire.CardPlayed.NAME
_YOUR_TURN = wire.YourTurn.NAME
_DEAL = wire.HandDeal.NAME
_SERVER = ConnectionRole.SERVER

# ---------------------------------------------------------------------- the numbered event log

RESTORED_EVENTS = 1 << 40
"""Where a finished game restored after a restart numbers its events: above any event its
clients saw, so what they missed is always sent as a snapshot and the game_end."""


class LoggedEvent(NamedTuple):
    """A numbered table event as it went out, kept for clients that come back."""

    seat: int | None  # None: public; else only that seat saw it (its deal)
    event: int
    name: str
    payload: bytes  # the body, packed


_NAMES: list[str] = []
"""The names of the commands logged so far (a few table events), by their code."""
_CODES: dict[str, int] = {}
_PUBLIC = 0xFF  # the seat byte of a public event


def _code(name: str) -> int:
    code = _CODES.get(name)
    if code is None:
        if len(_NAMES) > 0xFF:
            raise ValueError(f"too many kinds of logged event for {name!r}")
        code = _CODES[name] = len(_NAMES)
        _NAMES.append(name)
    return code


class EventLog:
    """The events of one table, numbered 1, 2, ...; the most recent ``limit`` of them are
    kept (older ones: a client that missed them gets a snapshot).

    An event is kept as its packed body, one after the other in one buffer (not a bytes
    object each), and two 8-byte words (its number, its seat, its name's code; where its
    body ends) rather than as a :class:`LoggedEvent` (a tuple of 80 bytes and more): a log
    holds a whole game for every table of the server."""

    __slots__ = ("last", "base", "limit", "end", "round_end", "_words", "_ends", "_bodies", "_cut")

    def __init__(self, limit: int = 10_000) -> None:
        self.last = 0  # the number of the latest event
        self.base = 0  # the log holds every event numbered above this
        self.limit = limit
        self.end: wire.GameEnd | None = None  # how the game ended (also when abandoned)
        self.round_end: wire.RoundEnd | None = None  # the game's last round_end (a snapshot carries it)
        self._words = array("Q")  # per event: number << 16 | seat byte << 8 | name code
        self._ends = array("Q")  # per event: where its body ends, counted from the log's first byte ever
        self._bodies = bytearray()  # the bodies of the events kept, in order
        self._cut = 0  # the bytes of the bodies dropped from the front of _bodies

    def next_event(self) -> int:
        self.last += 1
        return self.last

    def add(self, seat: int | None, event: int, name: str, payload: bytes) -> None:
        """Log event number ``event`` (``seat`` None: public), its body packed."""
        if seat is not None and not 0 <= seat < _PUBLIC:
            raise ValueError(f"not a seat: {seat}")
        code = _CODES.get(name)
        if code is None:
            code = _code(name)
        self._words.append(event << 16 | (_PUBLIC if seat is None else seat) << 8 | code)
        bodies = self._bodies
        bodies += payload
        self._ends.append(self._cut + len(bodies))
        if len(self._words) > self.limit:
            drop = len(self._words) - self.limit
            self.base = self._words[drop - 1] >> 16
            cut = self._ends[drop - 1]
            del self._words[:drop]
            del self._ends[:drop]
            del bodies[:cut - self._cut]
            self._cut = cut

    def append(self, logged: LoggedEvent) -> None:
        self.add(logged.seat, logged.event, logged.name, logged.payload)

    @property
    def kept(self) -> list[LoggedEvent]:
        """The events the log holds, oldest first."""
        return [_logged(word, payload) for word, payload in zip(self._words, self._payloads())]

    def missed(self, seat: int | None, last_event: int) -> list[LoggedEvent] | None:
        """What ``seat`` (None: a spectator) may see after ``last_event`` (a your_turn is never logged: the
        pending one is sent again after them); None if the log no longer covers it (then
        a snapshot)."""
        if not self.base <= last_event <= self.last:
            return None
        return [_logged(word, payload) for word, payload in zip(self._words, self._payloads())
                if word >> 16 > last_event and ((word >> 8) & 0xFF in (_PUBLIC, seat))]

    def _payloads(self) -> list[bytes]:
        """The bodies of the events kept, in order."""
        bodies, start, out = self._bodies, self._cut, []
        for end in self._ends:
            out.append(bytes(bodies[start - self._cut:end - self._cut]))
            start = end
        return out

    def restart_at(self, number: int) -> None:
        """Number the events from here on above ``number`` (a game restored after a
        restart: above any event its clients saw), the log covering none before."""
        self.last = self.base = number

    def expire(self) -> None:
        """Free the log: whoever comes back from now on gets a snapshot."""
        self._words = array("Q")
        self._ends = array("Q")
        self._bodies = bytearray()
        self._cut = 0
        self.base = self.last


def _logged(word: int, payload: bytes) -> LoggedEvent:
    seat = (word >> 8) & 0xFF
    return LoggedEvent(None if seat == _PUBLIC else seat, word >> 16, _NAMES[word & 0xFF], payload)


# ---------------------------------------------------------------------- what is sent


def _no_clock(seat: int, round_start: bool = False) -> int | None:
    """No turn clock for any seat (a table sets its own :attr:`Broadcaster.turn_clock`)."""
    return None


class Broadcaster:
    """The sending side of one table: to its seats (their connections in ``seats``) and
    its ``spectators``.  ``announce`` is told when spectators came or went (at most once
    per ``update_interval``)."""

    __slots__ = ("table_id", "party", "everyone", "seats", "events", "clock", "update_interval", "announce",
                 "spectators", "saw_end", "said", "turn_clock", "_played", "_hands", "_update_timer", "_last_update")

    def __init__(self, table_id: str, seats: Seats, events: EventLog, clock: Clock,
                 update_interval: float = 0.0, announce: Callable[[], None] | None = None) -> None:
        self.table_id = table_id
        self.party = f"table:{table_id}"  # the table's party on the wire
        self.everyone = f"table:{table_id}/all"  # the party of its public events
        self.seats = seats
        self.events = events
        self.clock = clock
        self.update_interval = update_interval  # Limits.table_update_interval
        self.announce = announce
        self.spectators: list[ServerSession] = []
        self.saw_end: list[ServerSession] = []  # the spectators when the game ended (a rematch is told to them)
        self.said: deque[wire.ChatMessage] | tuple[()] = ()
        """The table's last chat messages (a deque made for its first: most tables have none)."""
        self.turn_clock: Callable[[int, bool], int | None] = _no_clock
        """The clock a turn of a seat starting now gets, in ms (None: no turn clock); with
        True, the first turn of a round that starts now (every seat dealt a new hand)."""
        self._played: Prepared | None = None  # the last played, from this table to everyone
        self._hands: list[int] = []  # by seat: its hand as last dealt (a card mask)
        self._update_timer: Timer | None = None
        self._last_update: float | None = None

    def watchers(self) -> list[ServerSession]:
        """Everyone who gets the table's public events: connected seats and spectators."""
        return self.seats.sessions() + self.spectators

    # ------------------------------------------------------------------ events

    def emit(self, body: wire.TableEvent, seat: int | None = None) -> None:
        """Log a numbered table event and send it: to everyone (``seat`` None: public) or
        to that seat only (a deal), if it is connected.  The body is packed once, and the
        log keeps it packed (a game's log is a few kilobytes, not a model per event)."""
        if isinstance(body, wire.GameEnd):
            self.events.end = body
        elif isinstance(body, (wire.RoundEnd, wire.GameStart)):  # a new game has no last round yet
            self.events.round_end = body if isinstance(body, wire.RoundEnd) else None
        payload = pack_body(body)
        if seat is not None:
            self.emit_packed(body.NAME, body.event, payload, seat)
            return
        self.events.add(None, body.event, body.NAME, payload)
        self.send_all(body, payload)

    def emit_packed(self, name: str, event: int, payload: bytes, seat: int | None = None) -> None:
        """Like :meth:`emit`, for a body made as plain data and packed (``payload``) with
        no model built: the table's most frequent events, ``played`` and ``deal``."""
        self.events.add(seat, event, name, payload)
        if seat is None:
            self._send_all_packed(name, payload)
            return
        s = self.seats[seat]
        if s is not None and s.session is not None:
            self._send_to(s.session, name, payload)

    def event(self, event: Event) -> None:
        """A public engine event, as its wire command, to everyone at the table."""
        if isinstance(event, (DealVoid, HandDealt)):
            return  # a void deal has no wire command; hands go to their seats only
        if isinstance(event, Played):
            forced = event.forced_by.value if event.forced_by is not None else None
            number = self.events.next_event()
            data = played_data(event, number, forced)
            if (left := self.turn_clock((event.seat + 1) % len(self.seats), False)) is not None:
                data["turn_left_ms"] = left  # the next seat's turn starts as this goes out
            self.emit_packed(_PLAYED, number, pack_data(data))
            return
        # The round's tallies and the stock at a round start travel in their events: the
        # game master may be a deal further on when they are told.
        tallies = round_tallies(event) if isinstance(event, RoundEnded) else []
        seats = self.seats.infos() if isinstance(event, GameStarted) else []
        body = event_to_wire(event, self.events.next_event(), seats=seats,
                             stock=event.stock_left if isinstance(event, RoundStarted) else 0, tallies=tallies)
        # Who moves next, and the clock of that turn, which starts as this goes out.
        mover = (event.dealer + 1) % len(self.seats) if isinstance(event, RoundStarted) else \
            event.seat if isinstance(event, Declared) else None
        round_start = isinstance(event, RoundStarted)  # new hands, a new board (and the last round's box)
        if mover is not None and (left := self.turn_clock(mover, round_start)) is not None:
            body = body.model_copy(update={"turn_left_ms": left})
        self.emit(body)

    def deal_hand(self, seat: int, event: HandDealt) -> None:
        """A person's hand, and which cards are new, to that seat."""
        hands = self._hands
        if len(hands) <= seat:
            hands.extend([0] * (seat + 1 - len(hands)))
        known, hands[seat] = hands[seat], mask_of(event.hand)
        number = self.events.next_event()
        new = [c for c in event.hand if not known >> c & 1]
        self.emit_packed(_DEAL, number, pack_data(hand_deal_data(number, event.hand, new, event.stock_left)),
                         seat)

    def tell_seat(self, body: wire.SeatAway | wire.SeatBack | wire.SeatReplaced, numbered: bool) -> None:
        """Who is at the table, to the whole table; once the game has begun (``numbered``),
        a numbered event of the log, so that a client coming back learns of what it missed."""
        if not numbered:
            self.send_all(body)
            return
        body = body.model_copy(update={"event": self.events.next_event()})
        payload = pack_body(body)
        self.events.add(None, self.events.last, body.NAME, payload)
        self.send_all(body, payload)

    def resend(self, session: ServerSession, events: Iterable[LoggedEvent]) -> None:
        """Logged events again, to a client that missed them."""
        for e in events:
            session.send(Packed(e.name, e.payload, self.everyone if e.seat is None else session.party, self.party))

    # ------------------------------------------------------------------ sending

    def chat(self, message: wire.ChatMessage) -> None:
        """Said to the table: to everyone there, and kept (the last :data:`~scopa.protocol.CHAT_KEPT`)
        for a seat that comes back (``joined.chat``)."""
        if not isinstance(self.said, deque):
            self.said = deque(maxlen=wire.CHAT_KEPT)
        self.said.append(message)
        self.send_all(message)

    def tell_all(self, body: wire.Body) -> None:
        """A public command that is not a numbered game event, to the whole table."""
        self.send_all(body)

    def send_all(self, body: wire.Body, payload: bytes | None = None) -> None:
        """``body`` to every connected seat and spectator, packed once for all of them
        (``payload``: packed already)."""
        self._send_all_packed(body.NAME, pack_body(body) if payload is None else payload)

    def _send_all_packed(self, name: str, payload: bytes) -> None:
        if name == _PLAYED:  # on every move: prepared once per table, then given each move's body
            played = self._played
            prepared = self._played = played.with_body(payload) if played is not None else \
                self._prepare(name, self.everyone, payload)
        else:
            prepared = self._prepare(name, self.everyone, payload)
        if prepared is None:
            return
        for sess in self.seats.sessions():  # self.watchers(), without the list of everyone: every move comes here
            sess.send(prepared)
        if self.spectators:
            for sess in list(self.spectators):
                sess.send(prepared)

    def ask_seat(self, seat: Seat, payload: bytes) -> None:
        """A your_turn (its body packed) to the client of ``seat``, which is connected."""
        prepared = self.your_turn(seat, payload)
        if prepared is not None:
            assert seat.session is not None
            seat.session.send(prepared)

    def your_turn(self, seat: Seat, payload: bytes) -> Prepared | None:
        """The your_turn (its body packed) for the client of ``seat``, which is connected.
        It goes out on every move: it is prepared once per seat and client."""
        session = seat.session
        assert session is not None
        head = seat.your_turn
        if head and seat.your_turn_to is session:
            return Prepared(_YOUR_TURN, _SERVER, seat.your_turn_party, _YOUR_TURN_STATES, head,
                            payload)
        fresh = self._prepare(_YOUR_TURN, session.party, payload)
        if fresh is not None:  # only its envelope is kept: the rest is the same for every your_turn
            seat.your_turn, seat.your_turn_to, seat.your_turn_party = fresh.head, session, fresh.recipient
            return fresh
        return None

    def _send_to(self, session: ServerSession, name: str, payload: bytes) -> None:
        """Command ``name`` from this table to one client, its body packed already."""
        session.send(Packed(name, payload, session.party, self.party))

    def _prepare(self, name: str, recipient: str, payload: bytes) -> Prepared | None:
        """Command ``name`` from this table to ``recipient``, checked and packed once for
        the connections it goes to (None, logged, if the protocol does not allow it)."""
        try:
            return prepare(_SERVER, name, payload, recipient=recipient, sender=self.party)
        except LocalProtocolError as exc:
            log.error("table %s: could not send %s to %s: %s", self.table_id, name, recipient, exc)
            return None

    def send_update(self, info: wire.TableInfo) -> None:
        """The table_update, now, to everyone seated at or watching the table (not to the
        players a finished table already sent back to the lobby)."""
        body = wire.TableUpdate(table=info)
        for sess in self.watchers():
            if sess.table_id == self.table_id or sess in self.spectators:
                sess.send(Message(body, self.everyone, self.party))

    # ------------------------------------------------------------------ spectators

    def add_spectator(self, session: ServerSession, notices: Iterable[wire.SeatAway] = ()) -> None:
        """``session`` watches from now on, told first ``notices`` (the seats away as it comes)."""
        for body in notices:
            session.send(Message(body, self.everyone, self.party))
        if session not in self.spectators:
            self.spectators.append(session)
        self.announce_spectators()

    def let_spectators_go(self, left: wire.Left) -> None:
        """The game is over: every spectator is told ``left`` and watches no more; they
        are kept as those who saw its end (``saw_end``), to be told of a rematch."""
        for sess in self.spectators:
            sess.tell(left)
        self.saw_end, self.spectators = self.spectators, []

    def unwatch(self, session: ServerSession, re: int | None = None, tell: bool = True) -> None:
        if session in self.spectators:
            self.spectators.remove(session)
            if tell:
                session.tell(wire.Left(table=self.table_id, reason=wire.LeftReason.UNWATCHED.value), re=re)
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
            if self.announce is not None:
                self.announce()
            return
        self._update_timer = start_timer(self.clock, wait, self._flush_update, name=f"update-{self.table_id}")

    def _flush_update(self) -> None:
        self._update_timer = None
        self._last_update = self.clock.now()
        if self.announce is not None:
            self.announce()

    def stop(self) -> None:
        """No coalesced update is due any more."""
        if self._update_timer is not None:
            self._update_timer.cancel()
            self._update_timer = None
