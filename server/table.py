"""A table: its seats, its game master (the engine's GameMaster, the same class a local
game uses) and the NetworkPlayers that stand for its remote seats."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from dataclasses import dataclass, field
from typing import Callable, Sequence

from scopa.client.bots import make_bot
from scopa.engine import (
    Action,
    DealVoid,
    Declare,
    Declared,
    Event,
    GameEnded,
    GameMaster,
    GameStarted,
    HandDealt,
    IllegalMoveError,
    Play,
    Played,
    Player,
    RoundEnded,
    RoundStarted,
    RuleSet,
    View,
)
from scopa.engine.actions import DECLARATION_POINTS
from scopa.protocol import commands as wire
from scopa.protocol.convert import (
    action_from_wire,
    breakdown_to_wire,
    card_strs,
    legal_to_wire,
    view_to_wire,
)
from scopa.protocol.errors import ErrorCode

from .session import ClientSession
from .storage import Storage, StoredTable

log = logging.getLogger("scopa.server")


class NetworkPlayer(Player):
    """A remote seat: forwards "your turn" to its client and awaits the answer."""

    def __init__(self, table: Table, seat: int, session: ClientSession | None, name: str = "") -> None:
        self.table = table
        self.seat = seat
        self.session = session  # None: the seat is away (e.g. restored after a restart)
        self.name = (session.name if session is not None else name) or f"seat{seat}"
        self._pending: asyncio.Future[Play | Declare] | None = None
        self._turn: wire.YourTurn | None = None
        self._legal: Sequence[Play | Declare] = ()
        self._hand: set[str] = set()

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        moves, decls = legal_to_wire(legal)
        self._legal = legal
        self._turn = wire.YourTurn(event=self.table.next_event(), legal=moves, declarations=decls, view=view_to_wire(view))
        self._pending = asyncio.get_running_loop().create_future()
        if self.session is not None:  # an away seat is asked when it comes back
            self.session.send(self._turn, sender=self.table.party, recipient=self.session.party)
        try:
            return await self._pending
        finally:
            self._pending = None
            self._turn = None

    async def notify(self, event: Event) -> None:
        # Public events go to the whole table once (Table.broadcast); only the hand is private.
        if isinstance(event, HandDealt):
            hand = card_strs(event.hand)
            new = [c for c in hand if c not in self._hand]
            self._hand = set(hand)
            body = wire.Deal(event=self.table.next_event(), cards=new, hand=hand, stock=event.stock_left)
            if self.session is not None:
                self.session.send(body, sender=self.table.party, recipient=self.session.party)

    async def rejected(self, error: IllegalMoveError) -> None:
        """Not reached for network seats: answers are checked before they are accepted."""

    def receive(self, body: wire.Play | wire.Declare, seq: int) -> None:
        """A play or declaration from this seat's client: check it, then accept or refuse."""
        if self._pending is None or self._pending.done() or self._turn is None:
            self.session.error(ErrorCode.NOT_YOUR_TURN, "it is not your turn", re=seq, sender=self.table.party)
            return
        try:
            action = action_from_wire(body)
        except ValueError as exc:
            self._refuse(ErrorCode.BAD_BODY, str(exc), seq)
            return
        if action in self._legal:
            self._pending.set_result(action)
            return
        # Let the engine say precisely what is wrong; nothing changes (a copy is checked).
        state = self.table.master.state if self.table.master else None
        code, message = ErrorCode.ILLEGAL_MOVE, f"{body.NAME} is not one of the legal moves"
        if state is not None:
            try:
                state.copy().apply(action, self.seat)
            except IllegalMoveError as exc:
                code, message = _error_code(exc, action), str(exc)
        self._refuse(code, message, seq)

    def _refuse(self, code: ErrorCode, message: str, seq: int) -> None:
        self.session.error(code, message, re=seq, sender=self.table.party)
        if self._turn is not None:  # PROTOCOL.md §7.5: the same your_turn again
            self.session.send(self._turn, sender=self.table.party, recipient=self.session.party)

    def abandon(self) -> None:
        if self._pending is not None and not self._pending.done():
            self._pending.cancel()


def _error_code(exc: IllegalMoveError, action: Play | Declare) -> ErrorCode:
    if isinstance(action, Declare):
        return ErrorCode.ILLEGAL_DECLARATION
    try:
        return ErrorCode(exc.code)
    except ValueError:
        return ErrorCode.ILLEGAL_MOVE


@dataclass
class Seat:
    name: str
    session: ClientSession | None  # None: a built-in bot, or a person who is away
    token: str = ""
    bot: Player | None = None
    token_digest: str = ""  # sha256 hex of the seat token (what the journal keeps)
    strategy: str = ""  # a built-in bot's strategy


