"""The rematch on an Italian family's phone (390×844, touch, it-IT), in Debian's chromium
against a real server on 127.0.0.1 (port 0), as tests/client/web/test_web_client.py drives
it: a friend who left (a bot played on for them) gets a bot in the rematch, which starts at
once; the host's rematch table says whom its free seat waits for, while that player has the
offer."""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.async_api import Browser, Page

from scopa.bots import RandomBot
from scopa.protocol import commands as wire

from test_web_client import WAIT, Site, browser, chromium, site  # noqa: F401
from test_web_family_trial import in_lobby
from test_web_round_box import BOX, lay_down_when_possible
from wire_client import WireClient

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py


async def new_table(page: Page, preset: str, people: str) -> str:
    """``page`` makes a public table of ``preset`` for ``people`` (bots in the other seats); its id."""
    await page.select_option("#preset", preset)
    await page.select_option("#people", people)
    await page.locator("form:has(#preset) button[type=submit]").tap()
    link = page.locator("#invite a")
    await link.wait_for(timeout=WAIT)
    return parse_qs(urlparse(await link.get_attribute("href") or "").query)["table"][0]


async def to_the_end(page: Page) -> None:
    """This page plays its turns, closing each round's box, until the game's end shows."""
    while not await page.locator("#game-end").count():
        await lay_down_when_possible(page)
        if await page.locator(BOX).count():
            await page.locator(BOX).get_by_role("button", name="Continua", exact=True).tap()
            await page.locator(BOX).wait_for(state="detached", timeout=WAIT)


async def test_a_friend_who_left_gets_a_bot_in_the_rematch(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §7 (a bot plays on for a person who left): bea leaves nonna's game, a bot
    plays her seat to the end; nonna is offered the rematch with a bot in bea's place, and
    it starts at once, the bot at the table."""
    nonna = await in_lobby(browser, site, "nonna")
    table = await new_table(nonna, "scopa", "2")
    bea = await WireClient.connect(site.engine.port, "bea")
    await bea.join(table)
    await nonna.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    bea.send(wire.LeaveTable(table=table))
    await bea.recv_until("left")
    await to_the_end(nonna)
    rematch = nonna.locator("#rematch").get_by_role("button", name="Rivincita, con un bot al posto di bea", exact=True)
    await rematch.tap()
    await nonna.wait_for_selector("#game-end", state="detached", timeout=WAIT)
    await nonna.wait_for_selector("[data-area=hand] .card", timeout=WAIT)  # dealt at once
    seats = [x.split(" · ")[0] for x in await nonna.locator(".seat").all_text_contents()]
    assert seats == ["nonna (tu)", "Bot 1 (medio)"], seats
    await bea.close()


async def test_the_hosts_rematch_says_whom_its_free_seat_waits_for(site: Site, browser: Browser) -> None:
    """Scopone, nonna and nipote (partners, R5) with two bots, played to the end: nonna makes
    the rematch; while nipote has its offer, nonna's seats say the free seat waits for nipote,
    not that it is free."""
    nonna = await in_lobby(browser, site, "nonna")
    table = await new_table(nonna, "scopone", "2")
    nipote = await WireClient.connect(site.engine.port, "nipote")
    await nipote.join(table)
    playing = asyncio.create_task(nipote.play_game(RandomBot(seed=3)))
    await to_the_end(nonna)
    await playing
    await nonna.locator("#rematch").get_by_role("button", name="Rivincita", exact=True).tap()
    await nonna.wait_for_selector("#game-end", state="detached", timeout=WAIT)
    while not getattr((await nipote.recv_until("table_update")).body.table, "rematch_of", None):
        pass  # nipote is offered the rematch
    free = nonna.locator(".seat[data-seat='2']")
    await free.wait_for(timeout=WAIT)
    assert await free.text_content() == "Posto 3 · rivincita offerta a nipote: in attesa"
    assert "libero" not in await nonna.locator(".seats").inner_text()
    await nipote.close()
