"""The browser client's "Play now" (PROTOCOL.md §16) in Debian's chromium against a real
server running quick play: two people who press it for the same game sit at one table;
one who stops waiting is back at the choice; the page shows how many others wait; a
tournament is run from the page, and a player knocked out of one reads so on her phone."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from club_players import ClubPlayer, Server, join_all, start
from scopa.client.webfiles import web_files, web_root
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.club import ClubOptions
from scopa.server.web import WebFront
from test_club_tournament import create
from test_web_client import DESKTOP, PHONE, WAIT, Site, browser, chromium, open_page  # noqa: F401 - the fixture
from wire_client import WireClient

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py


@pytest_asyncio.fixture(loop_scope="module")
async def club_site() -> AsyncIterator[Site]:
    engine = NetworkEngine(host="127.0.0.1", port=0, club=ClubOptions())
    await engine.start()
    front = WebFront(engine, web_root(), extra=web_files())
    await front.start("127.0.0.1", 0)
    site = Site(engine, front)
    try:
        yield site
    finally:
        await engine.stop()
        await front.stop()
    assert site.errors == []


async def test_two_people_pressing_play_now_sit_at_one_table(club_site: Site, browser: Browser) -> None:  # noqa: F811
    ada = await open_page(browser, club_site, "ada", DESKTOP)
    first = ada.locator("main section").first
    assert await first.locator("h2").text_content() == "Play now"  # the first choice of the lobby
    await ada.get_by_role("button", name="Play with other people").click()
    await ada.get_by_text("Waiting for 1 more player for a game of Scopa…").wait_for(timeout=WAIT)
    await ada.get_by_role("button", name="Stop waiting").click()
    await ada.get_by_role("button", name="Play with other people").wait_for(timeout=WAIT)
    await ada.get_by_role("button", name="Play with other people").click()
    bob = await open_page(browser, club_site, "bob", PHONE)
    await bob.get_by_role("button", name="Play with other people").tap()
    for page in (ada, bob):
        await page.wait_for_selector("#turn", timeout=WAIT)  # at the table: the game began
    tables = [t for t in club_site.engine.tables.values()]
    assert len(tables) == 1 and sorted(s.name for s in tables[0].seats if s is not None) == ["ada", "bob"]


async def test_a_tournament_from_the_browser(club_site: Site, browser: Browser) -> None:  # noqa: F811
    """ada creates a tournament and registers, bob registers, ada starts it: the server
    seats both at their table; the standings are shown on asking; once bob gives up the
    game, its final standings show under the game's end, and the tournament is among the
    finished ones, its standings with their Buchholz column (Swiss ranks by it)."""
    ada = await open_page(browser, club_site, "ada", DESKTOP)
    await ada.get_by_role("button", name="Show the tournaments").click()
    await ada.get_by_text("No tournament open.").wait_for(timeout=WAIT)
    await ada.fill("#t-name", "Coppa")
    await ada.fill("#t-rounds", "1")
    await ada.fill("#t-cap", "2")
    await ada.get_by_role("button", name="Create a tournament").click()
    await ada.get_by_text("Coppa · Swiss · Scopa · registering · 0/2").wait_for(timeout=WAIT)
    await ada.get_by_role("button", name="Register").click()
    await ada.get_by_text("1/2: ada").wait_for(timeout=WAIT)
    bob = await open_page(browser, club_site, "bob", DESKTOP)
    await bob.get_by_role("button", name="Show the tournaments").click()
    await bob.get_by_role("button", name="Register").click()
    await bob.get_by_text("2/2: ada, bob").wait_for(timeout=WAIT)
    assert await bob.get_by_role("button", name="Start").count() == 0  # only its creator starts it
    await bob.get_by_role("button", name="Standings").click()
    await bob.get_by_text("Standings (no round played yet)").wait_for(timeout=WAIT)
    await ada.get_by_role("button", name="Start").click()
    for page in (ada, bob):
        await page.wait_for_selector("#turn", timeout=WAIT)  # seated by the server: the game began
    tables = [t for t in club_site.engine.tables.values()]
    assert len(tables) == 1 and sorted(s.name for s in tables[0].seats if s is not None) == ["ada", "bob"]
    await bob.get_by_role("button", name="Leave").click()  # bob gives up: ada wins, the tournament is over
    await bob.locator("dialog[open]#leave-question button.danger").click()  # its words follow the listing's bot_takeover
    await ada.locator("#game-end").get_by_text("Final standings").wait_for(timeout=WAIT)  # told at once
    await ada.get_by_role("button", name="Back to the tables").click()
    await ada.get_by_role("button", name="Show the finished tournaments").click()  # kept after its end
    finished = ada.locator("#finished-tournaments li")
    await finished.get_by_text("Coppa · Swiss · Scopa · over · round 1 · 2/2: ada, bob").wait_for(timeout=WAIT)
    await finished.get_by_role("button", name="Standings").click()
    await finished.get_by_text("Final standings").wait_for(timeout=WAIT)
    assert [await c.text_content() for c in await finished.locator("tr td:nth-child(2)").all()] == ["ada", "bob"]
    assert "Buchholz" in [await c.text_content() for c in await finished.locator("tr th").all()]  # Swiss ranks by it


async def test_a_player_knocked_out_reads_so_on_the_phone(club_site: Site, browser: Browser) -> None:  # noqa: F811
    """A knockout of four: ada, on a phone, gives up her game of round 1; once the other
    game ends and round 2 is paired her page says she is out, who beat her, in which
    round and her place (PROTOCOL.md §16, ``tournament_no_table``).  Its final standings
    have no Buchholz column (a knockout is not ranked by it, §16 ``ranked_by``)."""
    server = Server(club_site.engine.port)
    bots = [ClubPlayer(name, server, seed=i) for i, name in enumerate(("bob", "cal", "dan"))]
    for p in bots:
        await p.connect()
    tid = await create(bots[0], format=wire.TournamentFormat.KNOCKOUT, cap=4)
    await join_all(bots, tid)
    ada = await WireClient.connect(club_site.engine.port, "ada")  # registers, then plays on her phone
    ada.send(wire.TournamentJoin(tournament=tid))
    await ada.recv_until("tournament_update")
    await ada.close()
    page = await open_page(browser, club_site, "ada", PHONE)
    finals = start(bots, tid)
    await page.wait_for_selector("#turn", timeout=WAIT)  # seated by the server: the game began
    await page.get_by_role("button", name="Leave").tap()
    await page.locator("dialog[open]#leave-question button.danger").tap()
    assert club_site.engine.club is not None
    [game] = [g for g in club_site.engine.club.tournaments.directors[tid].state.rounds[0].games
              if "ada" in (g.first, g.second)]
    winner = game.second if game.first == "ada" else game.first
    said = f"You are out: beaten by {winner} in round 1 of 'Coppa'. Final place: 3rd."
    await page.locator("#no-table").get_by_text(said).wait_for(timeout=WAIT)
    await asyncio.gather(*finals)
    await page.get_by_role("button", name="Back to the tables").tap()
    listed = page.locator("#tournaments li")  # listed since her tournament told her of itself
    await listed.get_by_role("button", name="Standings").tap()
    await listed.get_by_text("Final standings").wait_for(timeout=WAIT)
    heads = [await c.text_content() for c in await listed.locator("tr th").all()]
    assert heads == ["#", "Players", "Points", "Game points"]  # a knockout has no Buchholz column
    for p in bots:
        await p.close()
