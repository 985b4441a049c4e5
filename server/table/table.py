"""A table: its game master (the engine's GameMaster, the same state machine a local game
drives) and the loop that drives it, over its parts: the seats (seats.py), the turns
and their clock (turns.py), what it sends and to whom, with the numbered event log
(broadcast.py) and what it journals (journaling.py).  A remote seat is its connection."""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
from dataclasses import InitVar, dataclass, field
from typing import Any, Awaitable, Callable, Sequence

from scopa.bots import make_bot
from scopa.engine import Action, EndReason, GameMaster, GameState, Player, RuleSet
from scopa.engine.effects import Effect
from scopa.engine.view import view as seat_view
from scopa.protocol import Message
from scopa.protocol import commands as wire
from scopa.protocol.convert import public_view_to_wire, rules_to_wire, view_to_wire

from ..core import metrics, Clock, SystemClock, Timer, start_timer
from .broadcast import RESTORED_EVENTS, Broadcaster, EventLog
from ..journal import FinishTable, Journal, Fenced, FinishedTable, StoredTable
from .notices import SeatNotices, TableNotices
from .seats import HELD, Seats, token_digest
from ..conn import ServerSession
from .journaling import TableJournal
from .leases import Lease
from .loop import Inbox
from .marks import PlayMarks, restore_spans
from .turns import Turns, YieldingBot
from .loop import TableLoop, log_abandoned

log = logging.getLogger("scopa.server")


