"""The browser client on an Italian phone (390×844, touch), as tests/client/web/test_web_client.py
drives it: a connection lost on the player's turn is said at once (the browser offline) or
once the page hears nothing past its ping; a card tapped meanwhile is not taken for played,
and goes once the seat is back."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, WebSocketRoute

from test_web_client import MINE, WAIT, Site, browser, chromium, page_clock, site  # noqa: F401
from test_web_family import ITALIAN_PHONE, against_an_easy_bot, open_italian
from test_web_seat_held import play_first
from test_web_trial import at_table

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


async def test_a_lost_connection_is_said_and_a_card_tapped_meanwhile_goes_once_back(site: Site, browser: Browser) -> None:
    """The phone goes offline on its turn (the browser's offline emulation: the WebSocket is
    not closed, nothing passes): the page says so at once, keeps the card tapped meanwhile
    in the hand and says it has not gone yet; back online, the seat resumes and the play goes."""
    site.offline = True  # the browser's own lines about a connection that failed are expected
    page = await at_table(browser, site, "nipote")
    await page.wait_for_selector(MINE, timeout=WAIT)
    await page.context.set_offline(True)
    band = page.get_by_role("status").filter(has_text="Connessione persa, riconnessione…")
    await band.wait_for(timeout=WAIT)
    hand = page.locator("[data-area=hand] .card")
    count = await hand.count()
    card = await hand.first.get_attribute("data-card")
    name = await hand.first.get_attribute("aria-label")
    await play_first(page)
    await band.filter(has_text=f"La tua giocata ({name}) non è ancora arrivata al server: parte appena torna la connessione.").wait_for(timeout=WAIT)
    assert await page.locator(f"[data-area=hand] .card[data-card='{card}']").count() == 1  # not taken for played
    await page.context.set_offline(False)
    await page.locator(f"[data-area=hand] .card[data-card='{card}']").wait_for(state="detached", timeout=WAIT)
    await page.locator("[data-area=plays] li", has_text=f"nipote: {name}").wait_for(timeout=WAIT)
    assert await band.count() == 0
    assert await hand.count() in (count - 1, 3)  # played (or the next deal's three)


async def test_a_connection_gone_silent_is_said_lost_and_the_seat_comes_back(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §8 "Any time" (either end may ping): the frames stop coming on the player's
    turn while the socket stays open (a link dead on the way); the page, hearing nothing past
    its ping, says the connection is lost (its clock moved on by the test), connects again and
    is back at its seat."""
    deaf = {"on": False}

    async def relay(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda m: None if deaf["on"] else ws.send(m))
        ws.on_message(lambda m: server.send(m))

    context = await browser.new_context(**ITALIAN_PHONE)  # type: ignore[arg-type]
    await context.route_web_socket(re.compile(r"/ws"), relay)
    page = await context.new_page()
    page.on("console", lambda m: site.errors.append(f"nipote: {m.text}") if m.type == "error" else None)
    await page.goto(site.url)
    await page.fill("#name", "nipote")
    await page.get_by_role("button", name="Gioca").tap()
    await against_an_easy_bot(page)
    await page.wait_for_selector(MINE, timeout=WAIT)
    await page_clock(page)
    deaf["on"] = True  # nothing more reaches the page, pongs included
    band = page.get_by_role("status").filter(has_text="Connessione persa, riconnessione…")
    assert await band.count() == 0
    await page.clock.fast_forward(13_000)
    await band.wait_for(timeout=WAIT)
    deaf["on"] = False  # the next connection is heard
    await band.wait_for(state="detached", timeout=WAIT)
    await page.wait_for_selector(MINE, timeout=WAIT)  # its turn again, on the new connection


async def test_a_lost_connection_clears_the_notices_of_before(site: Site, browser: Browser) -> None:
    """zia comes to watch nipote's game: nipote's page says so; nipote's phone goes offline:
    under the lost connection's band that notice is gone, and it does not come back with the
    connection."""
    site.offline = True  # the browser's own lines about a connection that failed are expected
    page = await at_table(browser, site, "nipote")
    await page.wait_for_selector(MINE, timeout=WAIT)
    zia = await open_italian(browser, site, "zia")
    await zia.locator(".tables li", has_text="#1 ").get_by_role("button", name="Guarda").tap()
    notice = page.get_by_role("alert").filter(has_text="Qualcuno ora guarda la partita.")
    await notice.wait_for(timeout=WAIT)
    await page.context.set_offline(True)
    band = page.get_by_role("status").filter(has_text="Connessione persa, riconnessione…")
    await band.wait_for(timeout=WAIT)
    assert await notice.count() == 0
    await page.context.set_offline(False)
    await band.wait_for(state="detached", timeout=WAIT)
    await page.wait_for_selector(MINE, timeout=WAIT)
    assert await notice.count() == 0
