"""The lobby's key line shows every key: in a narrow window on two rows (60x20), three
when even that is too wide (40x20), "? aiuto" and "q esci" among them; in a wide one on
one row."""

from __future__ import annotations

import asyncio

import pytest

from scopa.client.text import i18n
from scopa.client.tui.online import LobbyScreen
from scopa.client.tui.online.lobby import LobbyFooter
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("size", [(40, 20), (60, 20), (100, 30)], ids=["40x20", "60x20", "100x30"])
async def test_the_lobby_key_line_shows_every_key(engine: NetworkEngine, size: tuple[int, int],  # noqa: F811
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen))

            def footer_rows() -> list[str]:
                strips = app.screen._compositor.render_strips()
                footer = app.screen.query_one(LobbyFooter).region
                return ["".join(seg.text for seg in strip) for strip in strips[footer.y:footer.bottom]]

            await until(pilot, lambda: "esci" in " ".join(footer_rows()))  # the key line drawn
            footer = app.screen.query_one(LobbyFooter).region
            assert footer.bottom == size[1] and footer.height == (1 if size[0] >= 76 else 2 if size[0] >= 60 else 3)
            rows = footer_rows()
            assert all(len(row.rstrip()) <= size[0] for row in rows), rows
            last = " ".join(row.strip() for row in rows)
            for key in ("p gioca subito", "c crea", "j siediti", "i invito", "w guarda", "o tornei", "? aiuto", "q esci"):
                assert key in " ".join(last.split()), last
