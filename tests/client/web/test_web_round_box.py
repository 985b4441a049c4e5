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

from scopa.engine import RuleSet
from scopa.engine.cards import CARDS, cards_of
from scopa.engine.state import GameState

from test_web_client import DESKTOP, MINE, WAIT, Site, served, browser, chromium  # noqa: F401
from test_web_family import ITALIAN_PHONE, against_an_easy_bot, open_italian, play_to_round_end, \
    seed_where_seat_1_plays_first
from test_web_table import first_turn, seed_where

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

BOX = "dialog[open]#round-end"
ITALIAN_DESKTOP: dict[str, object] = {**DESKTOP, "locale": "it-IT"}


async def italian_page(browser: Browser, site: Site, name: str, device: dict[str, object] = ITALIAN_PHONE) -> Page:
    """A page of a browser speaking Italian on ``device``, its errors kept as ``name``'s, still blank."""
    page = await (await browser.new_context(**device)).new_page()  # type: ignore[arg-type]
    page.on("console", lambda m: site.errors.append(f"{name}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: site.errors.append(f"{name}: {e}"))
    return page


async def at_a_table(page: Page, site: Site, name: str) -> None:
    """``page`` opens the site, named ``name``, and sits at a new table against an easy bot (clicks: a desktop's too)."""
    await page.goto(site.url)
    await page.fill("#name", name)
    await page.get_by_role("button", name="Gioca").click()
    await page.wait_for_selector("#preset", timeout=WAIT)
    await page.select_option("#bots", "easy")
    await page.locator("form:has(#preset) button[type=submit]").click()


async def into_round_two(page: Page) -> None:
    """At a table where the bot starts round 1 (:func:`seed_where_seat_1_plays_first`): round
    1 played out, until the round's box says round 2 is dealt and it is the person's turn."""
    await play_to_round_end(page)
    await page.locator(f"{BOX} #round-end-turn").filter(has_text="Tocca a te").wait_for(timeout=WAIT)


async def test_a_reload_over_the_round_box_shows_it_again(browser: Browser) -> None:
    """R19-R21 (the round's count), PROTOCOL.md `snapshot.last_round`: a page reloaded while
    the round's box is open, the next round's first turn still waiting, shows the same box
    (the same points per category, the same totals before and after, each side's best card
    of every suit behind its primiera); once the person
    closed it, a reload does not bring it back."""
    async with served(seed=seed_where_seat_1_plays_first()) as s:  # the bot starts round 1: ada starts round 2
        page = await open_italian(browser, s, "ada")
        await against_an_easy_bot(page)
        await into_round_two(page)
        title = await page.locator(f"{BOX} h2").first.inner_text()
        table = await page.locator(f"{BOX} table").inner_text()
        why = await page.locator(f"{BOX} #primiera-why li").all_inner_texts()
        await page.reload()
        await page.locator(BOX).wait_for(timeout=WAIT)
        await page.wait_for_selector(MINE, timeout=WAIT)
        assert await page.locator(f"{BOX} h2").first.inner_text() == title == "Fine della smazzata 1"
        assert await page.locator(f"{BOX} table").inner_text() == table
        assert await page.locator(f"{BOX} #primiera-why li").all_inner_texts() == why  # each suit's best card too (R21)
        assert any(re.fullmatch(r".+: \d+ \((.+ \d+, ){3}.+ \d+\)\.", line) for line in why), why
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



async def test_a_reload_after_the_next_rounds_first_play_shows_no_old_box(browser: Browser) -> None:
    """R19-R21, PROTOCOL.md `snapshot.last_round`: once the next round's first turn has
    passed (the bot played it while the box was open), a reload shows the board, not the
    last round's box."""
    async with served(seed=seed_where(RuleSet.build("scopa"), lambda s: True)) as s:  # ada starts round 1: the bot round 2
        page = await italian_page(browser, s, "ada")
        await at_a_table(page, s, "ada")
        await play_to_round_end(page)
        await page.wait_for_selector(MINE, state="attached", timeout=WAIT)  # ada's turn: the bot made round 2's first play
        assert await page.locator(BOX).count() == 1  # still open here
        await page.reload()
        await page.wait_for_selector(MINE, timeout=WAIT)  # ada's turn, on the board
        assert await page.locator("[data-area=plays] li").count() == 1
        assert await page.locator("dialog#round-end").count() == 0

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
        page = await italian_page(browser, s, "ada")
        await page.route_web_socket(re.compile(r"/ws"), no_primiera_for_ada)
        await at_a_table(page, s, "ada")
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
        best = found.group(1).split(", ")  # e.g. "7 di Denari 21": the best card of each suit and its value
        assert sorted(card.split()[-2] for card in best) == ["Bastoni", "Coppe", "Denari", "Spade"]
        assert sum(int(card.rsplit(" ", 1)[1]) for card in best) == n


def ways_of(state: GameState, card: int) -> list[list[str]]:
    """The ways seat 0's ``card`` takes on the first table (each the cards it takes, none when it takes nothing)."""
    return [[str(x) for x in cards_of(m)] for m in state.capture_options(0, card)]


def three_kinds(state: GameState) -> bool:
    """Seat 0 holds a card that takes nothing, one that takes in one way, one that takes in more."""
    counts = {min(len(state.capture_options(0, c)), 2) for c in range(40) if state.hands[0] >> c & 1}
    return counts == {0, 1, 2}


async def test_the_hint_under_the_hand_says_what_the_picked_card_does(browser: Browser) -> None:
    """R10-R12 (what a card played takes): the line under the hand says, for the card
    picked, the cards it would take; that it takes nothing and would be laid down; or
    that it takes in more than one way and which, to choose among them."""
    seed = seed_where(RuleSet.build("scopa"), three_kinds)
    state = first_turn(RuleSet.build("scopa"), seed)
    hand = [c for c in range(40) if state.hands[0] >> c & 1]
    async with served(seed=seed) as s:
        page = await open_italian(browser, s, "ada")
        await page.wait_for_selector("#preset", timeout=WAIT)
        await page.select_option("#bots", "easy")
        await page.locator("form:has(#preset) button[type=submit]").tap()
        await page.wait_for_selector(MINE, timeout=WAIT)
        said = page.locator("#tap-said")
        assert (await said.inner_text()).startswith("Tocca una carta")  # nothing picked yet
        name = {str(CARDS[c]): await page.locator(f"[data-area=hand] .card[data-card='{CARDS[c]}']").get_attribute("aria-label")
                for c in hand}
        name.update({str(CARDS[c]): await page.locator(f"[data-area=table] .card[data-card='{CARDS[c]}']").get_attribute("aria-label")
                     for c in range(40) if state.table >> c & 1})
        for c in hand:
            card, ways = str(CARDS[c]), ways_of(state, c)
            await page.locator(f"[data-area=hand] .card[data-card='{card}']").tap()
            await page.locator(f"[data-area=hand] .card.picked[data-card='{card}']").wait_for(timeout=WAIT)
            text = await said.inner_text()
            if not ways:
                assert text == f"La carta {name[card]} non prende nulla: toccala di nuovo per posarla sul tavolo."
            elif len(ways) == 1:
                taken = " + ".join(name[x] for x in ways[0])
                assert text == f"La carta {name[card]} prende {taken}: toccala di nuovo (o una carta illuminata) per giocarla."
            else:
                found = re.fullmatch(rf"La carta {re.escape(name[card] or '')} può prendere (.+): "
                                     r"toccala di nuovo e scegli quali carte prendere\.", text)
                assert found, text
                assert sorted(found.group(1).split(" oppure ")) == sorted(" + ".join(name[x] for x in w) for w in ways)


async def test_a_desktop_page_says_which_keys_play_and_a_phone_does_not(browser: Browser) -> None:
    """On a computer (a mouse that hovers, a keyboard) the line under the hand says that
    the keys 1 to 9 pick the card in that place and the same key again plays it, and those
    keys do so; a touch phone, with no keys, does not say it."""
    async with served() as s:
        desk = await italian_page(browser, s, "ada", ITALIAN_DESKTOP)
        await at_a_table(desk, s, "ada")
        await desk.wait_for_selector(MINE, timeout=WAIT)
        keys = desk.locator("[data-area=hand] ~ #keys-said")
        assert await keys.is_visible()
        assert await keys.inner_text() == ("Tasti: da 1 a 3 scegli la carta in quella posizione della mano, lo stesso tasto "
                                           "di nuovo la gioca; Esc la lascia; ? mostra le regole.")
        first = await desk.locator("[data-area=hand] .card").first.get_attribute("aria-label")
        await desk.keyboard.press("1")
        await desk.keyboard.press("1")
        if await desk.locator("dialog[open]#choose").count():
            await desk.keyboard.press("1")
        await desk.locator("[data-area=plays] li", has_text=f"ada: {first}").wait_for(timeout=WAIT)  # as the line says
        phone = await italian_page(browser, s, "bea")
        await at_a_table(phone, s, "bea")
        await phone.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
        assert await phone.locator("#keys-said").count() == 0
        assert "Tasti" not in await phone.locator("main").inner_text()
