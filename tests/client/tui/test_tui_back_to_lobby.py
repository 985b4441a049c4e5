"""`scopa play` in the Textual app: `q` then `y` in a network game leaves the game and
goes back to the lobby (the app goes on: another table, another game); the header keeps
a seat's name apart from its score ("Greedy 2: 13", never "Greedy 2  13")."""

from __future__ import annotations

import asyncio

import pytest
from rich.text import Text

from scopa.client.text.board.state import BoardState
from scopa.client.tui.boardtext import top_line
from scopa.client.tui.dialogs import ConfirmScreen
from scopa.client.tui.online import LobbyScreen
from scopa.engine import RuleSet
from scopa.server import NetworkEngine

from test_tui_network import SAFETY, app_for, engine, sit_at_a_new_table, until  # noqa: F401 - engine: a fixture

pytestmark = pytest.mark.integration


async def test_q_then_y_leaves_the_game_for_the_lobby(engine: NetworkEngine) -> None:  # noqa: F811
    async with asyncio.timeout(SAFETY):
        app = app_for(engine)
        async with app.run_test(size=(80, 24)) as pilot:
            await sit_at_a_new_table(app, pilot)
            table = app.session.table_id  # type: ignore[union-attr]
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and not app.playing)
            assert app.is_running and app.return_value is None
            assert app.session is not None and app.session.table_id is None
            assert f"You left the game at table {table}: it ended there, with no winner." in app.messages
            assert engine.tables[table].state.value == "finished"  # type: ignore[index]
            await sit_at_a_new_table(app, pilot)  # and plays on at another table
            assert app.session.table_id not in (None, table)


def test_the_header_keeps_a_name_that_ends_in_a_digit_apart_from_its_score() -> None:
    board = BoardState(rules=RuleSet(), names=("ada", "Greedy 2"), viewer=0, totals=(7, 13))
    line = top_line(board, "table 1").plain
    assert "Greedy 2: " in line and "Greedy 2  13" not in line
    assert isinstance(top_line(board, "t"), Text)
