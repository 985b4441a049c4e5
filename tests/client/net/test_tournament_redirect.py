"""A bot of ``scopa bot --tournament ID`` (cli/tournament.py ``play_tournament`` over a
:class:`~scopa.client.net.ClientSession`, in this process) connected to member B of a
cluster sharing one PostgreSQL journal, in a tournament that member A runs
(PROTOCOL.md §16): when its round is paired its table plays on A, and B tells it so
(``tournament_table``) and sends it there (``redirect``, ``re`` nil).  The session goes
on to A with the ticket by itself, is seated there on arrival, plays its game to the
end and has the final standings, in A's lobby.  Time is the members' fake clock."""

from __future__ import annotations

import asyncio

import pytest

from club_members import ada_on_a, two_members
from club_players import final_standings
from pg import pg_url  # noqa: F401 - the fixture
from redis_server import redis_prefix  # noqa: F401 - the fixture
from scopa.bots import make_bot
from scopa.cli.tournament import play_tournament
from scopa.client.net import ClientSession
from scopa.protocol import Command
from scopa.protocol import commands as wire
from scopa.server.club import ClubOptions

pytestmark = pytest.mark.integration


def registered(name: str) -> object:
    def seen(c: Command) -> bool:
        return isinstance(c.body, wire.TournamentUpdate) and name in c.body.tournament.entrants
    return seen


async def test_a_bot_on_another_member_follows_the_redirect_to_its_table_and_plays_its_game(
        pg_url: str, redis_prefix: str) -> None:  # noqa: F811
    async with two_members(pg_url, redis_prefix, ClubOptions(seed=7)) as (a, b, _):
        ada, tid = await ada_on_a(a)
        lines: list[str] = []
        async with await ClientSession.connect("127.0.0.1", b.port, "bea") as bea:
            bot = asyncio.ensure_future(play_tournament(bea, tid, make_bot("greedy", seed=1), lines.append))
            await ada.until(registered("bea"))  # carried from b to a, which runs it
            assert a.club is not None and tid in a.club.tournaments.directors
            ada.send(wire.TournamentStart(tournament=tid))
            ada_final = asyncio.ensure_future(ada.until(final_standings))  # ada plays meanwhile
            final = await bot
            assert final.final and final.tournament == tid
            assert sorted((r.entrant, r.played) for r in final.rows) == [("ada", 1), ("bea", 1)]
            assert (await ada_final).body.rows == final.rows
            table = next(c.body.table for c in ada.seen if isinstance(c.body, wire.Joined))
            assert [line.split(",")[0].split(":")[0] for line in lines if "table" in line] == [
                f"seated at table {table}", f"game at table {table}"]  # at a's table, to its end
            assert (bea.host, bea.port) == ("127.0.0.1", a.port)  # went on to a, and stays in its lobby
            assert bea.table_id is None and bea.name == "bea"
            assert (await bea.standings(tid)).rows == final.rows  # a's lobby answers it
        await ada.close()
