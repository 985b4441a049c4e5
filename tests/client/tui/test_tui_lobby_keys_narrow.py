"""The lobby's key line in a narrow window (60x20): "? aiuto" and "q esci" stay in sight
(the keys the help lists anyway give way); in a wide one every key shows."""

from __future__ import annotations

import asyncio

import pytest

from scopa.client.text import i18n
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("size", [(60, 20), (100, 30)], ids=["60x20", "100x30"])
async def test_the_lobby_key_line_keeps_help_and_leave(engine: NetworkEngine, size: tuple[int, int],  # noqa: F811
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.pause(0.1)
            last = "".join(seg.text for seg in app.screen._compositor.render_strips()[-1]).rstrip()
            assert "? aiuto" in last and "q esci" in last and "p gioca subito" in last, last
            if size[0] >= 100:
                assert "o tornei" in last and "w guarda" in last, last
