"""The players on a phone (390×844, touch) are told that someone watches their game
(PROTOCOL.md §7 Table updates: a spectator more or less is a `table_update` to the table,
its `spectators` counting them): an eye with the count beside the table's heading, and a
line above the board as a spectator comes and as one goes; in Debian's chromium against a
real server on 127.0.0.1 (port 0), in Italian and in English."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from scopa.client.net import ClientSession
from scopa.engine import RuleSet
from scopa.server.core.clock import FakeClock

from test_web_client import PHONE, WAIT, browser, chromium, open_page, served  # noqa: F401
from test_web_family import against_an_easy_bot, open_italian
from test_web_table import seed_where

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_players_see_someone_come_to_watch_and_go(browser: Browser, lang: str) -> None:
    clock = FakeClock()  # spectators' comings and goings are told at most once a second (Limits.table_update_interval)
    async with served(clock=clock, turn_timeout=600.0, seed=seed_where(RuleSet.build("scopa"), lambda _: True)) as s:
        page = await open_italian(browser, s, "ada") if lang == "it" else await open_page(browser, s, "ada", PHONE)
        await against_an_easy_bot(page)
        await page.wait_for_selector("[data-area=table] .card", timeout=WAIT)
        assert await page.locator("#onlookers").count() == 0  # nobody watches yet
        nonna = await ClientSession.connect("127.0.0.1", s.engine.port, "nonna")
        table = next(x.id for x in await nonna.list_tables())
        await nonna.watch_table(table)
        came = "Qualcuno ora guarda la partita." if lang == "it" else "Someone is watching the game now."
        await page.get_by_role("alert").filter(has_text=came).wait_for(timeout=WAIT)
        eye = page.locator("h2 #onlookers")
        assert await eye.locator("span[aria-hidden=true]").text_content() == "1"  # seen: the eye and the count, beside the table's heading
        assert (await eye.locator(".sr").text_content()) == ("1 spettatore" if lang == "it" else "1 spectator")  # heard
        assert await eye.evaluate("e => e.closest('h2') !== null")
        box = await eye.bounding_box()
        assert box and box["x"] + box["width"] <= 390
        await nonna.unwatch_table(table)
        clock.advance(1.0)
        went = "Qualcuno ha smesso di guardare la partita." if lang == "it" else "Someone has stopped watching the game."
        await page.get_by_role("alert").filter(has_text=went).wait_for(timeout=WAIT)
        assert await page.locator("#onlookers").count() == 0
        await nonna.close()
        await page.context.close()
