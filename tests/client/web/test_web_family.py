"""The browser client as a family meets it, in Debian's chromium at phone size against a
real server on 127.0.0.1 (port 0), as tests/client/web/test_web_client.py drives it: Leave asks
first and the game's end shows at once; a reload keeps the players' names; a friend who
joins by the invite link and plays first finds a whole board on both pages; the page in
Italian says everything in Italian (and remembers the choice); the round's end shows
every category with its raw numbers; the lobby lists live tables only; the turn clock
counts down from what the server says is left and a move made when time ran out is said.

With SCOPA_SCREENSHOTS=DIR the Italian phone's table and round end are saved there
(docs/web-phone.png and docs/web-round-end.png are the README's)."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from typing import Any

import pytest
from playwright.async_api import Browser, Locator, Page

from scopa.client.text import option_lines
from scopa.engine import Deal, RuleSet
from scopa.engine.rules import Preset
from scopa.engine.state import GameState, Phase
from scopa.server.core.clock import FakeClock

from web_words import page_words
from test_web_client import (  # noqa: F401
    MINE, PHONE, WAIT, Site, browser, chromium, create, journaled, open_page, play_one, served, site,
)
from paths import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

WEB = ROOT / "client" / "web"
ITALIAN_PHONE: dict[str, object] = {**PHONE, "locale": "it-IT"}


def english_only() -> set[str]:
    """Pieces of English the page may show that an Italian page must not: its own English
    texts (each piece between {placeholders}) that differ from the Italian ones, the
    server's option meanings and its table descriptions."""
    words = page_words()
    found: set[str] = set()
    for key, text in words["en"].items():
        if text == words["it"].get(key):
            continue
        found.update(p.strip(" .,:()") for p in re.split(r"\{\w+\}", text))
    for name, _, meaning in option_lines():
        if name not in ("preset", "players"):
            label = name.replace("_", " ")
            found.add(meaning)
            if words["options"][name][0] != label:
                found.add(label)
    found.update(RuleSet.build(p).describe() for p in Preset)
    found.update(("Side ", "Round ", "Winner", "Game over", "cards", " to 11"))
    return {p for p in found if len(p) >= 4}


