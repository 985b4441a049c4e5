"""What an Italian family reads at a team table and in the lobby, on phones (390×844, touch,
it-IT), in Debian's chromium against a real server on 127.0.0.1 (port 0), as
tests/client/web/test_web_client.py drives it: the lobby's two quick ways to play are named
apart and each says what it does; the new table's form says which seat is one's partner at a
team table; at a scopone table the bots are counted 1, 2 as people count them and the title
names the game."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from test_web_client import WAIT, Site, browser, chromium, site  # noqa: F401
from test_web_family import open_italian
from test_web_family_trial import in_lobby

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py


async def test_the_lobbys_two_quick_ways_are_named_apart_and_say_what_they_do(site: Site, browser: Browser) -> None:
    """The quick panel's buttons: neither is named as the panel's title, no two alike, and
    each is described by a line under it (bots at once; waiting for other people)."""
    page = await in_lobby(browser, site, "nonna")
    panel = page.locator("section[aria-labelledby=quick-title]")
    title = await panel.locator("h2").inner_text()
    buttons = panel.get_by_role("button")
    names = [n.strip() for n in await buttons.all_inner_texts()]
    assert len(names) == 2 and len(set(names)) == 2 and title not in names, (title, names)
    said = []
    for i in range(2):
        ids = await buttons.nth(i).get_attribute("aria-describedby")
        assert ids, names[i]
        said.append(await page.locator(f"#{ids}").inner_text())
        assert await page.locator(f"#{ids}").is_visible()
    assert said == ["Si comincia subito: i bot giocano negli altri posti.",
                    "Aspetti altre persone che scelgono lo stesso gioco: si comincia quando siete abbastanza."]


async def test_the_form_says_the_partners_seat_at_a_team_table(site: Site, browser: Browser) -> None:
    """R5 (two teams, partners opposite): scopone, 4 seats: the form says the partner sits at
    seat 3; scopa for two says nothing of partners; six players, teams of three, seats 3 and 5."""
    page = await in_lobby(browser, site, "nonna")
    said = page.locator("#partner-said")
    assert await said.inner_text() == ""
    await page.select_option("#preset", "scopone")
    assert await said.inner_text() == "Il tuo compagno di squadra: posto 3, di fronte a te (tu sei al posto 1)."
    assert await said.is_visible()
    await page.select_option("#players", "6")
    assert await said.inner_text() == "I tuoi compagni di squadra: posti 3 e 5 (tu sei al posto 1)."
    await page.select_option("#players", "2")
    assert await said.inner_text() == ""


async def test_a_scopone_tables_bots_are_counted_as_people_count_and_the_title_names_the_game(
        site: Site, browser: Browser) -> None:
    """Scopone, two people (the invite brings the partner) and two bots, in seats 2 and 4: they
    read "Bot 1" and "Bot 2" in the seats and in the score, never a seat's number from 0; the
    title's row says Scopone, not Scopa."""
    nonna = await in_lobby(browser, site, "nonna")
    await nonna.select_option("#preset", "scopone")
    await nonna.select_option("#people", "2")
    await nonna.locator("form:has(#preset) button[type=submit]").tap()
    link = nonna.locator("#invite a")
    await link.wait_for(timeout=WAIT)
    nipote = await open_italian(browser, site, "nipote", await link.get_attribute("href") or "")
    await nipote.wait_for_selector("[data-area=table] .card", timeout=WAIT)
    await nonna.wait_for_selector("[data-area=table] .card", timeout=WAIT)
    seats = [x.split(" · ")[0] for x in await nonna.locator(".seat").all_text_contents()]
    assert seats == ["nonna (tu)", "Bot 1 (medio)", "nipote (in squadra con te)", "Bot 2 (medio)"], seats
    sides = await nonna.locator("section[aria-labelledby=score-title] thead th").all_inner_texts()
    assert [" ".join(s.split()) for s in sides] == ["nonna + nipote", "Bot 1 (medio) + Bot 2 (medio)"], sides
    assert await nonna.locator("header h1").inner_text() == "Scopone · nonna"
    assert await nipote.locator("header h1").inner_text() == "Scopone · nipote"