@dataclass(eq=False)
class Table:
    """One table of the lobby."""

    id: str
    rules: RuleSet
    seed: int
    private: bool = False
    on_finished: Callable[[Table], None] | None = None
    seats: list[Seat | None] = field(default_factory=list)
    state: wire.TableState = wire.TableState.WAITING
    master: GameMaster | None = None
    task: asyncio.Task[None] | None = None
    players: list[Player] = field(default_factory=list)
    storage: Storage | None = None  # journal of this table (None: no persistence)
    _event: int = 0

    def __post_init__(self) -> None:
        self.seats = [None] * self.rules.players

    @property
    def party(self) -> str:
        return f"table:{self.id}"

    @property
    def everyone(self) -> str:
        return f"table:{self.id}/all"

    def next_event(self) -> int:
        self._event += 1
        return self._event

    def sessions(self) -> list[ClientSession]:
        return [s.session for s in self.seats if s is not None and s.session is not None]

    def info(self) -> wire.TableInfo:
        return wire.TableInfo(
            id=self.id,
            rules=self.rules,
            description=self.rules.describe()[:200],
            seats=[s.name if s else None for s in self.seats],
            state=self.state,
            private=self.private,
        )

    # ------------------------------------------------------------------ seats

    def free_seat(self) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is None), None)

    def seat_client(self, session: ClientSession) -> tuple[int, str]:
        """Seat a client at the lowest free seat (R6: order of arrival); returns seat, token."""
        i = self.free_seat()
        assert i is not None and self.state is wire.TableState.WAITING
        token = secrets.token_urlsafe(24)
        self.seats[i] = Seat(session.name or f"seat{i}", session, token,
                             token_digest=hashlib.sha256(token.encode()).hexdigest())
        session.table = self
        if self.storage is not None:  # journaled before `joined` is sent
            self.storage.set_seat(self.id, i, self.seats[i].name, token_digest=self.seats[i].token_digest)
        return i, token

    def seat_bot(self, strategy: str) -> int:
        i = self.free_seat()
        assert i is not None
        name = f"{strategy}-bot-{i}"
        self.seats[i] = Seat(name, None, bot=make_bot(strategy, name, seed=self.seed + i), strategy=strategy)
        if self.storage is not None:
            self.storage.set_seat(self.id, i, name, bot=strategy)
        return i

    def unseat(self, session: ClientSession) -> None:
        for i, s in enumerate(self.seats):
            if s is not None and s.session is session:
                self.seats[i] = None
                if self.storage is not None:
                    self.storage.clear_seat(self.id, i)
        session.table = None

    def seat_of(self, session: ClientSession) -> int | None:
        return next((i for i, s in enumerate(self.seats) if s is not None and s.session is session), None)

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.seats)

    def announce_seats(self) -> None:
        body = wire.TableUpdate(table=self.info())
        for sess in self.sessions():
            sess.send(body, sender=self.party, recipient=self.everyone)

    # ------------------------------------------------------------------ the game

    def start(self, restore: Sequence[Action] = ()) -> None:
        """Start the game master (the seats are full); ``restore``: the journaled actions
        of a game to resume (after a server restart) instead of a new game."""
        self.players = []
        for i, s in enumerate(self.seats):
            assert s is not None
            if s.bot is not None:
                self.players.append(s.bot)
            else:  # a person; session None: away until they come back with their token
                self.players.append(NetworkPlayer(self, i, s.session, s.name))
        self.master = GameMaster(self.rules, self.players, self.seed)
        if restore:
            self.master.restore(restore)  # the seed's deals must match the journal's
        elif self.storage is not None:
            self.storage.start_table(self.id)
        if self.storage is not None:
            self.master.journal = self._journal
        self.master.observers.append(self.broadcast)
        self.state = wire.TableState.PLAYING
        self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")
        log.info("table %s: game started (%s) with %s", self.id, self.rules.describe(),
                 ", ".join(s.name for s in self.seats if s))

    @classmethod
    def from_storage(cls, stored: StoredTable, storage: Storage,
                     on_finished: Callable[[Table], None] | None = None) -> Table:
        """A journaled game, rebuilt after a restart and resumed where it stood: bots from
        their strategy, people as away seats that keep their token digest."""
        table = cls(stored.id, stored.rules, stored.seed, private=stored.private, on_finished=on_finished)
        for i, st in enumerate(stored.seats):
            assert st is not None
            if st.bot:
                table.seats[i] = Seat(st.name, None, bot=make_bot(st.bot, st.name, seed=stored.seed + i),
                                      strategy=st.bot)
            else:
                table.seats[i] = Seat(st.name, None, token_digest=st.token_digest or "")
        table.storage = storage
        table.start(restore=stored.actions)
        return table

    def _journal(self, action: Action) -> None:
        """GameMaster.journal: make the action durable before anyone is told of it."""
        assert self.master is not None and self.storage is not None
        self.storage.append_action(self.id, len(self.master.actions) - 1, action)

    async def _run(self) -> None:
        assert self.master is not None
        try:
            record = await self.master.run()
            log.info("table %s: game finished, winner side %s, totals %s (%s)",
                     self.id, record.winner, list(record.totals), record.reason)
            self._finish("game_over")
        except asyncio.CancelledError:
            raise
        except Exception:  # one table's failure must not touch any other table
            log.exception("table %s: game master failed; the game is abandoned", self.id)
            self.abandon("internal_error")

    def receive(self, session: ClientSession, body: wire.Play | wire.Declare, seq: int) -> None:
        seat = self.seat_of(session)
        if seat is None:
            session.error(ErrorCode.NOT_AT_TABLE, f"you are not seated at table {self.id}", re=seq, sender=self.party)
            return
        if self.state is not wire.TableState.PLAYING or self.master is None:
            session.error(ErrorCode.GAME_NOT_STARTED, f"the game at table {self.id} has not started", re=seq,
                          sender=self.party)
            return
        player = self.players[seat]
        assert isinstance(player, NetworkPlayer)
        if self.master.state.to_move != seat:
            session.error(ErrorCode.NOT_YOUR_TURN, f"it is seat {self.master.state.to_move}'s turn, not yours",
                          re=seq, sender=self.party)
            return
        player.receive(body, seq)

    def abandon(self, reason: str, leaver: ClientSession | None = None, re: int | None = None) -> None:
        """End a running game with no winner (a player left or the game master failed);
        ``leaver`` (who asked to leave, with the seq of its leave_table) is told ``left``."""
        if self.state is not wire.TableState.PLAYING:
            return
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
        for p in self.players:
            if isinstance(p, NetworkPlayer):
                p.abandon()
        totals = list(self.master.state.totals) if self.master else []
        body = wire.GameEnd(event=self.next_event(), winner=None, totals=totals, reason="abandoned")
        for sess in self.sessions():
            sess.send(body, sender=self.party, recipient=self.everyone)
        log.info("table %s: game abandoned (%s)", self.id, reason)
        self._finish("abandoned", leaver, re)

    def _finish(self, reason: str, leaver: ClientSession | None = None, re: int | None = None) -> None:
        self.state = wire.TableState.FINISHED
        self._store_result(reason)
        for sess in self.sessions():
            if sess is leaver:
                sess.send(wire.Left(table=self.id, reason="left"), sender=self.party, re=re)
            else:
                sess.send(wire.Left(table=self.id, reason=reason), sender=self.party)
            sess.table = None
        if self.on_finished is not None:
            self.on_finished(self)

    def _store_result(self, reason: str) -> None:
        if self.storage is None:
            return
        st = self.master.state if self.master is not None else None
        if reason == "game_over" and st is not None and st.end_reason is not None:
            reason = st.end_reason.value  # target, trentino, all_denari
        try:
            self.storage.finish_table(self.id, st.winner if st is not None and reason != "abandoned" else None,
                                      list(st.totals) if st is not None else [], reason)
        except Exception:  # the game is over either way; a failed write is logged, not fatal
            log.exception("table %s: could not record the result", self.id)

    async def broadcast(self, event: Event) -> None:
        """A public engine event, as its wire command, to everyone at the table."""
        body = self._event_body(event)
        if body is None:
            return
        for sess in self.sessions():
            sess.send(body, sender=self.party, recipient=self.everyone)

    def _event_body(self, event: Event) -> wire.Body | None:
        if isinstance(event, GameStarted):
            sides: list[list[int]] = [[] for _ in range(self.rules.num_sides)]
            for seat in range(self.rules.players):
                sides[self.rules.side_of(seat)].append(seat)
            seats = [
                wire.SeatInfo(seat=i, name=s.name, side=self.rules.side_of(i), bot=s.bot is not None)
                for i, s in enumerate(self.seats) if s is not None
            ]
            return wire.GameStart(event=self.next_event(), rules=self.rules, seats=seats, sides=sides)
        if isinstance(event, RoundStarted):
            return wire.RoundStart(
                event=self.next_event(), round=event.round_no, dealer=event.dealer, table=card_strs(event.table),
                stock=len(self.master.state.stock) if self.master else 0,
                dealer_bonus_cards=card_strs(event.bonus_cards), dealer_bonus_scope=event.dealer_bonus,
            )
        if isinstance(event, Played):
            return wire.Played(event=self.next_event(), seat=event.seat, card=str(event.card),
                               captured=card_strs(event.captured), scopa=event.scopa, table=card_strs(event.table))
        if isinstance(event, Declared):
            d = event.declaration
            return wire.Declared(event=self.next_event(), seat=event.seat, kind=wire.DeclarationKind(d.kind.value),
                                 hand=card_strs(event.hand), wild=d.wild, points=DECLARATION_POINTS[d.kind])
        if isinstance(event, RoundEnded):
            return wire.RoundEnd(
                event=self.next_event(), round=event.round_no, leftover=card_strs(event.leftovers),
                leftover_to=event.leftovers_to, cards=list(event.score.cards),
                breakdown=breakdown_to_wire(event.score), points=list(event.score.points), totals=list(event.totals),
            )
        if isinstance(event, GameEnded):
            return wire.GameEnd(event=self.next_event(), winner=event.winner, totals=list(event.totals),
                                reason=event.reason.value)
        if isinstance(event, (DealVoid, HandDealt)):
            return None
        return None
