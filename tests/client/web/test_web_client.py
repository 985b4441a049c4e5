"""The browser client (client/web, shipped built in client/webdist) in Debian's chromium,
driven by Playwright against a real server and its web front on 127.0.0.1 (port 0):
at 390×844 with touch (a phone) and at 1280×800 (a desktop).

A person plays a whole game against a bot by tapping; two browsers play a round against
each other while a third watches; a reload mid-turn and a server restart each bring the
player back to the seat.  Tap targets are at least 44 CSS px, the console stays free of
errors and axe-core finds no serious or critical violation; the game's end shows at
once, naming the winner."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, async_playwright

from scopa.client.webfiles import web_files, web_root
from scopa.server import NetworkEngine
from scopa.server.web.front import WebFront

from paths import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]
# One chromium per module (launching it takes seconds): the module's tests and their
# fixtures share the module's event loop, which the browser belongs to.

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE: dict[str, object] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "locale": "en-GB"}
DESKTOP: dict[str, object] = {"viewport": {"width": 1280, "height": 800}, "locale": "en-GB"}
AXE = ROOT / "client" / "web" / "node_modules" / "axe-core" / "axe.min.js"
WAIT = 15_000  # ms: a safety net only, every wait ends on what the page shows
MINE = "main[data-mine]"


@dataclass
class Site:
    engine: NetworkEngine
    front: WebFront
    db: str | None = None
    errors: list[str] = field(default_factory=list)
    offline: bool = False
    """The server was away for a moment: the browser's own lines about failed
    reconnection attempts are expected then."""
    options: dict[str, Any] = field(default_factory=dict)
    """The server's options (its clock, grace…): the same again after a restart."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.front.port}/"

    async def restart(self) -> None:
        """Stop the server and start it again on the same ports and journal."""
        port, web_port = self.engine.port, self.front.port
        await self.engine.stop()
        await self.front.stop()
        self.engine = NetworkEngine(host="127.0.0.1", port=port, db=self.db, **self.options)
        await self.engine.start()
        self.front = WebFront(self.engine, web_root(), extra=web_files())
        await self.front.start("127.0.0.1", web_port)


@asynccontextmanager
async def served(db: str | None = None, **engine_options: Any) -> AsyncIterator[Site]:
    """A server on 127.0.0.1 (``NetworkEngine`` with ``engine_options``) with its web front;
    no console error, no uncaught exception, on any page, when it ends."""
    engine = NetworkEngine(host="127.0.0.1", port=0, db=db, **engine_options)
    await engine.start()
    front = WebFront(engine, web_root(), extra=web_files())
    await front.start("127.0.0.1", 0)
    s = Site(engine, front, db, options=engine_options)
    try:
        yield s
    finally:
        await s.engine.stop()
        await s.front.stop()
    errors = [e for e in s.errors if not (s.offline and "WebSocket connection to" in e)]
    assert errors == []  # no console error, no uncaught exception, on any page


async def _site(db: str | None) -> AsyncIterator[Site]:
    async with served(db) as s:
        yield s


@pytest_asyncio.fixture(loop_scope="module")
async def site() -> AsyncIterator[Site]:
    """A server (games in memory) with its web front."""
    async for s in _site(None):
        yield s


@pytest_asyncio.fixture(loop_scope="module")
async def journaled(tmp_path: Path) -> AsyncIterator[Site]:
    """A server journaling its games (they survive a restart) with its web front."""
    async for s in _site(str(tmp_path / "games.db")):
        yield s


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def chromium() -> AsyncIterator[Browser]:
    """One chromium for the tests of a module (each test's pages are in contexts of its own)."""
    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield b
        finally:
            await b.close()


@pytest_asyncio.fixture(loop_scope="module")
async def browser(chromium: Browser) -> AsyncIterator[Browser]:
    """The module's chromium for one test: every context the test opened (its pages,
    cookies and storage) is closed after it, so the next test starts with none."""
    assert chromium.contexts == []
    try:
        yield chromium
    finally:
        for context in chromium.contexts:
            await context.close()


