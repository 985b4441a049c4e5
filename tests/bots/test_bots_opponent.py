"""How players choose: reading hands from plays (a hand that held a better play than the
one made, R18 a sweep, R21 the settebello, weighs less, and the expert's draws follow
those weights), and the replies the search expects."""

from __future__ import annotations

import random

import pytest
from conftest import dealt, m, position

from scopa.bots.determinize import Sampler
from scopa.bots.horizon import evaluator_for
from scopa.bots.knowledge import knowledge
from scopa.bots.opponent import ReplyModel, play_model
from scopa.bots.search import UNLIKELY, Search, ordered
from scopa.engine import GameState, Phase, Play, RuleSet, view
from scopa.engine.cards import cards_in

pytestmark = pytest.mark.unit


def _laid_two_on_a_five(stock: str) -> GameState:
    """Seat 1 lays a 2 on a table of a lone 5, which it could have swept with a 5 (R18)."""
    rules = RuleSet.build("scopa")
    s = position(rules, ["Ac Rs Cs", "2b 4b 6b"], table="5d", stock=stock, dealer=1, to_move=1, plays=1)
    s.push(Play(int(cards_in(m("2b"))[0]), 0))
    return s


def test_a_hand_that_could_have_swept_weighs_less() -> None:
    s = _laid_two_on_a_five(stock="7c 7s 5c 5s 3c 3s")
    model = play_model(view(s, 0))
    with_five = model.weight(1, m("5c 4b"))
    without = model.weight(1, m("3c 4b"))
    assert with_five < without / 20
    # a hand's weight depends on its cards, not on who else is asked
    assert model.weight(1, m("3c 4b")) == model.weight(1, m("4b 3c"))


def test_a_hand_that_could_only_lay_is_as_likely_as_another() -> None:
    """Two hands whose cards could capture nothing on the table then weigh the same."""
    s = _laid_two_on_a_five(stock="7c 7s 5c 5s 3c 3s")
    model = play_model(view(s, 0))
    assert model.weight(1, m("2c 4b")) == pytest.approx(model.weight(1, m("2s 4b")))


def test_the_draws_follow_the_play_model() -> None:
    s = _laid_two_on_a_five(stock="7c 7s 5c 5s 3c 3s Ad Ab 2c 2s 4c 4s")
    v = view(s, 0)
    fives = m("5c 5s 5b")
    counts: dict[bool, int] = {}
    for model in (True, False):
        sampler = Sampler(v, knowledge(v), random.Random(3), infer=True, model=model)
        counts[model] = sum(bool(sampler.sample().hands[1] & fives) for _ in range(300))
    assert counts[True] < counts[False] / 3


def test_the_first_play_of_a_deal_tells_nothing() -> None:
    rules = RuleSet.build("scopa")
    s = position(rules, ["Ac Rs Cs", "2b 4b 6b"], table="5d", stock="7c", dealer=1, to_move=0, plays=0)
    assert play_model(view(s, 0)).choices == {}


def test_the_reply_model_prefers_what_takes_most() -> None:
    """R18 a sweep, R21 the settebello: the likeliest replies; laying a card the least."""
    rules = RuleSet.build("scopa")
    model = ReplyModel(rules)
    s = position(rules, ["7d 5c 2b", "Ac 3c 4c"], table="5d 7c", stock="6c 6s", to_move=0)
    plays = s.legal_plays()
    odds = dict(zip(plays, model.odds(s.table, plays)))
    by_card = {p[0]: o for p, o in odds.items()}
    sette, five, two = (cards_in(m(c))[0] for c in ("7d", "5c", "2b"))
    assert by_card[sette] == 1.0  # the likeliest: the settebello takes the 7
    assert by_card[five] < 1.0 and by_card[two] < by_card[five]


def test_the_search_expects_the_other_sides_reply() -> None:
    """Another side's move is the model's weighted mean of its replies' values; without
    the model it is the minimum (minimax)."""
    rules = RuleSet.build("scopa")
    rng = random.Random(5)
    checked = 0
    for _ in range(30):
        s = dealt(rules, rng)
        for _ in range(rng.randrange(1, 20)):
            s.push(rng.choice(s.legal_plays()))
        plays = ordered(s)
        if s.phase is not Phase.PLAY or len(plays) < 2:
            continue
        other = 1 - s.side[s.to_move]
        for model in (ReplyModel(rules), None):
            search = Search(other, 0.0, evaluator_for(rules), model)
            values = [search.value(s, p, 1, -1e9, 1e9) for p in plays]
            got = search._node(s, 1, -1e9, 1e9)
            if model is None:
                assert got == min(values)
                continue
            odds = model.odds(s.table, plays)
            kept = [(w, v) for w, v in zip(odds, values) if w >= UNLIKELY]
            assert got == pytest.approx(sum(w * v for w, v in kept) / sum(w for w, _ in kept))
        checked += 1
    assert checked >= 20


def _round_against(pick_for_seat_1: str, seed: int) -> float:
    """The evidence seat 0 holds at the last play of a scopa round in which seat 1 took,
    each turn, the play the reply model rates best (``best``) or worst (``worst``)."""
    from scopa.bots.opponent import reply_evidence

    rules = RuleSet.build("scopa")
    model = ReplyModel(rules)
    rng = random.Random(seed)
    s = dealt(rules, rng)
    evidence = 0.0
    while s.phase is Phase.PLAY:
        plays = s.legal_plays()
        if s.to_move == 0:
            evidence = reply_evidence(view(s, 0))
            play = rng.choice(plays)
        else:
            gains = [model.gain(s.table, c, o) for c, o in plays]
            pick = max if pick_for_seat_1 == "best" else min
            play = plays[gains.index(pick(gains))]
        s.push(play)
    return evidence


def test_the_evidence_tells_a_player_the_model_predicts_from_one_it_does_not() -> None:
    """A player that always makes the model's likeliest play surprises it less than the
    model expected (evidence above 0); one that makes its unlikeliest play, more."""
    for seed in range(5):
        assert _round_against("best", seed) > 0.5
        assert _round_against("worst", seed) < -0.5


def test_with_no_trust_in_the_reply_model_the_search_is_minimax() -> None:
    """Trust 0: another side's value is the minimum over its plays, as without the model."""
    from scopa.bots.expert import make_search

    rules = RuleSet.build("scopa")
    differs = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = dealt(rules, rng)
        for _ in range(seed * 5):
            s.push(rng.choice(s.legal_plays()))
        side = s.side[s.to_move]
        values = [make_search(rules, side, trust=0.0).value(s, p, 4, -1e9, 1e9) for p in s.legal_plays()]
        minimax = make_search(rules, side, replies=False)
        assert values == [minimax.value(s, p, 4, -1e9, 1e9) for p in s.legal_plays()]
        trusting = make_search(rules, side)
        differs += values != [trusting.value(s, p, 4, -1e9, 1e9) for p in s.legal_plays()]
    assert differs  # the trust is what made the difference
