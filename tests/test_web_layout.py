"""The web app (the one `scopa web` runs for each browser page) at phone sizes, without a
browser: at 40×30 cells and narrower, and at a phone turned sideways, every card of the
hand lies on the screen where the layout map says, a click (a tap) there selects it and
a second one plays it; the dialogs can be answered by tapping (no keyboard on a phone)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from scopa.client.tokens import MemoryTokenStore
from scopa.client.webapp import WebApp, layout_map
from scopa.server import NetworkEngine

WAIT = 30.0  # seconds: a safety net; each step normally takes a fraction of one


async def _until(pilot: Any, what: str, ok: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not ok():
        assert time.monotonic() < deadline, f"waited for {what}"
        await pilot.pause(0.02)


def _middle(box: list[int]) -> tuple[int, int]:
    x, y, w, h = box[:4]
    return x + w // 2, y + h // 2


@pytest.mark.parametrize("size", [(40, 30), (34, 26), (108, 22)], ids=["40x30", "34x26", "landscape"])
async def test_cards_and_dialogs_are_tapped_at_phone_sizes(size: tuple[int, int]) -> None:
    server = NetworkEngine("127.0.0.1", 0, seed=11)
    await server.start()
    store = MemoryTokenStore()
    app = WebApp("127.0.0.1", server.port, "ana", store)
    app.proxied_for = None
    try:
        async with app.run_test(size=size) as pilot:
            await _until(pilot, "the lobby's keys", lambda: bool(layout_map(app)["keys"].get("c", [0, 0, 0])[2]))
            lobby = layout_map(app)
            assert lobby["screen"] == "LobbyScreen" and lobby["size"] == list(size)
            await pilot.click(offset=_middle(lobby["keys"]["c"]))
            await _until(pilot, "the form", lambda: layout_map(app)["buttons"].get("create", [0, 0, 0])[2] > 0)
            form = layout_map(app)
            x, y, w, h = form["buttons"]["create"]
            assert x + w <= size[0] and y + h <= size[1], form  # the Create button is on the screen
            await pilot.click(offset=_middle(form["buttons"]["create"]))
            await _until(pilot, "my turn", lambda: layout_map(app)["asking"])
            board = layout_map(app)
            hand = board["cards"]["hand"]
            assert len(hand) == 3 and board["cards_shown"]["hand"]
            for x, y, w, h in hand:  # the whole hand is on the screen, no two cards overlap
                assert 0 <= x and x + w <= size[0] and 0 <= y and y + h <= size[1], board
            assert len({(x, y) for x, y, _, _ in hand}) == 3
            before = list(board["cards_shown"]["hand"])
            await pilot.click(offset=_middle(hand[1]))  # one tap: the second card is selected
            await _until(pilot, "the selection", lambda: layout_map(app).get("selected") == 1)
            await pilot.click(offset=_middle(layout_map(app)["cards"]["hand"][1]))  # again: played
            await _until(pilot, "the card played", lambda: layout_map(app)["screen"] == "CaptureChoiceScreen"
                         or layout_map(app)["cards_shown"].get("hand") != before)
            if layout_map(app)["screen"] == "CaptureChoiceScreen":
                x, y, w, _h, _count = layout_map(app)["lists"]["choices"]
                await pilot.click(offset=(x + 1, y))
            await _until(pilot, "the card gone", lambda: before[1] not in layout_map(app)["cards_shown"]["hand"])
            # Help and leaving are answered by tapping their buttons.
            await pilot.press("question_mark")
            await _until(pilot, "the help", lambda: layout_map(app)["buttons"].get("back", [0, 0, 0])[2] > 0)
            await pilot.click(offset=_middle(layout_map(app)["buttons"]["back"]))
            await _until(pilot, "the board again", lambda: layout_map(app)["screen"] == "BoardScreen")
            await pilot.press("q")
            await _until(pilot, "the question", lambda: layout_map(app)["buttons"].get("no", [0, 0, 0])[2] > 0)
            question = layout_map(app)
            assert question["screen"] == "ConfirmScreen" and _middle(question["buttons"]["yes"])[0] < size[0]
            await pilot.click(offset=_middle(question["buttons"]["no"]))
            await _until(pilot, "still at the table", lambda: layout_map(app)["screen"] == "BoardScreen")
            assert store.load(f"127.0.0.1:{server.port}", "ana") is not None  # the seat is still saved
    finally:
        await server.stop()
