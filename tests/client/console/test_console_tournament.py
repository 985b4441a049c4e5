"""`scopa play --plain` in a tournament (PROTOCOL.md §16): the lobby's ``t`` commands
register and show the tournaments, and a round's table is followed from the lobby's
prompt (the person typing nothing): the game is played there, the final place and the
final standings shown, and the finished tournament listed with ``t done``."""

from __future__ import annotations

import asyncio
import io
import threading

import pytest
from rich.console import Console

from club_players import ClubPlayer, Server, final_standings, club_server
from scopa.bots import GreedyBot
from scopa.client.console import Lobby
from scopa.client.net import ClientSession
from scopa.protocol import commands as wire
from test_club_tournament import create

pytestmark = pytest.mark.integration

SAFETY = 60


async def test_the_plain_lobby_registers_and_follows_its_tournament_table() -> None:
    async with club_server(3, SAFETY) as engine:
        ada = ClubPlayer("ada", Server(engine.port))
        await ada.connect()
        tid = await create(ada, rounds=1, cap=2)
        asked = ada.send(wire.TournamentJoin(tournament=tid))
        await ada.until(lambda c: c.re == asked)
        loop = asyncio.get_running_loop()
        registered, release = asyncio.Event(), threading.Event()
        answers = iter([f"t join {tid}", "", "t done", "t standings " + tid, "q"])
        prompts: list[object] = []

        def typed(prompt: object) -> str:
            prompts.append(prompt)
            if len(prompts) == 2:  # registered; then thinking at the prompt while the round is paired
                loop.call_soon_threadsafe(registered.set)
                release.wait(SAFETY)
            return next(answers)

        out = io.StringIO()
        session = await ClientSession.connect("127.0.0.1", engine.port, "bea")
        lobby = Lobby(session, Console(file=out, width=160), GreedyBot, input_fn=typed)
        over = asyncio.Event()  # bea heard the final standings (after the lobby, which shows them)
        session.observers.append(lambda c: over.set() if final_standings(c) else None)
        running = asyncio.ensure_future(lobby.run())
        await registered.wait()
        assert "You are registered" in out.getvalue()
        ada.send(wire.TournamentStart(tournament=tid))
        final = await ada.until(final_standings)
        assert sorted(r.entrant for r in final.body.rows) == ["ada", "bea"] and ada.games == 1
        await over.wait()
        release.set()
        await running
        text = out.getvalue()
        assert len(prompts) == 5  # the prompt read while the round was paired was not asked again
        game = text.index(f"Tournament {tid}, round 1: you sit at table")
        assert text.index("round 1 is paired") < game < text.index("Back in the lobby.")
        assert text.index(f"Tournament {tid}: final standings after round 1") > game
        place = next(r.rank for r in final.body.rows if r.entrant == "bea")  # and bea hears hers before
        over = "'Coppa' is over: you won it!" if place == 1 else "'Coppa' is over. Final place: 2nd."
        assert game < text.index(over) < text.index(f"Tournament {tid}: final standings after round 1")
        listed = text.index("Finished tournaments")
        assert tid in text[listed:] and "ada, bea" in text[listed:]
        assert "not a lobby command" not in text
        await session.close()
        await ada.close()
