"""The expert's moves on a fixed set of positions, as recorded before its search and its
horizon evaluation were made faster: a change meant only to speed it up must leave every
move, the work done and the samples drawn as they were (a change of play must update the
table, and say so)."""

from __future__ import annotations

import random
from operator import mul
from typing import Iterator

import pytest
from conftest import dealt

from scopa.bots import ExpertBot
from scopa.bots.expert import make_search
from scopa.bots.horizon import features, linear, shipped_weights, stage
from scopa.engine import GameState, Phase, RuleSet, view

pytestmark = pytest.mark.unit

BUDGET = 5000

# preset, position, the move (card, capture), work done, samples drawn
RECORDED = [
    ('scopa', 0, (2, 1), 5109, 35),
    ('scopa', 1, (34, 1073741828), 5010, 67),
    ('scopa', 2, (4, 32), 5042, 69),
    ('scopa', 3, (16, 0), 5049, 98),
    ('scopa', 4, (12, 0), 100, 1),
    ('scopa', 5, (2, 0), 5015, 61),
    ('scopa', 6, (8, 2048), 5016, 38),
    ('scopa', 7, (25, 8448), 5052, 45),
    ('scopa', 8, (37, 2147483664), 5049, 44),
    ('scopa', 9, (0, 4), 40, 1),
    ('scopa', 10, (0, 4), 5023, 47),
    ('scopa', 11, (29, 1073741824), 5004, 69),
    ('scopa', 12, (0, 0), 5044, 91),
    ('scopa', 13, (3, 1), 5021, 94),
    ('scopa', 14, (12, 0), 5045, 67),
    ('scopa', 15, (36, 536870944), 5031, 85),
    ('scopa', 16, (19, 131072), 5026, 43),
    ('scopa', 17, (29, 33281), 5112, 36),
    ('scopa', 18, (14, 2056), 98, 1),
    ('scopa', 19, (23, 4194304), 5033, 45),
    ('scopa', 20, (5, 64), 5011, 47),
    ('scopa', 21, (25, 16777216), 5065, 68),
    ('scopa', 22, (1, 0), 5003, 61),
    ('scopa', 23, (9, 1024), 5069, 66),
    ('scopa', 24, (5, 0), 5017, 86),
    ('scopa', 25, (38, 33555456), 5003, 85),
    ('scopa', 26, (36, 274877906944), 5184, 27),
    ('scopa', 27, (14, 0), 94, 1),
    ('scopa', 28, (27, 131200), 5044, 46),
    ('scopa', 29, (28, 0), 5005, 49),
    ('scopone', 0, (33, 134217792), 5004, 38),
    ('scopone', 1, (23, 131074), 5022, 62),
    ('scopone', 2, (23, 1048576), 5025, 91),
    ('scopone', 3, (27, 1048578), 5002, 186),
    ('scopone', 4, (31, 0), 5022, 68),
    ('scopone', 6, (9, 256), 5063, 61),
    ('scopone', 7, (28, 134217730), 5026, 98),
    ('scopone', 8, (26, 134217728), 5002, 187),
    ('scopone', 9, (1, 0), 5131, 27),
    ('scopone', 11, (18, 131072), 5063, 61),
]


def positions() -> Iterator[tuple[str, int, GameState]]:
    """Mid-round positions from random play, each with at least two legal moves."""
    for preset, count in (("scopa", 30), ("scopone", 12)):
        rules = RuleSet.build(preset)
        total = 36 if preset == "scopa" else 40
        for i in range(count):
            rng = random.Random(1000 + i)
            s = dealt(rules, rng, dealer=i % rules.players)
            for _ in range((i * 7) % (total - 4)):
                s.push(rng.choice(s.legal_plays()))
            while len(s.legal_plays()) == 1:
                s.push(rng.choice(s.legal_plays()))
            if len(s.legal_plays()) >= 2:
                yield preset, i, s


def test_the_expert_plays_the_recorded_moves() -> None:
    got = []
    for preset, i, s in positions():
        bot = ExpertBot(seed=i, budget=BUDGET)
        move = bot.pick(view(s, s.to_move), s.legal_plays())
        got.append((preset, i, tuple(move), bot.last_nodes, bot.last_samples))
    assert got == RECORDED


def test_the_inline_evaluation_equals_the_weighted_features() -> None:
    """The search's evaluation is bit for bit the dot product of the training features."""
    for preset in ("scopa", "scopone"):
        rules = RuleSet.build(preset)
        weights = shipped_weights()[str(rules.players)]
        value = linear(weights)
        for i in range(40):
            rng = random.Random(i)
            s = dealt(rules, rng)
            while s.phase is Phase.PLAY:
                for side in (0, 1):
                    assert value(s, side) == sum(map(mul, weights[stage(s)], features(s, side)))
                s.push(rng.choice(s.legal_plays()))


def test_the_search_leaves_the_state_as_it_was() -> None:
    rules = RuleSet.build("scopa")
    rng = random.Random(3)
    s = dealt(rules, rng)
    for _ in range(9):
        s.push(rng.choice(s.legal_plays()))
    before = s.copy()
    search = make_search(rules, s.side[s.to_move])
    for play in s.legal_plays():
        search.value(s, play, 8, -1e9, 1e9)  # plays within the deal and across the redeal
    assert search.nodes > 100
    for name in GameState.__slots__:
        assert getattr(s, name) == getattr(before, name), name
