"""NetworkPlayer: a remote seat as the game master sees it — a ``Player`` that forwards
"your turn" to its client and awaits the answer, checking it before accepting it."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Sequence

from scopa.engine import Declare, Event, HandDealt, IllegalMoveError, Play, Player, View
from scopa.engine.master import MAX_REFUSALS
from scopa.protocol import commands as wire
from scopa.protocol.convert import action_from_wire, card_strs, legal_to_wire, view_to_wire
from scopa.protocol.errors import ErrorCode

from .session import ClientSession

if TYPE_CHECKING:
    from .table import Table

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
        self._view: View | None = None
        self._hand: set[str] = set()
        self.bot: Player | None = None
        """A built-in bot that took the seat over when its grace period ran out."""
        self._bot_move: asyncio.Task[Play | Declare] | None = None
        self.refusals = 0
        """Answers refused in the pending turn (MAX_REFUSALS: the game master plays)."""

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        if self.bot is not None:
            return await self.bot.choose(view, legal)
        moves, decls = legal_to_wire(legal)
        self._legal = legal
        self._view = view
        self._turn = wire.YourTurn(event=self.table.next_event(), legal=moves, declarations=decls, view=view_to_wire(view))
        self._pending = asyncio.get_running_loop().create_future()
        self.refusals = 0
        timer = self.table.arm_turn_timer(self)  # armed before anyone hears of the turn
        self.table.emit(self._turn, seat=self.seat)  # an away seat is asked again when it comes back
        try:
            return await self._pending
        finally:
            if timer is not None:
                timer.cancel()
            self._pending = None
            self._turn = None

    @property
    def pending_turn(self) -> wire.YourTurn | None:
        return self._turn if self._pending is not None and not self._pending.done() else None

    def awaits_answer(self) -> bool:
        """Whether a your_turn of this seat is waiting for its client's answer."""
        return self.bot is None and self.session is not None and self.pending_turn is not None

    def resend_turn(self) -> None:
        """After a reconnect: the turn still waiting for this seat's answer (same event)."""
        turn = self.pending_turn
        if turn is not None and self.session is not None:
            self.session.send(turn, sender=self.table.party, recipient=self.session.party)

    def force(self, reason: str) -> None:
        """The game master plays for this seat (the turn timer ran out, or too many refused
        answers): the first legal play."""
        if self._pending is None or self._pending.done():
            return
        self.table.forced_reason = reason
        self._pending.set_result(next(a for a in self._legal if isinstance(a, Play)))

    def takeover(self, bot: Player) -> None:
        """A built-in bot plays this seat from now on (also the turn it is waiting for)."""
        self.bot = bot
        pending, view, legal = self._pending, self._view, self._legal
        if pending is None or pending.done() or view is None:
            return

        def answer(task: asyncio.Task[Play | Declare]) -> None:
            if pending.done():
                return
            if task.cancelled() or task.exception() is not None or task.result() not in legal:
                pending.set_result(next(a for a in legal if isinstance(a, Play)))
            else:
                pending.set_result(task.result())

        self._bot_move = asyncio.ensure_future(bot.choose(view, legal))
        self._bot_move.add_done_callback(answer)

    async def notify(self, event: Event) -> None:
        # Public events go to the whole table once (Table.broadcast); only the hand is private.
        if isinstance(event, HandDealt):
            hand = card_strs(event.hand)
            new = [c for c in hand if c not in self._hand]
            self._hand = set(hand)
            body = wire.HandDeal(event=self.table.next_event(), cards=new, hand=hand, stock=event.stock_left)
            self.table.emit(body, seat=self.seat)
        if self.bot is not None:
            await self.bot.notify(event)

    async def rejected(self, error: IllegalMoveError) -> None:
        """Not reached for network seats: answers are checked before they are accepted."""

    def receive(self, body: wire.PlayCard | wire.MakeDeclaration, seq: int) -> None:
        """A play or declaration from this seat's client: check it, then accept or refuse."""
        if self.session is None:
            return  # an away seat sends nothing (its client resumes first)
        if self._pending is None or self._pending.done() or self._turn is None:
            self.session.error(ErrorCode.NOT_YOUR_TURN, "it is not your turn", re=seq, sender=self.table.party)
            return
        if body.turn is not None and body.turn != self._turn.event:
            # A play for a turn that is over (e.g. resent after a reconnect): never applied twice.
            self._refuse(ErrorCode.NOT_YOUR_TURN, f"turn {body.turn} is over; this is turn {self._turn.event}", seq,
                         counted=False)
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

    def refuse_unreadable(self, code: ErrorCode, message: str, seq: int | None) -> None:
        """A play or declare of this seat that could not be decoded (``bad_body``): refused
        like any other answer, so the same your_turn follows (or the default move)."""
        if self.pending_turn is None or self.session is None:
            if self.session is not None:
                self.session.error(code, message, re=seq, sender=self.table.party)
            return
        self._refuse(code, message, seq, counted=True)

    def _refuse(self, code: ErrorCode, message: str, seq: int | None, counted: bool = True) -> None:
        """Refuse an answer: the error, then the same your_turn; the MAX_REFUSALS-th refused
        answer of a turn makes the game master play the default move instead."""
        session = self.session
        if session is None:
            return
        session.error(code, message, re=seq, sender=self.table.party)
        if counted:
            self.refusals += 1
            if self.refusals >= MAX_REFUSALS:
                log.info("table %s: seat %s refused %s times; the game master plays", self.table.id, self.seat,
                         self.refusals)
                self.force("refused")
                return
        if self._turn is not None:  # PROTOCOL.md §7: the same your_turn again
            session.send(self._turn, sender=self.table.party, recipient=session.party)

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
