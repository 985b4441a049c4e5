"""A phone that slept past the grace period: a bot played the seat meanwhile; when the
page comes back (its saved seat token) the person plays the seat again, and is told so
plainly; the plays the bot made stay named as the bot's.  A person who left a game a bot
then finished reads so in the finished games, which come again by themselves."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page

from scopa.server.core.clock import FakeClock
from scopa.server.lobby.directory import build_rules

from test_web_client import (  # noqa: F401
    MINE, PHONE, WAIT, Site, browser, chromium, first_ready, open_page, play_one, served)
from test_web_family import open_italian
from test_web_table import seed_where
from test_web_table_page import two_at_a_table

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


async def play_first(page: Page) -> None:
    """It is this page's turn (in any language): tap its first card, then the first lit
    table card or the card again, choosing the first set when asked."""
    await page.locator("[data-area=hand] .card").first.tap()
    lit = page.locator("[data-area=table] .card.lit")
    if await lit.count():
        await lit.first.tap()
    else:
        await page.locator("[data-area=hand] .card.picked").tap()
    choice = page.locator("dialog[open] div button")
    if await choice.count():
        await choice.first.tap()


async def nonna_and_nipote(browser: Browser, s: Site) -> tuple[Page, Page]:
    """nonna (an Italian phone) opens a table for two people; nipote (an English one) joins it."""
    nonna = await open_italian(browser, s, "nonna")
    await nonna.wait_for_selector("#preset", timeout=WAIT)
    await nonna.select_option("#bots", "")
    await nonna.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    await nonna.wait_for_selector("#turn", timeout=WAIT)
    nipote = await open_page(browser, s, "nipote", PHONE)
    await nipote.get_by_role("button", name="Join").tap()
    await nipote.wait_for_selector("[aria-label='Your hand'] .card", timeout=WAIT)
    return nonna, nipote


async def plays(page: Page) -> list[str]:
    return [t.strip() for t in await page.locator("[data-area=plays] li").all_text_contents()]


async def test_a_phone_back_after_the_grace_period_takes_its_seat_back_from_the_bot(browser: Browser) -> None:
    clock = FakeClock()
    async with served(clock=clock) as s:  # the grace period runs on the test's clock
        nonna, nipote = await nonna_and_nipote(browser, s)
        phone = nonna.context
        await nonna.close()  # the phone sleeps
        await nipote.get_by_text("nonna is away").wait_for(timeout=WAIT)
        await nipote.locator(".seat", has_text="nonna · away").wait_for(timeout=WAIT)  # marked while she is away
        clock.advance(120.0)
        await nipote.locator(".seat", has_text="nonna (bot)").wait_for(timeout=WAIT)
        await nipote.wait_for_selector(MINE, timeout=WAIT)  # the bot played nonna's turn, if it was hers
        if not any(p.startswith("nonna (bot):") for p in await plays(nipote)):
            await play_one(nipote)
            await nipote.locator("[data-area=plays] li", has_text="nonna (bot):").first.wait_for(timeout=WAIT)
        await nipote.wait_for_selector(MINE, timeout=WAIT)

        nonna = await phone.new_page()  # the phone wakes: the page comes back with its seat token
        await nonna.goto(s.url)
        told = nonna.get_by_role("alert").filter(has_text="un bot ha giocato al tuo posto")
        await told.wait_for(timeout=WAIT)
        for_her = [re.sub(r" (→|·) .*", "", p.removeprefix("nonna (bot): ")) for p in await plays(nonna)
                   if p.startswith("nonna (bot): ")]  # the cards the bot played for her, in her words
        assert for_her
        assert await told.text_content() == ("Eri via da troppo tempo, così un bot ha giocato al tuo posto; ora riprendi tu. "
                                             f"Mentre eri via il bot ha giocato per te: {', '.join(for_her)}.")
        await nipote.get_by_text("nonna is back").wait_for(timeout=WAIT)
        assert "nonna (bot)" not in " ".join(await nipote.locator(".seat").all_text_contents())
        assert "away" not in " ".join(await nipote.locator(".seat").all_text_contents())
        bot_plays = [p for p in await plays(nipote) if p.startswith("nonna (bot):")]
        assert bot_plays

        before = len(await plays(nipote)) + 1  # nipote's play, then hers
        await play_one(nipote)
        await nipote.locator("[data-area=plays] li").nth(before - 1).wait_for(timeout=WAIT)  # its own play listed on its page
        await nonna.wait_for_selector(MINE, timeout=WAIT)  # her turn now, not the bot's
        await play_first(nonna)
        await nipote.locator("[data-area=plays] li").nth(before).wait_for(timeout=WAIT)
        after = await plays(nipote)
        assert after[before].startswith("nonna:"), (before, after)  # her own play
        assert [p for p in after if p.startswith("nonna (bot):")] == bot_plays  # the bot's stay the bot's
        await phone.close()


async def test_the_finished_games_say_a_bot_finished_the_seat_of_a_person_who_left_and_refresh_by_themselves(
        browser: Browser, tmp_path: Path) -> None:
    clock = FakeClock()
    async with served(str(tmp_path / "games.db"), clock=clock) as s:  # a server that keeps its finished games
        nonna, nipote = await nonna_and_nipote(browser, s)
        await nonna.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
        await nonna.locator("#leave").tap()
        await nonna.locator("dialog[open]#leave-question button.danger").tap()
        await nonna.get_by_role("button", name="Mostra le partite finite").tap()
        await nonna.wait_for_selector("#games", timeout=WAIT)
        assert await nonna.locator("#games li", has_text="#").count() == 0  # no finished game yet
        await nipote.locator(".seat", has_text="nonna (bot)").wait_for(timeout=WAIT)
        await nipote.close()  # the other phone goes away too: a bot plays on for it, and the game ends
        [table] = s.engine.tables.values()
        for _ in range(1000):  # until the server has seen the connection drop (its grace period armed)
            if table.info().away:
                break
            await asyncio.sleep(0.01)
        clock.advance(120.0)
        game = nonna.locator("#games li", has_text="hai lasciato")  # the list came again by itself
        await game.wait_for(timeout=WAIT)
        line = await game.text_content() or ""
        assert re.search(r"hai lasciato: il bot al tuo posto ha (vinto|perso) \d+ – \d+", line), line
        assert "hai vinto" not in line
        assert re.search(r"\d{2}/\d{2}/\d{2,4}, \d{2}:\d{2}", line), line  # when it ended


async def test_a_spectator_who_comes_after_the_bot_took_over_names_each_play_by_who_made_it(browser: Browser) -> None:
    clock = FakeClock()
    async with served(clock=clock) as s:
        nonna, nipote = await nonna_and_nipote(browser, s)
        page = await first_ready([nonna, nipote], MINE)
        if page is nipote:
            await play_one(nipote)
            await nonna.wait_for_selector(MINE, timeout=WAIT)
        await play_first(nonna)  # a play of her own
        await nipote.wait_for_selector(MINE, timeout=WAIT)
        await play_one(nipote)
        await nonna.wait_for_selector(MINE, timeout=WAIT)
        await nonna.close()  # her phone sleeps on her turn
        await nipote.get_by_text("nonna is away").wait_for(timeout=WAIT)
        clock.advance(120.0)  # a bot plays her turn
        await nipote.locator("[data-area=plays] li", has_text="nonna (bot):").first.wait_for(timeout=WAIT)

        zio = await open_page(browser, s, "zio", PHONE)
        await zio.get_by_role("button", name="Watch").tap()
        await zio.locator("[data-area=plays] li", has_text="nonna (bot):").first.wait_for(timeout=WAIT)
        hers = [p.split(":")[0] for p in await plays(zio) if p.startswith("nonna")]
        assert hers == ["nonna", "nonna (bot)"]  # her own play, then the bot's
        await nipote.reload()  # the same at the table after a reload
        await nipote.locator("[data-area=plays] li", has_text="nonna (bot):").first.wait_for(timeout=WAIT)
        assert [p.split(":")[0] for p in await plays(nipote) if p.startswith("nonna")] == hers


async def test_a_phone_that_comes_back_lists_the_rounds_plays_as_the_phone_that_never_left(browser: Browser) -> None:
    """A play the server made when a time ran out, then the plays a bot made while ada's
    phone slept: her page, back, lists the round's plays as bob's does, the marks and who
    made each (her own plays hers, the bot's the bot's) the same."""
    clock = FakeClock()
    async with served(clock=clock, seed=seed_where(build_rules("scopa", {}), lambda s: True)) as s:  # ada plays first
        ada, bob = await two_at_a_table(browser, s, timer="30")
        clock.advance(46.0)  # the round's first turn has 45 s: the server plays for whoever's it was
        await bob.locator("[data-area=plays] li", has_text="time ran out").first.wait_for(timeout=WAIT)
        phone = ada.context
        await ada.close()  # the phone sleeps
        await bob.get_by_text("ada is away").wait_for(timeout=WAIT)
        clock.advance(120.0)  # a bot plays ada's seat from now on
        await bob.locator(".seat", has_text="ada (bot)").wait_for(timeout=WAIT)
        while not any(p.startswith("ada (bot):") for p in await plays(bob)):
            await bob.wait_for_selector(MINE, timeout=WAIT)
            await play_one(bob)
            await bob.wait_for_selector(f"main:not({MINE})", timeout=WAIT)
        ada = await phone.new_page()  # the phone wakes: the page comes back with its seat token
        await ada.goto(s.url)
        await bob.get_by_text("ada is back").wait_for(timeout=WAIT)
        await ada.locator("[data-area=plays] li").first.wait_for(timeout=WAIT)
        seen = await plays(bob)
        assert any("time ran out" in p for p in seen) and any(p.startswith("ada (bot):") for p in seen)
        assert await plays(ada) == seen
        await phone.close()