async def english_on(page: Page, english: set[str]) -> list[str]:
    """The English pieces the page shows now (its text, dialogs included; not what one
    types, in code: the rules' option names)."""
    text = await page.evaluate("""() => [...document.body.querySelectorAll('*')]
        .filter(e => !e.closest('code, pre') && e.childNodes.length)
        .flatMap(e => [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent)).join('\\n')""")
    return sorted(p for p in english if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", text))  # whole words


def seed_where_seat_1_plays_first() -> int:
    """A server seed whose first table (scopa, 2 players) deals so that seat 1 plays first."""
    rules = RuleSet.build("scopa")
    for seed in range(1000):
        rng = random.Random(random.Random(seed).randrange(2**63))
        state = GameState.new(rules, rng.randrange(rules.players))
        order = list(range(40))
        rng.shuffle(order)
        state.apply(Deal(tuple(order)), None)
        if state.phase is Phase.PLAY and state.to_move == 1:
            return seed
    raise AssertionError("no such deal")


def qr_path(text: str) -> str:
    """The dark modules of ``text``'s QR code as the page draws them (uqr's encoding,
    low error correction, a border of 2), as an SVG path."""
    script = """
const { encode } = require("uqr");
const { data } = encode(process.argv[1], { ecc: "L", border: 2 });
let path = "";
data.forEach((row, y) => row.forEach((dark, x) => { if (dark) path += `M${x} ${y}h1v1h-1z`; }));
process.stdout.write(path);
"""
    done = subprocess.run(["node", "-e", script, text], cwd=WEB, check=True, capture_output=True, text=True, timeout=60)
    return done.stdout


async def open_italian(browser: Browser, site: Site, name: str, url: str = "", seat_open: bool = True,
                       **extra: object) -> Page:
    """A phone whose browser speaks Italian, named ``name``, at ``url`` (the server's page);
    ``seat_open`` false: the page's question whether the link's table has a seat left goes
    unanswered (the server does not know), so that only the join can find it full;
    ``extra``: more of the browser context's settings."""
    still = {"reduced_motion": "reduce"} if os.environ.get("SCOPA_SCREENSHOTS") else {}  # no card caught mid-flight
    context = await browser.new_context(**ITALIAN_PHONE, **still, **extra)  # type: ignore[arg-type]
    if not seat_open:
        await context.route("**/seat-open?*", lambda route: route.fulfill(json={"open": None}))
    page = await context.new_page()
    page.on("console", lambda m: site.errors.append(f"{name}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: site.errors.append(f"{name}: {e}"))
    await page.goto(url or site.url)
    await page.fill("#name", name)
    await page.get_by_role("button", name="Gioca").tap()
    return page


async def against_an_easy_bot(page: Page, preset: str | None = None, touch: bool = True) -> None:
    """From the create form of ``page`` (coming into sight): a new table against an easy bot,
    of ``preset`` if given, else the form's own (tapped; clicked with ``touch`` false)."""
    await page.wait_for_selector("#preset", timeout=WAIT)
    if preset is not None:
        await page.select_option("#preset", preset)
    await page.select_option("#bots", "easy")
    submit = page.locator("form:has(#preset) button[type=submit]")
    await (submit.tap() if touch else submit.click())


async def in_view(page: Page, selector: str) -> bool:
    """Whether ``selector`` is on screen as the page stands, without scrolling."""
    box = await page.locator(selector).bounding_box()
    height = await page.evaluate("() => window.innerHeight")
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 80) <= height


async def tap_a_card(page: Page, touch: bool = True) -> None:
    """It is this page's turn (in any language): tap the first card in hand, then it again
    or the first table card it lights, choosing the first set when asked (clicks for a
    desktop: ``touch`` false)."""
    async def act(target: Locator) -> None:
        await (target.tap() if touch else target.click())
    await act(page.locator(".cards:not([data-area=table]) .card").first)
    lit = page.locator("[data-area=table] .card.lit")
    if await lit.count():
        await act(lit.first)
    else:
        await act(page.locator(".cards:not([data-area=table]) .card.picked"))
    choice = page.locator("dialog[open] div button")
    if await choice.count():
        await act(choice.first)


async def play_to_round_end(page: Page, touch: bool = True) -> None:
    """Play this page's turns (the other seats are bots) until the round's end shows (or,
    after the game's last round, the game's end)."""
    end = "dialog[open]#round-end, #game-end"
    while not await page.locator(end).count():
        await page.wait_for_selector(f"{MINE}, {end}", timeout=WAIT)
        if await page.locator(end).count():
            break
        plays = "ul.chat:not([aria-label=Chat]) li"  # the round's plays
        played = await page.locator(plays).count()
        await tap_a_card(page, touch)
        await page.wait_for_selector(f"{plays}:nth-child({played + 1}), {end}", state="attached", timeout=WAIT)


async def test_leave_asks_first_and_the_end_shows_at_once(site: Site, browser: Browser) -> None:
    page = await open_page(browser, site, "ada")
    await create(page)
    await page.wait_for_selector(MINE, timeout=WAIT)
    band = await page.evaluate("""() => document.querySelector('#turn').getBoundingClientRect().top
        - document.querySelector('h1').parentElement.getBoundingClientRect().bottom""")
    assert band < 20  # whose turn it is right under the title's row: no empty band
    rules, leave = [await page.get_by_role("button", name=n, exact=True).bounding_box() for n in ("Rules", "Leave")]
    assert rules and leave and rules["y"] == leave["y"]  # side by side, not one on the other's edge
    assert leave["x"] >= rules["x"] + rules["width"] + 8
    await page.get_by_role("button", name="Leave").tap()
    question = page.locator("dialog[open]#leave-question")
    await question.wait_for(timeout=WAIT)
    assert "ends at once for everyone" in (await question.text_content() or "")
    await question.get_by_role("button", name="Keep playing").tap()
    await question.wait_for(state="detached", timeout=WAIT)
    assert await page.locator(MINE).count() == 1 and await page.locator("#game-end").count() == 0
    await play_one(page)  # the game goes on

    await page.get_by_role("button", name="Leave").tap()
    await page.locator("dialog[open]#leave-question").get_by_role("button", name="Leave: end the game").tap()
    await page.wait_for_selector("#game-end", timeout=WAIT)
    assert await in_view(page, "#game-end")  # on a phone, without scrolling past the board
    assert "Nobody won: you left the game, so it ended." in (await page.locator("#game-end").text_content() or "")


async def test_a_reload_keeps_the_names_and_the_round_end_says_why(site: Site, browser: Browser) -> None:
    """R19-R21: each category of the round with its raw numbers, in one language."""
    page = await open_italian(browser, site, "ada")
    await page.select_option("#bots", "medium")  # a game against bots at once
    await page.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    await page.wait_for_selector(MINE, timeout=WAIT)
    await tap_a_card(page)
    await page.reload()
    await page.wait_for_selector(MINE, timeout=WAIT)
    heads = await page.locator("table.piles tr:first-child th[scope=col]").all_text_contents()
    assert heads[0] == "ada" and len(heads) == 2 and not heads[1].startswith(("Squadra", "Posto"))
    assert (await page.locator(".seat").all_text_contents())[1].startswith(heads[1])
    shots = os.environ.get("SCOPA_SCREENSHOTS")
    if shots:
        await page.screenshot(path=f"{shots}/web-phone.png")

    plays = page.locator("[data-area=plays]")
    while await plays.locator("li").count() < 12:  # more plays than the list's box shows at once
        played = await plays.locator("li").count()
        await tap_a_card(page)
        await plays.locator(f"li:nth-child({played + 2})").wait_for(state="attached", timeout=WAIT)  # the bot's too
        await page.wait_for_selector(MINE, timeout=WAIT)
    newest = "el => el.lastElementChild.getBoundingClientRect().bottom - el.getBoundingClientRect().bottom"
    assert await plays.evaluate(newest) <= 1  # the newest play in view
    await plays.evaluate("el => el.scrollTo(0, 0)")  # the player scrolls back to read: left there
    played = await plays.locator("li").count()
    await tap_a_card(page)
    await plays.locator(f"li:nth-child({played + 1})").wait_for(state="attached", timeout=WAIT)
    assert await plays.evaluate("el => el.scrollTop") == 0

    await play_to_round_end(page)
    box = page.locator("dialog[open]#round-end")
    if shots:
        await page.screenshot(path=f"{shots}/web-round-end.png")
    assert await box.locator("thead th").all_text_contents() == heads
    rows = [r.split("\t") for r in (await box.locator("tbody").inner_text()).split("\n") if r]
    labels = [r[0] for r in rows]
    assert labels[:5] == ["Carte", "Denari", "Settebello", "Primiera", "Scope"]  # also those nobody won
    assert labels[5] == "Punti della smazzata" and labels[6].startswith("Partita (a 11)")
    cards = [int(c.split()[0]) for c in rows[0][1:]]
    assert sum(cards) == 40  # the count beside the point, R19
    panel = await page.locator("#score-title + table tbody tr:nth-child(2) td").all_text_contents()
    assert [int(n) for n in panel] == cards  # the score panel behind says the same (the last take counted)
    assert all(re.fullmatch(r"\d+( \+1)?", c) for c in rows[1][1:])  # denari: how many, and the point
    # the next round has begun meanwhile: the box says whose turn it is, clock and all
    await box.locator("#round-end-turn", has_text=re.compile(r"^È iniziata la smazzata 2\. Tocca a .+")).wait_for(timeout=WAIT)
    assert await english_on(page, english_only()) == []


async def test_a_friend_who_plays_first_by_the_invite_link(browser: Browser) -> None:
    async with served(seed=seed_where_seat_1_plays_first()) as s:
        ada = await open_page(browser, s, "ada")
        await ada.check("#private")
        await create(ada, bots="")
        link = ada.get_by_role("link")
        await link.wait_for(timeout=WAIT)
        invite = await link.get_attribute("href") or ""
        assert re.fullmatch(re.escape(s.url) + r"\?invite=1\.[A-Za-z0-9_-]{8,64}&from=ada&game=scopa&n=2&to=11", invite)  # TABLE.CODE, one string
        qr = ada.get_by_role("img", name="QR code of the invite link")
        assert await qr.locator("path").get_attribute("d") == qr_path(invite)  # the same link, for a camera
        context = await browser.new_context(**PHONE)  # type: ignore[arg-type]
        bob = await context.new_page()
        bob.on("console", lambda m: s.errors.append(f"bob: {m.text}") if m.type == "error" else None)
        await bob.goto(invite)
        assert await bob.locator("#invited").text_content() == "ada invites you to a game of Scopa for 2, to 11 points: pick a name and play."
        await bob.fill("#name", "bob")
        await bob.get_by_role("button", name="Play").tap()
        await bob.wait_for_selector(MINE, timeout=WAIT)  # bob plays first

        await ada.wait_for_selector("[aria-label='Your hand'] .card", timeout=WAIT)
        assert (await ada.locator("#turn").text_content() or "").startswith("bob to play")
        assert await ada.locator(".seat").all_text_contents() == ["ada (you) · 3 in hand", "bob · 3 in hand"]
        assert await ada.locator("#score-title + table thead th").all_text_contents() == ["ada", "bob"]
        assert await ada.locator("#invite").count() == 0  # the link has done its work
        await play_one(bob)
        await ada.wait_for_selector(MINE, timeout=WAIT)
        assert await ada.locator(".seat").all_text_contents() == ["ada (you) · 3 in hand", "bob · 2 in hand"]


async def test_the_page_in_italian_says_everything_in_italian(site: Site, browser: Browser) -> None:
    english = english_only()
    page = await open_italian(browser, site, "ada", f"{site.url}?table=99")  # a link to a table not there
    await page.wait_for_selector("#link-gone h2:has-text(\"Questo tavolo non c'è più\")", timeout=WAIT)  # its own box, in Italian
    other = await open_page(browser, site, "bob")
    await create(other)  # a table in the lobby, described in Italian
    await page.wait_for_selector(".tables li:has-text('Scopa, 2 giocatori, a 11 punti · in corso')", timeout=WAIT)
    await page.locator("#more summary").tap()
    await page.wait_for_selector("#opt-target", timeout=WAIT)
    assert await page.locator("#players option").first.text_content() == "come vuole il gioco (2)"
    assert await page.locator("#deck option:checked").text_content() == "italiane"  # what the cards are now
    assert await english_on(page, english) == []
    await page.get_by_role("button", name="Regole").tap()
    await page.wait_for_selector("dialog[open]#rules .rules h3", timeout=WAIT)
    assert await page.locator("dialog[open]#rules .rules h3").first.text_content() == "Scopa: le regole"  # docs/RULES.it.md
    assert await english_on(page, english) == []
    await page.locator("dialog[open]#rules button", has_text="Chiudi").tap()
    await page.select_option("#bots", "medium")  # a game against bots at once
    await page.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    await page.wait_for_selector(MINE, timeout=WAIT)
    assert await english_on(page, english) == []

    await page.select_option("#lang", "en")  # the person's choice, kept
    await page.reload()
    await page.wait_for_selector(MINE, timeout=WAIT)
    assert (await page.locator("#turn").text_content() or "").startswith("Your turn")


async def test_the_lobby_lists_live_tables_only(site: Site, browser: Browser) -> None:
    ada = await open_page(browser, site, "ada")
    await create(ada)
    await ada.wait_for_selector(MINE, timeout=WAIT)
    await ada.get_by_role("button", name="Leave").tap()
    confirm = ada.get_by_role("button", name="Leave: end the game")
    if await confirm.count():  # the question comes at once when the page asks one
        await confirm.tap()
    await ada.wait_for_selector("#game-end", timeout=WAIT)
    await ada.get_by_role("button", name="Back to the tables").tap()
    bob = await open_page(browser, site, "bob")
    await create(bob, bots="")  # a table waiting for a second player
    for page in (ada, await open_page(browser, site, "cid")):
        await page.wait_for_selector(".tables li:has-text('#2 ')", timeout=WAIT)
        assert await page.locator(".tables li").all_text_contents() == [
            "#2 Scopa, 2 players, to 11 · waiting for players · bob, empty seatJoinWatch"]


async def seconds_left(page: Page) -> int:
    text = await page.locator("#turn .clock").text_content() or ""
    found = re.search(r"(\d+) s left", text)
    assert found, text
    return int(found.group(1))


async def test_the_clock_counts_down_across_a_reload_and_says_when_time_ran_out(browser: Browser) -> None:
    """The turn clock (PROTOCOL.md §7): the seconds left come from the server's
    turn_left_ms, so a reload shows what is left, not a fresh clock; a move the server
    makes when time runs out is marked in the round's plays (its notice goes with the next turn)."""
    clock = FakeClock()
    async with served(clock=clock) as s:  # its turn clocks run on the test's clock
        page = await open_page(browser, s, "ada")
        await page.select_option("#timer", "30")
        await create(page)
        await page.wait_for_selector(MINE, timeout=WAIT)
        # ada's first turn of the round has 15 s more to look at the board, whether or not the bot played first
        full = 45
        assert full - 2 <= await seconds_left(page) <= full
        clock.advance(full - 10)  # the server's clock: 10 s of ada's turn are left
        await page.reload()
        await page.wait_for_selector(MINE, timeout=WAIT)
        assert 8 <= await seconds_left(page) <= 10
        played = await page.locator("[data-area=plays] li").count()
        clock.advance(11)  # time runs out: the server plays for ada
        mine = page.locator("[data-area=plays] li").nth(played)
        await mine.wait_for(timeout=WAIT)
        # the server's play may sweep the table: "· Scopa!" before the reason
        assert re.search(r"^ada: [^·]+ (· Scopa! )?· time ran out, so the server played it$", await mine.text_content() or "")
        await page.locator("[data-area=plays] li").nth(played + 1).wait_for(state="attached", timeout=WAIT)  # the bot's reply
        await page.wait_for_selector(MINE, timeout=WAIT)  # ada's turn again: the notice of the last one is old news
        assert await page.get_by_role("alert").filter(has_text="time ran out").count() == 0
        said = await mine.text_content()
        await page.reload()  # the server's snapshot lists the plays: the page keeps their marks
        await page.wait_for_selector(MINE, timeout=WAIT)
        assert await page.locator("[data-area=plays] li").nth(played).text_content() == said

        played = await page.locator("[data-area=plays] li").count()
        clock.advance(31)  # time runs out again: the server plays for ada
        await page.locator("[data-area=plays] li").nth(played).filter(has_text="time ran out").wait_for(timeout=WAIT)
        await page.locator("#leave").tap()
        await page.locator("dialog[open]#leave-question button.danger").tap()
        await page.get_by_role("button", name="Back to the tables").tap()
        await create(page, bots="")
        assert await page.locator(".seat").all_text_contents() == ["ada (you)", "Seat 2 · empty"]  # not the last table's
        assert await page.get_by_role("alert").count() == 0  # nor its notice


async def test_a_name_in_use_is_said_and_may_be_changed(site: Site, browser: Browser) -> None:
    """A name the page kept from before (not typed now) is in use when it comes back: the
    page asks, as for a name typed on the name screen (test_web_first_look.py), never
    playing on under another unasked; the person picks another."""
    await open_page(browser, site, "nonna")
    second = await open_page(browser, site, "nonno")
    await second.evaluate("localStorage.setItem('scopa.name', 'nonna')")
    await second.reload()
    question = second.locator("#name-question")
    await question.wait_for(timeout=WAIT)
    said = await question.get_by_role("alert").text_content() or ""
    assert re.fullmatch(r"The name nonna is already in use\. Play as nonna\d\d, or pick another name\.", said), said
    await second.get_by_role("button", name="Pick another name").tap()
    await second.fill("#name", "nonno")
    await second.get_by_role("button", name="Play").tap()
    await second.wait_for_selector("header h1:has-text('Scopa · nonno')", timeout=WAIT)


async def test_a_finished_game_again_step_by_step(journaled: Site, browser: Browser) -> None:
    """The lobby of a server that keeps its games lists the finished ones (list_games)
    and shows any of them again from its record (get_record), play by play, on the board
    of live play; a private table's game only to those who sat at it (the page keeps
    their seat tokens)."""
    site = journaled
    page = await open_page(browser, site, "ada")
    await page.check("#private")  # listed and shown again to its players (their seat tokens)
    await create(page)
    await page.wait_for_selector(MINE, timeout=WAIT)
    cards_on_table = "[data-area=table] .card"
    table_now = sorted(await page.locator(cards_on_table).evaluate_all("cs => cs.map(c => c.dataset.card)"))
    plays = page.locator("ul.chat:not([aria-label=Chat]) li")
    before = await plays.all_text_contents()  # the bot's play, when it began
    await tap_a_card(page)
    await plays.nth(len(before)).wait_for(timeout=WAIT)
    mine = await plays.nth(len(before)).text_content()
    await page.get_by_role("button", name="Leave").tap()
    await page.get_by_role("button", name="Leave: end the game").tap()
    await page.get_by_role("button", name="Back to the tables").tap()

    await page.get_by_role("button", name="Show the finished games").tap()
    game = page.locator("#games li", has_text="#1 Scopa")
    await game.wait_for(timeout=WAIT)
    other = await open_page(browser, site, "bob")  # no seat at that table: not listed for him
    await other.get_by_role("button", name="Show the finished games").tap()
    await other.locator("#games li", has_text="No finished games yet.").wait_for(timeout=WAIT)
    await game.get_by_role("button", name="Replay").tap()
    where = page.locator("#replay-where")
    await where.wait_for(timeout=WAIT)
    assert await where.text_content() == "Round 1 of 1 · Just dealt"
    step = page.get_by_role("button", name="Next ▶")
    for _ in before:
        await step.tap()
    assert sorted(await page.locator(cards_on_table).evaluate_all("cs => cs.map(c => c.dataset.card)")) == table_now
    assert await page.locator("[data-area=plays] li").all_text_contents() == before
    await step.tap()
    assert (await where.text_content() or "").startswith(f"Round 1 of 1 · play {len(before) + 1} of ")
    assert await page.locator("[data-area=plays] li").all_text_contents() == [*before, mine]
    await page.get_by_role("button", name="◀ Back").tap()
    assert await page.locator("[data-area=plays] li").all_text_contents() == before
