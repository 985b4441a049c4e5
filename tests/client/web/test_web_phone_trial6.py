"""A new user on an Italian phone (390×844, touch, it-IT), as tests/client/web/test_web_client.py
drives the page: a watcher's notice of a play goes as the game moves on, yet stays up a
while when the next play comes at once; a card picked and not yet played goes by itself
as the turn's time runs out (and, come too late, is refused without a word); the plain
connection's mark draws its sign without a font of its own."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import msgpack
import pytest
from playwright.async_api import Browser, Page, WebSocketRoute, expect

from scopa.bots import GreedyBot
from scopa.protocol import Command
from scopa.protocol import commands as wire
from scopa.server.core.clock import FakeClock

from test_web_client import MINE, WAIT, Site, browser, chromium, page_clock, served, site  # noqa: F401
from test_web_family import open_italian
from test_web_phone_trial4 import comes_by_the_link
from test_web_phone_trial5 import two_at_a_table
from test_web_seat_held import play_first
from wire_client import WireClient

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

PLAYS = "[data-area=plays] li"


def answer(client: WireClient, turn: Command) -> None:
    """``client`` answers ``turn`` (its your_turn) with its first legal move."""
    move = turn.body.legal[0]
    client.send(wire.PlayCard(card=move.card, capture=move.capture, turn=turn.body.event), recipient=f"table:{client.table}", re=turn.seq)


async def a_time_out_watched(browser: Browser, site: Site, clock: FakeClock) -> tuple[Page, WireClient, WireClient]:
    """zia watches ana and bea (30 s a move), her page's clock standing still; the first to
    play lets the time run out and the server plays for them: zia is told. Her page, who was
    late and the other (whose turn it is)."""
    ana, bea = await two_at_a_table(site, turn_timeout=30)
    dealer = (await ana.recv_until("round_start")).body.dealer
    late, other = (ana, bea) if (dealer + 1) % 2 == ana.seat else (bea, ana)
    await late.recv_until("your_turn")  # the turn that runs out
    zia = await open_italian(browser, site, "zia")
    await zia.locator(".tables li", has_text=f"#{ana.table} ").get_by_role("button", name="Guarda").tap()
    await zia.wait_for_selector("[data-area=table] .card", timeout=WAIT)
    await page_clock(zia)
    await zia.clock.pause_at(await zia.evaluate("Date.now()") + 1000)  # the page's time stands still
    clock.advance(46)  # the first turn of the round: 30 s and 15 s to look at the cards
    await expect(zia.get_by_role("alert").filter(has_text="è scaduto")).to_have_count(1, timeout=WAIT)
    await expect(zia.locator(PLAYS)).to_have_count(1)
    return zia, late, other


async def test_a_watchers_notice_of_a_time_out_goes_at_the_next_play(browser: Browser) -> None:
    """PROTOCOL.md §7 Turn clock: zia is told whose time ran out; a while later (the page's
    clock) the other player plays: the game has moved on, the notice goes (the round's
    plays still mark the card the server played)."""
    clock = FakeClock()
    async with served(clock=clock) as s:
        zia, late, other = await a_time_out_watched(browser, s, clock)
        await zia.clock.run_for(5_000)  # the notice has been read
        answer(other, await other.recv_until("your_turn"))
        await expect(zia.locator(PLAYS)).to_have_count(2, timeout=WAIT)
        await expect(zia.get_by_role("alert").filter(has_text="è scaduto")).to_have_count(0)
        await expect(zia.locator(PLAYS).first).to_contain_text("tempo scaduto, l'ha giocata il server")
        for c in (late, other):
            await c.close()


async def test_a_watchers_notice_of_a_time_out_stays_through_plays_at_once(browser: Browser) -> None:
    """PROTOCOL.md §7 Turn clock: the other player answers at once (as a bot does), and the
    one whose time ran out plays at once too: the notice is still up to be read."""
    clock = FakeClock()
    async with served(clock=clock) as s:
        zia, late, other = await a_time_out_watched(browser, s, clock)
        answer(other, await other.recv_until("your_turn"))
        await expect(zia.locator(PLAYS)).to_have_count(2, timeout=WAIT)
        answer(late, await late.recv_until("your_turn"))
        await expect(zia.locator(PLAYS)).to_have_count(3, timeout=WAIT)
        assert await zia.get_by_role("alert").filter(has_text="è scaduto").count() == 1
        for c in (late, other):
            await c.close()


async def at_the_second_turn(browser: Browser, site: Site) -> tuple[Page, WireClient, asyncio.Future[Any]]:
    """ana's table of 4 s a move (she answers every turn at once), bea's Italian phone at its
    second seat (its clock under the test's hand): bea plays her first turn (the round's
    reading time), up to her second. Her page, ana and ana's answering."""
    ana = await WireClient.connect(site.engine.port, "ana")
    ana.send(wire.CreateTable(turn_timeout=4))
    ana.table = (await ana.recv_until("table_created")).body.table.id
    await ana.recv_until("joined")
    page = await open_italian(browser, site, "bea")
    await page_clock(page)
    await page.locator(".tables li", has_text=f"#{ana.table} ").get_by_role("button", name="Siediti").tap()
    answering = asyncio.ensure_future(ana.play_game(GreedyBot()))
    await page.wait_for_selector(MINE, timeout=WAIT)
    await play_first(page)
    await expect(page.locator(PLAYS).filter(has_text="bea: ")).to_have_count(1, timeout=WAIT)
    await page.wait_for_selector(MINE, timeout=WAIT)
    return page, ana, answering


