"""The club: quick play and tournaments as one part of the server, routed to by the
dispatcher and told of connections coming and going."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scopa.engine.rules import Preset
from scopa.protocol import commands as wire

from ..core import Clock
from ..conn import Connections
from ..players import Rater, fresh
from ..lobby import TableCommands
from ..lobby import TableLife
from ..core import name_key
from .commands import TournamentCommands
from .members import AcrossMembers
from .quick import QuickHost
from .relayed import TournamentRelay
from .tables import ClubTables
from .tournaments import TournamentHost

if TYPE_CHECKING:
    from ..conn import ServerSession

_COMMANDS = (wire.QuickPlay, wire.QuickLeave, wire.TournamentCreate, wire.TournamentList, wire.TournamentJoin,
             wire.TournamentLeave, wire.TournamentStart, wire.GetStandings)


@dataclass(frozen=True)
class ClubOptions:
    """``creators``: the names that may create tournaments (None: anyone, unless
    ``operator_only``); ``operator_only``: only the operator creates tournaments, its
    ``tournament_create`` carrying the operator token (`scopa admin`'s), besides the
    names of ``creators``; ``gather``: seconds a quick-play player waits for others asking
    at about the same time; ``seed``: where the tournaments' seeds are drawn from (None:
    unforeseeable), so that the same players playing alike make the same tournament (each
    game is dealt from its tournament's seed)."""

    creators: frozenset[str] | None = None
    gather: float = 0.5
    operator_only: bool = False
    seed: int | None = None


class Club:
    """Quick play and tournaments of one server."""

    def __init__(self, options: ClubOptions, life: TableLife, at_tables: TableCommands, connections: Connections,
                 clock: Clock, ratings: Rater, operator: Callable[[str | None], bool] = lambda token: False) -> None:
        """``operator``: whether a token is the operator's."""
        self.ratings = ratings
        tables = ClubTables(life, at_tables)
        creators = frozenset(name_key(n) for n in options.creators or ()) if (
            options.creators is not None or options.operator_only) else None
        self.quick = QuickHost(tables, clock, connections.names, self.rating_of, options.gather)
        self.tournaments = TournamentHost(tables, life, clock, connections.names)
        self.commands = TournamentCommands(self.tournaments, self.rating_of, creators, operator)
        if options.seed is not None:
            self.commands.seeds = random.Random(options.seed)
        self.members = AcrossMembers(self.commands, life, connections.names)

    def relay_through(self, relay: TournamentRelay) -> None:
        """In a cluster sharing one journal: the tournaments' commands and news go between
        the members through ``relay`` (server/club/members.py)."""
        self.members.relay = self.tournaments.relay = relay

    async def rating_of(self, name: str, preset: Preset) -> float:
        """The name's rating under ``preset`` (mu - 3 sigma; a new player's without a journal)."""
        journal = self.ratings.journal
        known = await journal.ratings(preset.value, [name]) if journal is not None else {}
        found = next((r for n, r in known.items() if name_key(n) == name_key(name)), None)
        return (found or fresh(name)).ordinal

    def handles(self, body: wire.Body) -> bool:
        return isinstance(body, _COMMANDS)

    def dispatch(self, sess: ServerSession, body: wire.Body, seq: int) -> None:
        t = self.commands
        if isinstance(body, wire.TournamentJoin | wire.TournamentLeave | wire.TournamentStart) \
                and self.members.forwards(body):
            self.members.forward(sess, body, seq)
            return
        match body:
            case wire.QuickPlay():
                self.quick.play(sess, body, seq)
            case wire.QuickLeave():
                self.quick.leave(sess, seq)
            case wire.TournamentCreate():
                t.create(sess, body, seq)
            case wire.TournamentList():
                t.listing(sess, body, seq)
            case wire.TournamentJoin():
                t.join(sess, body, seq)
            case wire.TournamentLeave():
                t.leave(sess, body, seq)
            case wire.TournamentStart():
                t.start(sess, body, seq)
            case wire.GetStandings():
                t.standings(sess, body, seq)

    def join_table(self, sess: ServerSession, body: wire.JoinTable, seq: int) -> bool:
        """Whether this ``join_table`` was of a tournament's table (then it is answered)."""
        return self.tournaments.join_table(sess, body.table, seq)

    def welcomed(self, sess: ServerSession) -> None:
        self.tournaments.came(sess.name or "")
        if self.members.relay is not None and sess.name:  # the member running their tournament may be another
            self.members.relay.arrived(sess.name)

    def gone(self, sess: ServerSession) -> None:
        self.quick.gone(sess)

    async def restore(self) -> None:
        await self.tournaments.restore()

    async def close(self) -> None:
        await self.quick.close()
        await self.tournaments.close()
