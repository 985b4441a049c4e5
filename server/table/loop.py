"""A table's loop: it carries out what its game master says, in order (table.py holds
the table itself).  An action is journaled before the announcements that follow it; what
needs no waiting (no journal write to wait for, no bot) is carried out at once from the
inbox, the rest by the table's task."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING

from scopa.engine import Deal, GameMaster, HandDealt, IllegalMoveError, Player
from scopa.engine.effects import Announce, Ask, Effect, GameOver, Journal as JournalAction, Refused
from scopa.protocol import commands as wire

from ..core import metrics
from ..journal import Fenced

if TYPE_CHECKING:
    from .broadcast import Broadcaster
    from .journaling import TableJournal
    from .leases import Lease
    from .inbox import Inbox
    from .turns import Turns

log = logging.getLogger("scopa.server")


class TableLoop:
    """The carrying out of a :class:`~scopa.server.table.table.Table`'s effects."""

    __slots__ = ()
    id: str
    state: wire.TableState
    master: GameMaster | None
    players: list[Player | None]
    lease: Lease | None
    journal: TableJournal
    turns: Turns
    broadcaster: Broadcaster
    _people: tuple[int, ...]
    _inbox: Inbox[list[Effect]]

    def abandon(self, reason: str) -> None:
        raise NotImplementedError

    def _finish(self, reason: str) -> None:
        raise NotImplementedError

    def _journaled(self, effect: JournalAction) -> None:
        """Action ``effect.index`` is in the journal: the table may tell of it."""
        raise NotImplementedError

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
        if self.journal.storage is not None or self.lease is not None or self.state is not wire.TableState.PLAYING:
            return effects
        players = self.players
        bots = players.count(None) != len(players)
        try:
            for i, effect in enumerate(effects):
                if isinstance(effect, JournalAction):
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
                written = self.journal.append(effect.index, effect.action)
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
                    queue.extend(self.master.receive(effect.seat, await bot.choose(effect.view, effect.legal)))
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

