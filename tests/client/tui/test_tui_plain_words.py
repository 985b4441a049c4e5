"""What the terminal shows reads as it is: no Markdown code marks (`scopa options`, the
failed search for a server); a seat away is said without a countdown that would go
stale (its row counts the time down); and at the end of a round, every hand played out,
no seat is marked as on turn with no cards."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from scopa.cli.lan import no_server_text
from scopa.client.game import SeatWentAway
from scopa.client.text import i18n
from scopa.client.tui.board import BoardScreen
from scopa.client.tui.text import notice_text

from test_tui_local import BoardHarness, position

pytestmark = pytest.mark.process


def test_scopa_options_prints_no_backticks_in_italian() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    done = subprocess.run([sys.executable, "-m", "scopa.cli", "options"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60, env=dict(env, LANG="it_IT.UTF-8"))
    assert done.returncode == 0 and "tradizionale" in done.stdout, done.stdout[:300]
    assert "`" not in done.stdout, [line for line in done.stdout.splitlines() if "`" in line][:3]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_no_server_found_says_the_command_without_backticks(lang: i18n.Lang, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    text = no_server_text(3)
    assert "scopa serve --host 0.0.0.0" in text and "`" not in text, text


def test_a_seat_away_is_said_without_a_countdown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    text = notice_text(SeatWentAway(1, "bea", 120.0))
    assert "bea" in text and "2:00" not in text and "un bot" in text, text


async def test_nobody_is_on_turn_once_every_hand_is_played_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    board = position("3d", "")
    board.hand, board.hand_sizes = (), [0, 0]  # the last card went down; the round's box comes next
    app = BoardHarness(board)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, BoardScreen)
        shown = "\n".join("".join(seg.text for seg in strip).rstrip()
                          for strip in app.screen._compositor.render_strips())
        assert "nessuna carta in mano" in shown, shown
        assert "di turno" not in shown and "▶" not in shown, shown
