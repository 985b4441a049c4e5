"""Leaving with ``q`` and answering ``si`` (the natural Italian yes, typed fast, in one
read of the terminal): the ``s`` says yes, and the ``i`` typed on reaches no screen behind
the question: the lobby opens no invite box while the program closes (it ends cleanly),
and a game left answers no "unknown key" on its board."""

from __future__ import annotations

import asyncio

import pytest
from textual import events

from scopa.client.text import i18n
from scopa.client.tui.dialogs import ConfirmScreen
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, sit_at_a_new_table, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


def si_at_once(app: object) -> None:
    for key in (events.Key("s", "s"), events.Key("i", "i")):  # one read of the terminal
        app.post_message(key)  # type: ignore[attr-defined]


async def test_si_typed_fast_to_leave_the_lobby_ends_cleanly(engine: NetworkEngine,  # noqa: F811
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.session is not None)
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            si_at_once(app)
            while app.return_code is None:  # the program ends (with no traceback); the pilot's own
                await asyncio.sleep(0.02)  # pause waits on a screen, which an ending app may not give
        assert app.return_code == 0
        assert app.lobby is not None and app.lobby._invite is None  # the i opened no invite box


async def test_si_typed_fast_to_leave_a_game_goes_back_to_the_lobby_with_nothing_typed(
        engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await sit_at_a_new_table(app, pilot)
            board = app.board_screen
            assert board is not None
            hints: list[str] = []
            shown = board.hint
            monkeypatch.setattr(board, "hint", lambda text: (hints.append(str(text)), shown(text))[1])
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            si_at_once(app)
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and not app.playing)
            await pilot.press("t")  # the keys are the lobby's again
            await until(pilot, lambda: app.lobby is not None and app.lobby._talking or app.focused is not None
                        and app.focused.id == "say")
            assert app.is_running and hints == [] and app.lobby._invite is None
