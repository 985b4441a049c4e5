"""Tournaments on the server: each one a :class:`~scopa.server.tournament.Director` whose
events are journaled (:mod:`.codec`) as they happen and whose effects are carried out
here: a round's tables opened (listed; their seats kept for their players) and its connected
players seated there at once (``tournament_table``, then ``joined``), a no-show's table
closed when the director forfeits it, each game's end told to the director, entrants
told of every change, round and standings.

A tournament's times are Unix times: the server's clock plus the offset to the wall
clock taken when the server started, so a journaled start time or deadline means the
same after a restart.  A restarted server rebuilds each director from its events, keeps
the games its journal resumed, and opens again the tables of the others."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode

from ..core import Clock, Timer
from ..journal import AppendTournamentEvent, Journal
from ..table import Table
from ..lobby import TableLeases, TableLife
from ..core import BackgroundTasks
from ..core import name_key
from ..tournament import (
    AnnounceRound, AnnounceStandings, Arrived, Director, Effect, ForfeitSeats, GameKey, OpenTable, RecordResults, Step,
    TellNoTable, TournamentError, TournamentState, no_table,
)  # fmt: skip
from .codec import Record, ResultsKept, TableOpened, decode, encode, is_event
from .relayed import Asker, TournamentRelay
from .tables import ClubTables, when_finished
from .views import game_view, info_view, no_table_view, standings_view

if TYPE_CHECKING:
    from ..conn import ServerSession

log = logging.getLogger("scopa.server")

_Command = Callable[[Director], Step]


def game_points(table: Table) -> tuple[int, int]:
    """A tournament game's result, each side's game points (seat 0's side first): the
    game's totals; a side whose player left the game (abandoned) has 0, and the other at
    least 1.  A seat a bot took over and played to the end counts as played."""
    totals = tuple(table.master.state.totals) if table.master is not None else (0, 0)
    winner = None
    if table.forfeits and table.finish_reason == wire.LeftReason.ABANDONED.value:
        winner = 1 - table.rules.side_of(table.forfeits[0])
    return result_points(totals, winner)


def result_points(totals: Sequence[int], winner: int | None) -> tuple[int, int]:
    """Each side's game points from a game's totals; ``winner``: the side whose
    opponent abandoned the game (the loser has 0, the winner at least 1)."""
    points = [max(0, t) for t in totals][:2] if len(totals) >= 2 else [0, 0]
    if winner is not None:
        points[1 - winner], points[winner] = 0, max(points[winner], 1)
    return points[0], points[1]


def said_again(state: TournamentState, name: str) -> TellNoTable | None:
    """What the tournament says again to player ``name`` (any spelling of the name) who
    comes back while it gives them no table: out of it, or a bye (None: nothing)."""
    entrant = next((e for e in state.entrants if any(name_key(m) == name_key(name) for m in e.members)), None)
    return no_table(state, entrant.name) if entrant is not None else None


class TournamentHost:
    """Every tournament of one server."""

    def __init__(self, tables: ClubTables, life: TableLife, clock: Clock, names: dict[str, ServerSession]) -> None:
        self.tables = tables
        self.life = life
        self.clock = clock
        self.names = names
        self.directors: dict[str, Director] = {}
        self.seq: dict[str, int] = {}  # tournament -> its next journal seq
        self._table_of: dict[tuple[str, GameKey], str] = {}
        self._game_of: dict[str, tuple[str, GameKey]] = {}  # table id -> its tournament game
        self._seats: dict[str, dict[str, int]] = {}  # table id -> player -> seat
        self._timers: dict[str, Timer] = {}
        self._told: dict[str, asyncio.Future[None]] = {}  # tournament -> its last step told once stored
        self.last = 0  # the highest tournament number
        self.leases: TableLeases | None = None
        """In a cluster sharing one journal: the tournaments' leases (this server runs those it holds)."""
        self.leases_interval = 1.0  # seconds between looks at a game's table on another member
        self.relay: TournamentRelay | None = None
        """In a cluster sharing one journal: what tells the entrants connected to other members."""
        self._offset = time.time() - clock.now()
        self.tasks = BackgroundTasks()

    def now(self) -> float:
        return self.clock.now() + self._offset

    # ------------------------------------------------------------------ seats

    def join_table(self, sess: ServerSession, table_id: str, seq: int) -> bool:
        """A ``join_table`` of a tournament's table: its player sits at the seat kept for
        them (whether the table is a tournament's; a stranger is told there is no such table)."""
        seats = self._seats.get(table_id)
        if seats is None:
            return False
        seat = seats.get(sess.name or "")
        table = self.tables.tables.get(table_id)
        if seat is None or table is None or table.state is not wire.TableState.WAITING or table.seats[seat] is not None:
            sess.error(ErrorCode.NO_SUCH_TABLE, f"there is no table {table_id!r} with a seat for you", re=seq)
        elif sess.table_id is not None:
            sess.error(ErrorCode.ALREADY_AT_TABLE, f"you are already at table {sess.table_id}", re=seq)
        else:
            self._sit(table, sess, seat, seq)
        return True

    def came(self, name: str) -> None:
        """A player connected by ``name`` (here, or to another member of a cluster): to the
        seat a tournament's table keeps for them, if any (from another member: told of it
        and sent here)."""
        seated = False
        for table_id, seats in list(self._seats.items()):
            for player in seats:
                if name_key(player) == name_key(name):
                    self._call(table_id, player)
                    seated = True
        if seated:
            return
        for tid, director in list(self.directors.items()):  # out, or a bye, in a tournament still running
            told = said_again(director.state, name)
            if told is not None:
                self._tell_entrants(tid, no_table_view(director.state, told), only=[name])

    def _call(self, table_id: str, player: str) -> None:
        """Tell a player of their table, and seat them there if they are free."""
        tid, key = self._game_of[table_id]
        table = self.tables.tables.get(table_id)
        sess = self.names.get(name_key(player))
        director = self.directors.get(tid)
        if director is None:
            return
        game = next((g for g in director.state.open_games() if g.key == key), None)
        if table is None or game is None or table.state is not wire.TableState.WAITING:
            return
        seat = self._seats[table_id][player]
        if table.seats[seat] is not None:
            return
        left = max(0, min(600_000, int((director.state.deadline(key) - self.now()) * 1000)))
        told = wire.TournamentTable(tournament=tid, round=key.round, game=game_view(game), table=table_id, seat=seat,
                                    grace_ms=left)
        if sess is None or sess.closed:  # connected to another member, if any: sent here from there
            if self.relay is not None:
                self.relay.tell([player], told, seat=table_id)
            return
        sess.tell(told)
        if sess.table_id is None:
            self._sit(table, sess, seat, None)

    def _sit(self, table: Table, sess: ServerSession, seat: int, seq: int | None) -> None:
        tid, _ = self._game_of[table.id]
        if self.tables.sit(sess, table, seat, seq):
            self._run(tid, lambda d: d.arrive(sess.name or "", self.now()))

    # ------------------------------------------------------------------ effects

    def _run(self, tid: str, command: _Command) -> None:
        """A command of the server itself (a tick, an arrival, a game's end)."""
        director = self.directors.get(tid)
        if director is None:
            return
        try:
            step = command(director)
        except TournamentError as exc:
            log.warning("tournament %s: %s", tid, exc)
            return
        self.carry_out(tid, step)

    def carry_out(self, tid: str, step: Step, sess: Asker | None = None, seq: int | None = None) -> None:
        """Journal a step's events; once the journal holds them (nobody hears of an event
        before), carry out its effects and tell the entrants (and ``sess``, whose command
        ``seq`` it was), each step's in the order of the steps."""
        written = self._journal(tid, step.events)
        state = self.directors[tid].state
        tell = sess is not None or any(not isinstance(e, Arrived) for e in step.events)
        self._arm(tid)

        def announce() -> None:
            for effect in step.effects:
                self._effect(tid, effect, state)
            if tell:
                self._tell_entrants(tid, wire.TournamentUpdate(tournament=info_view(state)), sess, seq)

        before = self._told.get(tid)
        if before is None and not written:
            announce()
            return
        told = self._told[tid] = asyncio.ensure_future(_when_stored(before, written, announce, tid))
        told.add_done_callback(lambda done: self._told.pop(tid) if self._told.get(tid) is done else None)

    def _effect(self, tid: str, effect: Effect, state: TournamentState) -> None:
        if isinstance(effect, OpenTable):
            self.tasks.spawn(self._open(tid, effect))
        elif isinstance(effect, ForfeitSeats):
            table_id = self._table_of.pop((tid, effect.game), None)
            table = self.tables.tables.get(table_id) if table_id is not None else None
            if table_id is not None:
                self._forget(table_id)
            if table is not None and table.state is wire.TableState.WAITING:
                self.life.close_waiting(table, f"forfeited: {', '.join(effect.absent)} did not come")
        elif isinstance(effect, AnnounceRound):
            self._tell_entrants(tid, wire.TournamentRound(tournament=tid, round=effect.number,
                                                          games=[game_view(g) for g in effect.games],
                                                          byes=list(effect.byes)))
        elif isinstance(effect, AnnounceStandings):
            self._tell_entrants(tid, standings_view(tid, state, effect.rows, effect.final))
        elif isinstance(effect, TellNoTable):
            self._tell_entrants(tid, no_table_view(state, effect), only=state.entrant(effect.entrant).members)
        elif isinstance(effect, RecordResults):
            self._journal(tid, [ResultsKept(effect.rows, effect.cancelled)])
            log.info("tournament %s: %s", tid, "cancelled" if effect.cancelled else "finished")

    async def _open(self, tid: str, effect: OpenTable) -> None:
        director = self.directors.get(tid)
        seed = game_seed(director.state.seed, effect.game) if director is not None else None
        table = await self.tables.open(effect.preset, private=False, bot_takeover=effect.bots_allowed,
                                       ended=self._ender(tid, effect.game), seed=seed)
        if table is None:
            return  # the game's players are forfeited at its deadline
        if not is_open(self.directors.get(tid), effect.game):
            self.life.close_waiting(table, "its tournament game is over (or is run elsewhere now)")
            return
        self._journal(tid, [TableOpened(effect.game, table.id)])
        self._adopt(tid, effect, table)
        for player in effect.seats:
            self._call(table.id, player)

    def _adopt(self, tid: str, effect: OpenTable, table: Table) -> None:
        self._table_of[(tid, effect.game)] = table.id
        self._game_of[table.id] = (tid, effect.game)
        self._seats[table.id] = {player: seat for seat, player in enumerate(effect.seats)}

    def _forget(self, table_id: str) -> None:
        self._game_of.pop(table_id, None)
        self._seats.pop(table_id, None)

    def _ender(self, tid: str, game: GameKey) -> Callable[[Table], None]:
        return lambda table: self._ended(tid, game, table)

    def _ended(self, tid: str, game: GameKey, table: Table) -> None:
        self._table_of.pop((tid, game), None)
        self._forget(table.id)
        points = game_points(table)
        log.info("tournament %s: game %s ended %s", tid, game, points)
        self._run(tid, lambda d: d.finish_game(game, points, self.now()))

    def _journal(self, tid: str, records: Iterable[Record]) -> list[asyncio.Future[None]]:
        """Journal these records of the tournament: the writes (none without a journal)."""
        storage = self.life.storage
        writes: list[asyncio.Future[None]] = []
        if self.leases is not None and not self.leases.holds(tid):
            log.error("tournament %s: not journaled, its lease is not this server's", tid)
            return writes
        for record in records:
            kind, data = encode(record)
            seq = self.seq[tid]
            self.seq[tid] = seq + 1
            if storage is not None:
                written = asyncio.ensure_future(storage.write(AppendTournamentEvent(tid, seq, kind, data)))
                written.add_done_callback(_logged(tid, seq))
                writes.append(written)
        return writes

    def _tell_entrants(self, tid: str, body: wire.Body, sess: Asker | None = None, seq: int | None = None,
                       only: Iterable[str] | None = None) -> None:
        """Tell the tournament's players (``only``: these of them), wherever connected."""
        director = self.directors.get(tid)
        if director is None:  # run by another member now
            return
        elsewhere = []  # connected to other members, if any (the asker is told below)
        asker = name_key(sess.name or "") if sess is not None else None
        players = {p for e in director.state.entrants for p in e.members} if only is None else set(only)
        for player in sorted(players):
            other = self.names.get(name_key(player))
            if other is not None and other is not sess and not other.closed:
                other.tell(body)
            elif other is None and name_key(player) != asker:
                elsewhere.append(player)
        if sess is not None:
            sess.tell(body, re=seq)
        if self.relay is not None:
            self.relay.tell(elsewhere, body)

    def _arm(self, tid: str) -> None:
        old = self._timers.pop(tid, None)
        if old is not None:
            old.cancel()
        due = self.directors[tid].due()
        if due is not None:
            self._timers[tid] = self.clock.call_later(max(0.0, due - self.now()), lambda: self._tick(tid))

    def _tick(self, tid: str) -> None:
        self._timers.pop(tid, None)
        self._run(tid, lambda d: d.tick(self.now()))

    # ------------------------------------------------------------------ restart

    async def restore(self) -> None:
        """Rebuild every journaled tournament and go on with those being played (in a
        cluster sharing the journal: only those whose lease this server takes, later)."""
        if self.leases is not None:
            return
        grouped = await journaled(self.life.storage)
        for tid, records in grouped.items():
            self.last = max(self.last, tournament_number(tid))
            self.take(tid, records)
        if grouped:
            log.info("%d tournaments restored from the journal", len(self.directors))

    def take(self, tid: str, records: Sequence[tuple[str, str]]) -> bool:
        """Rebuild a tournament from its journal records and go on with it (whether it could)."""
        try:
            decoded = [decode(kind, data) for kind, data in records]
            director = Director.rebuild(r for r in decoded if is_event(r))  # type: ignore[misc]
        except (ValueError, TournamentError) as exc:
            log.error("tournament %s: its journal does not rebuild it, left alone: %s", tid, exc)
            return False
        self.directors[tid] = director
        self.seq[tid] = len(records)
        self._resume(tid, director, [r for r in decoded if isinstance(r, TableOpened)])
        self._arm(tid)
        return True

    def drop(self, tid: str) -> None:
        """Stop running a tournament at once (another member runs it now): nothing more
        of it is journaled or carried out here."""
        self.directors.pop(tid, None)
        self.seq.pop(tid, None)
        timer = self._timers.pop(tid, None)
        if timer is not None:
            timer.cancel()
        for (t, game), table_id in list(self._table_of.items()):
            if t == tid:
                del self._table_of[(t, game)]
                self._forget(table_id)

    def _resume(self, tid: str, director: Director, opened: Sequence[TableOpened]) -> None:
        tables = {o.game: o.table for o in opened}
        for effect in director.resume().effects:
            if not isinstance(effect, OpenTable):
                continue
            table = self.tables.tables.get(tables.get(effect.game, ""))
            if table is not None and table.state is wire.TableState.PLAYING:
                self._follow(tid, effect, table)
            elif self.leases is not None and effect.game in tables:
                self.tasks.spawn(self._await_table(tid, effect, tables[effect.game]))
            else:
                self.tasks.spawn(self._open(tid, effect))

    def _follow(self, tid: str, effect: OpenTable, table: Table) -> None:
        """Go on with a game under way at ``table``: its end is told to the director."""
        self._adopt(tid, effect, table)
        when_finished(table, self._ender(tid, effect.game))

    async def _await_table(self, tid: str, effect: OpenTable, table_id: str) -> None:
        """A game whose table the journal holds, in a cluster sharing it: followed once
        this server serves the table, its result taken from the journal if it ended on
        another member, opened again if it ended without one (closed before it began)."""
        storage = self.life.storage
        assert storage is not None and self.leases is not None
        while is_open(self.directors.get(tid), effect.game):
            table = self.tables.tables.get(table_id)
            if table is not None and table.state is wire.TableState.PLAYING:
                self._follow(tid, effect, table)
                return
            unfinished = {t.id for t in await storage.load_unfinished()}  # read before the result: no end unseen
            done = await storage.finished_game(table_id)
            if done is not None:
                abandoned = done.reason == wire.LeftReason.ABANDONED.value
                points = result_points(done.totals, done.winner if abandoned else None)
                self._run(tid, lambda d: d.finish_game(effect.game, points, self.now()))
                return
            waiting = table is not None and table.state is wire.TableState.WAITING
            if waiting or (table is None and table_id not in unfinished):
                if table is not None and waiting:
                    self.life.close_waiting(table, "its tournament game is opened again")
                await self._open(tid, effect)
                return
            await self.clock.sleep(self.leases_interval)

    async def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for told in list(self._told.values()):
            told.cancel()
        await self.tasks.close()


async def journaled(storage: Journal | None) -> dict[str, list[tuple[str, str]]]:
    """Every tournament's journal records, ``(kind, JSON)`` in order (none without a journal)."""
    grouped: dict[str, list[tuple[str, str]]] = {}
    for tid, _, kind, data in await storage.tournament_events() if storage is not None else []:
        grouped.setdefault(tid, []).append((kind, data))
    return grouped


def tournament_number(tid: str) -> int:
    """The number in a tournament's id (``c12``: 12; 0 for another id)."""
    return int(tid[1:]) if tid[1:].isdigit() else 0


def game_seed(tournament_seed: int, game: GameKey) -> int:
    """The seed a tournament game is dealt from: its tournament's, with the game's key (the
    same game is dealt alike wherever and whenever its table is opened)."""
    return random.Random(f"{tournament_seed}:{game.round}:{game.table}:{game.replay}").randrange(2**63)


def is_open(director: Director | None, game: GameKey) -> bool:
    """Whether the tournament's game is still to be played."""
    return director is not None and any(g.key == game for g in director.state.open_games())


async def _when_stored(before: asyncio.Future[None] | None, written: Sequence[asyncio.Future[None]],
                       announce: Callable[[], None], tid: str) -> None:
    """``announce`` once the step before has been told and these writes are stored (a write
    the journal refused is logged; the step is told all the same)."""
    if before is not None:
        await asyncio.gather(before, return_exceptions=True)
    await asyncio.gather(*written, return_exceptions=True)
    try:
        announce()
    except Exception:  # noqa: BLE001 - one tournament's failure must not stop the others
        log.exception("tournament %s: its step could not be carried out", tid)


def _logged(tid: str, seq: int) -> Callable[[asyncio.Future[None]], None]:
    """What logs a tournament event the journal did not store."""

    def done(written: asyncio.Future[None]) -> None:
        if not written.cancelled() and written.exception() is not None:
            log.error("tournament %s: event %d not journaled: %s", tid, seq, written.exception())

    return done