async def open_page(browser: Browser, site: Site, name: str, device: dict[str, object] = PHONE,
                    **extra: object) -> Page:
    context: BrowserContext = await browser.new_context(**device, **extra)  # type: ignore[arg-type]
    page = await context.new_page()
    page.on("console", lambda m: site.errors.append(f"{name}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: site.errors.append(f"{name}: {e}"))
    await page.goto(site.url)
    await page.fill("#name", name)
    await page.get_by_role("button", name="Play").tap() if device.get("has_touch") else \
        await page.get_by_role("button", name="Play").click()
    await page.wait_for_selector("#preset", timeout=WAIT)
    return page


async def create(page: Page, bots: str = "easy") -> None:
    await page.select_option("#bots", bots)
    await page.locator("form button[type=submit]", has_text="Create a table").click()
    await page.wait_for_selector("#turn", timeout=WAIT)


async def play_by_keys(page: Page) -> None:
    """It is this page's turn: 1 picks the first card, 1 again plays it (the first set
    when asked)."""
    await page.keyboard.press("1")
    await page.wait_for_selector("[aria-label='Your hand'] .card.picked", timeout=WAIT)
    await page.keyboard.press("1")
    choice = page.locator("dialog[open] div button")
    if await choice.count():
        await choice.first.click()


async def play_one(page: Page, touch: bool = True) -> None:
    """It is this page's turn: tap the first card in hand, then tap it again to play it
    (or tap the first lit table card), choosing the first set when asked."""
    hand = page.locator("[aria-label='Your hand'] .card")
    act = (lambda loc: loc.tap()) if touch else (lambda loc: loc.click())
    await act(hand.first)
    lit = page.locator("[aria-label='Table'] .card.lit")
    if await lit.count():
        await act(lit.first)
    else:
        await act(page.locator("[aria-label='Your hand'] .card.picked"))
    choice = page.locator("dialog[open] div button")
    if await choice.count():
        await act(choice.first)


async def page_clock(page: Page) -> None:
    """The page's clock under the test's hand from now on (once per browser context); it
    keeps the time of day and runs on until paused."""
    if not getattr(page.context, "clock_installed", False):
        await page.clock.install()
        page.context.clock_installed = True  # type: ignore[attr-defined]


async def first_ready(pages: list[Page], selector: str) -> Page:
    """The first of ``pages`` to show ``selector``."""
    waits = {asyncio.ensure_future(p.wait_for_selector(selector, timeout=WAIT)): p for p in pages}
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    first = done.pop()
    first.result()
    return waits[first]


async def dismiss_round_end(page: Page, touch: bool = True) -> bool:
    cont = page.locator("dialog[open] button", has_text="Continue")
    if await cont.count():
        await (cont.tap() if touch else cont.click())
        return True
    return False


async def play_to_the_end(page: Page) -> None:
    """Play this page's every turn (and close each round's summary) until the game's end shows."""
    while not await page.locator("#game-end").count():
        await page.wait_for_selector(f"{MINE}, #game-end, dialog[open]", timeout=WAIT)
        if await page.locator("dialog[open]").count():
            assert await dismiss_round_end(page)
            continue
        if await page.locator(MINE).count():
            await play_one(page)


async def small_targets(page: Page) -> list[str]:
    """Every visible control smaller than 44×44 CSS px."""
    found: list[str] = await page.evaluate("""() => [...document.querySelectorAll('button, input, select, a')]
        .filter(e => e.offsetParent !== null && !(e.closest('p') && e.tagName === 'A'))
        .map(e => [e, e.getBoundingClientRect()])
        .filter(([e, r]) => r.width < 44 || r.height < 44)
        .map(([e, r]) => `${e.tagName} ${e.textContent || e.id} ${r.width}x${r.height}`)""")
    return found


async def axe_violations(page: Page) -> list[str]:
    await page.add_script_tag(path=str(AXE))
    found: list[str] = await page.evaluate("""async () => (await axe.run()).violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => `${v.id}: ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)""")
    return found


async def test_a_person_plays_a_whole_game_against_a_bot_by_tapping(site: Site, browser: Browser) -> None:
    """R1 to the end of the game (R-target), every move a tap, on a phone."""
    page = await open_page(browser, site, "ada", bypass_csp=True)  # axe-core is injected as a script
    await page.locator("#more summary").tap()  # every option of `scopa options`, each with its meaning
    await page.wait_for_selector("#opt-target", timeout=WAIT)
    assert await page.locator("#more [data-option]").count() >= 10
    assert "points a side needs to win the game" in (await page.locator("#more").text_content() or "")
    assert await small_targets(page) == []
    assert await axe_violations(page) == []
    await create(page)
    await page.wait_for_selector(MINE, timeout=WAIT)
    assert await small_targets(page) == []
    assert await axe_violations(page) == []
    await play_to_the_end(page)
    end = await page.locator("#game-end").bounding_box()  # on screen as it comes, no scrolling
    assert end is not None and 0 <= end["y"] and end["y"] + 80 <= 844
    said = await page.locator("#game-end").text_content() or ""
    assert "Game over" in said and re.search(r"You won!|Bot 1 \(easy\) won", said)  # "You won!" to the winner
    # The game just played, watched again from its end (this server keeps no games: the
    # record comes from the table just finished), then back to the result.
    assert await page.locator("dialog[open]").count() == 0  # the last round is in the result, not over it
    await page.locator("#game-end").get_by_role("button", name="Watch the game again").tap()
    await page.wait_for_selector("#replay-where", timeout=WAIT)
    assert "Round 1 of" in (await page.locator("#replay-where").text_content() or "")
    await page.locator("#replay-controls button >> nth=1").tap()  # a step on
    await page.get_by_role("button", name="Back to the result").tap()
    await page.wait_for_selector("#game-end", timeout=WAIT)


async def test_two_browsers_play_a_round_while_a_third_watches(site: Site, browser: Browser) -> None:
    ada = await open_page(browser, site, "ada", DESKTOP)
    await create(ada, bots="")
    bob = await open_page(browser, site, "bob", DESKTOP)
    await bob.get_by_role("button", name="Join").click()
    cid = await open_page(browser, site, "cid", PHONE)
    await cid.get_by_role("button", name="Watch").tap()
    await cid.wait_for_selector("[aria-label='Table'] .card", timeout=WAIT)
    assert await cid.locator("[aria-label='Your hand'] .card").count() == 0  # a spectator sees no hand
    while True:
        page = await first_ready([ada, bob], f"{MINE}, dialog[open]")
        if await page.locator("dialog[open]").count():
            break
        await (play_by_keys(page) if page is ada else play_one(page, touch=False))  # a desktop's keys, or clicks
        await page.wait_for_selector(f"main:not([data-mine]), dialog[open]", timeout=WAIT)
    await cid.wait_for_selector("dialog[open]", timeout=WAIT)  # the round end, seen by the spectator too
    for page in (ada, bob, cid):
        assert "Round 1 over" in (await page.locator("dialog[open] h2").text_content() or "")


async def test_a_reload_mid_turn_returns_to_the_seat(site: Site, browser: Browser) -> None:
    page = await open_page(browser, site, "ada")
    await create(page)
    await page.wait_for_selector(MINE, timeout=WAIT)
    hand = await page.locator("[aria-label='Your hand'] .card").all_inner_texts()
    labels = await page.locator("[aria-label='Your hand'] .card").evaluate_all("cs => cs.map(c => c.ariaLabel)")
    await page.reload()
    await page.wait_for_selector(MINE, timeout=WAIT)
    assert await page.locator("[aria-label='Your hand'] .card").evaluate_all("cs => cs.map(c => c.ariaLabel)") == labels
    assert "Your turn" in (await page.locator("#turn").text_content() or "")
    assert len(hand) == len(labels)
    await page.set_viewport_size({"width": 844, "height": 390})  # the phone turned to landscape
    assert await small_targets(page) == []
    assert await page.locator("[aria-label='Your hand'] .card").first.is_visible()
    await play_one(page)  # the seat plays on


async def test_a_server_restart_returns_to_the_seat(journaled: Site, browser: Browser) -> None:
    site = journaled
    page = await open_page(browser, site, "ada")
    await create(page)
    await page.wait_for_selector(MINE, timeout=WAIT)
    labels = await page.locator("[aria-label='Your hand'] .card").evaluate_all("cs => cs.map(c => c.ariaLabel)")
    site.offline = True
    await site.restart()
    await page.locator("main[data-mine]").wait_for(state="detached", timeout=WAIT)
    await page.wait_for_selector(MINE, timeout=WAIT)  # back at the seat, the same turn
    assert await page.locator("[aria-label='Your hand'] .card").evaluate_all("cs => cs.map(c => c.ariaLabel)") == labels
    await play_one(page)


async def test_a_second_tab_takes_the_seat_and_the_first_stays_put(site: Site, browser: Browser) -> None:
    """Two tabs of one browser share the seat token: the newer one holds the seat, the
    older one says so and does not take it back by itself (no tug of war)."""
    first = await open_page(browser, site, "ada")
    await create(first)
    await first.wait_for_selector(MINE, timeout=WAIT)
    second = await first.context.new_page()
    second.on("console", lambda m: site.errors.append(f"second: {m.text}") if m.type == "error" else None)
    await second.goto(site.url)
    await second.wait_for_selector(MINE, timeout=WAIT)
    await first.get_by_role("button", name="Play here").wait_for(timeout=WAIT)
    plays = "document.querySelectorAll(\"[aria-label='This round'] li\").length"
    before = await second.evaluate(plays)
    await play_one(second)  # the seat plays on in the second tab
    # a locator wait, not a page-side predicate: the page's CSP forbids evaluating strings
    await second.locator("[aria-label='This round'] li").nth(before).wait_for(state="attached", timeout=WAIT)
    assert await first.get_by_role("button", name="Play here").count() == 1  # still put
    await second.wait_for_selector(MINE, timeout=WAIT)  # the bot has answered
    seen = await second.locator("[aria-label='This round'] li").all_text_contents()
    await first.get_by_role("button", name="Play here").tap()
    await second.get_by_role("button", name="Play here").wait_for(timeout=WAIT)
    await first.wait_for_selector(MINE, timeout=WAIT)
    assert await first.locator("[aria-label='This round'] li").all_text_contents() == seen  # the plays made meanwhile
    await first.locator("#leave").tap()  # the game ends while the second tab is put
    await first.locator("dialog[open]#leave-question button.danger").tap()
    await first.wait_for_selector("#game-end", timeout=WAIT)
    await second.get_by_role("button", name="Play here").tap()
    await second.wait_for_selector("#game-end", timeout=WAIT)  # the game's end, as it stands
    assert await second.locator(".seat").all_text_contents() == await first.locator(".seat").all_text_contents()


async def test_a_game_chosen_for_play_now_stays_chosen_as_the_lobby_changes(site: Site, browser: Browser) -> None:
    """The lobby is drawn again on each change of its tables: the game a person chose for
    "Play now" stays the one chosen when another table appears meanwhile."""
    ada = await open_page(browser, site, "ada", DESKTOP)
    second = await ada.locator("#quick-preset option").nth(1).get_attribute("value") or ""
    await ada.select_option("#quick-preset", second)
    bob = await open_page(browser, site, "bob", DESKTOP)
    await create(bob, "")  # a table waiting for people: listed in ada's lobby
    await ada.locator(".tables li", has_text="bob").wait_for(timeout=WAIT)
    assert await ada.locator("#quick-preset").input_value() == second
