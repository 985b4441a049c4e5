"""Every score table on a narrow phone (360×740 and 390×844, Italian, touch), in Debian's
chromium against a real server on 127.0.0.1 (port 0): with three sides (a long name among
them) or a Scopone of two teams, the score panel, the round's box and the game's end fit the
screen's width, with nothing to scroll sideways to."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, Page

from test_web_client import MINE, WAIT, Site, browser, chromium, site  # noqa: F401
from test_web_family import open_italian, play_to_round_end
from test_web_game_end import play_until_game_end, to_target

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

LONG = "Zio_Gino_Pasquale_Rossi1"  # as long as a name may be (24)
SIZES = [(360, 740), (390, 844)]

WIDER = """() => {
  const width = document.documentElement.clientWidth;
  const wider = [];
  for (const table of document.querySelectorAll("table.piles")) {
    const r = table.getBoundingClientRect();
    if (!r.width) continue;
    const box = table.closest("dialog, section.panel, .end");
    const cells = [...table.querySelectorAll("th, td")].filter((c) => c.scrollWidth > c.clientWidth + 1);
    if (r.left < -0.5 || r.right > width + 0.5 || (box && box.scrollWidth > box.clientWidth + 1) || cells.length)
      wider.push(`${Math.round(r.left)}..${Math.round(r.right)} of ${width}: ${table.textContent.slice(0, 60)}`);
  }
  return wider;
}"""


async def tables_too_wide(page: Page) -> list[str]:
    """The score tables wider than the screen (or with a cell that spills), at each phone size."""
    wider: list[str] = []
    for w, h in SIZES:
        await page.set_viewport_size({"width": w, "height": h})
        wider += await page.evaluate(WIDER)
    return wider


async def start(page: Page, preset: str = "", players: str = "", target: str = "") -> None:
    """A table against medium bots (``preset``, ``players``, ``target`` when given)."""
    await page.wait_for_selector("#preset", timeout=WAIT)
    if preset:
        await page.select_option("#preset", preset)
    if players:
        await page.select_option("#players", players)
    if target:
        await to_target(page, target)
    await page.select_option("#bots", "medium")
    await page.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    await page.wait_for_selector(MINE, timeout=WAIT)


async def test_three_sides_with_a_long_name_fit_a_narrow_phone(site: Site, browser: Browser) -> None:
    """R19-R21 with three players: the score panel, the round's breakdown and the game's
    points fit 360 and 390 px, the longest name cut short in its column, whole in its title."""
    page = await open_italian(browser, site, LONG)
    await start(page, players="3")
    names = await page.locator("#score-title + table thead th").all_text_contents()
    assert names == [LONG, "Bot 1 (medio)", "Bot 2 (medio)"], names
    assert await page.locator(f"#score-title + table thead th span[title='{LONG}']").count() == 1
    assert await tables_too_wide(page) == []
    await play_to_round_end(page)
    await page.wait_for_selector("dialog[open]#round-end table.piles", timeout=WAIT)
    assert await tables_too_wide(page) == []
    [table] = site.engine.tables.values()
    table.abandon("the family stops")
    await page.wait_for_selector("#game-end table.piles", timeout=WAIT)
    assert await tables_too_wide(page) == []


async def test_a_scopone_of_two_teams_fits_a_narrow_phone_to_the_game_end(site: Site, browser: Browser) -> None:
    """R2, R22: Scopone's two teams of two, each named by its players, to the game's end
    with the last round's breakdown: every table fits 360 and 390 px."""
    page = await open_italian(browser, site, "Nonna_Pina")
    await start(page, preset="scopone", target="11")  # to the game's end sooner than Scopone's 21
    assert await page.locator("#score-title + table tr.total th").text_content() == "Partita (a 11)"
    assert await tables_too_wide(page) == []
    line = (await page.locator("#score-title + table tbody tr:nth-child(2) th").bounding_box() or {})["height"]  # "Carte": one line
    total = await page.locator("#score-title + table tr.total th").bounding_box()
    heads = [await th.bounding_box() for th in await page.locator("#score-title + table thead th").all()]
    assert total and total["height"] <= line * 1.2, (total, line)  # "Partita (a 11)" on one line
    assert all(b and b["height"] <= line * 4.4 for b in heads), (heads, line)  # a team: its two players, each whole, on two lines at most
    cut = "() => [...document.querySelectorAll('#score-title + table thead .name')].filter((e) => e.scrollWidth > e.clientWidth + 1).length"
    assert await page.evaluate(cut) == 0
    await play_until_game_end(page)
    await page.wait_for_selector("#game-end #last-round table.piles", timeout=WAIT)
    assert await tables_too_wide(page) == []


SPLIT = """() => {
  const split = [];
  for (const e of document.querySelectorAll(".seat, #score-title + table thead .name, #last-play")) {
    for (const node of [...e.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)) {
      for (const m of node.textContent.matchAll(/[^\\s_]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) split.push(m[0]);
      }
    }
  }
  return split;
}"""


async def test_a_long_name_is_never_split_inside_a_word(site: Site, browser: Browser) -> None:
    """Three players, one with a long name, on a 390 px phone: in the seats and the score
    panel the name wraps where its words meet (an underscore, a space) or ends in an
    ellipsis, never a word split over two lines."""
    page = await open_italian(browser, site, LONG)
    await start(page, players="3")
    for w, h in SIZES:
        await page.set_viewport_size({"width": w, "height": h})
        assert await page.evaluate(SPLIT) == []
    assert await tables_too_wide(page) == []
