"""GameMaster journal and restore: a journaled game resumes to the same end (R7)."""

from __future__ import annotations

import pytest

from scopa.bots import GreedyBot, RandomBot
from scopa.engine import Deal, GameMaster, Player, RuleSet, View


class Scripted(Player):
    def __init__(self, moves: list) -> None:
        self.moves = moves

    async def choose(self, view: View, legal):  # type: ignore[override]
        return self.moves.pop(0)


@pytest.mark.parametrize("cut", [1, 7, 40, 95])
async def test_restore_from_journal_reaches_the_same_end(cut: int) -> None:
    rules = RuleSet.build()
    journal: list = []
    master = GameMaster(rules, [GreedyBot(), RandomBot(seed=4)], seed=77, journal=journal.append)
    record = await master.run()
    assert journal == list(record.actions)  # every applied action was journaled, in order
    cut = min(cut, len(journal) - 1)
    # Who made each remaining play, so scripted players can repeat them.
    seats: list[list] = [[], []]
    probe = GameMaster(rules, [GreedyBot(), GreedyBot()], seed=77)
    for i, action in enumerate(journal):
        if not isinstance(action, Deal) and i >= cut:
            seats[probe.state.to_move].append(action)
        probe.state.apply(action)
    again = GameMaster(rules, [Scripted(seats[0]), Scripted(seats[1])], seed=77)
    again.restore(journal[:cut])
    rest = await again.run()
    assert rest.totals == record.totals and rest.winner == record.winner
    assert list(rest.actions) == list(record.actions)


def test_restore_refuses_a_journal_of_another_seed() -> None:
    rules = RuleSet.build()
    other = GameMaster(rules, [GreedyBot(), GreedyBot()], seed=1)
    order = list(range(40))
    other._rng.shuffle(order)
    master = GameMaster(rules, [GreedyBot(), GreedyBot()], seed=2)
    with pytest.raises(ValueError, match="seed"):
        master.restore([Deal(tuple(order))])
    assert not master.actions and master.state.round_no == 0
