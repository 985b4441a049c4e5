"""A spectator on an Italian phone (390×844, touch), in Debian's chromium against a real
server on 127.0.0.1 (port 0): the game's end comes to it as to the players, its result and
ways on usable at once (the last round's breakdown inside it, no box over it); the table's
chat it reads, and is told plainly that it does not write there. A refusal said at the top of
the page goes once the game ends."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, Page

from test_web_client import WAIT, Site, browser, chromium, served  # noqa: F401
from test_web_family import open_italian
from test_web_game_end import play_until_game_end
from test_web_table_lines import NONNA, new_table, watcher

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

ON_TOP = """(name) => {
  const b = [...document.querySelectorAll("#game-end button")].find((x) => x.textContent === name);
  if (!b) return false;
  const r = b.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && b.contains(hit);
}"""


async def tappable(page: Page, name: str) -> bool:
    """Whether the game end's button ``name`` is on top where it is drawn (a tap reaches it)."""
    await page.locator("#game-end button", has_text=name).scroll_into_view_if_needed()
    return bool(await page.evaluate(ON_TOP, name))


async def test_a_spectator_sees_the_game_end_at_once_and_can_use_it(browser: Browser) -> None:
    """R-target (a game played to its end) and PROTOCOL.md `game_end` to spectators: the
    spectator reads who won with no round's box over it; "Torna ai tavoli" and "Rivedi la
    partita" take a tap at once; the last round's breakdown is in the end, as the players'."""
    async with served() as s:
        nonna = await open_italian(browser, s, NONNA)
        await nonna.select_option("#preset", "frac", timeout=WAIT)  # V12: 16 points a round, to 11: ends sooner
        await new_table(nonna, bots="easy")
        zia = await watcher(browser, s)
        await play_until_game_end(nonna)
        end = zia.locator("#game-end")
        await end.wait_for(timeout=WAIT)
        assert await zia.locator("dialog[open]").count() == 0
        assert (await end.locator(".winner").text_content() or "").startswith(("Ha vinto", "Hanno vinto", "Nessun vincitore"))
        assert await end.locator("#last-round table.piles").count() == 1
        assert await tappable(zia, "Torna ai tavoli")
        assert await tappable(zia, "Rivedi la partita")
        await end.get_by_role("button", name="Rivedi la partita").tap()
        await zia.locator("#game-end").wait_for(state="detached", timeout=WAIT)  # the replay, from one tap


async def test_a_spectator_reads_the_table_chat_and_is_told_it_does_not_write(browser: Browser) -> None:
    """PROTOCOL.md §7 (spectators get the table's chat; only seated players send it): the
    spectator reads what the player says, has no line to write in, and is told why."""
    async with served() as s:
        nonna = await open_italian(browser, s, NONNA)
        await new_table(nonna, bots="easy")
        zia = await watcher(browser, s)
        await nonna.fill("#table-chat", "Ciao Zia!")
        await nonna.locator("#table-chat").press("Enter")
        await zia.locator("ul.chat[aria-label=Chat] li", has_text="Ciao Zia!").wait_for(timeout=WAIT)
        assert await zia.locator("input#table-chat, ul.chat[aria-label=Chat] ~ form").count() == 0
        assert await zia.locator("#table-chat").text_content() == "Chi guarda legge la chat ma non scrive."
        assert await zia.locator(".status[role=status]").count() == 0  # nothing refused


async def test_a_refusal_said_at_the_top_goes_when_the_game_ends(browser: Browser) -> None:
    """PROTOCOL.md (`error`, `bad_body`): a chat line the server refuses (nothing left once
    control characters are removed) is said at the top of the page; once the game ends that
    line is old news and goes."""
    async with served() as s:
        nonna = await open_italian(browser, s, NONNA)
        await new_table(nonna, bots="easy")
        await nonna.fill("#table-chat", "\u0001")
        await nonna.locator("#table-chat").press("Enter")
        said = nonna.locator("p.status[role=status]")
        await said.wait_for(timeout=WAIT)
        [table] = s.engine.tables.values()
        table.abandon("the family stops")
        await nonna.locator("#game-end").wait_for(timeout=WAIT)
        assert await said.count() == 0
