"""The end-of-game box of a server game (scopone, three bots) at 60×20 in Italian: the
points by category take the rows that are left (scrolling in fewer), and every line under
them, the way back to the lobby ("Invio per tornare alla sala") last, stays in sight."""

from __future__ import annotations

import pytest
from textual.app import App

from scopa.client.text import i18n
from scopa.client.text.board.state import BoardState
from scopa.client.text import tr
from scopa.client.tui.dialogs import GameOverScreen
from scopa.client.tui.text import result_line
from scopa.engine import RuleSet
from scopa.engine.scoring import Category

from test_tui_lobby_fits import screen_rows

pytestmark = pytest.mark.unit


def scopone_board() -> BoardState:
    points = {Category.CARTE: 5, Category.DENARI: 4, Category.SETTEBELLO: 3, Category.PRIMIERA: 4, Category.SCOPE: 6}
    return BoardState(rules=RuleSet.build("scopone"), names=("ada", "Bot 1", "Bot 2", "Bot 3"), viewer=0, over=True,
                      totals=(22, 14), game_points=[points, {Category.CARTE: 3, Category.DENARI: 3,
                                                             Category.PRIMIERA: 2, Category.SCOPE: 6}])


@pytest.mark.parametrize("size", [(60, 20), (60, 17), (80, 24)])
async def test_the_server_game_box_keeps_its_way_back_in_sight(monkeypatch: pytest.MonkeyPatch,
                                                               size: tuple[int, int]) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")

    board = scopone_board()

    class Box(App[None]):
        def on_mount(self) -> None:
            self.push_screen(GameOverScreen(result_line(board), tr("Enter to go back to the lobby"), replay=True,
                                            board=board, again=tr("play again against the same bots")))

    app = Box()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        shown = "\n".join(screen_rows(app))
        for line in (result_line(board), "r rivedi la partita", "n gioca ancora contro gli stessi bot",
                     "Invio per tornare alla sala"):
            assert line in shown, shown
