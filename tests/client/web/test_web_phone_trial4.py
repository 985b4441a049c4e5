"""A newcomer on an Italian phone (390×844, touch, it-IT), as tests/client/web/test_web_client.py
drives the page: the invite of a game that is over (or of a table gone) says so plainly and
offers the game again and the tables; the score panel has a row for each of the table's own
categories; no word of extra time where no clock runs; a browser closed mid-game comes back
to its seat, and a kept name in use is asked about, not changed unasked; the time that ran out
while the page was away is said on its return; the plain connection's mark says what it is."""

from __future__ import annotations

import asyncio
import re

import pytest
from playwright.async_api import Browser, Page, expect

from scopa.bots import GreedyBot
from scopa.protocol import commands as wire
from scopa.server.core.clock import FakeClock

from test_web_client import MINE, WAIT, Site, browser, chromium, served, site  # noqa: F401
from test_web_family import ITALIAN_PHONE, open_italian
from test_web_family_trial import front_down, front_up
from test_web_trial import at_table
from wire_client import WireClient

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

WAITING = "In attesa degli altri giocatori"


async def private_table_of_two(site: Site, takeover: bool = True) -> tuple[WireClient, WireClient, str]:
    """ana's private table, bea seated by its invite: the two clients and the invite's link."""
    ana = await WireClient.connect(site.engine.port, "ana")
    bea = await WireClient.connect(site.engine.port, "bea")
    ana.send(wire.CreateTable(private=True, bot_takeover=takeover))
    created = await ana.recv_until("table_created")
    table, code = created.body.table.id, created.body.invite
    await ana.recv_until("joined")
    ana.table = table
    bea.send(wire.JoinTable(table=table, invite=code))
    await bea.recv_until("joined")
    bea.table = table
    return ana, bea, f"{site.url}?invite={table}.{code}&from=ana&game=scopa&n=2&to=11"


async def comes_by_the_link(browser: Browser, link: str) -> Page:
    """A new phone opens ``link``: its name screen."""
    context = await browser.new_context(**ITALIAN_PHONE)  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(link)
    return page


