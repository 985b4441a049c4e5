"""`scopa bot`: run a bot (built-in or a user's :class:`Bot` subclass) against a server.

Without a table id the bot joins the first table waiting for players, or creates a
2-player table and waits.  Two bots that both found nothing and both created a table
would wait for ever, so a waiting bot looks at the lobby now and then (every page of
the waiting tables: a busy server lists many): if another table is waiting too, the bot
whose table sorts later moves to the one that sorts first (both apply the same order,
so exactly one of them moves).

A refusal the bot can wait out is a wait, not an end: ``too_many_tables`` (its address,
or the server, has as many waiting tables as it allows) sends it back to the lobby to
join a waiting table of its rules, or, with none listed, to wait and try again, waiting
longer each time (``REFUSED_FIRST_WAIT`` doubling up to ``REFUSED_MOST_WAIT``, each wait
a little shorter or longer at random so that many bots do not come back together);
``rate_limited`` waits as long as the server said (``retry_after``).  Every other
refusal (bad rules, an unknown bot, a table that is not there) ends the run with it.
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from scopa.bots.loader import load_bot_class
from scopa.engine import Event, IllegalMoveError, Player, RuleSet, View
from scopa.engine.actions import Declare, Play
from scopa.protocol import ErrorCode, TableInfo, TableState
from scopa.protocol.convert import rules_to_wire

from ..game import GameResult
from ..net import ClientSession, ServerRefused

LOBBY_POLL_SECONDS = 1.0
"""How long a bot waits at its own empty table before looking at the lobby again."""
REFUSED_FIRST_WAIT = 1.0
"""Seconds a bot refused ``too_many_tables`` waits before it looks and tries again (the first time)."""
REFUSED_MOST_WAIT = 30.0
"""The longest wait between two tries after ``too_many_tables``."""
RATE_LIMITED_WAIT = 1.0
"""Seconds a bot waits after a ``rate_limited`` that does not say how long."""


class DelayedPlayer(Player):
    """Another Player that waits ``delay`` seconds before each move (`scopa bot --delay`)."""

    def __init__(self, player: Player, delay: float) -> None:
        self.player = player
        self.delay = delay
        self.name = getattr(player, "name", "bot")

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        await asyncio.sleep(self.delay)
        return await self.player.choose(view, legal)

    async def notify(self, event: Event) -> None:
        await self.player.notify(event)

    async def rejected(self, error: IllegalMoveError) -> None:
        await self.player.rejected(error)


def table_order(table: TableInfo) -> tuple[int, str]:
    """The order bots agree on: numeric ids by number, then the rest by text."""
    return (int(table.id), "") if table.id.isdigit() else (sys.maxsize, table.id)


def joinable(table: TableInfo, rules: RuleSet | None) -> bool:
    return (
        table.state is TableState.WAITING
        and None in table.seats
        and (rules is None or table.rules == rules_to_wire(rules))
    )


@dataclass
class BotRunner:
    """Seats ``player`` and plays ``games`` games (each at a table found or made)."""

    session: ClientSession
    player: Player
    games: int = 1
    table: str | None = None
    rules: RuleSet | None = None  # None: join any waiting table, create with default rules
    fill_with_bots: Sequence[str] = ()
    log: Callable[[str], None] = lambda line: None
    results: list[GameResult] = field(default_factory=list)
    rng: random.Random = field(default_factory=random.Random)
    """Spreads the waits after a refusal (seed it for a repeatable run)."""
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    """How the bot waits out a refusal (a test gives a clock's)."""
    waits: int = 0
    """Refusals waited out so far."""

    async def run(self) -> list[GameResult]:
        for n in range(1, self.games + 1):
            await self.take_a_seat()
            result = await self.session.play_game(self.player)
            self.results.append(result)
            outcome = "won" if result.won else ("no winner" if result.winner is None else "lost")
            self.log(f"game {n}/{self.games} at table {result.table}: {outcome} "
                     f"({result.reason}), totals {list(result.totals)}")
        return self.results

    async def take_a_seat(self) -> None:
        """Sit at a table whose game has started (or will when the next seat fills)."""
        if self.table is not None:
            joined = await self.session.join_table(self.table)
            self.log(f"joined table {joined.table} at seat {joined.seat}")
            return
        backoff = REFUSED_FIRST_WAIT
        while True:
            try:
                if await self._join_first_waiting():
                    return
                created = await self.session.create_table(self.rules, fill_with_bots=self.fill_with_bots)
            except ServerRefused as exc:
                if exc.code is ErrorCode.TOO_MANY_TABLES:
                    if await self._patiently(self._join_first_waiting()):  # the tables of the others refused
                        return
                    wait = backoff * self.rng.uniform(0.75, 1.25)
                    backoff = min(backoff * 2, REFUSED_MOST_WAIT)
                    await self._wait_out(exc, wait, "no waiting table to join; trying again")
                    continue
                if exc.code is ErrorCode.RATE_LIMITED and not exc.fatal:
                    await self._wait_out(exc, exc.retry_after or RATE_LIMITED_WAIT, "trying again")
                    continue
                raise
            backoff = REFUSED_FIRST_WAIT
            self.log(f"created table {created.id} ({created.description}); waiting for players")
            if await self._wait_at_own_table(created.id):
                return

    async def _wait_out(self, refusal: ServerRefused, seconds: float, then: str) -> None:
        """Wait ``seconds`` after a refusal that a wait may cure, saying so on one line."""
        self.waits += 1
        self.log(f"the server refused ({refusal.code.value}: {refusal.message}); {then} in {seconds:.1f} s")
        await self.sleep(seconds)

    async def _patiently(self, looking: Awaitable[bool]) -> bool:
        """``looking``'s answer; False after waiting out a ``rate_limited`` it got."""
        try:
            return await looking
        except ServerRefused as exc:
            if exc.code is not ErrorCode.RATE_LIMITED or exc.fatal:
                raise
            await self._wait_out(exc, exc.retry_after or RATE_LIMITED_WAIT, "looking again")
            return False

    async def _waiting_tables(self, upto: str | None = None) -> tuple[list[TableInfo], bool]:
        """The joinable waiting tables in the bots' order, every page of them (a server
        may list many); with ``upto``: only those before that table, and whether that
        table itself is still waiting."""
        players = self.rules.players if self.rules is not None else None
        found: list[TableInfo] = []
        after: str | None = None
        while True:
            page = await self.session.tables_page(TableState.WAITING, players, after)
            for t in page.tables:
                if upto is not None and t.id == upto:
                    return sorted(found, key=table_order), True
                if joinable(t, self.rules) and t.id != upto:
                    found.append(t)
            if page.next is None or not page.tables:
                return sorted(found, key=table_order), False
            after = page.next

    async def _join_first_waiting(self, before: str | None = None) -> bool:
        """Join the first joinable waiting table (``before``: our own waiting table, left
        for one that comes first in the bots' order)."""
        tables, mine_waits = await self._waiting_tables(before)
        if before is not None and not mine_waits:
            return False  # our table is starting (or gone): nothing to move to
        for t in tables:  # with ``before``: only the tables listed before ours
            if before is not None:
                await self.session.leave_table()
                self.log(f"left table {before} for table {t.id}, which was waiting first")
            try:
                joined = await self.session.join_table(t.id)
            except ServerRefused as exc:
                if exc.code in (ErrorCode.TABLE_FULL, ErrorCode.NO_SUCH_TABLE):
                    if before is not None:
                        return False  # we gave up our table: look again from the start
                    continue
                raise
            self.log(f"joined table {joined.table} at seat {joined.seat}")
            return True
        return False

    async def _wait_at_own_table(self, table_id: str) -> bool:
        """True when our table's game starts; False if we left it to look again."""
        while not await self.session.wait_for_game_start(LOBBY_POLL_SECONDS):
            if self.session.table_id != table_id:
                return False
            if await self._patiently(self._join_first_waiting(before=table_id)):
                return True
            if self.session.table_id is None:
                return False
        return True
