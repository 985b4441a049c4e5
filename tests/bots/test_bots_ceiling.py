"""The ceiling: ``cheater`` (the search with every hand in sight) plays in the arena only,
never at a table; the arena reports the share of the ceiling a bot reaches and the
median and 99th-percentile time per move."""

from __future__ import annotations

import asyncio
import json
import random

import pytest


from conftest import dealt, minimax

from scopa.bots import STRATEGIES, make_bot
from scopa.bots.arena import (
    ARENA_ONLY,
    DealOutcome,
    GameOutcome,
    Report,
    ceiling_share,
    format_report,
    play_round,
)
from scopa.bots.cheater import CHEATER, CheaterBot
from scopa.bots.registry import make_player
from scopa.client.seats import parse_seats
from scopa.client.net import ClientSession, ServerRefused
from scopa.engine import Phase, Player, RuleSet
from scopa.protocol import ErrorCode


def test_the_cheater_is_no_strategy_a_table_or_a_local_game_can_seat() -> None:
    assert CHEATER not in STRATEGIES and CHEATER in ARENA_ONLY
    assert not isinstance(CheaterBot(), Player)  # a game master cannot even ask it
    for build in (make_bot, make_player):
        with pytest.raises(ValueError, match="only the arena"):
            build(CHEATER)
    with pytest.raises(ValueError, match="unknown seat kind 'cheater'"):
        parse_seats("cheater,greedy", 2)


async def test_a_server_refuses_to_seat_the_cheater(port: int) -> None:
    async with asyncio.timeout(30):
        async with await ClientSession.connect("127.0.0.1", port, "eve") as s:
            with pytest.raises(ServerRefused) as info:
                await s.create_table(fill_with_bots=[CHEATER])
            assert info.value.code is ErrorCode.UNKNOWN_BOT


def test_the_cheater_plays_the_best_move_for_the_true_hands() -> None:
    """Four players in two teams, the last deal (R11): what is best depends on the hidden
    hands, which the cheater sees; searching by minimax (without the reply model) its
    move is a minimax-best one for the true deal."""
    rules = RuleSet.build(players=4)
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        s = dealt(rules, rng)
        while s.phase is Phase.PLAY and (s.stock or s.in_hands > 10):
            s.push(rng.choice(s.legal_plays()))
        if s.phase is not Phase.PLAY or len(s.legal_plays()) < 2:
            continue
        side = s.side[s.to_move]
        values = {}
        for play in s.legal_plays():
            c = s.copy()
            c.push(play)
            values[play] = minimax(c, side)
        if len(set(values.values())) < 2:
            continue
        move = CheaterBot(replies=False).pick_seeing(s.copy(), s.legal_plays())
        assert values[move] == max(values.values())
        checked += 1
    assert checked >= 5


def test_the_arena_hands_the_cheater_the_whole_state() -> None:
    rules = RuleSet.build("scopa")
    order = tuple(range(40))[::-1]
    outcome = play_round(rules, order, 1, [CheaterBot(budget=300), make_bot("random", seed=1)], a_side=0)
    assert outcome.a_ms and outcome.b_ms  # both played a whole round of legal moves


def _report(margins: list[float], a: str, b: str = "greedy-v1") -> Report:
    def game(mg: float, ms: float) -> GameOutcome:
        return GameOutcome(mg, 0, 0, (ms, ms * 2), (1.0,))

    deals = [DealOutcome(i, (game(mg, 1.0 + i), game(mg, 1.0 + i))) for i, mg in enumerate(margins)]
    return Report(a, b, "scopa, 2p, to 11", 7, deals, len(deals))


def test_the_share_of_the_ceiling_is_the_ratio_of_paired_margins() -> None:
    cheater = _report([2.0, 4.0, 1.0, 3.0, 5.0], CHEATER).deals
    half = _report([1.0, 2.0, 0.5, 1.5, 2.5], "expert")
    half.ceiling = cheater
    share = ceiling_share(half)
    assert share["share"] == pytest.approx(0.5)
    assert share["ci95"] == pytest.approx([0.5, 0.5])  # exactly half on every deal
    assert share["cheater_margin"] == pytest.approx(3.0)
    noisy = _report([1.0, 3.0, 0.0, 1.5, 2.5], "expert")
    noisy.ceiling = cheater
    low, high = ceiling_share(noisy)["ci95"]
    assert low < ceiling_share(noisy)["share"] < high
    summary = half.summary()
    assert summary["ceiling"] == share
    text = format_report(summary)
    assert "share of ceiling    0.500" in text
    assert "median" in text and "p99" in text
    json.dumps(summary)


def test_median_and_p99_per_move_are_reported() -> None:
    s = _report([1.0] * 100, "expert").summary()
    a_ms = sorted(t for i in range(100) for t in (1.0 + i, 2.0 + 2 * i) for _ in range(2))
    assert s["a_ms_median"] == a_ms[len(a_ms) // 2 - 1]  # nearest rank
    assert s["a_ms_p99"] == a_ms[int(0.99 * len(a_ms)) - 1]
    assert s["b_ms_median"] == s["b_ms_p99"] == 1.0


def test_the_arena_command_prints_the_share_of_the_ceiling(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from scopa.cli import main

    monkeypatch.setitem(ARENA_ONLY, CHEATER, lambda seed: CheaterBot(budget=200))
    assert main(["arena", "greedy", "random", "--deals", "2", "--workers", "1", "--ceiling", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    ceiling = summary["ceiling"]
    assert ceiling["deals"] == 2
    assert ceiling["share"] == pytest.approx(summary["margin"] / ceiling["cheater_margin"])
