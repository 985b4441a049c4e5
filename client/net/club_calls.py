"""Quick play and tournaments from the client's side (PROTOCOL.md §16): wait for a quick
game until the server seats us, and a tournament's commands, its standings, and the
seats the server gives us round after round."""

from __future__ import annotations

from collections.abc import Callable

from scopa.engine import Preset
from scopa.protocol import LOBBY, Command, Error, Joined
from scopa.protocol import commands as wire

from .channel import ConnectionLost, ServerRefused, SessionError
from .calls import LobbyCalls


class ClubCalls(LobbyCalls):
    """A :class:`LobbyCalls` with quick play and the tournaments' requests."""

    async def quick_play(self, preset: Preset = Preset.SCOPA, bot_after: int | None = None,
                         waiting: Callable[[int], None] = lambda others: None) -> Joined:
        """Wait for a quick game of ``preset`` (``bot_after`` seconds: then against bots);
        ``waiting`` is told how many others wait, at each change; the seat once paired."""
        seq = self._send(wire.QuickPlay(preset=preset, bot_after=bot_after), str(LOBBY))
        while True:
            reply = await self._reply_to(seq)
            if isinstance(reply.body, Error):
                raise ServerRefused.of(reply.body)
            if isinstance(reply.body, wire.QuickWaiting):
                waiting(reply.body.others)
            elif isinstance(reply.body, Joined):
                self._seated(reply.body)
                return reply.body

    def quick_leave(self) -> None:
        """Stop waiting for a quick game (a :meth:`quick_play` under way ends refused, or seated)."""
        self._send(wire.QuickLeave(), str(LOBBY))

    async def create_tournament(self, body: wire.TournamentCreate) -> wire.TournamentInfo:
        return await self._tournament(body)

    async def join_tournament(self, tournament: str, team: str | None = None,
                              partner: str | None = None) -> wire.TournamentInfo:
        return await self._tournament(wire.TournamentJoin(tournament=tournament, team=team, partner=partner))

    async def leave_tournament(self, tournament: str) -> wire.TournamentInfo:
        return await self._tournament(wire.TournamentLeave(tournament=tournament))

    async def start_tournament(self, tournament: str) -> wire.TournamentInfo:
        return await self._tournament(wire.TournamentStart(tournament=tournament))

    async def tournaments(self, finished: bool = False) -> list[wire.TournamentInfo]:
        """The tournaments open for registration or being played (``finished``: the
        finished ones, the newest last)."""
        reply = await self._request(wire.TournamentList(finished=finished), str(LOBBY))
        assert isinstance(reply.body, wire.Tournaments)
        return list(reply.body.tournaments)

    async def standings(self, tournament: str) -> wire.TournamentStandings:
        reply = await self._request(wire.GetStandings(tournament=tournament), str(LOBBY))
        assert isinstance(reply.body, wire.TournamentStandings)
        return reply.body

    async def next_tournament_seat(self, tournament: str) -> Joined | wire.TournamentStandings:
        """The seat the server gives us at our next table of ``tournament``, or its final
        standings once it is over."""

        def ours(c: Command) -> bool:
            body = c.body
            if isinstance(body, wire.TournamentStandings):
                return body.tournament == tournament and body.final
            return isinstance(body, Joined) and c.re is None and c.sender == str(LOBBY)

        while True:
            try:
                found = await self._peek(ours)
                break
            except ConnectionLost:  # in the lobby: back there (a seat given meanwhile comes again)
                await self._reconnect_or_raise()
        assert found is not None
        self._backlog.remove(found)
        if isinstance(found.body, Joined):
            self._seated(found.body)
            return found.body
        assert isinstance(found.body, wire.TournamentStandings)
        return found.body

    async def _tournament(self, body: wire.Body) -> wire.TournamentInfo:
        reply = await self._request(body, str(LOBBY))
        if not isinstance(reply.body, wire.TournamentUpdate):
            raise SessionError(f"the server answered {body.NAME} with {reply.name}")
        return reply.body.tournament
