"""axe-core (client/web's npm package) finds nothing, minor findings included, on every
screen of the browser client: the name screen, the lobby (its create form open), the
rules, the board, the ways to take a card offers, a round's end, the game's end and a
finished game shown again, at phone and desktop size, in Italian and in English; in
Debian's chromium against a real server on 127.0.0.1."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, Page

from scopa.engine import RuleSet

from test_web_client import AXE, DESKTOP, MINE, PHONE, WAIT, Site, browser, chromium, journaled, served  # noqa: F401
from test_web_family import against_an_easy_bot, play_to_round_end
from test_web_phone import a_choice, the_choice
from test_web_table import seed_where

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py


async def axe_findings(page: Page) -> list[str]:
    """Every violation axe-core finds on the page as it stands, whatever its impact
    (the layer of flying cards aside: aria-hidden copies, there for a moment while they
    fade, whose news the page also says in words)."""
    found: list[str] = await page.evaluate("""async () => (await axe.run({ exclude: [['#fly-layer']] })).violations
        .map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)""")
    return found


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
async def test_axe_finds_nothing_on_any_screen(journaled: Site, browser: Browser, lang: str, size: str) -> None:
    site = journaled  # it keeps its games: the finished one is shown again
    device = {**(PHONE if size == "phone" else DESKTOP), "locale": "it-IT" if lang == "it" else "en-GB"}
    touch = size == "phone"
    context = await browser.new_context(**device, bypass_csp=True)  # type: ignore[arg-type]  # axe is injected
    page = await context.new_page()
    page.on("console", lambda m: site.errors.append(f"ada: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: site.errors.append(f"ada: {e}"))
    await page.goto(site.url)
    await page.add_script_tag(path=str(AXE))

    async def press(selector: str) -> None:
        target = page.locator(selector)
        await (target.tap() if touch else target.click())

    assert await axe_findings(page) == [], "name"
    await page.fill("#name", "ada")
    await press("form button[type=submit]")
    await page.wait_for_selector("#preset", timeout=WAIT)
    await press("#more summary")
    await page.wait_for_selector("#opt-target", timeout=WAIT)
    assert await axe_findings(page) == [], "lobby"
    rules = page.get_by_role("button", name="Regole" if lang == "it" else "Rules", exact=True)
    await (rules.tap() if touch else rules.click())
    await page.wait_for_selector("dialog[open] .rules h3", timeout=WAIT)
    assert await axe_findings(page) == [], "rules"
    await press("dialog[open] > p button >> nth=-1")
    await page.select_option("#bots", "medium")  # a game against bots at once
    await press("form:has(#preset) button[type=submit]")
    await page.wait_for_selector(MINE, timeout=WAIT)
    assert await axe_findings(page) == [], "board"
    await play_to_round_end(page, touch)
    assert await axe_findings(page) == [], "round end"
    await press("dialog[open]#round-end p.bar button")
    await press("#leave")
    await press("dialog[open]#leave-question button.danger")
    await page.wait_for_selector("#game-end", timeout=WAIT)
    assert await axe_findings(page) == [], "game end"
    await press("#game-end button >> nth=1")  # the game just played, shown again
    await page.wait_for_selector("#replay-where", timeout=WAIT)
    await press("#replay-controls button >> nth=1")  # a step on
    assert await axe_findings(page) == [], "replay"
    await press("#replay-title ~ p button")  # back to the result
    await press("#game-end button >> nth=0")
    await press("#games-title + p button")
    await press("#games li button")
    await page.wait_for_selector("#replay-where", timeout=WAIT)
    assert await axe_findings(page) == [], "replay from the lobby"


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
async def test_axe_finds_nothing_on_the_ways_to_take(browser: Browser, lang: str, size: str) -> None:
    """The sheet of ways to take (a card that takes in two ways), over the board."""
    seed = seed_where(RuleSet.build("scopa"), a_choice)
    card, _ = the_choice(seed)
    async with served(seed=seed) as site:
        device = {**(PHONE if size == "phone" else DESKTOP), "locale": "it-IT" if lang == "it" else "en-GB"}
        context = await browser.new_context(**device, bypass_csp=True)  # type: ignore[arg-type]  # axe is injected
        page = await context.new_page()
        page.on("pageerror", lambda e: site.errors.append(f"ada: {e}"))
        await page.goto(site.url)
        await page.fill("#name", "ada")
        await page.locator("form button[type=submit]").click()
        await against_an_easy_bot(page, touch=False)
        await page.wait_for_selector(MINE, timeout=WAIT)
        picked = page.locator(f"[data-area=hand] .card[data-card='{card}']")
        await picked.click()
        await picked.click()
        await page.wait_for_selector("dialog[open]#choose", timeout=WAIT)
        await page.add_script_tag(path=str(AXE))
        assert await axe_findings(page) == [], "ways to take"
