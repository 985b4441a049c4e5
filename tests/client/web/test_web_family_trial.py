"""An Italian family plays on phones (390×844, touch, it-IT), in Debian's chromium against a
real server on 127.0.0.1 (port 0): the turn clock claims no seconds while the connection is
lost and comes back from the server's deadline; the chat's count leaves out what the person saw
(their own message); a disabled button looks disabled; the create form says the first
move of a round has 15 s more, and lets two people play with two bots at scopone (the
invite fills the people's seat); a spectator whose connection dropped as the game ended
learns of the rematch; the rematch's chat goes on; a mouse press held across a lobby
update still clicks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect

from scopa.protocol import commands as wire
from scopa.protocol.convert import rules_to_wire
from scopa.server.core.clock import FakeClock
from scopa.client.webfiles import web_files, web_root
from scopa.server.web.front import WebFront

from test_web_client import DESKTOP, MINE, WAIT, Site, browser, chromium, open_page, page_clock, served, site  # noqa: F401
from test_web_family import open_italian
from test_web_replay import marked_game, serving_the_game, to_the_replay
from wire_client import WireClient

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py


async def in_lobby(browser: Browser, site: Site, name: str) -> Page:
    page = await open_italian(browser, site, name)
    await page.wait_for_selector("#preset", timeout=WAIT)
    return page


async def front_down(site: Site) -> int:
    """The web front stops (every page's connection closed); the game server plays on."""
    site.offline = True
    port = site.front.port
    await site.front.stop()
    return port


async def front_up(site: Site, port: int) -> None:
    site.front = WebFront(site.engine, web_root(), extra=web_files())
    await site.front.start("127.0.0.1", port)


async def test_the_clock_says_the_server_is_not_answering_while_the_connection_is_lost(browser: Browser) -> None:
    """R13 (the turn clock): while "Connessione persa" shows (the server may be restarting,
    its clock stopped with it), the turn's clock claims no seconds: it says the server does not
    answer and the page tries again; once back it shows what the server's deadline leaves."""
    clock = FakeClock()
    async with served(clock=clock) as s:
        page = await in_lobby(browser, s, "nonna")
        await page.select_option("#timer", "30")
        await page.select_option("#bots", "easy")
        await page.locator("form:has(#preset) button[type=submit]").tap()
        await page.wait_for_selector(MINE, timeout=WAIT)
        await page_clock(page)
        clock_line = page.locator("#turn .clock")
        await page.wait_for_function("() => /\\d+ s/.test(document.querySelector('#turn .clock')?.textContent ?? '')")
        port = await front_down(s)
        await page.get_by_role("status").filter(has_text="Connessione persa").wait_for(timeout=WAIT)
        await page.clock.run_for(20_000)  # the page's time goes on; its retries fail while the front is down
        await expect(clock_line).to_have_text(" · il server non risponde: riprovo…")  # no seconds nobody knows
        clock.advance(12)  # the server's: 12 s of the turn gone meanwhile
        await front_up(s, port)
        await page.clock.run_for(5_000)  # the next retry
        await page.wait_for_function("() => /\\d+ s/.test(document.querySelector('#turn .clock')?.textContent ?? '')")
        found = re.search(r"(\d+) s", await clock_line.text_content() or "")
        assert found and int(found.group(1)) <= 45 - 12, found  # the server's deadline, not a fresh clock


async def test_the_chat_count_leaves_out_ones_own_message(site: Site, browser: Browser) -> None:
    """ada writes, then scrolls up to the board before her message comes back: it is not
    news to her; bruno's that comes while the chat is out of view is."""
    ada = await in_lobby(browser, site, "ada")
    await ada.select_option("#bots", "")
    await ada.locator("form:has(#preset) button[type=submit]").tap()
    bruno = await in_lobby(browser, site, "bruno")
    await bruno.locator(".tables li", has_text="ada").get_by_role("button", name="Siediti").tap()
    await ada.wait_for_selector("[data-area=table] .card", timeout=WAIT)
    await ada.set_viewport_size({"width": 568, "height": 320})  # the phone turned: the chat below the fold
    await ada.fill("#table-chat", "ciao bruno")
    await ada.evaluate("""() => { document.querySelector("form:has(#table-chat) button[type=submit]").click();
        document.activeElement.blur(); window.scrollTo(0, 0); }""")
    await ada.locator("ul.chat li", has_text="ada: ciao bruno").wait_for(state="attached", timeout=WAIT)
    assert await ada.locator(".chat-new").count() == 0
    await bruno.fill("#table-chat", "ciao nonna")
    await bruno.locator("#table-chat").press("Enter")
    await ada.locator("ul.chat li", has_text="bruno: ciao nonna").wait_for(state="attached", timeout=WAIT)
    assert await ada.locator(".chat-new").text_content() == "1 nuovo messaggio in chat"


async def test_a_replays_back_at_the_first_step_looks_disabled(browser: Browser, tmp_path: Path) -> None:
    record, _, _ = marked_game()
    async with serving_the_game(tmp_path, record) as s:
        page = await in_lobby(browser, s, "cid")
        await to_the_replay(page, "Mostra le partite finite", "Rivedi")
        back = page.get_by_role("button", name="◀ Indietro")
        step = page.get_by_role("button", name="Avanti ▶")
        await back.wait_for(timeout=WAIT)
        assert await back.is_disabled() and not await step.is_disabled()
        look = "e => { const s = getComputedStyle(e); return [s.backgroundColor, s.cursor, s.borderStyle]; }"
        off, on = await back.evaluate(look), await step.evaluate(look)
        assert off[0] != on[0] and off[1] == "not-allowed" and off[2] == "dashed", (off, on)


async def test_the_form_says_the_servers_reading_time(browser: Browser, monkeypatch: pytest.MonkeyPatch) -> None:
    """PROTOCOL.md §7 Turn clock: each player's first move of a round has the reading time
    more, as the server's welcome says it (here 20 s, not the usual 15: the page has no
    copy of its own).  On an Italian phone, then in English."""
    monkeypatch.setattr(wire, "READING_TIME", 20.0)
    async with served() as s:
        page = await in_lobby(browser, s, "zia")
        said = page.locator("label[for=timer] small")
        await said.filter(has_text="20 s").wait_for(timeout=WAIT)
        assert await said.text_content() == \
            "La prima mossa di ciascuno in ogni smazzata ha 20 s in più (per guardare le carte nuove)."
        await page.select_option("#lang", "en")
        assert await said.text_content() == "Each player's first move of a round has 20 s more (to look at the new cards)."
        await page.context.close()


async def test_two_people_and_two_bots_at_scopone_by_the_form(site: Site, browser: Browser) -> None:
    """R2 (partners opposite): the creator chooses 2 people; the bots take the other side's
    seats, the invite's friend sits as the creator's partner and the game starts."""
    nonna = await in_lobby(browser, site, "nonna")
    await nonna.select_option("#preset", "scopone")
    assert await nonna.locator("#people option").all_text_contents() == [
        "4: tutti i posti", "3 e 1 bot", "2 e 2 bot", "solo tu e 3 bot"]
    await nonna.select_option("#people", "2")
    assert await nonna.locator("#bots").input_value() == "medium"  # bots chosen for the other seats
    await nonna.locator("form:has(#preset) button[type=submit]").tap()
    link = nonna.locator("#invite a")
    await link.wait_for(timeout=WAIT)
    url = await link.get_attribute("href") or ""
    nipote = await open_italian(browser, site, "nipote", url)
    await nipote.wait_for_selector(".seat", timeout=WAIT)
    await nonna.wait_for_selector("[data-area=table] .card", timeout=WAIT)
    seats = [x.split(" · ")[0] for x in await nonna.locator(".seat").all_text_contents()]
    assert seats == ["nonna (tu)", "Bot 1 (medio)", "nipote (in squadra con te)", "Bot 2 (medio)"], seats


async def test_a_spectator_back_after_the_end_is_offered_the_rematch(site: Site, browser: Browser) -> None:
    """cid watches ana and bea; his connection drops, the game ends and ana makes a rematch:
    back, cid's page watches again, shows the end and offers "Guarda la rivincita"."""
    ana = await WireClient.connect(site.engine.port, "ana")
    bea = await WireClient.connect(site.engine.port, "bea")
    old = await ana.create(bot_takeover=False)
    await bea.join(old)
    await ana.recv_until("game_start")
    cid = await in_lobby(browser, site, "cid")
    await cid.locator(".tables li", has_text=f"#{old} ").get_by_role("button", name="Guarda").tap()
    await cid.locator("[data-area=table] .card").first.wait_for(timeout=WAIT)
    port = await front_down(site)
    await cid.get_by_role("status").filter(has_text="Connessione persa").wait_for(timeout=WAIT)
    bea.send(wire.LeaveTable(table=old))
    await ana.recv_until("left")
    info = site.engine.tables.get(old)
    assert info is not None
    ana.send(wire.CreateTable(rules=rules_to_wire(info.rules), bot_takeover=False, rematch_of=old))
    await ana.recv_until("table_created")
    await front_up(site, port)
    offer = cid.locator("#rematch")
    await offer.get_by_role("button", name="Guarda la rivincita").wait_for(timeout=WAIT)
    assert await cid.locator("#game-end").count() == 1
    for c in (ana, bea):
        await c.close()


async def test_the_rematch_keeps_the_chat(site: Site, browser: Browser) -> None:
    """The rematch's chat starts with the last game's lines: bruno, who joins it from the
    game's end, reads what ana said there."""
    ana = await WireClient.connect(site.engine.port, "ana")
    old = await ana.create(bot_takeover=False)
    bruno = await in_lobby(browser, site, "bruno")
    await bruno.locator(".tables li", has_text=f"#{old} ").get_by_role("button", name="Siediti").tap()
    await ana.recv_until("game_start")
    ana.send(wire.Chat(text="un'altra dopo?"), recipient=f"table:{old}")
    await bruno.locator("ul.chat li", has_text="ana: un'altra dopo?").wait_for(state="attached", timeout=WAIT)
    ana.send(wire.LeaveTable(table=old))
    await ana.recv_until("left")
    await bruno.wait_for_selector("#game-end", timeout=WAIT)
    info = site.engine.tables.get(old)
    assert info is not None
    ana.send(wire.CreateTable(rules=rules_to_wire(info.rules), bot_takeover=False, rematch_of=old))
    await ana.recv_until("table_created")
    await bruno.locator("#rematch").get_by_role("button", name="Gioca la rivincita").tap()
    await bruno.wait_for_selector("#game-end", state="detached", timeout=WAIT)
    await bruno.locator("ul.chat li", has_text="ana: un'altra dopo?").wait_for(state="attached", timeout=WAIT)
    await ana.close()


async def test_a_press_held_across_a_lobby_update_still_clicks(site: Site, browser: Browser) -> None:
    """A desktop: the mouse pressed on a table's "Join", another client makes a table (the
    lobby's list changes), the mouse let go: the click is taken (a seat at the table)."""
    bea = await WireClient.connect(site.engine.port, "bea")
    table = await bea.create()
    ada = await open_page(browser, site, "ada", DESKTOP)
    join = ada.locator(".tables li", has_text=f"#{table} ").get_by_role("button", name="Join")
    box = await join.bounding_box()
    assert box is not None
    await ada.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await ada.mouse.down()
    cid = await WireClient.connect(site.engine.port, "cid")
    other = await cid.create()
    await ada.locator(".tables li", has_text=f"#{other} ").wait_for(timeout=WAIT)  # the lobby changed under the press
    await ada.mouse.up()
    await ada.locator(".seat", has_text="ada (you)").wait_for(timeout=WAIT)
    for c in (bea, cid):
        await c.close()
