"""A round's last step in a finished game shown again, on an Italian family's phone
(390×844, touch, it-IT), in Debian's chromium against a real server on 127.0.0.1 (port 0),
as tests/client/web/test_web_replay.py serves the game: the score counts the cards left on
the table to the side that took last, and the round's box says what the live one says (why
each side has its primiera, who took the cards left)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import Browser

from test_web_client import WAIT, browser, chromium  # noqa: F401
from test_web_family_trial import in_lobby
from test_web_replay import marked_game, serving_the_game, to_the_replay

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

BOX = "section.end[aria-label^='Fine della smazzata']"


async def test_a_rounds_last_step_counts_the_cards_left_and_explains_the_primiera(browser: Browser, tmp_path: Path) -> None:
    """R20 (the cards left on the table go to the last side that took), R21 (the round's
    count), R3 (primiera values): at round 1's last play, the score panel holds all 40
    cards, as the round's box does; the box says each side's best card of every suit
    adding up to its primiera, and who took the cards left, as the live box does."""
    record, _, _ = marked_game()
    first = record.rounds[0]
    assert first.leftover and first.leftover_to is not None  # cards were left on the table
    async with serving_the_game(tmp_path, record) as site:
        page = await in_lobby(browser, site, "cid")
        await to_the_replay(page, "Mostra le partite finite", "Rivedi")
        step = page.get_by_role("button", name="Avanti ▶")
        await step.wait_for(timeout=WAIT)
        for _ in first.actions:
            await step.tap()
        box = page.locator(BOX)
        await box.wait_for(timeout=WAIT)
        row = page.locator("#score-title + table tr", has=page.locator("th", has_text="Carte")).locator("td")
        taken = [int(n) for n in await row.all_text_contents()]
        assert sum(taken) == 40, taken  # every card: the ones left on the table too
        boxed = [int(c.split()[0]) for c in await box.locator("tr", has=page.locator("th", has_text="Carte")).locator("td").all_text_contents()]
        assert taken == boxed
        names = await box.locator("thead th").all_text_contents()
        lines = await box.locator("#primiera-why li").all_text_contents()
        assert len(lines) == 2, lines
        for name, line in zip(names, lines):
            found = re.fullmatch(rf"{re.escape(name)}: (\d+) \((.+)\)\.", line)
            assert found, line
            best = found.group(2).split(", ")  # e.g. "Sette di Denari 21": the best card of each suit and its value
            assert sum(int(card.rsplit(" ", 1)[1]) for card in best) == int(found.group(1))
        said = await box.locator("#leftover-to").text_content()
        assert said == f"Le carte rimaste in tavola vanno a {names[first.leftover_to]}."
