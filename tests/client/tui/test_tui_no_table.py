"""The full-screen client told that a tournament's round gives it no table (PROTOCOL.md
§16, ``tournament_no_table``): cal, seated by the server in a knockout of two, leaves the
game; ada goes through and the client says, whatever screen is up, that cal is out, who
beat it, in which round and its final place."""

from __future__ import annotations

import pytest

from club_players import ClubPlayer, Server, final_standings, club_server
from scopa.client.tui.dialogs import ConfirmScreen
from scopa.protocol import commands as wire
from test_club_tournament import create
from test_tui_network import app_for, until
from wire_client import WireClient

pytestmark = pytest.mark.integration

SAFETY = 60
OUT = "You are out: beaten by ada in round 1 of 'Coppa'. Final place: 2nd."


async def test_a_player_knocked_out_is_told_so() -> None:
    async with club_server(4, SAFETY) as engine:
        ada = ClubPlayer("ada", Server(engine.port))
        await ada.connect()
        tid = await create(ada, format=wire.TournamentFormat.KNOCKOUT, cap=2)
        cal = await WireClient.connect(engine.port, "cal")
        for c in (ada, cal):
            c.send(wire.TournamentJoin(tournament=tid))
        await cal.recv_until("tournament_update")
        await cal.close()
        app = app_for(engine, "cal")
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.lobby_pushes and app.screen is app.lobby)  # connected, in the lobby
            ada.send(wire.TournamentStart(tournament=tid))
            await until(pilot, lambda: app.playing and app.board_screen is not None)  # seated by the server
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            final = await ada.until(final_standings)
            assert [r.entrant for r in final.body.rows] == ["ada", "cal"]
            await until(pilot, lambda: OUT in app.messages)
            assert any(OUT in str(n.message) for n in app._notifications)  # on whatever screen is up
        await ada.close()
