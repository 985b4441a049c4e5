"""A finished game shown again in the browser (its record from a server that keeps its
games), in Debian's chromium against a real server on 127.0.0.1 (port 0), as
tests/client/web/test_web_client.py drives it: the play the server made when a seat's
time ran out and the plays a bot made for a person who was away are marked as the live
page marks them; the cards in hand and on the table keep the live page's order; Back
goes back across rounds as Next goes on; the game's last step ends with its result."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page

from scopa.engine import CARDS, Forced, GameMaster, Play, PlayMark, RuleSet
from scopa.engine.effects import Ask
from scopa.protocol.record import PlayerKind, Record, RecordPlayer, build_record
from scopa.server.journal.export import import_lines
from scopa.server.journal.sqlite.storage import SQLiteStorage

from test_web_client import WAIT, Site, browser, chromium, open_page, served  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

SEED = 5
ORDER = [str(c) for c in CARDS]  # the order the server lists cards in, as the live page shows them
PLAYERS = [RecordPlayer(seat=0, name="ada", side=0, kind=PlayerKind.PERSON),
           RecordPlayer(seat=1, name="bob", side=1, kind=PlayerKind.PERSON, taken_over=True)]


def marked_game() -> tuple[Record, int, int]:
    """A whole game (each seat plays its first legal move) whose first play of ada's the
    server made when her time ran out, and whose plays of bob's from his first on a bot
    made for him; and the numbers of those two first plays in round 1 (from 1)."""
    rules = RuleSet()
    master = GameMaster(rules, SEED)
    effects = list(master.start())
    while effects:
        effect = effects.pop(0)
        if isinstance(effect, Ask):
            effects += master.receive(effect.seat, effect.legal[0])
    plain = build_record(rules, SEED, master.first_dealer, master.actions, PLAYERS)
    seats = [a.seat for a in plain.rounds[0].actions]
    plays = [i for i, a in enumerate(master.actions) if isinstance(a, Play)]
    hers, his = seats.index(0), seats.index(1)
    marks = {plays[hers]: PlayMark(Forced.TIMEOUT)}
    marks.update({i: PlayMark(bot=True) for k, i in enumerate(plays) if k >= his and master.state_after(i).to_move == 1})
    record = build_record(rules, SEED, master.first_dealer, master.actions, PLAYERS, game="1", marks=marks)
    return record, hers + 1, his + 1


def journal(path: str, record: Record) -> None:
    db = SQLiteStorage(path)
    line = {"kind": "game", "record": record.model_dump(mode="json"), "private": False, "finished_at": 1.8e9,
            "reason": record.result.reason.value, "token_digests": [None, None]}
    try:
        assert import_lines(db, [json.dumps(line)]).games == 1
    finally:
        db.close()


@asynccontextmanager
async def serving_the_game(tmp_path: Path, record: Record) -> AsyncIterator[Site]:
    """A site whose journal holds ``record``, finished."""
    path = str(tmp_path / "games.db")
    journal(path, record)
    async with served(path) as site:
        yield site


async def to_the_replay(page: Page, show: str, replay: str) -> None:
    """Lists the finished games (the button ``show``) and replays the first (``replay``)."""
    await page.get_by_role("button", name=show).tap()
    await page.locator("#games li", has_text="#1 Scopa").get_by_role("button", name=replay).tap()


async def cards(page: Page, where: str) -> list[str]:
    found: list[str] = await page.locator(f"{where} .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    return found


async def test_a_replay_marks_timed_out_and_bot_plays_keeps_the_cards_in_order_and_steps_across_rounds(
        browser: Browser, tmp_path: Path) -> None:
    record, hers, his = marked_game()
    async with serving_the_game(tmp_path, record) as site:
        page = await open_page(browser, site, "cid")
        await to_the_replay(page, "Show the finished games", "Replay")
        where = page.locator("#replay-where")
        await where.wait_for(timeout=WAIT)
        rounds = len(record.rounds)
        step = page.get_by_role("button", name="Next ▶")
        back = page.get_by_role("button", name="◀ Back")
        for _ in range(max(hers, his) + 4):
            for area in ("[data-area=table]", *(f"[aria-label=\"{n}'s hand\"]" for n in ("ada", "bob"))):
                shown = await cards(page, area)
                assert shown == sorted(shown, key=ORDER.index), area  # as the live page lists them
            await step.tap()
        plays = [t.strip() for t in await page.locator("[data-area=plays] li").all_text_contents()]
        assert plays[hers - 1].startswith("ada: ") and plays[hers - 1].endswith(" · time ran out, so the server played it")
        assert plays[his - 1].startswith("bob (bot): ")
        assert not any("time ran out" in p for i, p in enumerate(plays) if i != hers - 1)
        assert all(p.startswith("bob (bot): ") for p in plays[his:] if p.startswith("bob"))
        assert any("→" in p for p in plays)
        for shown in range(len(plays), 0, -1):  # each step's line says its play as the list does, what it took and its scopa too
            assert (await where.text_content() or "").endswith(f" · {plays[shown - 1]}")
            await back.tap()

        await page.get_by_role("button", name="Next round").tap()
        assert await where.text_content() == f"Round 2 of {rounds} · Just dealt"
        await back.tap()  # back into the round before, at its end
        last = len(record.rounds[0].actions)
        assert (await where.text_content() or "").startswith(f"Round 1 of {rounds} · play {last} of {last}")

        for _ in range(rounds - 1):
            await page.get_by_role("button", name="Next round").tap()
        for _ in record.rounds[-1].actions:
            await step.tap()
        assert await step.is_disabled()
        end = page.locator("#replay-end")
        assert "bob (bot) won" in (await end.text_content() or "")  # as live play named his seat once a bot played it
        # the last round's points first, the game's result at the end
        after = await end.evaluate("e => [...document.querySelectorAll('section.end')].indexOf(e)")
        assert after == await page.locator("section.end").count() - 1 and after > 0
        assert await page.locator("section.end").first.get_attribute("aria-label") == f"Round {rounds} over"
