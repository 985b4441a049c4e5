"""The expert's parts: determinizations consistent with the view (R19 public piles, V13
declared hands), inference from passed-up sweeps (R18), the exact endgame, the work budget."""

from __future__ import annotations

import itertools
import random

from conftest import dealt, m, minimax, position

from scopa.bots import ExpertBot
from scopa.bots.determinize import Sampler
from scopa.bots.knowledge import PASSED_SCOPA, inference_weights, knowledge
from scopa.bots.search import plies_within
from scopa.engine import GameState, Phase, Play, RuleSet, view
from scopa.engine.cards import cards_in


def _midgame(rules: RuleSet, seed: int, plays: int) -> GameState:
    rng = random.Random(seed)
    s = dealt(rules, rng)
    for _ in range(plays):
        s.push(rng.choice(s.legal_plays()))
    return s


def test_samples_agree_with_everything_public() -> None:
    for preset, plays in (("scopa", 7), ("scopone", 5), ("cirulla", 3)):
        rules = RuleSet.build(preset)
        s = _midgame(rules, seed=4, plays=plays)
        seat = s.to_move
        v = view(s, seat)
        sampler = Sampler(v, knowledge(v), random.Random(1))
        hidden = sum(s.hands[i] for i in range(s.n) if i != seat) + sum(1 << c for c in s.stock)
        for _ in range(20):
            d = sampler.sample()
            assert d.hands[seat] == s.hands[seat]
            assert d.table == s.table and d.piles == s.piles and d.scope == s.scope
            assert [h.bit_count() for h in d.hands] == [h.bit_count() for h in s.hands]
            assert len(d.stock) == len(s.stock)
            others = sum(d.hands[i] for i in range(d.n) if i != seat) + sum(1 << c for c in d.stock)
            assert others == hidden  # exactly the cards this seat has not seen


def test_declared_hands_stay_with_their_seat() -> None:
    """V13: a declared hand is public, so every sample deals it to its owner."""
    rules = RuleSet.build("cirulla")
    s = position(rules, ["Ad 2d 3d", "4c 5c 6c"], table="Rc Rs", stock="", dealer=1, to_move=0)
    s.declared_hands = {1: m("4c 5c 6c")}
    v = view(s, 0)
    sampler = Sampler(v, knowledge(v), random.Random(0))
    for _ in range(5):
        assert sampler.sample().hands[1] == m("4c 5c 6c")


def test_a_passed_up_scopa_makes_those_cards_unlikely() -> None:
    """R18: seat 1 laid a 2 on a table of a lone 5 it could have swept with a 5."""
    rules = RuleSet.build("scopa")
    s = position(rules, ["Ac Rs Cs", "2b 4b 6b"], table="5d", stock="", dealer=1, to_move=1, plays=1)
    s.push(Play(int(cards_in(m("2b"))[0]), 0))  # seat 1 lays the 2; the table is 5d 2b
    v = view(s, 0)
    know = knowledge(v)
    w = inference_weights(v, know.unseen)[1]
    for card in cards_in(m("5c 5s 5b") & know.unseen):
        assert w[card] == PASSED_SCOPA
    assert w[cards_in(m("4b"))[0]] == 1.0


def test_with_the_stock_empty_two_players_are_solved_exactly() -> None:
    """Every unseen card is in the other hand: the expert (searching by minimax, without
    the reply model) plays a minimax-best move."""
    rules = RuleSet.build("scopa")
    checked = 0
    for seed in range(40):
        s = _midgame(rules, seed, plays=30)
        if s.phase is not Phase.PLAY or len(s.legal_plays()) < 2:
            continue
        side = s.side[s.to_move]
        bot = ExpertBot(seed=seed, budget=1, replies=False)
        move = bot.pick(view(s, s.to_move), s.legal_plays())
        assert bot.last_samples == 1  # one deal is possible, searched once
        values = {}
        for play in s.legal_plays():
            c = s.copy()
            c.push(play)
            values[play] = minimax(c, side)
        assert values[move] == max(values.values())
        checked += 1
    assert checked >= 10


