"""The full-screen client (``scopa play``) connected to member B of a cluster sharing one
PostgreSQL journal, in a tournament that member A runs (PROTOCOL.md §16): when its round
is paired its table plays on A; B tells it so (``tournament_table``) and sends it there
(``redirect``, ``re`` nil), and the client goes on to A by itself and is seated there
(the board up, at A's table).  cal then leaves the game: ada wins, and the client, now
in A's lobby, says the tournament is over and cal's final place."""

from __future__ import annotations

import pytest

from club_members import ada_on_a, answer_to, two_members
from club_players import ClubPlayer, Server, final_standings
from pg import pg_url  # noqa: F401 - the fixture
from redis_server import redis_prefix  # noqa: F401 - the fixture
from scopa.client.tui.dialogs import ConfirmScreen
from scopa.protocol import commands as wire
from scopa.server.club import ClubOptions
from test_tui_network import app_for, until

pytestmark = pytest.mark.integration


async def test_the_full_screen_client_follows_its_tournament_table_to_another_member(
        pg_url: str, redis_prefix: str) -> None:  # noqa: F811
    async with two_members(pg_url, redis_prefix, ClubOptions(seed=7)) as (a, b, _):
        ada, tid = await ada_on_a(a)
        cal = ClubPlayer("cal", Server(b.port))  # registers on B (carried to A), then plays full-screen
        await cal.connect()
        assert (await answer_to(cal, wire.TournamentJoin(tournament=tid))).name == "tournament_update"
        await cal.close()
        app = app_for(b, "cal")
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.lobby_pushes and app.screen is app.lobby)  # connected to B, in its lobby
            ada.send(wire.TournamentStart(tournament=tid))
            await until(pilot, lambda: app.playing and app.board_screen is not None)
            session = app.session
            assert session is not None and session.port == a.port  # sent on to A
            seated = [t.id for t in a.tables.values() if "cal" in [s.name for s in t.seats if s is not None]]
            assert seated == [session.table_id] and session.table_id not in b.tables  # at A's table
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            final = await ada.until(final_standings)
            assert [r.entrant for r in final.body.rows] == ["ada", "cal"]
            await until(pilot, lambda: "'Coppa' is over. Final place: 2nd." in app.messages)
        await ada.close()


async def test_a_client_that_connects_after_its_round_is_paired_is_taken_to_its_seat(
        pg_url: str, redis_prefix: str) -> None:  # noqa: F811
    """The round is paired while cal is away; the server tells cal of the table in the
    same breath as the welcome, before the client's screens listen: the client still
    goes there (commands received before it listened are shown to it too)."""
    async with two_members(pg_url, redis_prefix, ClubOptions(seed=7)) as (a, b, _):
        ada, tid = await ada_on_a(a)
        cal = ClubPlayer("cal", Server(b.port))
        await cal.connect()
        assert (await answer_to(cal, wire.TournamentJoin(tournament=tid))).name == "tournament_update"
        await cal.close()
        assert (await answer_to(ada, wire.TournamentStart(tournament=tid))).name != "error"
        app = app_for(b, "cal")
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.playing and app.board_screen is not None)
            session = app.session
            assert session is not None and session.port == a.port
            seated = [t.id for t in a.tables.values() if "cal" in [s.name for s in t.seats if s is not None]]
            assert seated == [session.table_id]
        await ada.close()
