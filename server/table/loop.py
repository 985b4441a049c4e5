"""A table's inbox and its loop: the turns put what the game master says in the inbox, and
the loop carries it out, in order (table.py holds the table itself).  An action is
journaled before the announcements that follow it; what needs no waiting (no journal write
to wait for, no bot) is carried out at once from the inbox, the rest by the table's task."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Callable, Generic, Protocol, TypeVar

from scopa.engine import Deal, GameMaster, HandDealt, IllegalMoveError, Play, Player, PlayMark
from scopa.engine.effects import Announce, Ask, Effect, GameOver, Journal as JournalAction, Refused
from scopa.protocol import commands as wire

from ..conn import WriteBatch
from ..core import metrics
from ..journal import Fenced

if TYPE_CHECKING:
    from .broadcast import Broadcaster
    from .journaling import TableJournal
    from .leases import Lease
    from .marks import PlayMarks
    from .seats import Seats

log = logging.getLogger("scopa.server")

_PLAYING = wire.TableState.PLAYING  # read on every move: an enum member read from its class is ten times slower


class PeopleAsked(Protocol):
    """What the loop needs of the table's turns (turns.py, which fills the inbox: the loop
    does not import it back)."""

    arrived: float
    turn_from: float

    def ask(self, ask: Ask) -> None:
        """A person's turn: numbered, clocked and sent."""

    def broadcast(self) -> None:
        """The first broadcast after a person's move is under way."""

T = TypeVar("T")


class _Drains:
    """The inboxes with something to carry out.  They are carried out as soon as the
    connection that brought their moves has handled what it read (``WriteBatch.after_read``:
    never while it is still reading), else by one callback of the event loop at the end of
    the turn (one scheduled call per loop turn for every table, not one per table).  What a
    table says is written as soon as its inbox is carried out (its connections' frames of
    the move in one write each), so that the next seat's your_turn waits neither for the
    other tables' moves nor for the other connections read in the same turn."""

    __slots__ = ("_loop", "_waiting", "_scheduled", "_writes")
    _by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Drains] = weakref.WeakKeyDictionary()

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._waiting: list[Inbox[Any]] = []
        self._scheduled = False
        self._writes = writes = WriteBatch.of(loop)
        writes.after_read = self.carry_out

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> _Drains:
        """The drains of ``loop`` (one per event loop)."""
        drains = cls._by_loop.get(loop)
        if drains is None:
            drains = cls._by_loop[loop] = cls(loop)
        return drains

    def add(self, inbox: Inbox[Any]) -> None:
        self._waiting.append(inbox)
        if not self._scheduled:
            self._scheduled = True
            self._loop.call_soon(self._run)

    def _run(self) -> None:
        self._scheduled = False
        self.carry_out()

    def carry_out(self) -> None:
        """Carry out the inboxes waiting so far, each written as soon as it is carried out."""
        if not self._waiting:
            return
        waiting, self._waiting = self._waiting, []
        write_now = self._writes.write_now
        for inbox in waiting:
            try:
                inbox._drain()
            except Exception:  # one table's failure must not keep the others waiting
                log.exception("a table's inbox could not be carried out")
            write_now()


