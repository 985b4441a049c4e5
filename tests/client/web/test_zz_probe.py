from __future__ import annotations
import pytest
from playwright.async_api import Browser
from test_web_client import WAIT, MINE, Site, browser, chromium, served, site  # noqa: F401
from test_web_family import open_italian, against_an_easy_bot
from test_web_trial import scopone_choice

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

async def test_probe(browser: Browser) -> None:
    seed, card = scopone_choice()
    async with served(seed=seed) as s:
        page = await open_italian(browser, s, "ada")
        await against_an_easy_bot(page, preset="scopone")
        await page.wait_for_selector(MINE, timeout=WAIT)
        picked = page.locator(f"[data-area=hand] .card[data-card='{card}']")
        await picked.tap()
        await picked.tap()
        await page.locator("dialog[open]#choose").wait_for(timeout=WAIT)
        print("SNAP", await page.locator("#choose").aria_snapshot())
        print("FOOT", await page.locator("footer").aria_snapshot())
        print("HINT", await page.locator(".hint").all_text_contents())
        print("HDR", await page.locator("#score-title + table thead").inner_html())
