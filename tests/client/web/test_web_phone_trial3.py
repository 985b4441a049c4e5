"""The browser client on an Italian phone (390×844, touch), as tests/client/web/test_web_client.py
drives it: the create form's turn clock and Privato agree, and a table the server refuses
is said beside the form's button, with the server's reason."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from test_web_client import WAIT, Site, browser, chromium, site  # noqa: F401
from test_web_family import open_italian

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
