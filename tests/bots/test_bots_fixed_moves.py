"""The expert's moves on a fixed set of positions, as recorded before its search and its
horizon evaluation were made faster: a change meant only to speed it up must leave every
move, the work done and the samples drawn as they were (a change of play must update the
table, and say so).  Recorded again when the hidden hands came to be drawn by the play
model and the other side's moves to be expected from the reply model (both in
``scopa.bots.opponent``): 31 of the 40 moves stayed as they were; and again (the work
and samples of the scopone positions, not a move) when the partner's convention came to
weigh the candidate draws instead of shaping them; and again (the work and samples of the
scopone positions, not a move) when a four-player decision came to draw 4 candidates a
sample and to spend two thirds of the budget; and again when, with two players, the
search came to lean on the reply model only as far as it has predicted the other side's
plays (the work and samples of 28 of the 30 scopa positions, and one move)."""

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
    ('scopa', 0, (2, 1), 5266, 22),
    ('scopa', 1, (21, 8320), 5010, 53),
    ('scopa', 2, (4, 32), 5086, 40),
    ('scopa', 3, (16, 0), 5061, 65),
    ('scopa', 4, (12, 0), 159, 1),
    ('scopa', 5, (8, 0), 5011, 38),
    ('scopa', 6, (25, 134217728), 5002, 29),
    ('scopa', 7, (25, 8448), 5018, 32),
    ('scopa', 8, (37, 2147483664), 5176, 29),
    ('scopa', 9, (0, 4), 46, 1),
    ('scopa', 10, (0, 4), 5107, 33),
    ('scopa', 11, (29, 1073741824), 5019, 55),
    ('scopa', 12, (0, 0), 5046, 69),
    ('scopa', 13, (3, 1), 5026, 64),
    ('scopa', 14, (19, 0), 5058, 49),
    ('scopa', 15, (9, 2048), 5057, 55),
    ('scopa', 16, (19, 131072), 5158, 31),
    ('scopa', 17, (29, 33281), 5096, 27),
    ('scopa', 18, (36, 274877906944), 151, 1),
    ('scopa', 19, (23, 4194304), 5013, 33),
    ('scopa', 20, (5, 64), 5032, 34),
    ('scopa', 21, (8, 0), 5016, 57),
    ('scopa', 22, (1, 0), 5095, 35),
    ('scopa', 23, (9, 1024), 5064, 52),
    ('scopa', 24, (5, 0), 5012, 64),
    ('scopa', 25, (38, 33555456), 5070, 60),
    ('scopa', 26, (36, 274877906944), 5244, 19),
    ('scopa', 27, (14, 0), 185, 1),
    ('scopa', 28, (27, 131200), 5137, 34),
    ('scopa', 29, (23, 0), 5032, 34),
    ('scopone', 0, (33, 134217792), 3386, 33),
    ('scopone', 1, (23, 131074), 3365, 51),
    ('scopone', 2, (23, 1048576), 3351, 62),
    ('scopone', 3, (27, 1048578), 3345, 129),
    ('scopone', 4, (31, 0), 3396, 40),
    ('scopone', 6, (9, 256), 3339, 63),
    ('scopone', 7, (28, 134217730), 3363, 70),
    ('scopone', 8, (26, 134217728), 3342, 166),
    ('scopone', 9, (1, 0), 3362, 10),
    ('scopone', 11, (18, 131072), 3375, 57),
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