def test_the_budget_counts_work_and_the_clock_can_stop_early() -> None:
    rules = RuleSet.build("scopa")
    s = _midgame(rules, 2, plays=2)
    legal = s.legal_plays()
    small = ExpertBot(seed=1, budget=50)
    small.pick(view(s, s.to_move), legal)
    big = ExpertBot(seed=1, budget=2000)
    big.pick(view(s, s.to_move), legal)
    assert small.last_nodes >= 50 and big.last_nodes >= 2000
    assert big.last_samples > small.last_samples
    ticks = itertools.count()
    capped = ExpertBot(seed=1, budget=10**9, time_limit=3.0, clock=lambda: float(next(ticks)))
    capped.pick(view(s, s.to_move), legal)
    assert capped.last_samples == 3  # the injected clock advanced one second per sample


def test_search_depth_grows_as_hands_shrink() -> None:
    rules = RuleSet.build("scopa")
    s = position(rules, ["Ac 2c 3c", "4c 5c 6c"], table="Rd", stock="")
    assert plies_within(s, 10**6) == 6  # to the round's end
    assert plies_within(s, 5) < 6


def test_the_plain_estimate_agrees_with_the_general_one() -> None:
    """R21 scoring: the fast two-player estimate and the one built on score_round agree."""
    from scopa.bots.evaluate import _estimate_plain, estimate, estimate_general

    rules = RuleSet.build("scopa")
    for seed in range(30):
        s = _midgame(rules, seed, plays=seed % 34)
        for side in (0, 1):
            assert estimate(s, side) == _estimate_plain(s.piles, s.scope, side)
            assert abs(estimate(s, side) - estimate_general(s, side)) < 1e-9


def test_a_partners_card_laid_without_taking_says_it_holds_the_twin() -> None:
    """Scopone (teams, R5): seat 0 lays the 4 of Coppe on a table nothing of it can take;
    for seat 2, its partner, the other 4s become likelier in seat 0's hand; an opponent's
    laid card says nothing of the kind."""
    from scopa.bots.knowledge import PASSED_CAPTURE, PARTNER_TWIN

    rules = RuleSet.build("scopone")
    s = position(rules, ["4c 6c", "Fs 2s", "4b Rb", "5c 6s"], table="Cd", stock="", dealer=3, to_move=0, plays=0)
    s.push(Play(int(cards_in(m("4c"))[0]), 0))
    s.push(Play(int(cards_in(m("Fs"))[0]), 0))
    v = view(s, 2)
    w = inference_weights(v, knowledge(v).unseen)
    for card in cards_in(m("4s 4d")):
        assert w[0][card] == PARTNER_TWIN
        assert w[1][card] == PASSED_CAPTURE  # seat 1 laid the 8 while a 4 could take the 4
        assert w[3][card] == 1.0
    assert w[0][cards_in(m("Fc"))[0]] == 1.0  # the opponent's 8 made no twin likelier


def test_a_four_player_decision_spends_a_share_of_the_budget_and_fewer_draws() -> None:
    """With four players each sample is one of 4 draws from the prior (16 with two), and a
    decision spends two thirds of the budget in work."""
    from scopa.bots import determinize

    counts: dict[str, int] = {}
    for preset, plays, share, draws in (("scopa", 2, 1.0, 16), ("scopone", 6, 2 / 3, 4)):
        rules = RuleSet.build(preset)
        s = _midgame(rules, seed=3, plays=plays)
        v = view(s, s.to_move)
        sampler = Sampler(v, knowledge(v), random.Random(1))
        assert sampler.model is not None and not sampler.exact
        calls = 0
        draw = sampler._draw

        def counted() -> tuple[list[int], list[int]]:
            nonlocal calls
            calls += 1
            return draw()

        sampler._draw = counted  # type: ignore[method-assign]
        sampler.sample()
        assert calls == draws == determinize.candidates(rules.players)
        bot = ExpertBot(seed=1, budget=3000)
        bot.pick(v, s.legal_plays())
        assert 3000 * share <= bot.last_nodes < 3000 * share + 500  # one sample's search past it
        counts[preset] = bot.last_nodes
    assert counts["scopone"] < counts["scopa"]
