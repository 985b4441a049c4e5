"""The game's top line keeps what matters as the window narrows, in Italian: a scopone
just dealt says what the game is played to ("a 21") at 80 and 60 columns, and an invite
creator's longer header keeps the table's number ("tavolo 12") at 80: the full rules
line and then the stock give way first.  Every seat of a table reads the same parts, and a
watched scopone's line fits one row at 80 and 60 columns."""

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


@pytest.mark.parametrize("viewer", [0, 1])  # the creator, and the guest
def test_an_invite_creators_header_keeps_the_table_number(monkeypatch: pytest.MonkeyPatch, viewer: int) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    board = BoardState(rules=RuleSet.build("scopa"),
                       names=("ada", "bartolomeo"), viewer=viewer, totals=(10, 10), round_no=12, stock_left=26,
                       spectators=2)
    line = top_line(board, tr("table {table}", table="12"), 78).plain
    assert "tavolo 12" in line and "2 spettatori" in line and len(line) <= 78, line


@pytest.mark.parametrize("width", [78, 58])  # the board's line at 80 and 60 columns
def test_a_watched_scopones_header_fits_one_line(monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    for names in [("adalgisa", "bartolomeo", "carlotta", "domenico"), ("ada", "greedy-bot-1", "bea", "greedy-bot-2")]:
        board = BoardState(rules=RuleSet.build("scopone"), names=names, viewer=None, totals=(10, 10), round_no=12,
                           stock_left=0, spectators=3)
        line = top_line(board, tr("watching table {table} (b: back)", table="12"), width).plain
        assert len(line) <= width and "smazzata 12" in line and "3 spettatori" in line, line


@pytest.mark.parametrize("width", [78, 58])
def test_every_seat_of_a_table_is_told_the_same_parts(monkeypatch: pytest.MonkeyPatch, width: int) -> None:
    """The table's creator and a guest (each named "Tu" on their own board) read the same
    parts after the scores: what gives way is weighed with the names the table knows."""
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    parts = set()
    for viewer in (0, 1):
        board = BoardState(rules=RuleSet.build("scopa"), names=("massimiliano", "bea"), viewer=viewer,
                           totals=(3, 4), round_no=2, stock_left=20, spectators=1)
        line = top_line(board, tr("table {table}", table="7"), width).plain
        assert len(line) <= width, line
        parts.add(line.split("smazzata 2", 1)[1])
    assert len(parts) == 1, parts
