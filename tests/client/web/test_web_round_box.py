"""The round's box on a family's phone (390×844, touch, Italian), in Debian's chromium
against a real server on 127.0.0.1 (port 0), as tests/client/web/test_web_client.py
drives it: a reload over the box shows it again, the box says why a side has no
primiera, the hint under the hand says what the picked card would do, and a keyboard's
page says which keys play a card."""

from __future__ import annotations

import re

import pytest
import msgpack
from playwright.async_api import Browser, Page, WebSocketRoute

from test_web_client import MINE, WAIT, served, browser, chromium  # noqa: F401
from test_web_family import ITALIAN_PHONE, open_italian, play_to_round_end, seed_where_seat_1_plays_first

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

BOX = "dialog[open]#round-end"


async def test_a_reload_over_the_round_box_shows_it_again(browser: Browser) -> None:
    """R19-R21 (the round's count), PROTOCOL.md `snapshot.last_round`: a page reloaded while
    the round's box is open, the next round's first turn still waiting, shows the same box
    (the same points per category, the same totals before and after); once the person
    closed it, a reload does not bring it back."""
    async with served(seed=seed_where_seat_1_plays_first()) as s:  # the bot starts round 1: ada starts round 2
        page = await open_italian(browser, s, "ada")
        await page.wait_for_selector("#preset", timeout=WAIT)
        await page.select_option("#bots", "easy")
        await page.locator("form:has(#preset) button[type=submit]").tap()
        await play_to_round_end(page)
        await page.locator(f"{BOX} #round-end-turn").filter(has_text="Tocca a te").wait_for(timeout=WAIT)  # round 2 dealt
        title = await page.locator(f"{BOX} h2").first.inner_text()
        table = await page.locator(f"{BOX} table").inner_text()
        await page.reload()
        await page.locator(BOX).wait_for(timeout=WAIT)
        await page.wait_for_selector(MINE, timeout=WAIT)
        assert await page.locator(f"{BOX} h2").first.inner_text() == title == "Fine della smazzata 1"
        assert await page.locator(f"{BOX} table").inner_text() == table
        await page.locator(BOX).get_by_role("button", name="Continua").tap()
        await page.locator(BOX).wait_for(state="detached", timeout=WAIT)
        await page.reload()
        await page.wait_for_selector(MINE, timeout=WAIT)  # the table is back, and its turn: no box over it
        assert await page.locator("dialog#round-end").count() == 0


async def lay_down_when_possible(page: Page) -> None:
    """Play this page's turns by keys until the round's box shows: a card that takes nothing
    when there is one (so that the page's pile stays small), else the first card's first way."""
    end = f"{BOX}, #game-end"
    while True:
        await page.wait_for_selector(f"{MINE}, {end}", timeout=WAIT)
        if await page.locator(end).count():
            return
        plays = await page.locator("[data-area=plays] li").count()
        hand = await page.locator("[data-area=hand] .card").count()
        for n in range(1, hand + 1):  # each card picked in turn: what it takes lights up
            await page.keyboard.press(str(n))
            if not await page.locator("[data-area=table] .card.lit").count():
                break  # it takes nothing
        await page.keyboard.press(str(n))  # played, or its ways laid out
        if await page.locator("dialog[open]#choose").count():
            await page.keyboard.press("1")
        await page.wait_for_selector(f"[data-area=plays] li:nth-child({plays + 1}), {end}", state="attached", timeout=WAIT)


def no_primiera_for_ada(ws: WebSocketRoute) -> None:
    """The page's connection to the server, the round's end saying that seat 0 (ada's side)
    has no primiera: a side lacking a suit, as the server tells it (R21, E6)."""
    server = ws.connect_to_server()

    def down(message: str | bytes) -> None:
        if isinstance(message, bytes):
            frame = msgpack.unpackb(message, raw=False)
            if frame.get("name") == "round_end":
                frame["body"]["tallies"][0]["primiera"] = 0
                message = msgpack.packb(frame)
        ws.send(message)
    server.on_message(down)
    ws.on_message(server.send)


async def test_the_round_box_says_why_a_side_has_no_primiera(browser: Browser) -> None:
    """R3 (each rank's primiera value), R21 and E6 (a side lacking a suit cannot win the
    primiera): under the round's table, each side's primiera is explained: its best card of
    each suit with its value, adding up to its sum, or, for a side the server says lacks a
    suit, "manca un seme: niente primiera", never a bare 0."""
    async with served(seed=1) as s:
        page = await (await browser.new_context(**ITALIAN_PHONE)).new_page()  # type: ignore[arg-type]
        page.on("pageerror", lambda e: s.errors.append(f"ada: {e}"))
        await page.route_web_socket(re.compile(r"/ws"), no_primiera_for_ada)
        await page.goto(s.url)
        await page.fill("#name", "ada")
        await page.get_by_role("button", name="Gioca").tap()
        await page.wait_for_selector("#preset", timeout=WAIT)
        await page.select_option("#bots", "easy")
        await page.locator("form:has(#preset) button[type=submit]").tap()
        await lay_down_when_possible(page)
        why = page.locator(f"{BOX} #primiera-why")
        assert (await why.locator("p").inner_text()).startswith("Primiera: di ogni seme conta la carta migliore (7 = 21, 6 = 18")
        lines = await why.locator("li").all_inner_texts()
        row = await page.locator(f"{BOX} table tr", has=page.locator("th", has_text="Primiera")).locator("td").all_inner_texts()
        names = await page.locator(f"{BOX} table thead th").all_inner_texts()
        assert names[0] == "ada" and row[0] == "manca un seme"
        assert lines[0] == "ada: manca un seme: niente primiera."
        n = int(row[1].split()[0])
        found = re.fullmatch(rf"{re.escape(names[1])}: {n} \((.+)\)\.", lines[1])
        assert found, lines[1]
        best = found.group(1).split(", ")  # e.g. "7 Denari 21": the best card of each suit and its value
        assert sorted(card.split()[1] for card in best) == ["Bastoni", "Coppe", "Denari", "Spade"]
        assert sum(int(card.rsplit(" ", 1)[1]) for card in best) == n
