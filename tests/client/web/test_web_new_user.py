"""A new user's family on phones (Italian, touch), in Debian's chromium against a real server
on 127.0.0.1 (port 0), as tests/client/web/test_web_client.py drives it: a spectator's round
box gives way to the next round's play and its score keeps up; the game against bots is the
first thing in the lobby; one notice above the board, the newest; a landscape phone keeps its
score's words whole and the hand with its hint in sight; the lobby's row says one spectator
and a table's short turn clock."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, Page

from scopa.server.core.clock import FakeClock

from test_web_client import MINE, WAIT, Site, browser, chromium, served, site  # noqa: F401
from test_web_family import ITALIAN_PHONE, open_italian, play_to_round_end, tap_a_card
from test_web_table_lines import NONNA, ZIO, new_table, nonna_and_zio, watcher

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

BOX = "dialog[open]#round-end"
PLAYS = "[data-area=plays] li"
NOTICES = "#away, #stand-in, p.scopa[role=alert]"  # the notices above the board
AGAINST_BOTS = "Subito una partita contro i bot"


def italian(width: int, height: int) -> dict[str, object]:
    """An Italian phone whose screen is ``width``×``height``."""
    return {**ITALIAN_PHONE, "viewport": {"width": width, "height": height}}


async def phone_at(browser: Browser, site: Site, name: str, width: int, height: int) -> Page:
    """``name`` in the lobby on an Italian phone of ``width``×``height``."""
    page = await (await browser.new_context(**italian(width, height))).new_page()  # type: ignore[arg-type]
    page.on("console", lambda m: site.errors.append(f"{name}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: site.errors.append(f"{name}: {e}"))
    await page.goto(site.url)
    await page.fill("#name", name)
    await page.get_by_role("button", name="Gioca", exact=True).tap()
    await page.wait_for_selector("#preset", timeout=WAIT)
    return page


async def test_a_spectators_round_box_gives_way_to_the_next_rounds_play(browser: Browser) -> None:
    """R19-R21 (the round's count) and PROTOCOL.md §7 (spectators get every play): the
    spectator's round box closes by itself once the next round is under way (a person has
    played in it; nobody taps the spectator's Continua), and the score under it is the
    players' own, play by play."""
    async with served() as s:
        nonna = await open_italian(browser, s, NONNA)
        await new_table(nonna, bots="easy")
        zia = await watcher(browser, s)
        await play_to_round_end(nonna)
        await zia.locator(BOX).wait_for(timeout=WAIT)  # the round's end, as the players see it
        await nonna.locator(BOX).get_by_role("button", name="Continua", exact=True).tap()
        await nonna.wait_for_selector(MINE, timeout=WAIT)
        await tap_a_card(nonna)
        await nonna.wait_for_selector(MINE, timeout=WAIT)  # nonna's play and the bot's: the next round under way
        await zia.locator(BOX).wait_for(state="detached", timeout=WAIT)
        played = await nonna.locator(PLAYS).count()
        await zia.locator(f"{PLAYS}:nth-child({played})").wait_for(timeout=WAIT)
        score = "section[aria-labelledby=score-title] table"
        assert await zia.locator(score).inner_text() == await nonna.locator(score).inner_text()


@pytest.mark.parametrize("width,height", [(360, 740), (390, 844)])
async def test_the_game_against_bots_is_in_sight_on_the_lobbys_first_screen(site: Site, browser: Browser,
                                                                             width: int, height: int) -> None:
    """A family's most used button, "Subito una partita contro i bot", is on the lobby's first
    screen (no scrolling), above the new table's form; one tap and the game is dealt."""
    page = await phone_at(browser, site, "nonna", width, height)
    quick = page.get_by_role("button", name=AGAINST_BOTS, exact=True)
    box = await quick.bounding_box()
    assert box and 0 <= box["y"] and box["y"] + box["height"] <= height, box
    form = await page.locator("#create-title").bounding_box()
    assert form and form["y"] > box["y"] + box["height"]
    await quick.tap()
    await page.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    await page.context.close()


async def test_one_notice_above_the_board_the_newest(browser: Browser) -> None:
    """PROTOCOL.md §7 (seat_away, the turn clock): zio's phone sleeps (his seat is held for him,
    said above nonna's board); then the turn's time runs out and the server plays: that news
    takes the place of the line before it (one notice above the board, the newest), while the
    seats row still says zio is away and the round's plays mark the card the server played."""
    clock = FakeClock()
    async with served(clock=clock, turn_timeout=30.0, grace=600.0) as s:  # the clocks run on the test's clock
        nonna, zio, _ = await nonna_and_zio(browser, s)
        await zio.context.close()  # his phone sleeps
        await nonna.locator("#away li", has_text=f"{ZIO} non è al tavolo").wait_for(timeout=WAIT)
        played = await nonna.locator(PLAYS).count()
        clock.advance(46.0)  # the game's first turn (30 s and 15 s to look at the board) runs out
        await nonna.locator(f"{PLAYS}:nth-child({played + 1})").wait_for(timeout=WAIT)
        news = nonna.locator(NOTICES)
        await news.filter(has_text="è scaduto").wait_for(timeout=WAIT)
        assert await news.count() == 1
        assert re.fullmatch(r"Il (tuo tempo|tempo di Zio_Gino) è scaduto: il server ha giocato .+\.", await news.text_content() or "")
        assert await nonna.locator(".seat", has_text=f"{ZIO} · non è al tavolo").count() == 1
        assert "tempo scaduto" in (await nonna.locator(PLAYS).nth(played).text_content() or "")


async def score_labels_broken(page: Page) -> list[str]:
    """The score's row labels whose words do not stand on one line."""
    broken: list[str] = await page.evaluate("""() => [...document.querySelectorAll(
        "section[aria-labelledby=score-title] table th[scope=row]")].filter(th => {
          const r = document.createRange(); r.selectNodeContents(th);
          return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1;
        }).map(th => th.textContent)""")
    return broken


@pytest.mark.parametrize("width,height", [(844, 390), (740, 360)])
async def test_a_landscape_phone_keeps_the_hand_and_its_hint_in_sight(site: Site, browser: Browser,
                                                                      width: int, height: int) -> None:
    """A phone turned sideways: the score's words stand whole on one line ("Settebello", not
    "Settebel/lo"), and the hand with the hint under it are on the first screen at the turn, every
    card whole, under a label of its own that sets it apart from the table's cards."""
    page = await phone_at(browser, site, "nonna", width, height)
    await page.get_by_role("button", name=AGAINST_BOTS, exact=True).tap()
    await page.wait_for_selector(MINE, timeout=WAIT)
    assert await score_labels_broken(page) == []
    for part in ("[data-area=hand]", "#tap-said"):
        box = await page.locator(part).bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= height, (part, box)
    cards = page.locator("[data-area=hand] .card")
    assert await cards.count() > 0
    for i in range(await cards.count()):  # each card whole, none cut at the screen's foot
        box = await cards.nth(i).bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= height and box["x"] + box["width"] <= width, (i, box)
    label = page.locator("[data-area=table] + h2")  # "Le tue carte": the hand told apart from the table's cards
    box = await label.bounding_box()
    assert await label.text_content() == "Le tue carte"
    assert box and box["width"] >= 40 and box["height"] >= 8 and box["y"] + box["height"] <= height, box
    assert await label.evaluate("e => getComputedStyle(e).clipPath") == "none"
    await page.context.close()


async def test_the_lobby_row_says_one_spectator_and_a_short_turn_clock(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §8 (a table's listing: spectators, turn_timeout): a table with a 15 s clock
    and one spectator reads "15 s a mossa · 1 spettatore" in the lobby."""
    nonna = await open_italian(browser, site, NONNA)
    await nonna.wait_for_selector("#preset", timeout=WAIT)
    await nonna.select_option("#timer", "15")
    await new_table(nonna, bots="easy")
    await watcher(browser, site)
    ada = await open_italian(browser, site, "ada")
    row = ada.locator(".tables li", has_text="#1 ")
    await row.filter(has_text="spettator").wait_for(timeout=WAIT)
    said = await row.locator(".grow").text_content() or ""
    assert said.endswith(" · 15 s a mossa · 1 spettatore"), said
