"""A new user on an Italian phone (390×844, touch, it-IT), as tests/client/web/test_web_client.py
drives the page: the replay of a game someone left names who left, and heads the seat a bot
took over as live play did ("bea (bot)"); a watcher's notice of a play is gone from the
game's end; the score panel and the round's box list the
categories in one order; the finished games are one tap from the lobby's top, their lines in
one style; the new table's form says once that a table waits for people."""

from __future__ import annotations

import asyncio
import re

import pytest
from playwright.async_api import Browser, Page, expect

from scopa.bots import GreedyBot
from scopa.protocol import commands as wire
from scopa.server.core.clock import FakeClock

from test_web_client import WAIT, Site, browser, chromium, journaled, served, site  # noqa: F401
from test_web_family import open_italian
from wire_client import WireClient

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

SCORE_ROWS = "#score-title + table tbody th"


async def two_at_a_table(site: Site, **create: object) -> tuple[WireClient, WireClient]:
    """ana's table (``create``: more of its create_table), bea seated at it: the game begins."""
    ana = await WireClient.connect(site.engine.port, "ana")
    bea = await WireClient.connect(site.engine.port, "bea")
    ana.send(wire.CreateTable(**create))  # type: ignore[arg-type]
    ana.table = (await ana.recv_until("table_created")).body.table.id
    ana.seat = (await ana.recv_until("joined")).body.seat
    await bea.join(ana.table)
    return ana, bea


async def to_the_last_step(page: Page) -> None:
    """The replay on to its game's end, a tap at a time."""
    for name in ("Smazzata successiva", "Avanti ▶"):
        button = page.get_by_role("button", name=name, exact=True)
        while await button.is_enabled():
            await button.tap()


async def test_the_replay_of_a_game_left_names_who_left_and_the_bots_seat(journaled: Site, browser: Browser) -> None:
    """RECORDS.md taken_over, PROTOCOL.md list_games (leaver): bea leaves and a bot plays her
    seat; then ana leaves and the game ends with no winner. zia replays it from the finished
    games: its end names ana as who left, as live play said, and bea's seat is headed
    "bea (bot)" in the seats and the score, as live play headed it after she left."""
    ana, bea = await two_at_a_table(journaled, bot_takeover=True)
    await ana.recv_until("game_start")
    bea.send(wire.LeaveTable(table=bea.table))
    await ana.recv_until("seat_replaced")
    ana.send(wire.LeaveTable(table=ana.table))
    await ana.recv_until("game_end")
    page = await open_italian(browser, journaled, "zia")
    await page.get_by_role("button", name="Mostra le partite finite", exact=True).tap()
    await page.locator("#games li", has_text="abbandonata").get_by_role("button", name="Rivedi").tap()
    await page.locator("#replay-title").wait_for(timeout=WAIT)
    await to_the_last_step(page)
    await expect(page.locator("#replay-end .winner")).to_have_text("Nessun vincitore. La partita è finita: ana ha lasciato la partita.")
    seats = [s.split(" · ")[0] for s in await page.locator(".seats .seat").all_text_contents()]
    assert sorted(seats) == ["ana", "bea (bot)"], seats
    heads = await page.locator("#score-title + table thead th").all_text_contents()
    assert sorted(heads) == ["ana", "bea (bot)"], heads
    for c in (ana, bea):
        await c.close()


async def watched_till_a_time_out(browser: Browser, site: Site, clock: FakeClock, **create: object) -> tuple[Page, WireClient, WireClient]:
    """zia watches ana and bea (``create``: more of the table's create_table); the first to play
    lets the time run out and the server plays for them: zia is told. Her page, who was late
    and the other."""
    ana, bea = await two_at_a_table(site, turn_timeout=30, **create)
    dealer = (await ana.recv_until("round_start")).body.dealer
    late, other = (ana, bea) if (dealer + 1) % 2 == ana.seat else (bea, ana)
    zia = await open_italian(browser, site, "zia")
    await zia.locator(".tables li", has_text=f"#{ana.table} ").get_by_role("button", name="Guarda").tap()
    await zia.wait_for_selector("[data-area=table] .card", timeout=WAIT)
    clock.advance(46)  # the first turn of the round: 30 s and 15 s to look at the cards
    await expect(zia.get_by_role("alert").filter(has_text="è scaduto")).to_have_text(
        re.compile(r"Il tempo di (ana|bea) è scaduto: il server ha giocato .+ al suo posto\."), timeout=WAIT)
    return zia, late, other


