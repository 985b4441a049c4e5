"""The browser client at the table, in Debian's chromium against a real server on
127.0.0.1 (port 0), as tests/client/web/test_web_client.py drives it: the rules rendered from their
Markdown, plays and captures in motion (and still for a person who asks for reduced
motion), a scopa marked, a Cirulla declaration reaching the other seat.

The server is seeded (``NetworkEngine(seed=...)``) so that its first table's deal gives
the creator (seat 0, who plays first) the hand a test needs: the seed is found here by
dealing as the server will, from the same seeds."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from playwright.async_api import Browser, Page

from scopa.engine import Deal, Play, RuleSet
from scopa.engine.cards import CARDS
from scopa.engine.state import GameState, Phase
from scopa.server.lobby.directory import build_rules

from test_web_client import DESKTOP, MINE, PHONE, WAIT, Site, axe_violations, browser, chromium, create, open_page, served, site  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

ANIMATIONS = """() => {
  window.anims = [];
  new MutationObserver((records) => { for (const r of records) for (const n of r.addedNodes)
    if (n.nodeType === 1 && (n.classList.contains('fly') || n.classList.contains('scopa-burst'))) window.anims.push(n.className);
  }).observe(document.documentElement, { childList: true, subtree: true });
}"""
"""Records every flying card and scopa burst added to the page (by class), whenever."""


def first_turn(rules: RuleSet, seed: int) -> GameState:
    """The first table's game, dealt, on a server seeded with ``seed``."""
    table_seed = random.Random(seed).randrange(2**63)
    rng = random.Random(table_seed)
    state = GameState.new(rules, rng.randrange(rules.players))
    order = list(range(40))
    rng.shuffle(order)
    state.apply(Deal(tuple(order)), None)
    return state


def seed_where(rules: RuleSet, wanted: Callable[[GameState], bool]) -> int:
    """A server seed whose first deal lets seat 0 play first with a hand ``wanted`` likes."""
    for seed in range(100_000):
        state = first_turn(rules, seed)
        if state.phase is Phase.PLAY and state.to_move == 0 and wanted(state):
            return seed
    raise AssertionError("no such deal")


def scopa_play(state: GameState) -> Play | None:
    for play in state.legal_plays():
        after = state.copy()
        after.push(play)
        if after.last_scopa:
            return play
    return None


def sweeping_first_turn(rules: RuleSet) -> tuple[int, GameState, Play]:
    """A seed whose first turn can sweep the table (a scopa), that turn, and the play."""
    seed = seed_where(rules, lambda s: scopa_play(s) is not None)
    state = first_turn(rules, seed)
    play = scopa_play(state)
    assert play is not None
    return seed, state, play


async def open_rules(page: Page) -> None:
    await page.get_by_role("button", name="Rules").first.click()
    await page.wait_for_selector("dialog[open] .rules h3", timeout=WAIT)


async def test_the_rules_are_formatted_markdown(site: Site, browser: Browser) -> None:
    page = await open_page(browser, site, "ada", DESKTOP, bypass_csp=True)
    await open_rules(page)
    rules = page.locator("dialog[open] .rules")
    assert await rules.locator("h3").first.text_content() == "Scopa: the rules"
    assert "The cards" in await rules.locator("h4").all_text_contents()
    assert "cirulla" in await rules.locator("h5 code").all_text_contents()
    assert await rules.locator("table th").first.text_content() == "Italian suit"
    assert await rules.locator("table tbody tr").count() == 4
    assert "Denari (coins)" in await rules.locator("table td").all_text_contents()
    assert await rules.locator("strong", has_text="settebello").count() >= 1
    assert await rules.locator("em", has_text="scopa").count() >= 1
    assert "Game" in await rules.locator("li > strong").all_text_contents()  # an option, as the create form names it
    nested = rules.locator("li > ul > li")  # capture_mode's three values, one level down
    assert "traditional" in await nested.locator("code").all_text_contents()
    assert not await rules.locator("pre").count()  # no raw text left
    text = await rules.text_content() or ""
    assert "**" not in text and "| ---" not in text and "## " not in text
    assert await page.evaluate("() => getComputedStyle(document.querySelector('dialog[open] .rules ul')).listStyleType") == "disc"
    assert await axe_violations(page) == []
    close = page.locator("dialog[open] > p:last-child button", has_text="Close")  # in view, however long the text
    box = await close.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 800
    await close.click()
    await page.wait_for_selector("dialog[open]", state="detached", timeout=WAIT)
    await page.keyboard.press("?")  # one key away, too
    await page.wait_for_selector("dialog[open] .rules table", timeout=WAIT)


