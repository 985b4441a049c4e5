"""A family's first games on Italian phones (390×844, touch, it-IT), as
tests/client/web/test_web_client.py drives the page: the round's box keeps the target of
the game, "(a 11)", on one line."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from test_web_client import WAIT, Site, browser, chromium, site  # noqa: F401
from test_web_family import against_an_easy_bot, open_italian, play_to_round_end

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

# The lines a part of a row's name lies on: the tops of its characters' boxes, from the
# bracket on (a line each).
LINES_OF_THE_BRACKET = """(th) => {
  const text = th.textContent; const from = text.lastIndexOf("(");
  const tops = new Set();
  const walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
  let seen = 0;
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (let i = 0; i < n.length; i++, seen++) {
      if (seen < from || /\\s/.test(n.data[i])) continue;
      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
      tops.add(Math.round(r.getBoundingClientRect().top));
    }
  }
  return tops.size;
}"""


async def test_the_round_box_keeps_the_games_target_on_one_line(site: Site, browser: Browser) -> None:
    """R19: the round's box ends with the game's totals, "Partita (a 11)": on a phone's narrow
    column the name wraps before the bracket, never between "(a" and "11)"."""
    page = await open_italian(browser, site, "nonna")
    await against_an_easy_bot(page)
    await play_to_round_end(page)
    total = page.locator("dialog[open]#round-end table.piles tr.total").last.locator("th")
    await total.wait_for(timeout=WAIT)
    assert await total.text_content() == "Partita (a 11)"
    assert await total.evaluate(LINES_OF_THE_BRACKET) == 1