async def pick_one_way(page: Page) -> str:
    """bea picks (one tap) a card of her hand with one way to go: its name."""
    said = page.locator("#tap-said")
    for card in await page.locator("[data-area=hand] .card").all():
        name = await card.get_attribute("aria-label") or ""
        await card.tap()
        await expect(said).to_contain_text(name)
        if "può prendere" not in (await said.text_content() or ""):
            return name
    raise AssertionError("every card of the hand has ways to choose from")


async def test_a_card_picked_goes_as_the_time_runs_out(browser: Browser) -> None:
    """PROTOCOL.md §7 Turn clock: bea picks a card and does not tap it again; as her turn's
    last second comes (the page's clock) the page plays it, before the server's clock runs
    out: the card she chose is played, not one the server chose for her."""
    clock = FakeClock()
    async with served(clock=clock) as s:
        page, ana, answering = await at_the_second_turn(browser, s)
        name = await pick_one_way(page)
        await page.clock.run_for(4_000)  # the server's clock stands still: its time never runs out
        mine = page.locator(PLAYS).filter(has_text=f"bea: {name}")
        await expect(mine).to_have_count(1, timeout=WAIT)
        assert "tempo scaduto" not in (await mine.text_content() or "")
        answering.cancel()
        await ana.close()


def frame_is(data: str | bytes, name: str, **body: object) -> bool:
    """Whether a WebSocket frame the server sent is command ``name`` with ``body``'s values."""
    frame = msgpack.unpackb(data) if isinstance(data, bytes) else {}
    return frame.get("name") == name and all(frame.get("body", {}).get(k) == v for k, v in body.items())


async def test_a_picked_card_sent_after_the_servers_own_play_is_refused_quietly(browser: Browser) -> None:
    """PROTOCOL.md §7 (refused answers): bea picks a card; the server's clock runs out first
    (it plays for her, ana answers), and what it says next is held back from her page until
    the page, its own clock at the turn's last second, has sent the picked card: the server
    refuses it (not_your_turn). Let through, the page says the server played for her and
    nothing of a refusal."""
    clock = FakeClock()
    async with served(clock=clock) as s:
        page, ana, answering = await at_the_second_turn(browser, s)
        held: list[str | bytes] = []
        holding = [False]
        routes: list[WebSocketRoute] = []

        def through(ws: WebSocketRoute) -> None:
            routes.append(ws)
            server = ws.connect_to_server()
            server.on_message(lambda m: held.append(m) if holding[0] else ws.send(m))

        await page.route_web_socket(re.compile(r"/ws$"), through)
        await page.reload()  # the seat comes back on a connection the test sees
        await page.wait_for_selector(MINE, timeout=WAIT)
        await pick_one_way(page)
        holding[0] = True
        clock.advance(5)  # the server's clock runs out first
        await page.clock.run_for(4_000)  # the page's: it sends the picked card

        async def refused() -> None:
            while not any(frame_is(m, "error", code="not_your_turn") for m in held):
                await asyncio.sleep(0.01)
        await asyncio.wait_for(refused(), WAIT / 1000)
        assert any(frame_is(m, "played", forced="timeout") for m in held)
        holding[0] = False
        for m in held:
            routes[-1].send(m)
        ana.send(wire.Chat(text="ciao"), recipient=f"table:{ana.table}")  # comes after all that was held
        await page.locator("ul.chat li", has_text="ana: ciao").wait_for(state="attached", timeout=WAIT)
        await expect(page.locator(PLAYS).filter(has_text=re.compile(r"^bea: .+ · tempo scaduto"))).to_have_count(1)
        assert await page.locator("p.status[role=status]").all_text_contents() == []  # no refusal said
        answering.cancel()
        await ana.close()


async def test_the_plain_connections_mark_draws_its_sign(site: Site, browser: Browser) -> None:
    """The mark of a page served without TLS reads "Connessione non cifrata" and its info sign
    is drawn (no character a phone's fonts may lack, shown as a box); its name is the words."""
    page = await comes_by_the_link(browser, site.url)
    mark = page.locator("footer #not-private-mark")
    text = await mark.inner_text()
    assert re.fullmatch(r"[ -~À-ÿ]+", text.strip()), text
    sign = mark.locator(".info svg")
    await expect(sign).to_be_visible()
    box = await sign.bounding_box()
    assert box and box["width"] >= 8, box
    await expect(page.get_by_role("button", name="Connessione non cifrata", exact=True)).to_have_count(1)
