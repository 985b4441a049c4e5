"""The last play over the table on an Italian family's phone (390×844, touch, it-IT), in
Debian's chromium against a real server on 127.0.0.1 (port 0), as tests/client/web/test_web_client.py
drives it: what the bot just played is said in one line where the eyes are, worded as the
round's plays list it, and the card it laid down is marked on the table."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, Page

from test_web_client import MINE, WAIT, browser, chromium, served  # noqa: F401
from test_web_family import against_an_easy_bot, in_view, open_italian, seed_where_seat_1_plays_first, tap_a_card

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py


async def the_last_play_is_in_sight(page: Page) -> None:
    """The line over the table says the newest of the round's plays, in sight at the page's top;
    a card laid down (it took nothing) is the one marked on the table, and only it."""
    await page.evaluate("window.scrollTo(0, 0)")
    newest = (await page.locator("[data-area=plays] li").last.text_content() or "").strip()
    line = page.locator("#last-play")
    assert (await line.text_content() or "").strip() == f"Ultima giocata: {newest}"
    assert await in_view(page, "#last-play")
    laid = page.locator("[data-area=table] .card.laid")
    if "→" in newest:
        assert await laid.count() == 0  # the card went with what it took
    else:
        assert await laid.count() == 1
        assert (await laid.get_attribute("aria-label") or "") in newest


async def test_what_the_bot_just_played_is_said_over_the_table(browser: Browser) -> None:
    async with served(seed=seed_where_seat_1_plays_first()) as s:  # the bot plays first
        page = await open_italian(browser, s, "ada")
        await against_an_easy_bot(page)
        await page.wait_for_selector(MINE, timeout=WAIT)
        await the_last_play_is_in_sight(page)
        assert (await page.locator("#last-play").text_content() or "").startswith("Ultima giocata: Bot")
        for _ in range(2):
            played = await page.locator("[data-area=plays] li").count()
            await tap_a_card(page)  # then the bot's answer
            await page.locator(f"[data-area=plays] li:nth-child({played + 2})").wait_for(state="attached", timeout=WAIT)
            await page.wait_for_selector(MINE, timeout=WAIT)
            await the_last_play_is_in_sight(page)
