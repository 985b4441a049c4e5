"""The game-over box of a network game joined again mid-game (a resume: no GameStarted,
the board set from the seat's view) still counts the categories of the rounds it saw
after it came back; the rounds before are one "not seen here" row, and every column adds
up to the final score."""

from __future__ import annotations

import pytest

from scopa.bots import GreedyBot, RandomBot
from scopa.client.text import game_table
from scopa.client.text.board.state import BoardState
from scopa.engine import Event, GameStarted, LocalGame, RoundStarted, RuleSet
from scopa.engine.player import Player

pytestmark = pytest.mark.unit


class Keeper(Player):
    """A bot that keeps every event it is told."""

    def __init__(self) -> None:
        self.inner, self.name, self.events = GreedyBot(), "ada", list[Event]()

    async def notify(self, event: Event) -> None:
        self.events.append(event)

    async def choose(self, v, legal):  # type: ignore[no-untyped-def]
        return await self.inner.choose(v, legal)


async def test_a_resumed_board_counts_the_categories_of_the_rounds_it_saw() -> None:
    rules = RuleSet()
    me = Keeper()
    await LocalGame(rules, [me, RandomBot(seed=3)], seed=5).run()
    starts = [i for i, e in enumerate(me.events) if isinstance(e, RoundStarted)]
    assert len(starts) >= 3
    board = BoardState(viewer=0)  # back in the second round: set as a snapshot would (rules, totals)
    board.rules, board.names = rules, ("ada", "bea")
    board.totals = next(e for e in me.events[:starts[1]][::-1] if hasattr(e, "totals")).totals
    for event in me.events[starts[1]:]:
        assert not isinstance(event, GameStarted)
        board.apply(event)
    assert board.over
    table = game_table(board)
    assert table is not None
    cells = [[str(c) for c in column.cells] for column in table.columns]
    names = cells[0]
    seen = [sum(int(cells[side][i]) for i, n in enumerate(names) if n not in ("Rounds not seen here", "Final score"))
            for side in (1, 2)]
    assert sum(seen) > 0, names  # the rounds after the resume are counted by category
    unseen = [int(cells[side][names.index("Rounds not seen here")]) for side in (1, 2)]
    assert [a + b for a, b in zip(seen, unseen)] == list(board.totals)
    assert [int(cells[side][-1]) for side in (1, 2)] == list(board.totals)
