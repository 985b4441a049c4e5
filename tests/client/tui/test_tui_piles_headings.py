"""The piles table (the cards each side took, their denari, primiera, scope, the
settebello) in Italian at 80×24 and 60×20: each heading stands over its own numbers,
right-aligned with them, and none over the sides' names."""

from __future__ import annotations

import re

import pytest

from scopa.client.text import i18n
from scopa.client.tui.app import LocalGameApp
from scopa.engine import RuleSet

from test_tui_local import play_turns_in
from test_tui_small_window import screen_rows

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
async def test_each_pile_heading_stands_over_its_numbers(size: tuple[int, int],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=size) as pilot:
        await play_turns_in(app, pilot, 8)
        await pilot.pause()
        rows = [row.split("│")[0] for row in screen_rows(app)]
        at = next(i for i, row in enumerate(rows) if re.search(r"\bden\b.*\bprim\b.*\bscope\b", row))
        header = rows[at]
        board = app.board_screen.board
        for side in range(board.num_sides):
            row = rows[at + 1 + side]
            name = board.side_name(side, short=True)
            assert row.split()[0] == name.split()[0], (header, row)
            assert not header[:row.index(name) + len(name)].strip(), (header, row)  # no heading over the names
            pile = board.pile(side)
            numbers = [str(pile.cards), str(pile.denari), str(pile.primiera or "-"), str(pile.scope)]
            ends = [m.end() for m in re.finditer(r"\S+", row[row.index(name) + len(name):])]
            heads = [m.end() for m in re.finditer(r"\S+", header[row.index(name) + len(name):])]
            assert row[row.index(name) + len(name):].split()[:4] == numbers, (header, row)
            assert ends[:4] == heads[:4], (header, row)  # each number right under the end of its heading
