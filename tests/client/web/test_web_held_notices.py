"""The browser client on a phone (390×844, touch), as tests/client/web/test_web_client.py
drives it: an away player's seat is said to be held for them, for how long, counting down,
then the bot's line; the news of a game one left goes once the person does something else;
the name screen's words on a refused name go as soon as the name is typed again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import Browser

from scopa.server.club import ClubOptions
from scopa.server.core.clock import FakeClock

from test_web_client import WAIT, Site, browser, chromium, served, site  # noqa: F401
from test_web_family import ITALIAN_PHONE, open_italian
from test_web_seat_held import nonna_and_nipote
from test_web_trial import at_table

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


async def test_an_away_seat_is_said_held_for_its_person_counting_down_then_the_bot(browser: Browser) -> None:
    """PROTOCOL.md §7 (seat_away's grace_seconds, seat_replaced): the others read that the seat
    stays the person's for the time the server holds it, as m:ss, then that a bot plays it."""
    clock = FakeClock()
    async with served(clock=clock, turn_timeout=600.0) as s:  # the grace period runs on the test's clock; no turn runs out meanwhile
        nonna, nipote = await nonna_and_nipote(browser, s)
        await nonna.context.close()  # the phone sleeps
        held = nipote.locator("#away li", has_text="nonna is away from the table: the seat stays theirs for another ")
        await held.wait_for(timeout=WAIT)
        assert re.fullmatch(r"nonna is away from the table: the seat stays theirs for another [0-2]:[0-5]\d, then a bot plays\.",
                            (await held.text_content() or "").strip())
        clock.advance(120.0)
        await nipote.locator("#stand-in li", has_text="nonna is not at the table: a bot plays in their place.").wait_for(timeout=WAIT)
        assert await nipote.locator("#away").count() == 0  # the countdown goes with the hold


async def test_the_news_of_a_game_left_goes_when_the_person_plays_on(browser: Browser) -> None:
    """PROTOCOL.md §7 (leave_table, a bot takes the seat) and §16 (quick_play): the lobby says
    the seat left is played by a bot; once the person asks for a quick game, that is old news."""
    async with served(club=ClubOptions()) as s:
        ada = await at_table(browser, s, "ada", bots="")
        bruno = await open_italian(browser, s, "bruno")
        await bruno.locator(".tables li", has_text="#1 ").get_by_role("button", name="Siediti").tap()
        await ada.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
        await ada.locator("#leave").tap()
        await ada.locator("dialog[open]#leave-question").get_by_role("button", name="Esci: continua un bot").tap()
        news = ada.get_by_role("status").filter(has_text="Hai lasciato la partita: da ora il tuo posto lo gioca un bot.")
        await news.wait_for(timeout=WAIT)
        await ada.wait_for_selector("#quick-preset", timeout=WAIT)
        await ada.get_by_role("button", name="Gioca con altre persone").tap()
        await ada.locator("#quick-title ~ p[role=status]").filter(has_text="Aspettiamo ancora").wait_for(timeout=WAIT)
        assert await news.count() == 0


async def test_a_refused_names_words_go_once_the_name_is_typed_again(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §4 "Names": "Zio Gino" is refused with the forms the server takes; as soon as
    the name field changes, the refusal and its "Gioca come …" buttons go (the name is no longer that)."""
    context = await browser.new_context(**ITALIAN_PHONE)  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(site.url)
    await page.fill("#name", "Zio Gino")
    await page.get_by_role("button", name="Gioca", exact=True).tap()
    said = page.locator("#name-said")
    await said.filter(has_text="Un nome non può avere spazi.").wait_for(timeout=WAIT)
    assert await said.get_by_role("button", name="Gioca come Zio_Gino").count() == 1
    await page.locator("#name").press("End")
    await page.locator("#name").press("Backspace")
    await page.locator("#name").press_sequentially("o")  # typed on: "Zio Gino" still, changed twice
    assert (await said.text_content() or "") == ""
    assert await said.get_by_role("button").count() == 0
    assert await page.locator("#name").get_attribute("aria-invalid") is None
    await context.close()


async def waiting_invite(browser: Browser, s: Site) -> tuple[str, str]:
    """nonna (an Italian phone, the page at 127.0.0.1) makes a table for people: its invite's
    link, and what is said under it."""
    nonna = await open_italian(browser, s, "nonna")
    await nonna.wait_for_selector("#preset", timeout=WAIT)
    await nonna.get_by_role("button", name="Crea un tavolo", exact=True).tap()
    invite = nonna.locator("#invite")
    await invite.wait_for(timeout=WAIT)
    link = await invite.locator("a").get_attribute("href") or ""
    said = await invite.locator("#invite-local").all_text_contents()
    await nonna.context.close()
    return link, " ".join(said)


async def test_a_loopback_pages_invite_names_the_servers_lan_address(browser: Browser) -> None:
    """PROTOCOL.md §4 welcome (lan_hosts) and §15: a page opened at 127.0.0.1 makes its invite
    (and its QR code) with the server's LAN address, on the page's port: a phone can open it."""
    async with served() as s:
        s.engine.router.greeting.lan_hosts = ["192.0.2.7"]  # as told by a server listening on every address
        link, said = await waiting_invite(browser, s)
        assert link.startswith(f"http://192.0.2.7:{s.front.port}/?table=")
        assert said == ""


async def test_a_loopback_pages_invite_warns_when_no_lan_address_is_known(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §4 welcome (no lan_hosts: the server listens on loopback only): the invite
    is the page's own loopback address, and under it the page says it works on this computer alone."""
    link, said = await waiting_invite(browser, site)
    assert link.startswith("http://127.0.0.1:")
    assert said == ("Questo indirizzo funziona solo su questo computer: apri la pagina con l'indirizzo di rete del server "
                    "(quello che «scopa serve» scrive dopo «Apri:», o «Open:» in inglese).")  # the server's words, in either language


async def test_a_full_tables_invite_says_so_before_a_name_is_picked(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §1 (/seat-open) and §8 join_table (table_full): the invite's page asks the
    server whether the table still has a seat; a full one is said at once on the name screen,
    which offers to watch its game (not to play): the name typed, the page watches it."""
    nonna = await open_italian(browser, site, "nonna")
    await nonna.wait_for_selector("#preset", timeout=WAIT)
    await nonna.get_by_role("button", name="Crea un tavolo", exact=True).tap()
    await nonna.locator("#invite").wait_for(timeout=WAIT)
    link = await nonna.locator("#invite a").get_attribute("href") or ""
    table = link.split("table=")[1].split("&")[0]
    assert (await (await nonna.request.get(f"{site.url.rstrip('/')}/seat-open?table={table}")).json()) == {"open": True, "state": "waiting"}
    zio = await open_italian(browser, site, "zio", url=link)
    await zio.wait_for_selector("[data-area=hand] .card", timeout=WAIT)  # the last seat taken: the game on
    assert (await (await nonna.request.get(f"{site.url.rstrip('/')}/seat-open?table=nope")).json()) == {"open": None, "state": None}
    context = await browser.new_context(**ITALIAN_PHONE)  # type: ignore[arg-type]
    late = await context.new_page()
    await late.goto(link)
    await late.locator("#invited", has_text="Il tavolo è al completo: puoi guardare la partita.").wait_for(timeout=WAIT)
    assert "ti invita" not in (await late.locator("#invited").text_content() or "")
    assert await late.get_by_role("button", name="Gioca", exact=True).count() == 0
    await late.fill("#name", "cugina")
    await late.get_by_role("button", name="Guarda la partita", exact=True).tap()
    await late.locator("#watching", has_text="nonna").wait_for(timeout=WAIT)
    await late.wait_for_selector("[data-area=table] .card", timeout=WAIT)
    assert await late.locator("#link-full").count() == 0
    await context.close()


async def test_a_restored_game_none_of_its_people_came_back_to_is_listed_as_waiting_for_them(
        browser: Browser, tmp_path: Path) -> None:
    """nonna plays a bot; the server restarts (her game from its journal) and she does not come
    back: once the hold of her seat is over, the lobby lists her game as waiting for its
    players, not as a game in play (no bot plays it out meanwhile: tests/server/conn/test_seat_held.py)."""
    clock = FakeClock()
    async with served(db=str(tmp_path / "games.db"), clock=clock) as s:
        nonna = await at_table(browser, s, "nonna")
        await nonna.locator("[data-area=hand] .card").first.wait_for(timeout=WAIT)
        await nonna.context.close()
        await s.restart()
        clock.advance(121.0)  # her seat's hold is over
        zia = await open_italian(browser, s, "zia")
        row = zia.locator(".tables li", has_text="#1 ")
        await row.wait_for(timeout=WAIT)
        assert " · in attesa che tornino i giocatori · nonna, " in (await row.text_content() or "")
        assert "in corso" not in (await row.text_content() or "")
