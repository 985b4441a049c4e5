"""The court cards on a phone (390×844, touch), in Debian's chromium against a real server
on 127.0.0.1 (port 0): with French cards an Italian page shows Fante, Donna and Re as F, D
and R (an English one keeps J, Q and K), on the card and in its name; with Italian cards
they are Fante, Cavallo and Re, in either language."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, Page

from scopa.engine import RuleSet
from scopa.engine.cards import CARDS
from scopa.engine.state import GameState

from test_web_client import MINE, PHONE, WAIT, browser, chromium, open_page, served  # noqa: F401
from test_web_family import against_an_easy_bot, open_italian
from test_web_table import seed_where

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

COURTS = {"F", "C", "R"}  # the cards' codes: Fante, Cavallo (the French Queen), Re


def courts_in_hand(state: GameState) -> bool:
    """Seat 0's first hand holds a Fante, a Cavallo and a Re."""
    return {str(CARDS[c])[0] for c in range(40) if state.hands[0] >> c & 1} == COURTS


async def hand(page: Page) -> dict[str, tuple[str, str]]:
    """Each card in hand (its code): its name as the page says it, and the letter drawn on it."""
    await page.wait_for_selector(MINE, timeout=WAIT)
    cards: list[list[str]] = await page.locator("[data-area=hand] .card").evaluate_all(
        "cs => cs.map(c => [c.dataset.card, c.getAttribute('aria-label'), c.querySelector('svg text').textContent])")
    return {code: (name, letter) for code, name, letter in cards}


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_french_court_cards_speak_the_pages_language(browser: Browser, lang: str) -> None:
    async with served(seed=seed_where(RuleSet.build("scopa"), courts_in_hand)) as s:
        page = await open_italian(browser, s, "ada") if lang == "it" else await open_page(browser, s, "ada", PHONE)
        await page.wait_for_selector("#deck", timeout=WAIT)
        await page.select_option("#deck", "french")
        await against_an_easy_bot(page)
        letters = {"F": "F", "C": "D", "R": "R"} if lang == "it" else {"F": "J", "C": "Q", "R": "K"}
        suits = {"d": "♦", "c": "♥", "s": "♠", "b": "♣"}
        for code, (name, letter) in (await hand(page)).items():
            assert letter == letters[code[0]], code
            assert name == f"{letters[code[0]]}{suits[code[1]]}", code
        await page.context.close()


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_italian_court_cards_are_fante_cavallo_re(browser: Browser, lang: str) -> None:
    async with served(seed=seed_where(RuleSet.build("scopa"), courts_in_hand)) as s:
        page = await open_italian(browser, s, "ada") if lang == "it" else await open_page(browser, s, "ada", PHONE)
        await against_an_easy_bot(page)
        names = {"F": "Fante", "C": "Cavallo", "R": "Re"}
        suits = {"d": "Denari", "c": "Coppe", "s": "Spade", "b": "Bastoni"}
        for code, (name, letter) in (await hand(page)).items():
            assert letter == code[0], code
            assert name == f"{names[code[0]]}{' di ' if lang == 'it' else ' '}{suits[code[1]]}", code  # "Re di Bastoni" in Italian prose
        await page.context.close()
