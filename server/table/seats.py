"""The seats of a table: who sits where (a person's connection, or a built-in bot), the
digests of the seat tokens, and the grace period of a person whose connection dropped."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Callable

from scopa.bots import make_bot
from scopa.engine import Player, RuleSet
from scopa.protocol import commands as wire

from ..core import Clock, Timer, start_timer, bot_name
from ..journal import StoredTable
from ..conn import ServerSession
from .journaling import TableJournal


HELD = "+held"
"""Journaled after a bot's strategy (``greedy+held``) with the person's token digest: the
bot plays the seat because its person did not come back in time, and the person's token
still opens it (the person takes the seat back by resuming).  A seat whose person left
is journaled with the bare strategy: its token opens it no more."""


def token_digest(token: str) -> str:
    """What the server keeps of a seat token (the token itself is never stored or logged)."""
    return hashlib.sha256(token.encode()).hexdigest()


def bot_seats(free: list[int], bots: int, rules: RuleSet, person: int | None) -> list[int]:
    """The free seats a new table's ``bots`` take, in order: the lowest; but when seats
    stay open for people at a team table where a person sits (``person``), the other
    sides' seats first, so that the seats left for people are that person's partners
    (two friends play together against the bots)."""
    if person is None or bots >= len(free):
        return free
    own = rules.side_of(person)
    return sorted(free, key=lambda i: (rules.side_of(i) == own, i))


@dataclass(slots=True)
class Seat:
    name: str
    session: ServerSession | None  # None: a built-in bot, or a person who is away
    bot: Player | None = None
    token_digest: str = ""  # sha256 hex of the seat token: the token itself is never kept
    # (kept beside a bot that plays a person's seat held for them: the token takes it back)
    away: bool = False  # a person whose connection dropped (within the grace period)
    strategy: str = ""  # a built-in bot's strategy
    bot_from: wire.PlayAt | None = None  # a person's seat a bot took over: from this play
    bot_until: wire.PlayAt | None = None  # ... until this one, when the person took it back
    bot_played: bool = False  # the bot made a play since it took the seat (bot_from: its first)
    back_played: bool = False  # the person made a play since taking it back (bot_until: their first)
    your_turn: bytes = b""  # the envelope of the table's your_turn to this seat, prepared once per client
    your_turn_to: ServerSession | None = None  # the client it was prepared for
    your_turn_party: str = ""  # that client's party, its recipient

    def played(self, bot: bool, at: Callable[[], wire.PlayAt]) -> None:
        """The seat made a play (``bot``: a bot made it for the seat's person; ``at``: where
        it is in the game, asked only when it is kept).  A seat a bot took over names the
        bot's first play as where the bot began, and its person's first play after taking
        the seat back as where the bot stopped (as the journal's marks say it again after
        a restart, :func:`~scopa.server.table.marks.restore_spans`)."""
        if bot:
            if not self.bot_played:
                self.bot_from, self.bot_played = at(), True
        elif self.bot_until is not None and not self.back_played:
            self.bot_until, self.back_played = at(), True


class Seats(list[Seat | None]):
    """The seat list of one table (None: a free seat), in seat order.  Seats taken and
    left are journaled; a person who is away keeps the seat for ``grace`` seconds, then
    ``on_grace_over`` is told (with the seat).  A game restored from the journal that none
    of its people came back to in time is not played on by bots: it waits for them
    (``waiting``; no turn clock runs meanwhile) until one of them is back."""

    __slots__ = ("table_id", "journal", "rules", "seed", "bot_factory", "clock", "grace", "on_grace_over", "_grace_timers",
                 "restored", "waiting")

    def __init__(self, table_id: str, rules: RuleSet, seed: int, journal: TableJournal, clock: Clock, grace: float,
                 bot_factory: Callable[[str, str, int], Player] = make_bot,
                 on_grace_over: Callable[[int], None] | None = None) -> None:
        super().__init__([None] * rules.players)
        self.table_id = table_id
        self.journal = journal
        self.rules = rules
        self.seed = seed
        self.bot_factory = bot_factory  # (strategy, name, seed): the server's pool for bots that think
        self.clock = clock
        self.grace = grace
        self.on_grace_over = on_grace_over
        self._grace_timers: dict[int, Timer] = {}
        self.restored = False  # a game resumed from the journal after a restart
        self.waiting = False  # ... which none of its people came back to in time: it waits for them

    def free_seat(self) -> int | None:
        return next((i for i, s in enumerate(self) if s is None), None)

    @property
    def full(self) -> bool:
        return all(s is not None for s in self)

    def seat_client(self, session: ServerSession, token: str | None = None, at: int | None = None) -> tuple[int, str]:
        """Seat a client at the lowest free seat (R6: order of arrival), or at the free seat
        ``at`` the server chose for it; returns seat, token (the one the client chose, or a
        new random one)."""
        i = self.free_seat() if at is None else at
        assert i is not None and self[i] is None
        token = token or secrets.token_urlsafe(24)
        seat = self[i] = Seat(session.name or f"seat{i}", session, token_digest=token_digest(token))
        session.table_id = self.table_id
        self.journal.set_seat(i, seat.name, token_digest=seat.token_digest)  # before `joined` is sent
        return i, token

    def seat_bot(self, strategy: str, at: int | None = None) -> int:
        """Seat a bot at the lowest free seat, or at the free seat ``at``."""
        i = self.free_seat() if at is None else at
        assert i is not None and self[i] is None
        name = bot_name(strategy, i)
        self[i] = Seat(name, None, bot=self.bot_factory(strategy, name, self.seed + i), strategy=strategy)
        self.journal.set_seat(i, name, bot=strategy)
        return i

    def unseat(self, session: ServerSession) -> None:
        for i, s in enumerate(self):
            if s is not None and s.session is session:
                self[i] = None
                self.journal.clear_seat(i)
        session.table_id = None

    def seat_of(self, session: ServerSession) -> int | None:
        for i, s in enumerate(self):
            if s is not None and s.session is session:
                return i
        return None

    def detach(self, session: ServerSession) -> None:
        """Forget a connection that is being replaced by a resuming one (same seat)."""
        for s in self:
            if s is not None and s.session is session:
                s.session = None
        session.table_id = None

    def sessions(self) -> list[ServerSession]:
        return [s.session for s in self if s is not None and s.session is not None]

    def infos(self) -> list[wire.SeatInfo]:
        return [wire.SeatInfo(seat=i, name=s.name, side=self.rules.side_of(i), bot=s.bot is not None,
                              bot_from=s.bot_from, bot_until=s.bot_until)
                for i, s in enumerate(self) if s is not None]

    # ------------------------------------------------------------------ tokens

    def find_token(self, token: str) -> int | None:
        """The seat whose token this is (digests compared in constant time), if any."""
        return self.find_digest(token_digest(token))

    def find_digest(self, digest: str) -> int | None:
        """The seat whose token has this sha256 digest, if any."""
        found = None
        for i, s in enumerate(self):
            if s is not None and s.token_digest and hmac.compare_digest(s.token_digest, digest):
                found = i
        return found

    def void_tokens(self) -> None:
        """Every seat token is void from now on (the game is over and its grace period too)."""
        for s in self:
            if s is not None:
                s.token_digest = ""

    # ------------------------------------------------------------------ away

    def arm_grace(self, i: int) -> None:
        """Keep seat ``i`` for its person ``grace`` seconds (from now)."""
        old = self._grace_timers.pop(i, None)
        if old is not None:
            old.cancel()
        self._grace_timers[i] = start_timer(self.clock, self.grace, lambda: self._grace_over(i),
                                            name=f"grace-{self.table_id}-{i}")

    def back(self, i: int) -> None:
        """The person of seat ``i`` is back: its grace period stops.  To a game that waited
        for its people, the others whose grace ran out meanwhile are now as if it ran out now
        (a bot plays for them while they are away)."""
        timer = self._grace_timers.pop(i, None)
        if timer is not None:
            timer.cancel()
        if self.waiting:
            self.waiting = False
            for j, s in enumerate(self):
                if j != i and s is not None and s.away and j not in self._grace_timers and self.on_grace_over is not None:
                    self.on_grace_over(j)

    def nobody_here(self, but: int) -> bool:
        """No person is at the table but (perhaps) seat ``but``'s: every other seat is a bot's or away."""
        return all(s is None or s.bot is not None or s.away for j, s in enumerate(self) if j != but)

    def _grace_over(self, i: int) -> None:
        self._grace_timers.pop(i, None)
        if self.restored and self.nobody_here(i):  # restored, and none of its people back: the game waits for them
            self.waiting = True
            return
        if self.on_grace_over is not None:
            self.on_grace_over(i)

    def stop(self) -> None:
        """Stop every grace period."""
        for timer in self._grace_timers.values():
            timer.cancel()
        self._grace_timers.clear()

    # ------------------------------------------------------------------ restored

    def restore(self, stored: StoredTable) -> dict[int, str]:
        """The seats of a journaled game to resume: bots from their strategy, people as
        away seats that keep their token digest.  Returns the seats a bot took over -> the
        person's token digest."""
        self.restored = True
        taken_over: dict[int, str] = {}
        for i, st in enumerate(stored.seats):
            assert st is not None
            if st.bot:
                strategy, held = st.bot.removesuffix(HELD), st.bot.endswith(HELD)
                self[i] = Seat(st.name, None, bot=self.bot_factory(strategy, st.name, stored.seed + i),
                               token_digest=(st.token_digest or "") if held else "", strategy=strategy)
                if st.token_digest:  # a person's seat a bot took over (held: the token still opens it)
                    taken_over[i] = st.token_digest
            else:  # away until its client comes back with its token (hello resume)
                self[i] = Seat(st.name, None, token_digest=st.token_digest or "", away=True)
        return taken_over

    def restore_waiting(self, stored: StoredTable) -> None:
        """The seats taken at a journaled table still gathering players: bots from their
        strategy, people away (their grace period from now) until they come back."""
        for i, st in enumerate(stored.seats):
            if st is not None and st.bot:
                self[i] = Seat(st.name, None, bot=self.bot_factory(st.bot, st.name, stored.seed + i), strategy=st.bot)
            elif st is not None:
                self[i] = Seat(st.name, None, token_digest=st.token_digest or "", away=True)
                self.arm_grace(i)

    def restore_finished(self, stored: StoredTable) -> None:
        """The seats of a journaled game that is over, every token digest kept."""
        for i, st in enumerate(stored.seats):
            if st is not None:
                strategy = (st.bot or "").removesuffix(HELD)
                bot = make_bot(strategy, st.name, seed=stored.seed + i) if strategy else None
                self[i] = Seat(st.name, None, bot=bot, token_digest=st.token_digest or "", strategy=strategy)
