"""A network game at 60x20, in Italian: the person's last card of a deal, played for them,
is said as the local board says it ("La tua ultima carta, … è stata giocata per te."), and
the status line still says so once the next deal has come (not a bare "Cali in tavola")."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from scopa.client.text import i18n
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.dialogs import RoundEndScreen
from scopa.engine import Event, HandDealt, Played
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, sit_at_a_new_table  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


async def test_a_last_card_played_for_the_person_online_says_so_after_the_next_deal(  # noqa: F811
        engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    after_deal: list[str] = []  # the status line once a deal came after the person's last card went down for them
    played_for_me = False
    tell = BoardScreen.tell_event

    def told(screen: BoardScreen, event: Event) -> None:
        nonlocal played_for_me
        mine = isinstance(event, Played) and event.seat == screen.board.viewer and screen.autoplayed
        tell(screen, event)
        if isinstance(event, HandDealt) and played_for_me:
            after_deal.append(str(screen.query_one("#status", Static).render()))
        played_for_me = mine or (played_for_me and not isinstance(event, HandDealt))

    monkeypatch.setattr(BoardScreen, "tell_event", told)
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(60, 20)) as pilot:
            await sit_at_a_new_table(app, pilot)
            for _ in range(4000):
                if after_deal:
                    break
                if isinstance(app.screen, RoundEndScreen):
                    await pilot.press("enter")
                elif app.board_screen is not None and app.board_screen.asking:
                    await pilot.press("1")
                await pilot.pause(0.01)
            assert after_deal, "no deal came after a last card played for the person"
            assert "La tua ultima carta" in after_deal[0] and "è stata giocata per te" in after_deal[0], after_deal
