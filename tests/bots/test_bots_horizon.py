"""The expert's learnt evaluation at the horizon (shipped weights, the same value for
either side with the sign changed, training reproducible from its seed), and ismcts."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import dealt, m, position

from scopa.bots import IsmctsBot
from scopa.bots.evaluate import estimate
from scopa.bots.horizon import FEATURES, STAGES, evaluator_for, features, has_weights, shipped_weights
from scopa.engine import Card, GameState, Phase, Play, RuleSet, view

from paths import ROOT


def _states(rules: RuleSet, count: int, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = dealt(rules, rng, rng.randrange(rules.players))
        for _ in range(rng.randrange(30)):
            if s.phase is not Phase.PLAY:
                break
            s.push(rng.choice(s.legal_plays()))
        if s.phase is Phase.PLAY:
            out.append(s)
    return out


def test_the_shipped_weights_cover_scopa_and_scopone() -> None:
    weights = shipped_weights()
    for players in ("2", "4"):
        assert len(weights[players]) == STAGES
        assert all(len(w) == len(FEATURES) for w in weights[players])
    assert has_weights(RuleSet.build("scopa")) and has_weights(RuleSet.build("scopone"))
    assert not has_weights(RuleSet.build("cirulla"))  # other scoring: the estimate stays
    assert evaluator_for(RuleSet.build("cirulla")) is estimate


@pytest.mark.parametrize("preset", ["scopa", "scopone"])
def test_the_value_for_one_side_is_minus_the_value_for_the_other(preset: str) -> None:
    rules = RuleSet.build(preset)
    value = evaluator_for(rules)
    for s in _states(rules, 25, seed=3):
        assert value(s, 0) == pytest.approx(-value(s, 1))
        assert features(s, 0) == [-x for x in features(s, 1)]


def test_a_sweep_on_offer_counts_for_the_side_to_move_R18() -> None:
    rules = RuleSet.build("scopa")
    value = evaluator_for(rules)
    can = position(rules, ["7c Rb", "Ab 2b"], table="4b 3s", stock="Fc Fs", to_move=0)
    cannot = position(rules, ["6c Rb", "Ab 2b"], table="4b 3s", stock="Fc Fs", to_move=0)
    assert value(can, 0) > value(cannot, 0)


def _train(tmp: Path, seed: int, name: str) -> dict[str, object]:
    out = tmp / name
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "train_horizon.py"), "--rounds", "15",
                    "--players", "2", "--seed", str(seed), "--out", str(out)],
                   check=True, capture_output=True, timeout=120)
    return json.loads(out.read_text())


def test_training_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    first = _train(tmp_path, 7, "a.json")
    assert first == _train(tmp_path, 7, "b.json")
    assert first["weights"] != _train(tmp_path, 8, "c.json")["weights"]
    assert first["features"] == list(FEATURES)


def test_ismcts_takes_the_sweep_and_repeats_itself_from_a_seed_R18() -> None:
    rules = RuleSet.build("scopa")
    s = position(rules, ["7c Rb Fs", "Ab 2b 3c"], table="4b 3s", stock="Cc Cs 6b 6c Ad 2d", to_move=0)
    sweep = Play(int(Card.parse("7c")), m("4b 3s"))
    moves = {IsmctsBot(seed=1, iterations=150).pick(view(s, 0), s.legal_plays()) for _ in range(2)}
    assert moves == {sweep}
    t = _states(rules, 1, seed=11)[0]
    a = IsmctsBot(seed=4, iterations=60).pick(view(t, t.to_move), t.legal_plays())
    b = IsmctsBot(seed=4, iterations=60).pick(view(t, t.to_move), t.legal_plays())
    assert a == b
