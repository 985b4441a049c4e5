"""A phone that slept past the grace period: a bot played the seat meanwhile; when the
page comes back (its saved seat token) the person plays the seat again, and is told so
plainly; the plays the bot made stay named as the bot's."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, Page

from scopa.server.core.clock import FakeClock

from test_web_client import MINE, PHONE, WAIT, browser, chromium, open_page, play_one, served  # noqa: F401
from test_web_family import open_italian

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


async def play_first(page: Page) -> None:
    """It is this page's turn (in any language): tap its first card, then the first lit
    table card or the card again, choosing the first set when asked."""
    await page.locator("[data-area=hand] .card").first.tap()
    lit = page.locator("[data-area=table] .card.lit")
    await (lit.first.tap() if await lit.count() else page.locator("[data-area=hand] .card.picked").tap())
    choice = page.locator("dialog[open] div button")
    if await choice.count():
        await choice.first.tap()


async def plays(page: Page) -> list[str]:
    return [t.strip() for t in await page.locator("[data-area=plays] li").all_text_contents()]


async def test_a_phone_back_after_the_grace_period_takes_its_seat_back_from_the_bot(browser: Browser) -> None:
    clock = FakeClock()
    async with served(clock=clock) as s:  # the grace period runs on the test's clock
        nonna = await open_italian(browser, s, "nonna")
        await nonna.wait_for_selector("#preset", timeout=WAIT)
        await nonna.select_option("#bots", "")
        await nonna.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
        await nonna.wait_for_selector("#turn", timeout=WAIT)
        nipote = await open_page(browser, s, "nipote", PHONE)
        await nipote.get_by_role("button", name="Join").tap()
        await nipote.wait_for_selector("[aria-label='Your hand'] .card", timeout=WAIT)
        phone = nonna.context
        await nonna.close()  # the phone sleeps
        await nipote.get_by_text("nonna is away").wait_for(timeout=WAIT)
        clock.advance(120.0)
        await nipote.locator(".seat", has_text="nonna (bot)").wait_for(timeout=WAIT)
        await nipote.wait_for_selector(MINE, timeout=WAIT)  # the bot played nonna's turn, if it was hers
        if not any(p.startswith("nonna (bot):") for p in await plays(nipote)):
            await play_one(nipote)
            await nipote.locator("[data-area=plays] li", has_text="nonna (bot):").wait_for(timeout=WAIT)
        await nipote.wait_for_selector(MINE, timeout=WAIT)

        nonna = await phone.new_page()  # the phone wakes: the page comes back with its seat token
        await nonna.goto(s.url)
        told = nonna.get_by_role("alert").filter(has_text="un bot ha giocato al tuo posto")
        await told.wait_for(timeout=WAIT)
        assert await told.text_content() == "Eri via da più di 2 minuti: un bot ha giocato al tuo posto; ora riprendi tu."
        await nipote.get_by_text("nonna is back").wait_for(timeout=WAIT)
        assert "nonna (bot)" not in " ".join(await nipote.locator(".seat").all_text_contents())
        bot_plays = [p for p in await plays(nipote) if p.startswith("nonna (bot):")]
        assert bot_plays

        await play_one(nipote)
        await nonna.wait_for_selector(MINE, timeout=WAIT)  # her turn now, not the bot's
        before = len(await plays(nipote))
        await play_first(nonna)
        await nipote.locator("[data-area=plays] li").nth(before).wait_for(timeout=WAIT)
        after = await plays(nipote)
        assert after[before].startswith("nonna:")  # her own play
        assert [p for p in after if p.startswith("nonna (bot):")] == bot_plays  # the bot's stay the bot's
        await phone.close()
