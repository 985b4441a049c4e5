"""The browser client on an Italian phone (390×844, touch), as tests/client/web/test_web_client.py
drives it: the create form's turn clock and Privato agree, and a table the server refuses
is said beside the form's button, with the server's reason."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, expect

from test_web_client import MINE, WAIT, Site, browser, chromium, served, site  # noqa: F401
from test_web_family import ITALIAN_PHONE, open_italian
from test_web_round_box import BOX, lay_down_when_possible
from test_web_seat_held import play_first
from test_web_trial import at_table

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


async def test_no_turn_clock_ticks_private_and_unticking_it_gives_the_clock_back(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §7 create_table (no_turn_timer: private tables only): nonna chooses
    "nessuno (solo tavoli privati)" as her turn clock: Privato is ticked with it; she
    unticks Privato: the clock is the server's again."""
    nonna = await open_italian(browser, site, "nonna")
    await nonna.wait_for_selector("#preset", timeout=WAIT)
    assert not await nonna.locator("#private").is_checked()
    await nonna.select_option("#timer", "off")
    assert await nonna.locator("#private").is_checked()
    await nonna.locator("#private").tap()
    assert await nonna.locator("#timer").input_value() == ""


async def test_a_refused_table_is_said_beside_the_create_button_with_why(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §7 create_table (bad_rules): nonna asks for Scopone with 3 players; the
    server refuses it: beside the "Crea un tavolo" button, in view, the page says why in
    Italian (the deck does not divide into the deals), not only "Regole non valide" at the
    top of the lobby; her choices stay to be changed."""
    nonna = await open_italian(browser, site, "nonna")
    await nonna.wait_for_selector("#preset", timeout=WAIT)
    await nonna.select_option("#preset", "scopone")
    await nonna.select_option("#players", "3")
    create = nonna.locator("form button[type=submit]", has_text="Crea un tavolo")
    await create.tap()
    said = nonna.locator("#create-refused")
    await expect(said).to_contain_text("Regole non valide: il mazzo di", timeout=WAIT)
    await expect(said).to_be_in_viewport(timeout=WAIT)
    await expect(create).to_be_in_viewport()
    assert await nonna.locator("#players").input_value() == "3"
    assert await nonna.locator("body > * .status:not(#create-refused)", has_text="Regole non valide").count() == 0


async def test_a_card_played_offline_is_marked_waiting_and_the_turn_line_says_so(site: Site, browser: Browser) -> None:
    """The phone goes offline on nipote's turn and she plays a card: it stays in her hand
    marked as waiting for the connection, and the turn line says her play waits (not that
    it is another's turn); back online, it goes."""
    site.offline = True  # the browser's own lines about a connection that failed are expected
    page = await at_table(browser, site, "nipote")
    await page.wait_for_selector(MINE, timeout=WAIT)
    await page.context.set_offline(True)
    await page.get_by_role("status").filter(has_text="Connessione persa, riconnessione…").wait_for(timeout=WAIT)
    card = await page.locator("[data-area=hand] .card").first.get_attribute("data-card")
    name = await page.locator("[data-area=hand] .card").first.get_attribute("aria-label")
    await play_first(page)
    held = page.locator(f"[data-area=hand] .card[data-card='{card}']")
    await expect(held).to_have_class(re.compile(r"\bheld\b"), timeout=WAIT)
    await expect(held).to_have_attribute("aria-label", f"{name} · giocata in attesa della connessione")
    turn = await page.locator("#turn").text_content() or ""
    assert turn.startswith("Tocca a te · giocata in attesa della connessione"), turn
    await page.context.set_offline(False)
    await held.wait_for(state="detached", timeout=WAIT)
    await page.locator("[data-area=plays] li", has_text=f"nipote: {name}").wait_for(timeout=WAIT)


async def test_a_tables_own_rules_are_said_on_the_invite_the_lobby_and_the_rules(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §7 create_table (options): nonna makes a table with napola and re bello
    (under "Altre opzioni"): the newcomer's screen of her invite says them, the lobby's row
    of the table says them, and at the table the Regole box's settings line says them."""
    nonna = await open_italian(browser, site, "nonna")
    await nonna.wait_for_selector("#preset", timeout=WAIT)
    await nonna.select_option("#bots", "")
    await nonna.locator("#more summary").tap()
    await nonna.select_option("[data-option=napola]", "true")
    await nonna.select_option("[data-option=re_bello]", "true")
    await nonna.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    link = await nonna.locator("#invite a").get_attribute("href", timeout=WAIT) or ""
    guest = await (await browser.new_context(**ITALIAN_PHONE)).new_page()  # type: ignore[arg-type]
    await guest.goto(link)
    assert await guest.locator("#invited").text_content() == \
        "nonna ti invita a una partita di Scopa a 2, a 11 punti, con napola, re bello: scegli un nome e gioca."
    zia = await open_italian(browser, site, "zia")
    await expect(zia.locator(".tables li", has_text="nonna")).to_contain_text("Scopa, 2 giocatori, a 11 punti, napola, re bello", timeout=WAIT)
    await nonna.get_by_role("button", name="Regole", exact=True).tap()
    await expect(nonna.locator("#rules-settings")).to_have_text("A questo tavolo: Scopa, 2 giocatori, a 11 punti, napola, re bello.", timeout=WAIT)


async def test_the_round_box_shows_a_dash_for_a_category_a_side_did_not_score(browser: Browser) -> None:
    """R19-R21 (the round's count) with re bello: nipote plays a round against a bot at a
    table with re bello; in the round's box the Re bello row has a cell for each side, a dash
    ("–") for the side that did not score it, never an empty cell."""
    async with served(seed=1) as s:
        page = await open_italian(browser, s, "nipote")
        await page.wait_for_selector("#preset", timeout=WAIT)
        await page.select_option("#bots", "easy")
        await page.locator("#more summary").tap()
        await page.select_option("[data-option=re_bello]", "true")
        await page.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
        await lay_down_when_possible(page)
        row = await page.locator(f"{BOX} table tr", has=page.locator("th", has_text="Re bello")).locator("td").all_inner_texts()
        assert len(row) == 2 and "–" in row and all(cell.strip() for cell in row), row


async def test_a_sideways_phone_shows_scopones_nine_cards_in_one_row(site: Site, browser: Browser) -> None:
    """A phone turned sideways (844×390) at a Scopone table: the nine cards of the hand are
    in one row, each whole inside the hand (none in a second row below the screen), each
    still a target a finger can tap (44 px)."""
    page = await at_table(browser, site, "nipote", preset="scopone")
    await page.set_viewport_size({"width": 844, "height": 390})  # the phone turned to landscape
    await page.locator("[data-area=hand] .card:nth-child(9)").wait_for(timeout=WAIT)
    hand = await page.locator("[data-area=hand]").evaluate("h => h.getBoundingClientRect().toJSON()")
    cards = await page.locator("[data-area=hand] .card").evaluate_all("cs => cs.map(c => c.getBoundingClientRect().toJSON())")
    assert len(cards) == 9
    assert len({round(c["top"]) for c in cards}) == 1, cards  # one row
    assert all(hand["left"] <= c["left"] and c["right"] <= hand["right"] + 0.5 for c in cards), (hand, cards)
    assert hand["bottom"] - hand["top"] < 390 and all(c["width"] >= 44 and c["height"] >= 44 for c in cards)


async def test_the_forms_unset_options_say_the_games_own_value_and_the_clock_resets_with_privato(site: Site, browser: Browser) -> None:
    """The create form's "punti per vincere" left unset says what the chosen game has (Scopa
    11, Scopone 21); nonna makes a private table with 15 s a move, leaves it while it
    waits: her next table's form is back to the defaults, Privato and the turn clock alike."""
    nonna = await open_italian(browser, site, "nonna")
    await nonna.wait_for_selector("#preset", timeout=WAIT)
    await nonna.locator("#more summary").tap()
    unset = nonna.locator("[data-option=target] option[value='']")
    await expect(unset).to_have_text("come vuole il gioco (11)", timeout=WAIT)
    await nonna.select_option("#preset", "scopone")
    await expect(unset).to_have_text("come vuole il gioco (21)", timeout=WAIT)
    await nonna.select_option("#preset", "scopa")
    await nonna.select_option("#bots", "")
    await nonna.locator("#private").tap()
    await nonna.select_option("#timer", "15")
    await nonna.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    await nonna.locator("#invite").wait_for(timeout=WAIT)
    await nonna.locator("#leave").tap()
    await nonna.wait_for_selector("#preset", timeout=WAIT)
    assert not await nonna.locator("#private").is_checked()
    assert await nonna.locator("#timer").input_value() == ""
