import asyncio
import pytest
from scopa.client.text import i18n
from scopa.client.tui.online import LobbyScreen
from scopa.server import NetworkEngine
from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401

@pytest.mark.parametrize("lang", ["it", "en"])
async def test_probe(engine: NetworkEngine, monkeypatch: pytest.MonkeyPatch, lang) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(60, 20)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            await pilot.pause(0.1)
            print("\n".join("".join(seg.text for seg in strip).rstrip() for strip in app.screen._compositor.render_strips()))
            print(app.screen.active_bindings.keys())
