"""The browser client as a newcomer meets it on a phone (390×844, touch), in Debian's
chromium against a real server on 127.0.0.1 (port 0): the game's end speaks to the
winner as "you"; the rules' tables keep their words whole; the create form's "more
options" looks like something that opens; a finished game's step buttons stay under the
finger while the line above them changes."""

from __future__ import annotations

import asyncio
import re

import pytest
from playwright.async_api import Browser, Page

from test_web_a11y import axe_findings
from test_web_client import AXE, MINE, PHONE, WAIT, Site, browser, chromium, create, journaled, open_page, site  # noqa: F401
from test_web_family import in_view, open_italian, play_to_round_end, tap_a_card

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py


async def play_both_to_the_end(pages: list[Page]) -> None:
    """Two players at one table tap their cards (closing each round's box) until both
    pages show the game's end."""
    news = f"{MINE}, dialog[open]#round-end, #game-end"
    while True:
        for page in pages:
            box = page.locator("dialog[open]#round-end")
            if await box.count():
                await box.locator("p.bar button").tap()
                await box.wait_for(state="detached", timeout=WAIT)
            elif await page.locator(MINE).count():
                plays = "[data-area=plays] li"
                played = await page.locator(plays).count()
                await tap_a_card(page)
                await page.wait_for_selector(f"{plays}:nth-child({played + 1}), dialog[open]#round-end, #game-end",
                                             state="attached", timeout=WAIT)
        if all([await p.locator("#game-end").count() and not await p.locator("dialog[open]").count() for p in pages]):
            return
        waits = [asyncio.ensure_future(p.wait_for_selector(news, state="attached", timeout=WAIT)) for p in pages]
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for w in waits:
            w.cancel()


async def test_the_winner_reads_that_they_won(site: Site, browser: Browser) -> None:
    """R22: the first side to the target wins; the winner's page says
    "Hai vinto!", the other page names the winner."""
    ada = await open_italian(browser, site, "ada")
    await ada.wait_for_selector("#preset", timeout=WAIT)
    await ada.select_option("#preset", "frac")  # V12: 16 points a round, to 11: the end comes in a round or two
    await ada.check("#private")
    await ada.select_option("#bots", "")
    await ada.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    link = ada.locator("#invite a")
    await link.wait_for(timeout=WAIT)
    bob = await open_italian(browser, site, "bob", await link.get_attribute("href") or "")
    await bob.wait_for_selector("#turn", timeout=WAIT)
    await play_both_to_the_end([ada, bob])
    lines = [await p.locator("#game-end .winner").text_content() for p in (ada, bob)]
    assert sorted(lines) == sorted(["Hai vinto!", "Ha vinto ada" if lines[0] == "Hai vinto!" else "Ha vinto bob"])
    assert "Hai vinto!" in lines


async def test_the_rules_tables_keep_their_words_whole(site: Site, browser: Browser) -> None:
    page = await open_italian(browser, site, "ada")
    await page.get_by_role("button", name="Regole").tap()
    await page.wait_for_selector("dialog[open] .rules table", timeout=WAIT)
    broken: list[str] = await page.evaluate("""() => {
        const out = [];
        for (const cell of document.querySelectorAll('dialog[open] .rules th, dialog[open] .rules td')) {
          const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let n = walk.nextNode(); n; n = walk.nextNode()) {
            for (const m of n.textContent.matchAll(/\\S+/g)) {
              const r = document.createRange();
              r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
              if (new Set([...r.getClientRects()].map(b => Math.round(b.top))).size > 1) out.push(m[0]);
            }
          }
        }
        return out;
    }""")
    assert broken == []  # e.g. "italiano" was "italian/o" across two lines
    width = await page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390  # the page itself never scrolls sideways


async def test_more_options_shows_that_it_opens(site: Site, browser: Browser) -> None:
    page = await open_page(browser, site, "ada")
    summary = page.locator("#more summary")
    marker = "el => getComputedStyle(el, '::before').content"
    assert await summary.evaluate(marker) == '"▸ "'
    await summary.tap()
    await page.wait_for_selector("#opt-target", timeout=WAIT)
    assert await summary.evaluate(marker) == '"▾ "'


async def test_a_replay_keeps_its_buttons_under_the_finger(journaled: Site, browser: Browser) -> None:
    page = await open_italian(browser, journaled, "giuseppina")  # a long name: the line of the play wraps
    await page.select_option("#bots", "medium")  # a game against bots at once
    await page.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    for _ in range(2):  # a few plays to step through
        await page.wait_for_selector(MINE, timeout=WAIT)
        await tap_a_card(page)
    await page.wait_for_selector(MINE, timeout=WAIT)
    await page.get_by_role("button", name="Esci").tap()
    await page.get_by_role("button", name="Esci: chiudi la partita").tap()
    await page.get_by_role("button", name="Torna ai tavoli").tap()
    await page.get_by_role("button", name="Mostra le partite finite").tap()
    await page.locator("#games li button").first.tap()
    step = page.get_by_role("button", name="Avanti ▶")
    await step.wait_for(timeout=WAIT)
    where = page.locator("#replay-where")
    places = []
    for _ in range(2):
        box = await step.bounding_box()
        assert box is not None
        places.append(box["y"])
        said = await where.text_content()
        await step.tap()
        await page.wait_for_function("s => document.querySelector('#replay-where').textContent !== s", arg=said)
    box = await step.bounding_box()
    assert box is not None
    places.append(box["y"])
    assert re.search(r"giocata \d+ di \d+ · ", await where.text_content() or "")
    assert len(set(places)) == 1, places


