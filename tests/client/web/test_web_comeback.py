"""Coming to a table under way, on Italian phones (390x844, it-IT), against a real server
on 127.0.0.1 (port 0): a spectator who comes in a round sees that round, not the box of the
round before; a player whose page reloads finds the table's chat as it was."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from test_web_client import WAIT, browser, chromium, served  # noqa: F401
from test_web_family import against_an_easy_bot, open_italian, seed_where_seat_1_plays_first
from test_web_round_box import into_round_two
from test_web_social import say
from test_web_table_lines import NONNA, ZIO, nonna_and_zio, watcher

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py


async def test_a_spectator_who_comes_in_the_next_round_sees_that_round_not_the_last_ones_box(browser: Browser) -> None:
    """R19-R21, PROTOCOL.md `snapshot.last_round`: a spectator who starts watching once the
    next round is dealt (its first turn still waiting) sees the round being played: no box
    of the round before over it, and a score panel of the new round's piles (nothing taken
    yet), not of the round before."""
    async with served(seed=seed_where_seat_1_plays_first()) as s:  # the bot starts round 1: ada starts round 2
        ada = await open_italian(browser, s, "ada")
        await against_an_easy_bot(ada)
        await into_round_two(ada)
        zia = await watcher(browser, s)
        assert await zia.locator("dialog#round-end").count() == 0
        assert (await zia.locator("#turn").inner_text()).startswith("Tocca ad ada")
        cards = zia.locator("section[aria-labelledby=score-title] tr", has=zia.locator("th", has_text="Carte"))
        assert await cards.locator("td").all_inner_texts() == ["0", "0"]  # round 2's piles: nothing taken yet


async def test_a_reloaded_page_shows_what_was_said_at_the_table(browser: Browser) -> None:
    """PROTOCOL.md `joined.chat`: a player's page reloaded at the table lists the table's
    chat as it was before the reload, oldest first."""
    async with served() as s:
        nonna, zio, _ = await nonna_and_zio(browser, s)
        await say(nonna, "table-chat", "Buona fortuna!")
        await zio.locator("ul.chat li", has_text="Buona fortuna!").wait_for(timeout=WAIT)
        await say(zio, "table-chat", "Grazie nonna")
        await nonna.locator("ul.chat li", has_text="Grazie nonna").wait_for(timeout=WAIT)
        await zio.reload()
        await zio.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
        said = zio.locator("section[aria-label=Chat] ul.chat li")
        assert await said.all_inner_texts() == [f"{NONNA}: Buona fortuna!", f"{ZIO}: Grazie nonna"]
