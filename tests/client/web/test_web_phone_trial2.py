"""The browser client on an Italian phone (390×844, touch), as tests/client/web/test_web_client.py
drives it: what a table was made with does not stick to the next one; the settings' selects
are named by their labels; a time-out's notice goes once the person's next turn comes."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, Page

from scopa.engine.cards import CARDS
from scopa.server.core.clock import FakeClock
from scopa.server.lobby.directory import build_rules

from test_web_client import MINE, WAIT, Site, browser, chromium, served, site  # noqa: F401
from test_web_family import against_an_easy_bot, open_italian
from test_web_seat_held import play_first
from test_web_table import sweeping_first_turn
from test_web_trial import at_table, scopone_choice

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


async def waiting_for_a_person(browser: Browser, site: Site) -> Page:
    """nonna's phone, at a new table of hers with no bot, waiting for a second person."""
    nonna = await open_italian(browser, site, "nonna")
    await nonna.wait_for_selector("#preset", timeout=WAIT)
    await nonna.select_option("#bots", "")
    await nonna.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    await nonna.locator("#invite").wait_for(timeout=WAIT)
    return nonna

async def test_private_and_the_other_options_do_not_stick_to_the_next_table(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §7 create_table (private, options): nonna makes a private table taking as
    she likes ("modo di presa: a scelta", under "Altre opzioni"), leaves it while it waits;
    the form of her next table is not private and has no other option set."""
    nonna = await open_italian(browser, site, "nonna")
    await nonna.wait_for_selector("#preset", timeout=WAIT)
    await nonna.select_option("#bots", "")
    await nonna.locator("#private").tap()
    await nonna.locator("#more summary").tap()
    mode = nonna.locator("[data-option=capture_mode]")
    await mode.select_option("free")
    await nonna.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    await nonna.locator("#invite").wait_for(timeout=WAIT)
    await nonna.locator("#leave").tap()
    await nonna.wait_for_selector("#preset", timeout=WAIT)
    assert not await nonna.locator("#private").is_checked()
    assert await mode.input_value() == ""
    assert await nonna.locator("#more").get_attribute("open") is None


async def test_the_settings_selects_are_named_by_their_labels(site: Site, browser: Browser) -> None:
    """The cards' look and the language at the page's foot: each select's accessible name is
    its label alone, not the label run into its options ("Carteitalianefrancesi")."""
    nonna = await open_italian(browser, site, "nonna")
    await nonna.wait_for_selector("#preset", timeout=WAIT)
    assert await nonna.get_by_role("combobox", name="Carte", exact=True).count() == 1
    assert await nonna.get_by_role("combobox", name="Lingua", exact=True).count() == 1


async def test_a_time_out_notice_goes_when_the_next_turn_comes(browser: Browser) -> None:
    """PROTOCOL.md §7 (the turn clock, played's forced): the server plays for nipote when her
    time runs out (the test's clock): her play's line names the card once, then says the
    server played it; once the bot has played and it is her turn again, the notice saying so
    is old news and goes (the round's plays keep the mark)."""
    clock = FakeClock()
    async with served(clock=clock, turn_timeout=30.0) as s:  # the turn clock runs on the test's clock
        page = await at_table(browser, s, "nipote")
        await page.wait_for_selector(MINE, timeout=WAIT)
        plays = page.locator("[data-area=plays] li")
        before = await plays.count()
        clock.advance(600)  # past any turn clock: the server plays for nipote
        mine = plays.nth(before)
        await mine.wait_for(timeout=WAIT)
        line = await mine.text_content() or ""
        card = re.fullmatch(r"nipote: (.+?)(?: → .+?)?(?: · Scopa!)? · tempo scaduto, l'ha giocata il server", line)
        assert card is not None and line.count(card[1]) == 1, line
        await plays.nth(before + 1).wait_for(state="attached", timeout=WAIT)  # the bot's reply
        await page.wait_for_selector(MINE, timeout=WAIT)
        notice = page.get_by_role("alert").filter(has_text="Il tuo tempo è scaduto: il server ha giocato")
        assert await notice.count() == 0


async def test_a_spectator_by_a_private_invite_watches_the_game_again_at_its_end(browser: Browser) -> None:
    """PROTOCOL.md §13 get_record (invite) and §15: zio comes by nonna's private invite and
    plays; a third phone opens the same link, finds the table full and watches; the players
    leave, the game ends; the spectator's "Rivedi la partita" shows the game again with the
    invite it came with, and no refusal is left over the screens after."""
    async with served() as s:
        nonna = await open_italian(browser, s, "nonna")
        await nonna.wait_for_selector("#preset", timeout=WAIT)
        await nonna.select_option("#bots", "")
        await nonna.locator("#private").tap()
        await nonna.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
        link = await nonna.locator("#invite a").get_attribute("href") or ""
        assert "invite=" in link
        zio = await open_italian(browser, s, "zio", url=link)
        await zio.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
        nipote = await open_italian(browser, s, "nipote", url=link, seat_open=False)  # found full as she joins
        await nipote.get_by_role("button", name="Guarda la partita").tap()
        await nipote.wait_for_selector("[data-area=table] .card", timeout=WAIT)
        for page in (nonna, zio):
            await page.locator("#leave").tap()
            await page.locator("dialog[open]#leave-question button.danger").tap()
        await nipote.locator("#game-end").wait_for(timeout=WAIT)
        await nipote.get_by_role("button", name="Rivedi la partita").tap()
        await nipote.locator("#replay-title").wait_for(timeout=WAIT)
        assert await nipote.get_by_role("status").filter(has_text="Tavolo privato").count() == 0


async def test_a_spectator_of_a_waiting_table_may_sit_at_its_free_seat(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §7 (watch_table, join_table): nipote watches nonna's table while it waits
    for a second player; beside "you are watching" she finds "Siediti", and taps it to play."""
    nonna = await waiting_for_a_person(browser, site)
    nipote = await open_italian(browser, site, "nipote")
    row = nipote.locator(".tables li", has_text="nonna")
    await row.get_by_role("button", name="Guarda").tap()
    watching = nipote.locator("#watching")
    await watching.wait_for(timeout=WAIT)
    await watching.get_by_role("button", name="Siediti").tap()
    await nipote.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    assert await nipote.locator("#watching").count() == 0
    await nonna.wait_for_selector("[data-area=hand] .card", timeout=WAIT)


CUT = """() => [...document.querySelectorAll("#score-title + table thead .name, #last-play")]
  .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1).map((e) => e.textContent)"""


async def test_names_in_the_score_and_the_last_play_are_whole(site: Site, browser: Browser) -> None:
    """The score's heading and the last play's line use the room there is: no name cut short
    on the phone (390 wide), nor on a 1366 desktop, nor the last play's line on the phone
    turned sideways."""
    page = await at_table(browser, site, "Nonna_Rosa")
    await page.wait_for_selector(MINE, timeout=WAIT)
    await play_first(page)
    await page.locator("#last-play").wait_for(timeout=WAIT)
    assert await page.evaluate(CUT) == []
    await page.set_viewport_size({"width": 1366, "height": 768})
    assert await page.evaluate(CUT) == []
    await page.set_viewport_size({"width": 844, "height": 390})
    assert await page.evaluate(CUT) == []


async def test_the_leave_question_and_the_cards_read_as_italian_prose(site: Site, browser: Browser) -> None:
    """The leave question against bots alone asks "Lasci la partita?", as the other cases do;
    the cards in hand are named "Re di Bastoni", "7 di Denari"."""
    page = await at_table(browser, site, "nonna")
    await page.wait_for_selector(MINE, timeout=WAIT)
    names = [await c.get_attribute("aria-label") or "" for c in await page.locator("[data-area=hand] .card").all()]
    assert names and all(re.fullmatch(r"(Asso|Re|Fante|Cavallo|[2-7]) di (Denari|Coppe|Spade|Bastoni)", n) for n in names), names
    await page.locator("#leave").tap()
    question = page.locator("dialog[open]#leave-question p").first
    await question.wait_for(timeout=WAIT)
    assert (await question.text_content() or "").startswith("Lasci la partita? Finisce subito per tutti")


async def test_a_table_swept_clean_says_it_is_empty(browser: Browser) -> None:
    """R (scopa): nonna takes the whole table with her first card; until nipote plays, the
    table's area says "Tavola vuota" rather than showing a blank."""
    rules = build_rules("scopa", {})
    seed, _, play = sweeping_first_turn(rules)
    async with served(seed=seed) as s:
        nonna = await waiting_for_a_person(browser, s)
        nipote = await open_italian(browser, s, "nipote")
        await nipote.locator(".tables li", has_text="nonna").get_by_role("button", name="Siediti").tap()
        await nonna.wait_for_selector(MINE, timeout=WAIT)
        assert await nonna.locator("[data-area=table] .empty-table").count() == 0
        card = str(CARDS[play.card])
        own = nonna.locator(f"[data-area=hand] .card[data-card='{card}']")
        await own.tap()
        await nonna.wait_for_selector(f"[data-area=hand] .card.picked[data-card='{card}']", timeout=WAIT)
        await own.tap()
        await nonna.locator("[data-area=table] .empty-table", has_text="Tavola vuota").wait_for(timeout=WAIT)
        assert await nonna.locator("[data-area=table] .card").count() == 0


async def test_while_the_ways_are_laid_out_the_hint_says_to_choose_below(browser: Browser) -> None:
    """R10-R12: a card that takes in two ways, tapped twice, lays its ways out in the sheet;
    the line under the hand then says to choose below (not to tap the card again), and each
    way's button is named by every card it takes."""
    seed, card = scopone_choice()
    async with served(seed=seed) as s:
        page = await open_italian(browser, s, "ada")
        await against_an_easy_bot(page, preset="scopone")
        await page.wait_for_selector(MINE, timeout=WAIT)
        picked = page.locator(f"[data-area=hand] .card[data-card='{card}']")
        await picked.tap()
        hint = page.locator("#tap-said")
        assert "toccala di nuovo e scegli" in (await hint.text_content() or "")
        await picked.tap()
        await page.locator("dialog[open]#choose").wait_for(timeout=WAIT)
        said = await hint.text_content() or ""
        assert "toccala di nuovo" not in said and said.endswith(": scegli qui sotto quali carte prendere."), said
        for way in await page.locator("#choose button.way").all():
            takes = (await way.get_attribute("data-takes") or "").split()
            named = [await page.locator(f"[data-area=table] .card[data-card='{c}']").get_attribute("aria-label") or "" for c in takes]
            assert await page.locator("#choose").get_by_role("button", name=" + ".join(named), exact=True).count() == 1