async def test_a_table_waiting_for_a_friend_shows_the_free_seat_not_an_empty_board(site: Site, browser: Browser) -> None:
    ada = await open_page(browser, site, "ada", PHONE, bypass_csp=True)  # axe is injected
    await ada.add_script_tag(path=str(AXE))
    await ada.check("#private")
    await create(ada, bots="")
    link = ada.locator("#invite a")
    await link.wait_for(timeout=WAIT)
    assert await ada.locator(".seat").all_text_contents() == ["ada (you)", "Seat 2 · empty"]
    assert await axe_findings(ada) == []
    assert await ada.locator("[data-area=hand], [data-area=table], #score-title").count() == 0  # no board of nothing
    assert await ada.get_by_text("Stock 0").count() == 0
    bob = await (await browser.new_context(**PHONE)).new_page()  # type: ignore[arg-type]
    await bob.goto(await link.get_attribute("href") or "")
    await bob.fill("#name", "bob")
    await bob.get_by_role("button", name="Play").tap()
    await ada.wait_for_selector("[data-area=hand] .card", timeout=WAIT)  # the game is on: the board is back
    assert await ada.locator(".seat").all_text_contents() == ["ada (you) · 3 in hand", "bob · 3 in hand"]


async def test_the_not_private_notice_is_a_quiet_mark_from_the_first_screen(site: Site, browser: Browser) -> None:
    """The notice of a page served without TLS: never a banner, but a small open lock at the
    name screen's foot, where the name is typed, that says it when tapped (with a line, in plain words, for
    whoever hosts); the lobby and the table leave the phone's screen to the game."""
    for locale, said in (("en-GB", "Connection not encrypted"), ("it-IT", "Connessione non cifrata")):
        context = await browser.new_context(**{**PHONE, "locale": locale}, bypass_csp=True)  # type: ignore[arg-type]  # axe is injected
        page = await context.new_page()
        await page.goto(site.url)
        await page.add_script_tag(path=str(AXE))
        notice = page.locator("#not-private")
        assert not await notice.is_visible()
        mark = page.locator("footer #not-private-mark")
        assert await mark.is_visible()
        assert await mark.get_attribute("title") == said
        await mark.tap()
        assert (await page.locator("dialog[open] p.hint").text_content() or "") in (
            "Whoever hosts the game can turn on encryption (TLS) in its server: then the connection is private.",
            "Chi ospita il gioco può attivare la cifratura (TLS) nel suo server: allora il collegamento è privato.")
        assert await page.get_by_text("scopa serve").count() == 0
        assert await axe_findings(page) == []  # the mark and its box
        await context.close()
    page = await open_page(browser, site, "ada")
    assert not await page.locator("#not-private").is_visible()
    assert await page.locator("#not-private-mark").count() == 0
    await create(page)
    await page.wait_for_selector(MINE, timeout=WAIT)
    assert await page.locator("#not-private-mark").count() == 0


async def fits(page: Page) -> list[str]:
    """What sticks out past the phone's right edge: the page's own width, any open box,
    any table of points."""
    found: list[str] = await page.evaluate("""() => {
        const w = window.innerWidth, out = [];
        if (document.documentElement.scrollWidth > w) out.push(`page ${document.documentElement.scrollWidth}`);
        for (const e of document.querySelectorAll('dialog[open], table.piles')) {
          const r = e.getBoundingClientRect();
          if (r.right > w + 0.5) out.push(`${e.id || e.closest('[id]')?.id || e.tagName} ${Math.round(r.right)}`);
        }
        return out;
    }""")
    return found


async def test_a_four_player_game_fits_a_phone(site: Site, browser: Browser) -> None:
    """Scopone, two sides of two (R2): each side's name is both players' names, and the
    score, the round's end and the game's end stay within the phone's width."""
    page = await open_italian(browser, site, "nonna", bypass_csp=True)  # axe is injected
    await page.wait_for_selector("#preset", timeout=WAIT)
    await page.add_script_tag(path=str(AXE))
    await page.select_option("#preset", "scopone")
    await page.select_option("#bots", "easy")
    await page.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    await page.wait_for_selector(MINE, timeout=WAIT)
    heads = await page.locator("#score-title + table thead th").all_text_contents()
    assert len(heads) == 2 and heads[0].startswith("nonna + ")
    assert await fits(page) == []
    await play_to_round_end(page)
    assert await fits(page) == []
    assert await axe_findings(page) == []
    await page.locator("dialog[open]#round-end p.bar button").tap()
    await page.get_by_role("button", name="Esci").tap()
    await page.get_by_role("button", name="Esci: chiudi la partita").tap()
    await page.wait_for_selector("#game-end", timeout=WAIT)
    assert await fits(page) == []


async def test_the_lobby_says_which_seats_are_free(site: Site, browser: Browser) -> None:
    bob = await open_page(browser, site, "bob")
    await create(bob, bots="")  # a table waiting for a second player
    nonna = await open_italian(browser, site, "nonna")
    table = nonna.locator(".tables li", has_text="#1 ")
    await table.wait_for(timeout=WAIT)
    assert "· in attesa di giocatori · bob, posto libero" in (await table.text_content() or "")


async def test_a_new_table_opens_at_its_top_with_whose_turn_it_is(site: Site, browser: Browser) -> None:
    """The create button sits far down the lobby on a phone; the table it opens must not
    keep the lobby's scroll, which hid the title, whose turn it is and the turn's clock."""
    page = await open_italian(browser, site, "ada")
    await page.wait_for_selector("#preset", timeout=WAIT)
    await page.select_option("#bots", "easy")
    await page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # down the lobby to the form
    assert await page.evaluate("() => window.scrollY") > 0
    await page.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    await page.wait_for_selector(MINE, timeout=WAIT)
    assert await page.evaluate("() => window.scrollY") == 0
    for part in ("header h1", "#turn", "[data-area=hand] .card >> nth=0"):
        assert await in_view(page, part), part
