"""Back at a seat (a restart or a reconnect that gets a snapshot): the round's list of
plays keeps how each play came about as the snapshot marks it (a scopa, the server's play
when time ran out, a bot's play for the person), and nothing of a round the board did not
follow stays on it."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from scopa.client.text import DeckStyle, apply_public, i18n, parse_cards
from scopa.client.text.board.state import BoardState
from scopa.client.tui.boardtext import PLAYS_WIDTH, plays_text
from scopa.engine import GameStarted, Played, RoundStarted, RuleSet
from scopa.protocol import Snapshot
from scopa.protocol.commands import ForcedBy, PileInfo, PlayLogEntry, SeatInfo, SeatView, TableInfo, TableState
from scopa.protocol.convert import rules_to_wire

pytestmark = pytest.mark.unit

EMPTY = PileInfo(cards=0, denari=0, settebello=False, primiera=0, scope=0)


def snapshot(round_no: int, plays: list[PlayLogEntry], captured: list[list[str]]) -> Snapshot:
    """Seat 0's snapshot (ada, back at her seat) of a game against bruno."""
    rules = rules_to_wire(RuleSet())
    info = TableInfo(id="7", rules=rules, description="", seats=["ada", "bruno"], state=TableState.PLAYING)
    you = SeatView(seat=0, side=0, round=round_no, dealer=1, turn=0, hand=["Rs", "5c"], table=["Fd"], stock=26,
                   hand_sizes=[2, 2], captured=captured, scope=[1, 0], scopa_cards=[[], []], totals=[0, 0],
                   round_plays=plays, last_capture_side=0, piles=[EMPTY, EMPTY])
    return Snapshot(event=30, table=info, seats=[SeatInfo(seat=0, name="ada", side=0), SeatInfo(seat=1, name="bruno",
                                                                                                   side=1)],
                    sides=[[0], [1]], you=you)


def shown(board: BoardState) -> list[str]:
    out = Console(width=PLAYS_WIDTH, file=io.StringIO(), color_system=None)
    out.print(plays_text(board, DeckStyle.ITALIAN))
    return [line.strip() for line in out.file.getvalue().splitlines()]  # type: ignore[attr-defined]


def test_the_snapshots_marks_are_in_the_list_of_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    board = BoardState(viewer=0)
    plays = [PlayLogEntry(seat=1, card="2c", captured=[], forced=ForcedBy.TIMEOUT),
             PlayLogEntry(seat=0, card="7d", captured=["5s", "2c"], scopa=True, bot=True),  # R16: the bot's scopa
             PlayLogEntry(seat=1, card="Fd", captured=[]),
             PlayLogEntry(seat=0, card="3b", captured=[])]  # ada's own, back at her seat
    apply_public(board, snapshot(1, plays, [["7d", "5s", "2c"], []]))
    assert shown(board) == ["Questa smazzata", "bruno: 2 Cop", "⏱ tempo scaduto", "Tu (bot): 7 Den ×5 Spa",
                            "2 Cop scopa!", "bruno: F Den", "Tu: 3 Bas"]


def test_a_snapshot_of_a_later_round_leaves_nothing_of_the_last_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The connection dropped in round 1 and came back in round 2 before anyone played:
    the list is empty, and round 1's piles and scope are gone."""
    monkeypatch.setattr(i18n, "LANGUAGE", "en")
    board = BoardState(viewer=0)
    board.apply(GameStarted(RuleSet(), ("ada", "bruno"), 1))
    board.apply(RoundStarted(1, 1, tuple(parse_cards("3d 5c 6b 7s")), 0, ()))  # type: ignore[call-arg]
    card, taken = parse_cards("3b")[0], tuple(parse_cards("3d"))
    board.apply(Played(1, card, taken, False, tuple(parse_cards("5c 6b 7s"))))  # type: ignore[call-arg]
    apply_public(board, snapshot(2, [], [[], []]))
    assert board.round_no == 2 and board.plays == [] and board.captured == [0, 0]
    assert shown(board) == ["This round", "no plays yet"]
