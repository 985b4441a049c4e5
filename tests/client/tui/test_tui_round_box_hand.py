"""`scopa play` (the Textual app) at 80×24 in Italian: while the round's box is up and the
next round's first move's clock runs, the person's new hand is in sight — the box shows the
new round's table and the hand, numbered as on the board — and a card's number on it plays
that card.  The server runs on a fake clock (seed 31: round 2 opens with ada's turn)."""

from __future__ import annotations

import asyncio

import pytest

from scopa.client.net import MemoryTokenStore
from scopa.client.text import DeckStyle, i18n, label
from scopa.client.tui import NetApp
from scopa.client.tui.dialogs import RoundEndScreen
from scopa.server import NetworkEngine

from test_tui_lobby_fits import screen_rows
from test_tui_network import sit_at_a_new_table, until
from test_tui_turn_clock import engine, to_the_round_box  # noqa: F401 - the server on the fake clock

pytestmark = pytest.mark.integration

SAFETY = 120


async def test_the_round_box_shows_the_new_hand_while_its_clock_runs(engine: NetworkEngine,  # noqa: F811
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    async with asyncio.timeout(SAFETY):
        app = NetApp("127.0.0.1", engine.port, "ada", MemoryTokenStore(), pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await sit_at_a_new_table(app, pilot)
            await to_the_round_box(app, pilot)
            master = engine.tables[app.session.table_id].master  # type: ignore[union-attr, index]
            assert master is not None
            await until(pilot, lambda: master.state.round_no == 2 and master.state.to_move == 0)  # ada's clock runs
            hand = master.state.hand(0)
            numbered = "  ".join(f"{i} {label(c, DeckStyle.ITALIAN)}" for i, c in enumerate(hand, 1))
            await until(pilot, lambda: any(numbered in row for row in screen_rows(app)))
            assert isinstance(app.screen, RoundEndScreen)  # the round's box is still up, the hand in sight
            assert app.session is not None and app.session.turn_clock.deadline is not None
            await pilot.press("1")
            await until(pilot, lambda: hand[0] not in master.state.hand(0))  # the card shown as 1 was played
            assert not isinstance(app.screen, RoundEndScreen)
