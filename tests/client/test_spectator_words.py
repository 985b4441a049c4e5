"""What a spectator reads, in the players' words: a person who left with q is "ada left"
for them too (not "did not come back"), and `scopa watch`'s name box says Enter watches
(not "Enter: play")."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.widgets import Static

from scopa.client.console.watching import describe
from scopa.client.text import i18n
from scopa.client.tui.dialogs import NameScreen
from scopa.protocol import Command
from scopa.protocol import commands as wire


pytestmark = pytest.mark.unit

def told(body: wire.Body) -> Command:
    return Command(seq=1, sender="table:1", recipient="player:cleo", name=body.NAME, body=body)


def test_a_seat_left_with_q_is_told_as_left_and_one_not_back_as_not_back(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    away: set[int] = set()
    names = ["ada", "bea"]
    line = describe(told(wire.SeatReplaced(seat=0, name="ada", strategy="greedy")), names, away)
    assert line is not None and line.startswith("ada ha lasciato la partita"), line
    assert describe(told(wire.SeatAway(seat=1, name="bea", grace_seconds=30)), names, away) is not None
    line = describe(told(wire.SeatReplaced(seat=1, name="bea", strategy="greedy")), names, away)
    assert line is not None and line.startswith("Nessun ritorno di bea"), line


class NameApp(App[str]):
    def __init__(self, watching: bool) -> None:
        super().__init__()
        self.watching = watching

    def on_mount(self) -> None:
        self.push_screen(NameScreen("zio", self.watching))


async def test_the_name_box_of_scopa_watch_says_enter_watches() -> None:
    for watching, enter in ((True, "Enter: watch"), (False, "Enter: play")):
        app = NameApp(watching)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            hint = str(app.screen.query_one(".dialog-hint", Static).render())
            assert enter in hint, hint