async def play_card(page: Page, card: str) -> None:
    """Tap ``card`` in hand, then again to play it (its one capture)."""
    own = page.locator(f"[aria-label='Your hand'] .card[data-card='{card}']")
    await own.tap()
    await page.wait_for_selector(f"[aria-label='Your hand'] .card.picked[data-card='{card}']", timeout=WAIT)
    await own.tap()


async def scopa_game(browser: Browser, site: Site, motion: str) -> Page:
    """ada's first turn against a bot, on the seeded deal: she takes the whole table."""
    # the checks below poll page-side predicates, which the page's CSP would refuse to evaluate
    page = await open_page(browser, site, "ada", PHONE, reduced_motion=motion, bypass_csp=True)
    await page.evaluate(ANIMATIONS)
    await create(page)
    await page.wait_for_selector(MINE, timeout=WAIT)
    return page


async def test_a_capture_and_a_scopa_are_animated(browser: Browser) -> None:
    rules = build_rules("scopa", {})
    seed, state, play = sweeping_first_turn(rules)
    card, taken = str(CARDS[play.card]), [str(c) for c in play.captured]
    async with served(seed=seed) as site:
        page = await scopa_game(browser, site, "no-preference")
        assert sorted(await page.locator("[aria-label='Table'] .card").evaluate_all("cs => cs.map(c => c.dataset.card)")) == sorted(taken)
        await play_card(page, card)
        # the card flies from the hand, the taken cards with it to ada's seat, "Scopa!" bursts
        await page.wait_for_function("() => window.anims.includes('scopa-burst')", timeout=WAIT)
        anims = await page.evaluate("() => window.anims")
        assert anims.count("fly capture") == 1 and anims.count("fly captured") == len(taken)
        await page.wait_for_selector("[aria-label='This round'] li.scopa", timeout=WAIT)  # marked in the round's plays
        assert await page.locator("p.scopa[role=alert]").text_content() == "You made a scopa!"
        # the bot lays a card on the empty table: it flies from the bot's seat
        await page.wait_for_function("() => window.anims.includes('fly play')", timeout=WAIT)
        await page.wait_for_selector(MINE, timeout=WAIT)
        await page.wait_for_function("() => !document.querySelector('#fly-layer *')", timeout=WAIT)  # all landed
        assert await page.locator("[aria-label='Table'] .card.landing").count() == 0


async def test_reduced_motion_moves_nothing_and_still_marks_the_scopa(browser: Browser) -> None:
    rules = build_rules("scopa", {})
    seed, _, play = sweeping_first_turn(rules)
    async with served(seed=seed) as site:
        page = await scopa_game(browser, site, "reduce")
        await play_card(page, str(CARDS[play.card]))
        await page.wait_for_selector("[aria-label='This round'] li.scopa", timeout=WAIT)
        assert await page.locator("p.scopa[role=alert]").count() == 1
        await page.wait_for_selector(MINE, timeout=WAIT)  # the bot has played too
        assert await page.locator("[aria-label='This round'] li").count() == 2
        assert await page.evaluate("() => window.anims") == []
        assert await page.locator("[aria-label='Table'] .card.landing").count() == 0


async def test_a_cirulla_declaration_reaches_the_other_seat(browser: Browser) -> None:
    """V13: the creator's first hand may be declared; the other browser is told."""
    rules = build_rules("cirulla", {})
    seed = seed_where(rules, lambda s: bool(s.legal_declarations()))
    kinds = [d.kind.value for d in first_turn(rules, seed).legal_declarations()]
    async with served(seed=seed) as site:
        ada = await open_page(browser, site, "ada", DESKTOP)
        await ada.select_option("#preset", "cirulla")
        await create(ada, bots="")
        bob = await open_page(browser, site, "bob", PHONE)
        await bob.get_by_role("button", name="Join").tap()
        await ada.wait_for_selector(MINE, timeout=WAIT)
        offered = ada.get_by_role("button", name="Declare")
        await offered.first.wait_for(timeout=WAIT)
        labels = await offered.all_text_contents()
        said = {"under10": "under ten", "tris": "tris"}  # the kinds in words
        assert [label.removeprefix("Declare ").rsplit(" (+", 1)[0] for label in labels] == [said[k] for k in kinds]
        assert await bob.get_by_role("button", name="Declare").count() == 0  # not bob's turn
        await offered.first.click()
        told = bob.locator("p.scopa[role=alert]", has_text=f"ada declares {said[kinds[0]]}")
        await told.wait_for(timeout=WAIT)
        assert "+" in (await told.text_content() or "")
        assert await ada.get_by_role("button", name="Declare").count() == 0  # declared once
        await ada.wait_for_selector(MINE, timeout=WAIT)  # and still ada's turn to play a card
