"""Bots of ``scopa bot --tournament ID`` (cli/tournament.py ``play_tournament`` over a
:class:`~scopa.client.net.ClientSession`, in this process) in a knockout of three
(PROTOCOL.md §16): the best seed's bye, the loser of round 1 and the final's loser are
told they have no table (``tournament_no_table``) and the winner its first place; each
bot takes no notice of it and plays on to the final standings."""

from __future__ import annotations

import asyncio

import pytest

from club_players import ClubPlayer, Server, club_server
from scopa.bots import make_bot
from scopa.cli.tournament import play_tournament
from scopa.client.net import ClientSession
from scopa.protocol import Command
from scopa.protocol import commands as wire
from test_club_tournament import create

pytestmark = pytest.mark.integration

SAFETY = 60


async def test_bots_take_no_notice_of_a_round_without_a_table() -> None:
    async with club_server(6, SAFETY) as engine:
        host = ClubPlayer("host", Server(engine.port))
        await host.connect()
        tid = await create(host, format=wire.TournamentFormat.KNOCKOUT, cap=3, bots_allowed=True)
        told: list[str] = []
        sessions = [await ClientSession.connect("127.0.0.1", engine.port, name, client="scopa-bot/test")
                    for name in ("bea", "cal", "dan")]
        registered = [asyncio.Event() for _ in sessions]

        def heard(c: Command) -> None:
            if isinstance(c.body, wire.TournamentNoTable):
                told.append(c.body.kind)

        bots = []
        for i, session in enumerate(sessions):
            session.observers.append(heard)
            log = (lambda line, e=registered[i]: e.set() if line.startswith("registered") else None)
            bots.append(asyncio.ensure_future(play_tournament(session, tid, make_bot("greedy", seed=i), log)))
        for e in registered:
            await e.wait()
        host.send(wire.TournamentStart(tournament=tid))
        finals = await asyncio.gather(*bots)
        assert all(f.final and f.tournament == tid for f in finals)
        assert sorted(told) == ["bye", "finished", "knocked_out", "knocked_out"]
        for session in sessions:
            await session.close()
        await host.close()
