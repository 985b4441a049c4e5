"""A family's first games on Italian phones (390×844, touch, it-IT), as
tests/client/web/test_web_client.py drives the page: the round's box keeps the target of
the game, "(a 11)", on one line; a line of the chat or of the round's plays that wraps
indents its wrapped part, which, atop the list scrolled to its newest line, never reads as
a line of its own ("Denari" alone, the tail of "… 2 di Bastoni, 7 di Denari"); the round's
box of a game of teams names who takes the cards left on the table as one says it ("a ana
e Bot 2"), not as its column does ("ana + Bot 2"); while a card of the hand is picked, the table marks
only what it takes, not the card the last play laid down (read as one it takes)."""

from __future__ import annotations


import pytest
from playwright.async_api import Browser

from test_web_client import MINE, WAIT, served, Site, browser, chromium, site  # noqa: F401
from test_web_family import against_an_easy_bot, open_italian, play_to_round_end, seed_where_seat_1_plays_first, tap_a_card

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


# Where each line of an element's text starts: the left of its first character, a line each.
LINE_STARTS = """(e) => {
  const starts = new Map();
  const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (let i = 0; i < n.length; i++) {
      if (/\\s/.test(n.data[i])) continue;
      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
      const box = r.getBoundingClientRect(); const top = Math.round(box.top);
      if (!starts.has(top)) starts.set(top, box.left);
    }
  }
  return [...starts.entries()].sort((a, b) => a[0] - b[0]).map((x) => x[1]);
}"""


async def test_a_wrapped_line_of_the_list_is_indented(site: Site, browser: Browser) -> None:
    """zia writes a long line in the chat of her table (the round's plays are the same kind of
    list): on the phone it wraps, its second line starts further in than its first."""
    page = await open_italian(browser, site, "zia")
    await against_an_easy_bot(page)
    await page.wait_for_selector(MINE, timeout=WAIT)
    said = "zia: ciao a tutti, stasera si gioca fino a tardi e chi perde lava i piatti"
    await page.locator("ul.chat[aria-label=Chat] + form input, form:has(button:text-is('Invia')) input").first.fill(said[5:])
    await page.get_by_role("button", name="Invia", exact=True).tap()
    line = page.locator("ul.chat[aria-label=Chat] li", has_text=said)
    await line.wait_for(timeout=WAIT)
    starts = await line.evaluate(LINE_STARTS)
    assert len(starts) >= 2, starts  # it wraps on a phone
    assert all(s >= starts[0] + 8 for s in starts[1:]), starts


async def test_the_cards_left_on_the_table_go_to_a_team_named_as_one_says_it(site: Site, browser: Browser) -> None:
    """R2, R17: Scopone, nonna and her team-mate (a bot) against two bots: at a round's end
    whose last capture left cards on the table, its box says they go to the two players of
    a team joined by "e", no "+" between them."""
    page = await open_italian(browser, site, "nonna")
    await against_an_easy_bot(page, preset="scopone")
    said = page.locator("dialog[open]#round-end #leftover-to")
    while not await said.count():
        assert not await page.locator("#game-end").count()  # some round leaves cards on the table
        await play_to_round_end(page)
        await page.wait_for_selector("dialog[open]#round-end", timeout=WAIT)
        if not await said.count():
            await page.locator("dialog[open]#round-end button", has_text="Continua").tap()
    text = await said.text_content() or ""
    assert text in ("Le carte rimaste in tavola vanno a nonna e Bot 2 (facile).",
                    "Le carte rimaste in tavola vanno a Bot 1 (facile) e Bot 3 (facile)."), text
    assert "+" not in text


async def test_a_picked_card_leaves_marked_only_what_it_takes(browser: Browser) -> None:
    """R8, R9: ada's turn after the bot laid a card down (marked on the table); she taps a card
    of her hand that does not take it: that card is no longer marked, only what hers takes
    is (lit)."""
    async with served(seed=seed_where_seat_1_plays_first()) as s:  # the bot plays first
        page = await open_italian(browser, s, "ada")
        await against_an_easy_bot(page)
        laid = page.locator("[data-area=table] .card.laid")
        outline = "(e) => getComputedStyle(e).outlineStyle"
        while True:
            await page.wait_for_selector(f"{MINE}, dialog[open]#round-end", timeout=WAIT)
            assert not await page.locator("dialog[open]#round-end").count()  # a round lays some card down
            hand = page.locator("[data-area=hand] .card")
            if await laid.count():
                assert await laid.evaluate(outline) == "dashed"  # the bot's card, marked
                for card in await hand.all():
                    await card.tap()
                    if not await page.locator("[data-area=table] .card.laid.lit").count():
                        break
                else:
                    raise AssertionError("every card of the hand takes the card laid down")
                assert await laid.evaluate(outline) == "none"
                return
            played = await page.locator("[data-area=plays] li").count()
            await tap_a_card(page)
            await page.locator(f"[data-area=plays] li:nth-child({played + 2})").wait_for(state="attached", timeout=WAIT)