async def test_a_watchers_end_screen_has_no_notice_of_a_play(browser: Browser) -> None:
    """PROTOCOL.md §7 Turn clock, game_end: zia is told of the time that ran out; the other
    player leaves, the game ends: zia's end screen has no notice of a play."""
    clock = FakeClock()
    async with served(clock=clock) as s:
        zia, late, other = await watched_till_a_time_out(browser, s, clock, bot_takeover=False)
        other.send(wire.LeaveTable(table=other.table))
        await zia.locator("#game-end .winner").wait_for(timeout=WAIT)
        assert "è scaduto" not in await zia.locator("body").inner_text()  # its play says "tempo scaduto", no notice says it again
        for c in (late, other):
            await c.close()


async def test_the_score_panel_and_the_rounds_box_list_the_categories_alike(journaled: Site, browser: Browser) -> None:
    """The live score panel lists its rows in the order the
    round's box does, carte, denari, settebello, primiera, scope; in a replay at a round's end
    the two stand side by side, in the same order."""
    ana, bea = await two_at_a_table(journaled)
    await asyncio.gather(ana.play_game(GreedyBot()), bea.play_game(GreedyBot()))
    page = await open_italian(browser, journaled, "zia")
    await page.get_by_role("button", name="Mostra le partite finite", exact=True).tap()
    await page.locator("#games li").first.get_by_role("button", name="Rivedi").tap()
    await page.locator("#replay-title").wait_for(timeout=WAIT)
    await page.get_by_role("button", name="Smazzata successiva", exact=True).tap()
    await page.get_by_role("button", name="◀ Indietro", exact=True).tap()  # back to the first round's end
    box = page.get_by_role("region", name="Fine della smazzata 1")
    counted = ["Carte", "Denari", "Settebello", "Primiera", "Scope"]
    assert (await box.locator("tbody th").all_text_contents())[:5] == counted
    assert (await page.locator(SCORE_ROWS).all_text_contents())[1:] == counted
    for c in (ana, bea):
        await c.close()


async def test_the_finished_games_are_one_tap_from_the_lobbys_top(journaled: Site, browser: Browser) -> None:
    """PROTOCOL.md list_games: on the lobby's first screen a button goes to the finished games
    (listed at the lobby's foot): they show, in view; a line says who won in the small letters
    of the rest of the line ("· ha vinto ana", as "· hai perso")."""
    ana, bea = await two_at_a_table(journaled)
    await asyncio.gather(ana.play_game(GreedyBot()), bea.play_game(GreedyBot()))
    page = await open_italian(browser, journaled, "zia")
    go = page.get_by_role("button", name="Vai alle partite finite", exact=True)
    await go.wait_for(timeout=WAIT)
    box = await go.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844, box  # on the first screen
    await go.tap()
    line = page.locator("#games li .grow").first
    await line.wait_for(timeout=WAIT)
    await expect(page.locator("#games-title")).to_be_in_viewport()
    assert re.search(r" · ha vinto (ana|bea)$", await line.text_content() or ""), await line.text_content()
    for c in (ana, bea):
        await c.close()


async def test_the_form_says_once_that_a_table_waits_for_people(site: Site, browser: Browser) -> None:
    """The new table's form: "Bot ai posti vuoti: nessuno (aspetta persone)" says there are no
    bots; the people's choice of every seat does not say it again."""
    page = await open_italian(browser, site, "zia")
    await page.wait_for_selector("#preset", timeout=WAIT)
    assert await page.locator("#bots option:checked").text_content() == "nessuno (aspetta persone)"
    people = await page.locator("#people option").all_text_contents()
    assert people == ["2: tutti i posti", "solo tu e 1 bot"], people
    assert await page.locator("#people option:checked").text_content() == "2: tutti i posti"
