"""Quick play on the server: the waiting pool (:class:`~scopa.server.tournament.QuickPool`)
with its waves on the server's clock, each paired group seated at a new table of its
game (``joined`` answers the ``quick_play``), a player still waiting after ``bot_after``
seated with bots, and every waiting player told how many others wait."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from scopa.engine.rules import Preset
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode

from ..core import Clock, Timer
from ..core import BackgroundTasks
from ..core import name_key
from ..tournament import QuickBotGame, QuickEffect, QuickEntry, QuickPaired, QuickPool, QuickWaiting, TournamentError
from .tables import ClubTables
from .views import error_code

if TYPE_CHECKING:
    from ..conn import ServerSession

log = logging.getLogger("scopa.server")

RatingOf = Callable[[str, Preset], Awaitable[float]]
QUICK_BOT = "greedy"
"""The built-in bot a player plays against after ``bot_after``."""


class QuickHost:
    """The quick-play pool of one server."""

    def __init__(self, tables: ClubTables, clock: Clock, names: dict[str, ServerSession], rating_of: RatingOf,
                 gather: float = 0.5) -> None:
        self.tables = tables
        self.clock = clock
        self.names = names
        self.rating_of = rating_of
        self.pool = QuickPool(gather)
        self._asked: dict[str, tuple[ServerSession, int]] = {}  # name key -> the quick_play's connection, seq
        self._timer: Timer | None = None
        self._tasks = BackgroundTasks()

    def play(self, sess: ServerSession, body: wire.QuickPlay, seq: int) -> None:
        name = sess.name or ""
        if sess.table_id is not None:
            sess.error(ErrorCode.ALREADY_AT_TABLE, f"you are already at table {sess.table_id}", re=seq)
            return
        if name_key(name) in self._asked:
            sess.error(ErrorCode.ALREADY_WAITING, "you are already waiting for a quick game", re=seq)
            return
        self._asked[name_key(name)] = (sess, seq)
        since = self.clock.now()
        self._tasks.spawn(self._join(sess, body, since))

    async def _join(self, sess: ServerSession, body: wire.QuickPlay, since: float) -> None:
        name = sess.name or ""
        rating = await self.rating_of(name, body.preset)
        if self._asked.get(name_key(name), (None, 0))[0] is not sess:
            return  # left (or gone) meanwhile
        bot_after = float(body.bot_after) if body.bot_after is not None else None
        try:
            effects = self.pool.join(QuickEntry(name, body.preset, rating, since, bot_after))
        except TournamentError as exc:
            _, seq = self._asked.pop(name_key(name))
            sess.error(error_code(exc), str(exc), re=seq)
            return
        self._carry_out(effects)

    def leave(self, sess: ServerSession, seq: int) -> None:
        name = sess.name or ""
        entry = next((e for p in Preset for e in self.pool.waiting(p) if e.player == name), None)
        if entry is None:
            sess.error(ErrorCode.NOT_WAITING, "you are not waiting for a quick game", re=seq)
            return
        self._asked.pop(name_key(name), None)
        effects = self.pool.leave(name)
        sess.tell(wire.QuickWaiting(preset=entry.preset, others=len(self.pool.waiting(entry.preset))), re=seq)
        self._carry_out(effects)

    def gone(self, sess: ServerSession) -> None:
        """A connection closed: it waits no more."""
        name = sess.name or ""
        asked = self._asked.get(name_key(name))
        if asked is None or asked[0] is not sess:
            return
        del self._asked[name_key(name)]
        if any(e.player == name for p in Preset for e in self.pool.waiting(p)):
            self._carry_out(self.pool.leave(name))

    def _carry_out(self, effects: Sequence[QuickEffect]) -> None:
        for effect in effects:
            if isinstance(effect, QuickWaiting):
                asked = self._asked.get(name_key(effect.player))
                if asked is not None:
                    asked[0].tell(wire.QuickWaiting(preset=effect.preset, others=effect.others), re=asked[1])
            elif isinstance(effect, QuickPaired):
                seated = [self._asked.pop(name_key(p)) for p in effect.players if name_key(p) in self._asked]
                self._tasks.spawn(self._open(effect.preset, seated, bots=False))
            elif isinstance(effect, QuickBotGame):
                asked = self._asked.pop(name_key(effect.player), None)
                if asked is not None:
                    self._tasks.spawn(self._open(effect.preset, [asked], bots=True))
        self._arm()

    async def _open(self, preset: Preset, players: list[tuple[ServerSession, int]], bots: bool) -> None:
        table = await self.tables.open(preset, private=False, bot_takeover=True, ended=lambda _: None)
        if table is None:
            for sess, seq in players:
                sess.error(ErrorCode.UNAVAILABLE, "the quick game's table could not be made; ask again", re=seq)
            return
        for sess, seq in players:
            if not sess.closed and sess.table_id is None:
                self.tables.sit(sess, table, None, seq)
        log.info("table %s: a quick game of %s for %s", table.id, preset.value, ", ".join(s.party for s, _ in players))
        if bots and table.state is wire.TableState.WAITING:
            self.tables.fill_with_bots(table, QUICK_BOT)

    def _arm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        due = self.pool.due()
        if due is not None:
            self._timer = self.clock.call_later(due - self.clock.now(), self._wave)

    def _wave(self) -> None:
        """Seat whoever can be seated now; a player who sat down at a table meanwhile
        waits no more (and is paired with nobody)."""
        self._timer = None
        effects: list[QuickEffect] = []
        for key, (sess, _) in list(self._asked.items()):
            if sess.table_id is not None and any(e.player == sess.name for p in Preset for e in self.pool.waiting(p)):
                del self._asked[key]
                effects += self.pool.leave(sess.name or "")
        self._carry_out([*effects, *self.pool.wave(self.clock.now())])

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        await self._tasks.close()

