"""The end of a round and of a game on a phone (390×844, touch, Italian), in Debian's
chromium against a real server on 127.0.0.1 (port 0): the round's box says plainly when
the next round's first turn is the player's and its clock runs; a team's players read
"Avete vinto!"; the game's end shows the result, not an empty hand; the lobby's finished
games say "hai vinto" / "avete vinto" to the winners and "avete perso" to the losers; the server's bots are named in the
page's words ("Bot 1 (facile)", not "random-bot-1")."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, Page

from test_web_a11y import axe_findings
from test_web_client import AXE, MINE, WAIT, Site, browser, chromium, journaled, site  # noqa: F401
from test_web_family import open_italian, play_to_round_end

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

END = "#game-end"


async def test_the_round_end_box_says_your_turn_is_running(site: Site, browser: Browser) -> None:
    """R13 (the turn clock, welcome.turn_timeout): the next round's first turn starts while
    the last round's box is open; when it is the player's, the box says so with the seconds
    left, and one tap closes it to play."""
    page = await open_italian(browser, site, "ada", bypass_csp=True)  # axe is injected
    await page.wait_for_selector("#preset", timeout=WAIT)
    await page.add_script_tag(path=str(AXE))
    await page.select_option("#bots", "medium")  # a game against bots at once
    await page.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    await play_to_round_end(page)
    line = page.locator("dialog[open]#round-end #round-end-turn")
    await page.wait_for_function(
        "() => /^È iniziata la smazzata 2\\. Tocca a te\\. Hai ancora \\d+ s per la prossima mossa\\.$/.test("
        "document.querySelector('#round-end-turn')?.textContent ?? '')", timeout=WAIT)
    said = await line.text_content() or ""
    found = re.search(r"ancora (\d+) s", said)
    assert found and 0 < int(found.group(1)) <= 60 + 15  # the turn_timeout and the reading time at most
    assert await axe_findings(page) == []
    await page.locator("dialog[open]#round-end p.bar button", has_text="Continua").tap()
    await page.wait_for_selector(MINE, timeout=WAIT)
    assert await page.locator("dialog[open]").count() == 0


async def to_target(page: Page, points: str) -> None:
    """The create form's game played to ``points`` (its "more options", R22's target)."""
    await page.locator("#more summary").tap()
    await page.select_option("#opt-target", points, timeout=WAIT)


async def play_until_game_end(page: Page) -> None:
    """Play this page's turns (the other seats are bots), closing each round's box, until
    the game's end shows."""
    while not await page.locator(END).count():
        await play_to_round_end(page)
        if await page.locator(END).count():
            break
        box = page.locator("dialog[open]#round-end")
        await box.locator("p.bar button").tap()
        await box.wait_for(state="detached", timeout=WAIT)
        await page.wait_for_selector(f"{MINE}, {END}", timeout=WAIT)


async def test_a_team_reads_that_its_side_won_and_the_final_state(journaled: Site, browser: Browser) -> None:
    """R2, R22: in Scopone (two sides of two) the winning side's phone says "Avete vinto!"
    and the other's "Avete perso: ha vinto la squadra di a + b."; the game's end shows the
    result and the way back, not an empty hand and the last table; the lobby's finished
    game says who won in the same words."""
    page = await open_italian(browser, journaled, "nonna", bypass_csp=True)  # axe is injected
    await page.wait_for_selector("#preset", timeout=WAIT)
    await page.add_script_tag(path=str(AXE))
    await page.select_option("#preset", "scopone")
    await to_target(page, "11")  # the game's end is what matters here, not Scopone's 21 points
    await page.select_option("#bots", "easy")
    await page.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    await page.wait_for_selector(MINE, timeout=WAIT)
    assert await page.locator("#score-title + table tr.total th").text_content() == "Partita (a 11)"
    seats = await page.locator(".seat").all_text_contents()  # the server's bots named in the page's words
    assert [s.split(" · ")[0] for s in seats] == ["nonna (tu)", "Bot 1 (facile)", "Bot 2 (facile, in squadra con te)", "Bot 3 (facile)"], seats
    await play_until_game_end(page)
    winner = await page.locator(f"{END} .winner").text_content() or ""
    ours = winner == "Avete vinto!"
    assert ours or winner == "Avete perso: ha vinto la squadra di Bot 1 (facile) + Bot 3 (facile).", winner
    assert await page.locator("[data-area=hand], [data-area=table]").count() == 0  # the board of nothing is gone
    assert await page.get_by_text("Le tue carte").count() == 0
    assert await axe_findings(page) == []
    await page.locator(END).get_by_role("button", name="Torna ai tavoli").tap()
    await page.get_by_role("button", name="Mostra le partite finite").tap()
    line = page.locator("#games li .grow").first
    await line.wait_for(timeout=WAIT)
    said = await line.text_content() or ""
    assert said.split(" · ")[-1] == ("avete vinto" if ours else "avete perso"), said  # the bots: "Bot 1 (facile)"
    assert "Bot 1 (facile), Bot 2 (facile), Bot 3 (facile)" in said, said
    assert "-bot-" not in await page.locator("body").inner_text()


async def test_the_game_end_shows_who_won_and_the_last_round_with_nothing_on_top(site: Site, browser: Browser) -> None:
    """R22: when the last round ends the game, the phone (390×844) shows the result at once:
    who won, the totals and that round's breakdown in one place, with the way back to the
    tables, on screen without scrolling and with no round's box drawn over it."""
    page = await open_italian(browser, site, "ada", bypass_csp=True)  # axe is injected
    await page.wait_for_selector("#preset", timeout=WAIT)
    await page.add_script_tag(path=str(AXE))
    await page.select_option("#bots", "easy")
    await page.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    await play_until_game_end(page)
    await page.locator(f"{END} .winner").wait_for(timeout=WAIT)
    assert await page.locator("dialog[open]").count() == 0  # nothing drawn over the result
    assert await page.locator("#score-title").count() == 0  # no panel of the last round's piles beside it
    for part in (f"{END} .winner", f"{END} table.piles >> nth=0", f"{END} button >> nth=0"):
        box = await page.locator(part).bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844, part  # no scrolling
        on_top = await page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.closest('#game-end') !== null",
                                     [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
        assert on_top, part  # what one sees there is the result itself
    last = page.locator(f"{END} #last-round")
    said = await last.text_content() or ""
    title = await last.locator("#last-round-title").text_content() or ""
    assert re.fullmatch(r"Smazzata \d+, l'ultima", title), title  # its number, never read as a count of something
    assert "Primiera" in said and "Punti della smazzata" in said, said
    box = await last.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844  # the breakdown too, without scrolling
    winner = await page.locator(f"{END} .winner").text_content() or ""
    assert winner in ("Hai vinto!", "Ha vinto Bot 1 (facile)"), winner
    assert await axe_findings(page) == []
    await page.locator(END).get_by_role("button", name="Torna ai tavoli").tap()
    await page.wait_for_selector("#preset", timeout=WAIT)