class Inbox(Generic[T]):
    """A table's inbox: what its loop is to carry out next, in order.  First in, first
    out; one reader (the table's loop), any number of writers (the turns).

    An :class:`asyncio.Queue` would do, at about 3 kB a table (three deques and an Event,
    each with a block of its own) and a future per ``get``; a table needs none of its
    bounds, joins or waiting putters.  This is a list and, only while the loop waits on an
    empty inbox, one future, which is given the item (no coroutine waits beside it).

    ``carry`` (when set) carries out an item at once, with no task: what arrives while
    the reader waits is handed to it once the writer is done (the session that read the
    move, when it has handled its read; else a callback at the end of the loop turn: the
    writer is never called back while it runs), and the reader wakes only for what
    ``carry`` gives back (what has to wait, such as a journal write or a bot's move),
    which goes first (:class:`_Drains`)."""

    __slots__ = ("_items", "_waiter", "_draining", "_drains", "carry")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiter: asyncio.Future[T] | None = None
        self._draining = False  # a callback to carry out what came is scheduled
        self._drains: _Drains | None = None  # the event loop's, known once the reader waits (with carry)
        self.carry: Callable[[T], T | None] | None = None
        """Carry out an item at once; what is left of it (to wake the reader with), or None."""

    def __len__(self) -> int:
        return len(self._items)

    def put_nowait(self, item: T) -> None:
        """Add ``item`` and wake the reader if it waits (or carry it out, with ``carry``)."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            if self.carry is None:
                self._waiter = None
                waiter.set_result(self._items.pop(0))
            elif not self._draining:
                self._draining = True
                drains = self._drains
                if drains is None:
                    drains = self._drains = _Drains.of(waiter.get_loop())
                drains.add(self)

    def _drain(self) -> None:
        """Carry out what came while the reader waits; wake it with what has to wait."""
        self._draining = False
        waiter, carry = self._waiter, self.carry
        items = self._items
        while items and carry is not None and waiter is not None and not waiter.done():
            rest = carry(items.pop(0))
            if rest is not None:  # to the reader, before what came after it
                self._waiter = None
                waiter.set_result(rest)
                return

    def get(self) -> asyncio.Future[T]:
        """The oldest item, once there is one (a future: done at once if there is one now)."""
        loop = asyncio.get_running_loop()
        got: asyncio.Future[T] = loop.create_future()
        if self._items:
            got.set_result(self._items.pop(0))
        else:
            self._waiter = got
            if self._drains is None and self.carry is not None:  # here, from the reader: not within a session's read
                self._drains = _Drains.of(loop)
        return got


def log_abandoned(table: str, reason: str, party: str | None, gone: int | None) -> None:
    """The log's line of a game abandoned: who left it (``party``), the seat that did not
    come back (``gone``), or else why (``reason``), each its own line to be translated."""
    if party is not None:
        log.info("table %s: game abandoned (%s left)", table, party)
    elif gone is not None:
        log.info("table %s: game abandoned (seat %s did not come back)", table, gone)
    else:
        log.info("table %s: game abandoned (%s)", table, reason)


class TableLoop:
    """The carrying out of a :class:`~scopa.server.table.table.Table`'s effects."""

    id: str
    state: wire.TableState
    master: GameMaster | None
    players: list[Player | None]
    lease: Lease | None
    journal: TableJournal
    turns: PeopleAsked
    broadcaster: Broadcaster
    _people: tuple[int, ...]
    _inbox: Inbox[list[Effect]]
    seats: Seats
    taken_over: dict[int, str]
    marks: PlayMarks
    _told: int  # the game's actions journaled, which the table may have told of

    def abandon(self, reason: str) -> None:
        raise NotImplementedError

    def _finish(self, reason: str) -> None:
        raise NotImplementedError

    def _play_at(self) -> wire.PlayAt:
        raise NotImplementedError

    def _marked(self, effect: JournalAction) -> PlayMark | None:
        """How the play about to be journaled came about (kept in ``marks``); None: no mark.
        Its seat notes a bot's span (see :meth:`~.seats.Seat.played`)."""
        seat = effect.seat
        if seat is None or not isinstance(effect.action, Play):
            return None
        bot, held = seat in self.taken_over, self.seats[seat]
        if held is not None and (bot or held.bot_until is not None):  # else Seat.played has nothing to note
            held.played(bot, self._play_at)
        if not (bot or effect.forced is not None or effect.scopa):
            return None  # an ordinary play has no mark (Journal.mark's first test, without the call)
        mark = effect.mark(bot)
        if mark is not None:
            self.marks.keep(effect.index, mark)
        return mark

    def _journaled(self, effect: JournalAction) -> None:
        """Action ``effect.index`` is in the journal: the table may tell of it (``_told``)."""
        self._told = effect.index + 1
        if type(effect.action) is not Deal:  # a play or a declaration: a move
            metrics.MOVES.inc()

    async def _run(self) -> None:
        """The table's loop: it carries out what the game master says, in order, from its
        start to the end of the game (the answers of people come through ``_inbox``)."""
        assert self.master is not None
        try:
            await self.journal.stored()  # the seats and the start first: then the game's first deal
            await self._carry_out(self.master.start())
            while self.state is wire.TableState.PLAYING:
                await self._carry_out(await self._inbox.get())
        except asyncio.CancelledError:
            raise
        except Exception:  # one table's failure must not touch any other table
            log.exception("table %s: game master failed; the game is abandoned", self.id)
            self.abandon("internal_error")

    def _carry_now(self, effects: list[Effect]) -> list[Effect] | None:
        """Carry out at once, from the inbox (no task), the effects that need no waiting:
        the actions journaled with no write to wait for (no journal, no lease), the
        announcements when no bot sits at the table, the people's questions.  What is left
        from the first one that waits (a journal write, a bot, the game's end) is given
        back for the table's loop, the same order kept; None when all was carried out."""
        if self.journal.storage is not None or self.lease is not None or self.state is not _PLAYING:
            return effects
        players = self.players
        bots = players.count(None) != len(players)
        try:
            for i, effect in enumerate(effects):
                if isinstance(effect, JournalAction):
                    self._marked(effect)
                    self._journaled(effect)
                elif isinstance(effect, Announce) and not bots:
                    self._tell(effect)
                elif isinstance(effect, Ask) and players[effect.seat] is None:
                    self.turns.ask(effect)
                else:
                    return effects[i:]
        except Exception:  # one table's failure must not touch any other table
            log.exception("table %s: game master failed; the game is abandoned", self.id)
            self.abandon("internal_error")
        return None

    async def _carry_out(self, effects: Iterable[Effect]) -> None:
        """Effects of the game master, in order: an action is journaled (the write
        awaited) before the announcements that follow it; a seat played by a bot is asked
        here, a person's seat gets its your_turn and answers through ``turns``."""
        assert self.master is not None
        queue = deque(effects)
        while queue:
            effect = queue.popleft()
            if isinstance(effect, JournalAction):
                if self.lease is not None and not self.lease.holds(self.id):
                    log.warning("table %s: its lease ran out; action %s is not taken here", self.id, effect.index)
                    return  # the server gives the table up: another one serves it from the journal
                written = self.journal.append(effect.index, effect.action, self._marked(effect))
                if written is not None:
                    try:
                        await written
                    except Fenced:
                        if self.lease is None:
                            raise
                        log.warning("table %s: another server took it over; action %s is not taken here",
                                    self.id, effect.index)
                        self.lease.fenced(self.id)  # given up: nobody hears of the action
                        return
                self._journaled(effect)
            elif isinstance(effect, Announce):
                await self._announce(effect)
            elif isinstance(effect, Ask):
                bot = self.players[effect.seat]
                if bot is None:
                    self.turns.ask(effect)
                else:
                    self.turns.turn_from = 0.0  # a bot's turn comes first: the next your_turn is not timed
                    action = await bot.choose(effect.view, effect.legal)
                    if self.players[effect.seat] is not bot:  # its person took the seat back meanwhile
                        self.turns.ask(effect)
                    else:
                        queue.extend(self.master.receive(effect.seat, action))
            elif isinstance(effect, Refused):  # a person's refusals are told at once, by turns.receive()
                bot = self.players[effect.seat]
                if bot is not None:
                    await bot.rejected(effect.error or IllegalMoveError(f"{effect.answer!r} is not a legal move"))
            elif isinstance(effect, GameOver):
                record = effect.record
                log.info("table %s: game finished, winner side %s, totals %s (%s)",
                         self.id, record.winner, list(record.totals), record.reason)
                metrics.GAMES_FINISHED.inc()
                self._finish(wire.LeftReason.GAME_OVER.value)

    async def _announce(self, effect: Announce) -> None:
        """An event to the seats it is for: the bots, then the people (``_tell``)."""
        event, to = effect.event, effect.to
        for seat, bot in enumerate(self.players):
            if bot is not None and (to is None or to == seat):
                await bot.notify(event)
        self._tell(effect)

    def _tell(self, effect: Announce) -> None:
        """An event to the people it is for: the table (public events) or the person
        whose hand was dealt."""
        event, to = effect.event, effect.to
        if to is not None:
            if to in self._people and isinstance(event, HandDealt):
                self.broadcaster.deal_hand(to, event)
            return
        self.broadcaster.event(event)
        if self.turns.arrived:  # the first broadcast after a person's move: that move
            self.turns.broadcast()

