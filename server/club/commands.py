"""The tournament commands of the wire (PROTOCOL.md §8, §16): create, list, join, leave,
start and the standings, each checked by its tournament's director (a refusal is the
error its code names and changes nothing) and carried out by the
:class:`~.tournaments.TournamentHost`."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode

from ..core import name_key
from ..tournament import Director, Entrant, Format, Phase, Settings, Step, TieBreak, TournamentError
from .quick import RatingOf
from .held import HeldTournaments
from .relayed import Asker
from .tournaments import TournamentHost, tournament_number
from .views import error_code, info_view, standings_view

if TYPE_CHECKING:
    from ..conn import ServerSession

log = logging.getLogger("scopa.server")

_Command = Callable[[Director], Step]
BOT_CLIENT = "scopa-bot"
"""How a bot's client names itself in its ``hello`` (`scopa bot`): it may enter only the
tournaments that allow bots."""


class TournamentCommands:
    """What a player asks of the tournaments (``creators``: the names that may create
    one, as name keys, besides the operator; None: anyone; ``operator``: whether a
    ``tournament_create``'s token is the operator's)."""

    def __init__(self, host: TournamentHost, rating_of: RatingOf, creators: frozenset[str] | None,
                 operator: Callable[[str | None], bool] = lambda token: False) -> None:
        self.host = host
        self.held = HeldTournaments(host)
        self.rating_of = rating_of
        self.creators = creators
        self.seeds: random.Random = random.SystemRandom()
        """Where each new tournament's seed is drawn from."""
        self.operator = operator

    def create(self, sess: ServerSession, body: wire.TournamentCreate, seq: int) -> None:
        name = sess.name or ""
        allowed = self.creators is None or name_key(name) in self.creators or self.operator(body.token)
        if not allowed:
            sess.error(ErrorCode.NOT_ALLOWED, "on this server only its operator creates tournaments "
                                              "(scopa tournament create --operator, on the server's machine)", re=seq)
            return
        now = self.host.now()
        try:
            settings = Settings(body.name, body.preset, Format(body.format.value), body.cap, body.rounds,
                                now + body.starts_in if body.starts_in is not None else None, float(body.grace),
                                body.bots_allowed, TieBreak(body.tie_break.value))  # fmt: skip
        except TournamentError as exc:
            sess.error(error_code(exc), str(exc), re=seq)
            return
        if self.host.leases is None:
            self.host.last += 1
            self._open(sess, f"c{self.host.last}", settings, seq)
        else:
            self.host.tasks.spawn(self._open_leased(sess, settings, seq))

    async def _open_leased(self, sess: ServerSession, settings: Settings, seq: int) -> None:
        tid = await self.held.new_id()
        if tid is None:
            sess.error(ErrorCode.UNAVAILABLE, "the cluster cannot give a new tournament an id now; try again", re=seq)
        else:
            self._open(sess, tid, settings, seq)

    def _open(self, sess: ServerSession, tid: str, settings: Settings, seq: int) -> None:
        name, now = sess.name or "", self.host.now()
        director, step = Director.create(tid, settings, name, self.seeds.randrange(2**31), now)
        self.host.directors[tid] = director
        self.host.seq[tid] = 0
        log.info("tournament %s created by %s: %s", tid, sess.party, settings)
        self.host.carry_out(tid, step, sess, seq)

    def listing(self, sess: ServerSession, body: wire.TournamentList, seq: int) -> None:
        """The tournaments open or being played, or (``finished``) the finished ones: the
        newest :data:`~scopa.protocol.commands.MAX_PAGE`, oldest first."""
        if self.host.leases is None:
            directors = sorted(self.host.directors.values(), key=lambda d: tournament_number(d.state.tournament))
            self._list(sess, seq, directors, body.finished)
        else:
            self.host.tasks.spawn(self._list_known(sess, seq, body.finished))

    async def _list_known(self, sess: ServerSession, seq: int, finished: bool) -> None:
        known = await self.held.known()
        self._list(sess, seq, [known[t] for t in sorted(known, key=tournament_number)], finished)

    def _list(self, sess: ServerSession, seq: int, directors: list[Director], finished: bool) -> None:
        shown = [d.state for d in directors if (d.state.phase is Phase.FINISHED) == finished]
        sess.tell(wire.Tournaments(tournaments=[info_view(s) for s in shown[-wire.MAX_PAGE:]]), re=seq)

    def join(self, sess: Asker, body: wire.TournamentJoin, seq: int) -> None:
        director = self._find(sess, body.tournament, seq)
        if director is not None:
            self.host.tasks.spawn(self._register(sess, body, seq, director))

    async def _register(self, sess: Asker, body: wire.TournamentJoin, seq: int, director: Director) -> None:
        name = sess.name or ""
        rating = await self.rating_of(name, director.state.settings.preset)
        tid = director.state.tournament
        try:
            if sess.client.startswith(BOT_CLIENT) and not director.state.settings.bots_allowed:
                raise TournamentError("bad_entrant", f"{director.state.settings.name} does not allow bots")
            if director.state.settings.team_size == 1:
                entrant = Entrant.player(name)
            elif body.team is None or body.partner is None:
                raise TournamentError("bad_entrant", "a team game's entrant is a team: give its name and your partner")
            else:
                entrant = Entrant.team(body.team, name, body.partner)
            step = director.register(entrant, rating, self.host.now())
        except TournamentError as exc:
            sess.error(error_code(exc), str(exc), re=seq)
            return
        self.host.carry_out(tid, step, sess, seq)

    def leave(self, sess: Asker, body: wire.TournamentLeave, seq: int) -> None:
        self._command(sess, body.tournament, seq, lambda d: d.unregister(sess.name or "", self.host.now()))

    def start(self, sess: Asker, body: wire.TournamentStart, seq: int) -> None:
        self._command(sess, body.tournament, seq, lambda d: d.start(sess.name or "", self.host.now()))

    def standings(self, sess: ServerSession, body: wire.GetStandings, seq: int) -> None:
        if self.host.leases is None:
            self._standings(sess, self._find(sess, body.tournament, seq), seq)
        else:
            self.host.tasks.spawn(self._known_standings(sess, body.tournament, seq))

    async def _known_standings(self, sess: ServerSession, tid: str, seq: int) -> None:
        director = (await self.held.known()).get(tid)
        if director is None:
            sess.error(ErrorCode.NO_SUCH_TOURNAMENT, f"there is no tournament {tid!r}", re=seq)
        self._standings(sess, director, seq)

    def _standings(self, sess: ServerSession, director: Director | None, seq: int) -> None:
        if director is not None:
            s = director.state
            sess.tell(standings_view(s.tournament, s, director.standings(), s.phase is Phase.FINISHED), re=seq)

    def _find(self, sess: Asker, tid: str, seq: int) -> Director | None:
        director = self.host.directors.get(tid)
        if director is None and self.host.leases is not None:
            self.host.tasks.spawn(self._not_here(sess, tid, seq))
        elif director is None:
            sess.error(ErrorCode.NO_SUCH_TOURNAMENT, f"there is no tournament {tid!r}", re=seq)
        return director

    async def _not_here(self, sess: Asker, tid: str, seq: int) -> None:
        """A tournament this member of a cluster does not run: another runs it, or none."""
        if tid in await self.held.known():
            sess.error(ErrorCode.UNAVAILABLE, f"tournament {tid!r} is run by another server of the cluster", re=seq)
        else:
            sess.error(ErrorCode.NO_SUCH_TOURNAMENT, f"there is no tournament {tid!r}", re=seq)

    def _command(self, sess: Asker, tid: str, seq: int, command: _Command) -> None:
        director = self._find(sess, tid, seq)
        if director is None:
            return
        try:
            step = command(director)
        except TournamentError as exc:
            sess.error(error_code(exc), str(exc), re=seq)
            return
        self.host.carry_out(tid, step, sess, seq)