async def test_a_finished_games_invite_says_it_is_over_with_its_result_replay_and_tables(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §1 /seat-open (state) and watch_table (last_event): ana and bea played their
    private game to its end; cugina opens its invite: the name screen says the game is over
    (never "al completo"), and once named she sees who won, can see the game again and go to
    the tables; nothing says the table waits for players, or that it is gone."""
    ana, bea, link = await private_table_of_two(site)
    await asyncio.gather(ana.play_game(GreedyBot()), bea.play_game(GreedyBot()))
    page = await comes_by_the_link(browser, link)
    invited = page.locator("#invited")
    await expect(invited).to_have_text("Questa partita è già finita: scegli un nome per vedere com'è andata, e se vuoi rivederla.",
                                       timeout=WAIT)
    await page.fill("#name", "cugina")
    await page.get_by_role("button", name="Vedi com'è finita", exact=True).tap()
    end = page.locator("#game-end")
    await end.wait_for(timeout=WAIT)
    assert re.fullmatch(r"Ha vinto (ana|bea)", await end.locator(".winner").text_content() or "")
    await expect(page.locator("#watching")).to_have_text("La partita di ana e bea è finita: ecco com'è andata.")
    text = await page.locator("body").inner_text()
    assert WAITING not in text and "non c'è più" not in text and "al completo" not in text, text
    await expect(end.get_by_role("button", name="Torna ai tavoli", exact=True)).to_be_visible()
    await end.get_by_role("button", name="Rivedi la partita", exact=True).tap()
    await page.locator("#replay-title").wait_for(timeout=WAIT)
    for c in (ana, bea):
        await c.close()


async def test_an_abandoned_games_invite_says_who_left_and_that_it_is_over(site: Site, browser: Browser) -> None:
    """bea leaves ana's private game (no bot takes her seat: it ends, abandoned); the invite
    opened afterwards says the game is over, that nobody won and why."""
    ana, bea, link = await private_table_of_two(site, takeover=False)
    await ana.recv_until("game_start")
    bea.send(wire.LeaveTable(table=bea.table))
    await ana.recv_until("game_end")
    page = await comes_by_the_link(browser, link)
    await expect(page.locator("#invited")).to_contain_text("Questa partita è già finita", timeout=WAIT)
    await page.fill("#name", "cugina")
    await page.get_by_role("button", name="Vedi com'è finita", exact=True).tap()
    winner = page.locator("#game-end .winner")
    await expect(winner).to_have_text("Nessun vincitore. La partita è finita: bea ha lasciato la partita.", timeout=WAIT)
    assert WAITING not in await page.locator("body").inner_text()
    for c in (ana, bea):
        await c.close()


async def test_the_link_of_a_table_gone_says_so_in_its_own_box(site: Site, browser: Browser) -> None:
    """A link to a table the server no longer holds: once named, the page says the table is
    gone and shows the tables, never a table screen waiting for players."""
    page = await comes_by_the_link(browser, f"{site.url}?table=77&from=ana&game=scopa&n=2&to=11")
    await page.fill("#name", "cugina")
    await page.get_by_role("button", name="Gioca", exact=True).tap()
    gone = page.locator("#link-gone")
    await expect(gone.locator("h2")).to_have_text("Questo tavolo non c'è più", timeout=WAIT)
    assert WAITING not in await page.locator("body").inner_text()
    await gone.get_by_role("button", name="Vai ai tavoli", exact=True).tap()
    await expect(gone).to_have_count(0)
    await page.locator("#preset").wait_for(timeout=WAIT)


async def test_a_watched_table_that_is_gone_leaves_no_screen_waiting(site: Site, browser: Browser) -> None:
    """zia taps Guarda on a listed table that ends before her ask arrives: the page says the
    table is gone and is back at the tables, not at a table "waiting for the other players"."""
    bea = await WireClient.connect(site.engine.port, "bea")
    table = await bea.create()
    zia = await open_italian(browser, site, "zia")
    row = zia.locator(".tables li", has_text=f"#{table} ")
    await row.wait_for(timeout=WAIT)
    watch = await row.get_by_role("button", name="Guarda").element_handle()
    bea.send(wire.LeaveTable(table=table))  # the waiting table closes with its only person gone
    await bea.recv_until("left")
    await expect(row).to_have_count(0, timeout=WAIT)
    await watch.evaluate("b => b.click()")  # tapped as the list dropped it
    await expect(zia.locator("#link-gone h2")).to_have_text("Questo tavolo non c'è più", timeout=WAIT)
    assert WAITING not in await zia.locator("body").inner_text()
    await bea.close()


async def test_the_score_panel_has_the_tables_own_categories(site: Site, browser: Browser) -> None:
    """V3, V11: a table made with re bello and napola: the score panel during the game has a
    row for each, as the round's box has them."""
    page = await open_italian(browser, site, "nonna")
    await page.wait_for_selector("#preset", timeout=WAIT)
    await page.select_option("#bots", "easy")
    await page.locator("#more summary").tap()
    for option in ("re_bello", "napola"):
        await page.select_option(f"#opt-{option}", "true", timeout=WAIT)
    await page.locator("form:has(#preset) button[type=submit]").tap()
    await page.wait_for_selector(MINE, timeout=WAIT)
    rows = await page.locator("#score-title + table tbody th").all_text_contents()
    assert rows == ["Partita (a 11)", "Carte", "Denari", "Settebello", "Primiera", "Scope", "Napola", "Re bello"], rows
    cells = await page.locator("#score-title + table tbody tr", has_text="Re bello").locator("td").all_text_contents()
    assert cells == ["–", "–"] or "✓" in cells, cells


async def test_no_extra_time_is_said_where_no_clock_runs(browser: Browser) -> None:
    """PROTOCOL.md §7 Turn clock: the reading time is more time on a clock. A server with no
    turn clock: the form says nothing of it; on one with a clock, it is said for the server's
    clock and a shorter one, not for "nessuno"."""
    async with served(turn_timeout=None) as s:
        page = await open_italian(browser, s, "zia")
        await page.wait_for_selector("#preset", timeout=WAIT)
        await expect(page.locator("#timer-first")).to_have_text("")
        assert "in più" not in await page.locator("form:has(#preset)").inner_text()
    async with served() as s:
        page = await open_italian(browser, s, "zio")
        said = page.locator("#timer-first")
        await expect(said).to_contain_text("15 s in più", timeout=WAIT)
        await page.select_option("#timer", "off")
        await expect(said).to_have_text("")
        await page.select_option("#timer", "30")
        await expect(said).to_contain_text("15 s in più")


async def test_a_browser_closed_mid_game_comes_back_to_the_seat(site: Site, browser: Browser) -> None:
    """carla closes the browser mid-game and opens the page again (the same browser: its
    storage kept): she is at her seat under her own name, not "carla55"."""
    page = await at_table(browser, site, "carla")
    await page.wait_for_selector(MINE, timeout=WAIT)
    kept = await page.context.storage_state()
    await page.context.close()
    context = await browser.new_context(**ITALIAN_PHONE, storage_state=kept)  # type: ignore[arg-type]
    again = await context.new_page()
    await again.goto(site.url)
    await again.locator(".seat", has_text="carla (tu)").wait_for(timeout=WAIT)
    await again.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    await expect(again.locator("header h1")).to_have_text("Scopa · carla")


async def test_a_kept_name_in_use_is_asked_about_never_changed_unasked(site: Site, browser: Browser) -> None:
    """carla's seat holds her name; another phone that kept the name "carla" opens the page:
    the name screen says the name is in use, in plain Italian, and lets her play under
    another or pick one; until she chooses, the page is nobody else's "carla55"."""
    carla = await at_table(browser, site, "carla")
    await carla.wait_for_selector(MINE, timeout=WAIT)
    other = await open_italian(browser, site, "nipote")
    await other.wait_for_selector("#preset", timeout=WAIT)
    await other.evaluate("localStorage.setItem('scopa.name', 'carla')")
    await other.reload()
    question = other.locator("#name-question")
    await question.wait_for(timeout=WAIT)
    said = await question.get_by_role("alert").text_content() or ""
    found = re.fullmatch(r"Il nome carla è già in uso\. Gioca come (carla\d\d), o scegli un altro nome\.", said)
    assert found, said
    assert await other.locator("#preset").count() == 0  # not in the lobby under another name
    await other.get_by_role("button", name="Scegli un altro nome", exact=True).tap()
    await other.fill("#name", "zia")
    await other.get_by_role("button", name="Gioca", exact=True).tap()
    await expect(other.locator("header h1")).to_have_text("Scopa · zia", timeout=WAIT)


async def at_a_timed_table_with_a_bot(browser: Browser, s: Site, name: str) -> Page:
    """``name``'s Italian phone makes a table of 30 s a move with an easy bot, up to her first turn."""
    page = await open_italian(browser, s, name)
    await page.wait_for_selector("#preset", timeout=WAIT)
    await page.select_option("#timer", "30")
    await page.select_option("#bots", "easy")
    await page.locator("form:has(#preset) button[type=submit]").tap()
    await page.wait_for_selector(MINE, timeout=WAIT)
    return page


async def test_the_time_that_ran_out_while_away_is_said_with_the_clock_at_once(browser: Browser) -> None:
    """R13 (the turn clock): carla's connection is lost on her turn and her time runs out
    meanwhile (the server plays for her, the bot answers); back, the page says plainly that
    the server played for her while she was away, and her new turn's clock shows at once."""
    clock = FakeClock()
    async with served(clock=clock) as s:
        page = await at_a_timed_table_with_a_bot(browser, s, "carla")
        port = await front_down(s)
        await page.get_by_role("status").filter(has_text="Connessione persa").wait_for(timeout=WAIT)
        clock.advance(46)  # her turn's 30 s and the round's first 15 s: the server plays for her
        await front_up(s, port)
        note = page.get_by_role("alert").filter(has_text="Mentre eri via è scaduto il tempo")
        await note.wait_for(timeout=WAIT)
        assert re.fullmatch(r"Mentre eri via è scaduto il tempo: il server ha giocato .+ per te\.", await note.text_content() or "")
        await page.wait_for_selector(MINE, timeout=WAIT)
        clock_line = await page.locator("#turn .clock").text_content() or ""
        found = re.search(r"ancora (\d+) s per la mossa", clock_line)
        assert found and int(found.group(1)) <= 30, clock_line
        assert await note.count() == 1  # her new turn leaves it said until she plays


async def test_the_plain_connection_says_what_it_is_in_the_footer(site: Site, browser: Browser) -> None:
    """The footer's mark of a page served without TLS says in plain words what it means
    ("Connessione non cifrata", with an info sign for more), and a tap still says more."""
    page = await comes_by_the_link(browser, site.url)
    mark = page.locator("footer #not-private-mark")
    assert (await mark.inner_text()).strip() == "Connessione non cifrata"
    await expect(page.get_by_role("button", name="Connessione non cifrata", exact=True)).to_have_count(1)
    await mark.tap()
    await expect(page.locator("dialog[open] p").first).to_contain_text("non è cifrato")


async def test_a_browser_closed_while_the_time_ran_out_is_told_on_coming_back(browser: Browser) -> None:
    """carla closes the browser on her turn; her time runs out meanwhile (the server plays
    for her). Back in the same browser, at her seat, the page says so plainly (from the
    server's snapshot of the round's plays) and shows her turn's seconds."""
    clock = FakeClock()
    async with served(clock=clock) as s:
        page = await at_a_timed_table_with_a_bot(browser, s, "carla")
        kept = await page.context.storage_state()
        await page.context.close()
        clock.advance(46)  # her turn's 30 s and the round's first 15 s: the server plays for her
        context = await browser.new_context(**ITALIAN_PHONE, storage_state=kept)  # type: ignore[arg-type]
        again = await context.new_page()
        await again.goto(s.url)
        note = again.get_by_role("alert").filter(has_text="Mentre eri via è scaduto il tempo")
        await note.wait_for(timeout=WAIT)
        assert re.fullmatch(r"Mentre eri via è scaduto il tempo: il server ha giocato .+ per te\.", await note.text_content() or "")
        await again.wait_for_selector(MINE, timeout=WAIT)
        found = re.search(r"ancora (\d+) s per la mossa", await again.locator("#turn .clock").text_content() or "")
        assert found and int(found.group(1)) <= 30, found