@dataclass(eq=False, slots=True)
class Table(TableLoop, TableNotices):
    """One table of the lobby."""

    id: str
    rules: RuleSet
    seed: int
    private: bool = False
    on_finished: Callable[[Table], None] | None = None
    on_result: Callable[[Table, FinishTable], Awaitable[None] | None] | None = None  # journals the end, awaitably
    on_vacated: Callable[[Table], None] | None = None  # a waiting table lost an away seat
    on_changed: Callable[[Table], None] | None = None
    """Told whenever what ``info()`` shows changes; the server coalesces these into one
    table_update per table and event-loop turn.  None: the update is sent at once."""
    state: wire.TableState = wire.TableState.WAITING
    master: GameMaster | None = None
    task: asyncio.Task[None] | None = None
    players: list[Player | None] = field(default_factory=list)
    """Per seat, the bot that plays it (None: a person)."""
    grace: float = 120.0  # seconds an away seat is kept before bot_takeover or abandoning
    bot_takeover: bool = True  # after the grace period a built-in bot plays the seat
    turn_timeout: float | None = None  # seconds a seat has to move; None: no turn clock
    clock: Clock = field(default_factory=SystemClock)
    log_limit: InitVar[int] = 10_000  # events kept for reconnecting clients (older ones: a snapshot)
    invite_digest: str = ""  # a private table: sha256 hex of its invite code (the code is never kept)
    update_interval: InitVar[float] = 0.0  # Limits.table_update_interval: spectator changes are coalesced
    notice_window: float = 0.0  # Limits.resume_window: one seat_away/seat_back pair per seat per window
    finish_reason: str = ""
    closed: bool = False  # removed from the lobby (a table_update says state "closed")
    member: str | None = None  # in a cluster: the address of the server it plays on (its map says so)
    rematch_of: str | None = None  # the finished table whose players (rematch_names) join this one uninvited
    rematch_names: frozenset[str] = frozenset()
    rematch_watchers: frozenset[str] = frozenset()  # those who watched the end of rematch_of: they watch this one uninvited
    lease: Lease | None = None
    """In a cluster sharing one journal: the leases, asked whether this server still holds
    the table's before each action is journaled, and told when the journal refused one
    because another server took the table over (None: no leases)."""
    taken_over: dict[int, str] = field(default_factory=dict)
    """Seats a bot took over during the game -> the person's seat token digest."""
    forfeits: list[int] = field(default_factory=list)
    """Seats whose person left the running game or did not come back to it, in order."""
    bot_factory: Callable[[str, str, int], Player] = make_bot  # (strategy, name, seed): the server's pool for bots that think
    party: str = field(init=False)  # table:<id>, its party on the wire
    everyone: str = field(init=False)  # table:<id>/all, the party of its public events
    journal: TableJournal = field(init=False)  # its storage: None until the server journals the table
    events: EventLog = field(init=False)
    seats: Seats = field(init=False)
    broadcaster: Broadcaster = field(init=False)  # its spectators too
    turns: Turns = field(init=False)
    _notices: SeatNotices | None = None  # made when first needed (TableNotices.notices)
    _expiry: Timer | None = None  # a finished table's tokens: void when it fires
    _info: tuple[tuple[Any, ...], wire.TableInfo] | None = None
    _people: tuple[int, ...] = ()  # seats a person held when the game began: their hands go out
    _told: int = 0  # the game's actions journaled, which the table may have told of
    marks: PlayMarks = field(default_factory=PlayMarks)  # how its plays came about
    _inbox: Inbox[list[Effect]] = field(default_factory=Inbox)
    """Effects of the game master for the table's loop to carry out, in order."""

    def __post_init__(self, log_limit: int, update_interval: float) -> None:
        self.journal = TableJournal(self.id)
        self.journal.on_unstored = self._unstored
        self.events = EventLog(log_limit)
        self.seats = Seats(self.id, self.rules, self.seed, self.journal, self.clock, self.grace,
                           bot_factory=self.bot_factory, on_grace_over=self._grace_expired)
        self.broadcaster = Broadcaster(self.id, self.seats, self.events, self.clock, update_interval,
                                       announce=self.announce_seats)
        self.party, self.everyone = self.broadcaster.party, self.broadcaster.everyone  # one copy of each a table
        self.turns = Turns(self.id, self.seats, self.broadcaster, self.events, self.journal, self.clock,
                           self.turn_timeout, self._inbox)
        self.broadcaster.turn_clock = self.turns.new_turn_ms

    def info(self) -> wire.TableInfo:
        """The table map of the lobby.  A waiting table's is kept until something in it
        changes (the lobby lists waiting tables most: a listing page costs its page, not a
        model per table per call); a table in play makes it when asked, and holds none
        through its game."""
        spectators = self.broadcaster.spectators
        key = (self.state, self.closed, self.private, self.turn_timeout, len(spectators), self.member,
               tuple((s.name, s.away, s.bot is not None) if s is not None else None for s in self.seats))
        if self._info is None or self._info[0] != key:
            info = wire.TableInfo(
                id=self.id,
                rules=rules_to_wire(self.rules),
                description=self.rules.describe()[:200],
                seats=[s.name if s else None for s in self.seats],
                state=wire.TableState.CLOSED if self.closed else self.state,
                private=self.private,
                spectators=len(spectators),
                away=[i for i, s in enumerate(self.seats) if s is not None and s.away],
                turn_timeout=self.turn_timeout,
                member=self.member,
                bot_takeover=self.bot_takeover,
                bots=[i for i, s in enumerate(self.seats) if s is not None and s.bot is not None],
                rematch_of=self.rematch_of, abandoned=self.finish_reason == wire.LeftReason.ABANDONED.value,
            )
            self._info = (key, info) if self.state is wire.TableState.WAITING else None
            return info
        return self._info[1]

    def snapshot(self, seat: int | None = None) -> wire.Snapshot:
        """The table now: for a seat (its own view too) or a spectator (public only, and the chat kept)."""
        seats, sides = self.seats.infos(), self.rules.seats_by_side()
        public = you = None
        state = self.game_state()
        if state is not None:
            actions = self.master.actions if self.master is not None else []
            public = self.marks.view(actions, self._told, public_view_to_wire(seat_view(state, None)))
            if seat is not None:
                you = self.marks.view(actions, self._told, view_to_wire(seat_view(state, seat)))
        return wire.Snapshot(event=self.events.last, table=self.info(), seats=seats, sides=sides, public=public,
                             you=you, turn_left_ms=self.turns.left_ms(), chat=[*self.broadcaster.said] if seat is None else [],
                             last_round=self.events.round_end if public is not None else None)

    def _play_at(self) -> wire.PlayAt:
        """The next play of the game as the table has told it (its round and index in it)."""
        state = self.game_state()
        return wire.PlayAt(round=state.round_no if state else 0, play=len(state.round_plays) if state else 0)

    def game_state(self) -> GameState | None:
        """The game as told so far (the game master may be ahead while a journal write is awaited)."""
        return self.master.state_after(self._told) if self.master is not None else None

    # ------------------------------------------------------------------ who may come, away, back, watching

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

    def seat_away(self, session: ServerSession) -> None:
        """A seated client's connection dropped (the game waiting or running): keep the
        seat for the grace period and wait for its client."""
        i = self.seats.seat_of(session)
        session.table_id = None
        if i is None:
            return
        seat = self.seats[i]
        assert seat is not None
        seat.session, seat.away = None, True
        self.seats.arm_grace(i)
        log.info("table %s: seat %s (%s) is away; waiting %ss", self.id, i, seat.name, self.grace)
        went = self.clock.now()
        self.notices.away(i, lambda: wire.SeatAway(seat=i, name=seat.name,
                                                   grace_seconds=max(0.0, round(self.grace - (self.clock.now() - went), 3))),
                          lambda: self.seats[i] is seat and seat.away)
        self.announce_seats()

    def resume(self, session: ServerSession, i: int, token: str, last_event: int, re: int) -> None:
        """The client of seat ``i`` is back: joined, then at a waiting table a snapshot
        (who sits where), else what it missed (or a snapshot, followed by the
        ``game_end`` if the game is over), then its pending turn; if the game ended
        meanwhile, then ``left``."""
        seat = self.seats[i]
        assert seat is not None
        self.seats.back(i)
        was_away, (seat.session, seat.away) = seat.away, (session, False)
        playing = self.state is wire.TableState.PLAYING
        session.tell(wire.Joined(table=self.id, seat=i, side=self.rules.side_of(i), token=token, resumed=True,
                                 chat=list(self.broadcaster.said)), re=re)
        if self.state is wire.TableState.WAITING:
            session.table_id = self.id
            session.send(Message(self.snapshot(i), session.party, self.party))
            log.info("table %s: seat %s (%s) is back", self.id, i, seat.name)
            if self.notices.back(i, wire.SeatBack(seat=i, name=seat.name)) or was_away:
                self.announce_seats()
            return
        missed = self.events.missed(i, last_event)
        if missed is None:
            session.send(Message(self.snapshot(i), session.party, self.party))
            if not playing and self.events.end is not None:
                session.send(Message(self.events.end, self.everyone, self.party))
        else:
            self.broadcaster.resend(session, missed)
        log.info("table %s: seat %s (%s) is back", self.id, i, seat.name)
        if playing:
            session.table_id = self.id
            if seat.bot is not None:  # a bot played the seat held for its person, who takes it back
                self._person_takes_back(i)
            elif self.notices.back(i, wire.SeatBack(seat=i, name=seat.name, turn_left_ms=self.turns.left_ms())) \
                    or was_away:
                self.announce_seats()
            self.turns.ask_again(i)
        else:
            seat.session = None
            session.tell(wire.Left(table=self.id, reason=self.finish_reason or wire.LeftReason.GAME_OVER.value))

    def _grace_expired(self, i: int) -> None:
        """The grace period of away seat ``i`` is over: free again at a waiting table;
        in a running game, a bot takes it over (or, without bot_takeover, the game is
        abandoned)."""
        seat = self.seats[i]
        if seat is None or not seat.away:
            return
        if self.state is wire.TableState.WAITING:
            log.info("table %s: seat %s (%s) did not come back in %ss; it is free again",
                     self.id, i, seat.name, self.grace)
            self.seats[i] = None
            self.journal.clear_seat(i)
            if self.on_vacated is not None:
                self.on_vacated(self)
            return
        if self.state is not wire.TableState.PLAYING:
            return
        self.forfeits.append(i)
        if not self.bot_takeover:
            log.info("table %s: seat %s (%s) did not come back in %ss", self.id, i, seat.name, self.grace)
            self.abandon(gone=i)
            return
        self._bot_takes(i, held=True)

    def leave(self, session: ServerSession, re: int) -> None:
        """A seated person leaves the running game (``leave_table``): told ``left``; with
        ``bot_takeover`` and another person still at the table, a built-in bot plays the
        seat for the rest of the game (the others get ``seat_replaced``), otherwise the
        game is abandoned."""
        i = self.seats.seat_of(session)
        others = any(st is not None and st.bot is None and j != i for j, st in enumerate(self.seats))
        if i is None or not self.bot_takeover or not others:  # the caller saw the game running
            self.abandon(leaver=session, re=re)
            return
        self.forfeits.append(i)
        log.info("table %s: seat %s (%s) left the game", self.id, i, session.party)
        self.seats.detach(session)
        session.tell(wire.Left(table=self.id, reason=wire.LeftReason.LEFT.value), re=re)
        self._bot_takes(i)

    def _bot_takes(self, i: int, held: bool = False) -> None:
        """A built-in bot plays seat ``i`` (a person's, left or gone) for the rest of the
        game; ``held``: its person did not come back in time, and may still take the seat
        back by resuming with its token (a person who left may not)."""
        seat = self.seats[i]
        assert seat is not None
        self.taken_over[i] = seat.token_digest
        bot = self.bot_factory("greedy", seat.name, self.seed + i)
        seat.away, seat.bot, seat.strategy = False, bot, "greedy"
        seat.bot_from, seat.bot_until, seat.bot_played = self._play_at(), None, False
        if not held:
            seat.token_digest = ""
        if i < len(self.players):
            self.players[i] = player = YieldingBot(bot)
            self.turns.take_over(i, player)
        try:
            # The person's digest stays beside the bot: a restart still knows a bot took over.
            self.journal.set_seat(i, seat.name, token_digest=self.taken_over[i], bot="greedy" + (HELD if held else ""))
        except Exception:  # noqa: BLE001 - the game goes on; only a restart would miss it
            log.exception("table %s: could not journal the bot taking seat %s", self.id, i)
        log.info("table %s: a bot takes seat %s (%s)", self.id, i, seat.name)
        self.broadcaster.tell_seat(wire.SeatReplaced(seat=i, name=seat.name, strategy="greedy"),
                                   numbered=self.master is not None)
        self.announce_seats()

    def _person_takes_back(self, i: int) -> None:
        """The person of seat ``i``, which a bot played since their grace period ran out,
        is back with its token: they play it again from now on (a turn the bot was
        thinking over is theirs, on the turn clock); everyone gets ``seat_back`` with
        ``bot_played``."""
        seat = self.seats[i]
        assert seat is not None
        seat.bot, seat.strategy, seat.bot_until, seat.back_played = None, "", self._play_at(), False
        self.taken_over.pop(i, None)
        if i in self.forfeits:
            self.forfeits.remove(i)
        if i < len(self.players):
            self.players[i] = None
        try:
            self.journal.set_seat(i, seat.name, token_digest=seat.token_digest)
        except Exception:  # noqa: BLE001 - the game goes on; only a restart would miss it
            log.exception("table %s: could not journal the person taking seat %s back", self.id, i)
        log.info("table %s: seat %s (%s) is played by its person again", self.id, i, seat.name)
        body = wire.SeatBack(seat=i, name=seat.name, turn_left_ms=self.turns.left_ms(), bot_played=True)
        if not self.notices.back(i, body):
            self.broadcaster.tell_seat(body, numbered=True)
        self.announce_seats()

    def watch(self, session: ServerSession, re: int, last_event: int | None = None) -> None:
        """A spectator: a public snapshot now (the seats told away then: their seat_away, with
        the grace left), then the public events.  Watching again (``last_event``: the last
        event it saw): the public events after it first, when the log still has them; a
        game that ended meanwhile ends with ``left``."""
        over = self.state is wire.TableState.FINISHED
        missed = self.events.missed(None, last_event) if last_event is not None else None
        self.broadcaster.resend(session, missed or ())
        session.send(Message(self.snapshot(None), session.party, self.party, re))
        if over:
            if missed is None and self.events.end is not None:
                session.send(Message(self.events.end, self.everyone, self.party))
            session.tell(wire.Left(table=self.id, reason=self.finish_reason or wire.LeftReason.GAME_OVER.value))
            return
        self.broadcaster.add_spectator(session, self.notices.away_now(self.info().away) if missed is None else [])

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
        self.broadcaster.send_update(self.info())

    def cancel_timers(self) -> None:
        self.seats.stop()
        if self._notices is not None:  # no notices made: none held
            self._notices.stop()
        self.turns.stop()
        self.broadcaster.stop()
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None

    def _expire_tokens(self) -> None:
        """The grace period after the end is over: the seat tokens are void and the event
        log is freed (a client that comes back later gets ``bad_token``)."""
        self._expiry = None
        self.seats.void_tokens()
        self.events.expire()

    # ------------------------------------------------------------------ the game

    def start(self, restore: Sequence[Action] = ()) -> None:
        """Start the game master (the seats are full); ``restore``: the journaled actions
        of a game to resume (after a server restart) instead of a new game."""
        seats = [s for s in self.seats if s is not None]
        assert len(seats) == len(self.seats)
        # A person's seat (session None: away until they come back with their token) has no bot.
        self.players = [YieldingBot(s.bot) if s.bot is not None else None for s in seats]
        self._people = tuple(i for i, s in enumerate(seats) if s.bot is None)
        self.master = self.turns.master = GameMaster(self.rules, self.seed, [s.name for s in seats])
        if restore:
            self.master.restore(restore)  # the seed's deals must match the journal's
            self._told = len(restore)
        else:
            self.journal.start()
            metrics.GAMES_STARTED.inc()
        self.state, self._info = wire.TableState.PLAYING, None  # no map of the waiting table held through the game
        # With no journal write to await, a move is carried out from the inbox at once;
        # with one, the table's task awaits each.
        self._inbox.carry = self._carry_now if self.journal.storage is None and self.lease is None else None
        if restore:  # event numbers go on above any the clients saw before the restart
            self.events.restart_at(16 * (len(restore) + 2))
        self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")
        for i, s in enumerate(self.seats):  # restored people: away until they resume
            if s is not None and s.bot is None and s.session is None:
                s.away = True
                self.seats.arm_grace(i)
        self.journal.tell_when_stored(self.announce_seats)  # the state is now "playing"
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
        table.taken_over.update(table.seats.restore(stored))
        table.journal.storage = storage
        table.marks.by_action.update(stored.marks)
        table.start(restore=stored.actions)
        assert table.master is not None
        restore_spans(table.rules, table.master.first_dealer, stored.actions, stored.marks, table.seats, table.taken_over)
        for i, s in enumerate(table.seats):
            if s is not None and s.away:
                table.seats.arm_grace(i)  # the grace period starts again with the new process
        return table

    @classmethod
    def finished_from_storage(cls, done: FinishedTable, expires_in: float, **options: Any) -> Table:
        """A game that ended shortly before a restart, kept so that a client which missed
        its end can still resume: a snapshot, the ``game_end``, then ``left``, until
        ``expires_in`` seconds from now (``options``: the server's grace, clock)."""
        stored, result = done.table, done.result
        table = cls(stored.id, stored.rules, stored.seed, private=stored.private, **options)
        table.seats.restore_finished(stored)
        table.state, table.finish_reason = wire.TableState.FINISHED, wire.LeftReason.GAME_OVER.value
        table.events.restart_at(RESTORED_EVENTS)  # any event a client saw is older
        table.events.end = wire.GameEnd(event=table.events.next_event(), winner=result.winner,
                                        totals=list(result.totals), reason=result.reason, leaver=result.leaver)
        table._expiry = start_timer(table.clock, max(expires_in, 0.0), table._expire_tokens,
                                    name=f"expiry-{table.id}")
        return table

    def _unstored(self, exc: BaseException) -> None:
        """The journal refused the seats or start: given up (another server has it) or abandoned."""
        if isinstance(exc, Fenced) and self.lease is not None:
            self.lease.fenced(self.id)
        else:
            self.abandon("the journal did not store its start")

    def abandon(self, reason: str = "", leaver: ServerSession | None = None, re: int | None = None, gone: int | None = None) -> None:
        """End a running game with no winner (``reason``: why, when no seat ended it); ``leaver`` (who asked to
        leave, with its leave_table's seq) is told ``left``; ``game_end`` names its seat, or ``gone``, a seat not come back."""
        if self.state is not wire.TableState.PLAYING:
            return
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
        seat = self.seats.seat_of(leaver) if leaver is not None else None
        if seat is not None:
            self.forfeits.append(seat)
        seat = gone if seat is None else seat
        totals = list(self.master.state.totals) if self.master else []
        self.broadcaster.emit(wire.GameEnd(event=self.events.next_event(), winner=None, totals=totals,
                                           reason=EndReason.ABANDONED.value, leaver=seat))
        log_abandoned(self.id, reason, leaver.party if leaver is not None else None, gone)
        metrics.GAMES_ABANDONED.inc()
        self._finish(wire.LeftReason.ABANDONED.value, leaver, re, left_seat=seat)

    def _finish(self, reason: str, leaver: ServerSession | None = None, re: int | None = None,
                left_seat: int | None = None) -> None:
        self.state = wire.TableState.FINISHED
        self.turns.master = None  # no answer is taken any more
        self.finish_reason = reason
        self.cancel_timers()
        # A seat whose client is away (or drops right now) may still resume to learn how
        # the game ended: the log and the tokens are kept for the grace period.  With no
        # seat token at the table (bots only) nobody can come back: free it now.
        if any(st is not None and st.token_digest for st in self.seats):
            self._expiry = start_timer(self.clock, self.grace, self._expire_tokens, name=f"expiry-{self.id}")
        else:
            self._expire_tokens()
        on_result = self.on_result
        self.journal.finish(self.master.state if self.master is not None else None, reason,
                            None if on_result is None else lambda end: on_result(self, end), left_seat)
        # The state is now "finished": told to the table at once, before anyone leaves it
        # (the coalesced update then reaches only the lobby watchers).
        self.send_update()
        if self.on_changed is not None:
            self.on_changed(self)
        for sess in self.seats.sessions():
            if sess is leaver:
                sess.tell(wire.Left(table=self.id, reason=wire.LeftReason.LEFT.value), re=re)
            else:
                sess.tell(wire.Left(table=self.id, reason=reason))
            sess.table_id = None
        self.broadcaster.let_spectators_go(wire.Left(table=self.id, reason=reason))
        if self.on_finished is not None:
            self.on_finished(self)
