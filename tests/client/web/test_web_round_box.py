"""The round's box on a family's phone (390×844, touch, Italian), in Debian's chromium
against a real server on 127.0.0.1 (port 0), as tests/client/web/test_web_client.py
drives it: a reload over the box shows it again, the box says why a side has no
primiera, the hint under the hand says what the picked card would do, and a keyboard's
page says which keys play a card."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from test_web_client import MINE, WAIT, served, browser, chromium  # noqa: F401
from test_web_family import open_italian, play_to_round_end, seed_where_seat_1_plays_first

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

BOX = "dialog[open]#round-end"


async def test_a_reload_over_the_round_box_shows_it_again(browser: Browser) -> None:
    """R19-R21 (the round's count), PROTOCOL.md `snapshot.last_round`: a page reloaded while
    the round's box is open, the next round's first turn still waiting, shows the same box
    (the same points per category, the same totals before and after); once the person
    closed it, a reload does not bring it back."""
    async with served(seed=seed_where_seat_1_plays_first()) as s:  # the bot starts round 1: ada starts round 2
        page = await open_italian(browser, s, "ada")
        await page.wait_for_selector("#preset", timeout=WAIT)
        await page.select_option("#bots", "easy")
        await page.locator("form:has(#preset) button[type=submit]").tap()
        await play_to_round_end(page)
        await page.locator(f"{BOX} #round-end-turn").filter(has_text="Tocca a te").wait_for(timeout=WAIT)  # round 2 dealt
        title = await page.locator(f"{BOX} h2").first.inner_text()
        table = await page.locator(f"{BOX} table").inner_text()
        await page.reload()
        await page.locator(BOX).wait_for(timeout=WAIT)
        await page.wait_for_selector(MINE, timeout=WAIT)
        assert await page.locator(f"{BOX} h2").first.inner_text() == title == "Fine della smazzata 1"
        assert await page.locator(f"{BOX} table").inner_text() == table
        await page.locator(BOX).get_by_role("button", name="Continua").tap()
        await page.locator(BOX).wait_for(state="detached", timeout=WAIT)
        await page.reload()
        await page.wait_for_selector(MINE, timeout=WAIT)  # the table is back, and its turn: no box over it
        assert await page.locator("dialog#round-end").count() == 0
