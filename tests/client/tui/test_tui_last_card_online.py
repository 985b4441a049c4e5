"""A network game at 60x20, in Italian: the person's last card of a deal, played for them,
is said as the local board says it ("La tua ultima carta, … è stata giocata per te."), and
the status line still says so once the next deal has come (not a bare "Cali in tavola")."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from scopa.client.text import i18n
from scopa.client.tui import NetApp
from scopa.client.tui.dialogs import RoundEndScreen
from scopa.engine import Event, HandDealt, Played, RoundStarted
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, sit_at_a_new_table  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


async def test_a_last_card_played_for_the_person_online_says_so_after_the_next_deal(  # noqa: F811
        engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    after_deal: list[str] = []  # the status line once a deal came right after the person's last card, played for them
    played_for_me = False
    show = NetApp.show_event

    async def shown(app: NetApp, event: Event) -> None:
        nonlocal played_for_me
        screen = app.board_screen
        mine = screen is not None and isinstance(event, Played) and event.seat == screen.board.viewer \
            and len(screen.board.hand) == 1 and app.autoplay
        await show(app, event)  # told and drawn
        if isinstance(event, HandDealt) and played_for_me and screen is not None:
            after_deal.append(str(screen.query_one("#status", Static).render()))
        if isinstance(event, (Played, HandDealt, RoundStarted)):  # the deal's last play was the person's own
            played_for_me = mine

    monkeypatch.setattr(NetApp, "show_event", shown)
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
