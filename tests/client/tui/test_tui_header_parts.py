"""The game's top line keeps what matters as the window narrows, in Italian: a scopone
just dealt says what the game is played to ("a 21") at 80 and 60 columns, and an invite
creator's longer header keeps the table's number ("tavolo 12") at 80: the full rules
line and then the stock give way first."""

from __future__ import annotations

import pytest

from scopa.client.text import i18n, tr
from scopa.client.text.board.state import BoardState
from scopa.client.tui.boardtext import top_line
from scopa.engine import RuleSet

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("width", [78, 58])  # the board's line at 80 and 60 columns
def test_a_scopone_header_says_the_target(monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    board = BoardState(rules=RuleSet.build("scopone"), names=("ada", "Bot 1", "Bot 2", "Bot 3"), viewer=0,
                       totals=(0, 0), round_no=1, stock_left=0)
    line = top_line(board, tr("table {table}", table="3"), width).plain
    assert "a 21" in line and "smazzata 1" in line and len(line) <= width, line


def test_an_invite_creators_header_keeps_the_table_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    board = BoardState(rules=RuleSet.build("scopa"),
                       names=("adalgisa", "bartolomeo"), viewer=0, totals=(10, 10), round_no=12, stock_left=26,
                       spectators=2)
    line = top_line(board, tr("table {table}", table="12"), 78).plain
    assert "tavolo 12" in line and "2 spettatori" in line and len(line) <= 78, line
