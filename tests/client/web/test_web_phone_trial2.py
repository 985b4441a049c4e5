"""The browser client on an Italian phone (390×844, touch), as tests/client/web/test_web_client.py
drives it: what a table was made with does not stick to the next one; the settings' selects
are named by their labels."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from test_web_client import WAIT, Site, browser, chromium, site  # noqa: F401
from test_web_family import open_italian

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


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
