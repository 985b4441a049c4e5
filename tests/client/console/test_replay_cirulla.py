"""Replaying a recorded Cirulla game redoes the dealer's bonus (V13): a game recorded by
`scopa local --record` with a fixed seed, whose third deal puts 30 on the table, replays
to the record's totals, and the replay says what the dealer's side took."""

from __future__ import annotations

from pathlib import Path

import pytest

from scopa.client.console import load_record
from scopa.client.text.replaywords import step_text
from scopa.protocol.record import replay_steps
from test_replay_cli import scopa

pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def cirulla(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "cirulla.json"
    done = scopa("local", "--rules", "cirulla", "--seats", "greedy,random", "--seed", "4", "--record", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    return path


def test_the_replay_takes_the_dealers_bonus_and_reaches_the_records_totals_V13(cirulla: Path) -> None:
    record = load_record(str(cirulla))
    steps = list(replay_steps(record))
    deals = [s for s in steps if s.action_index is None]
    bonus = [s for s in deals if s.state.dealer_bonus]
    assert len(bonus) == 1 and bonus[0].round_index == 2  # the third deal: As Cs Rc Rb, 30
    state = bonus[0].state
    side = state.side[state.dealer]
    assert state.scope[side] == 2 and state.table == 0
    text = step_text(bonus[0], record)
    assert text.startswith("Round 3: Bot 1 (greedy) deals A Spa, C Spa, R Cop, R Bas on the table, which add up to 30")
    assert "the dealer's side takes them, 2 scope (V13)" in text
    assert list(steps[-1].state.totals) == record.result.totals == [32, 1]


def test_the_plain_replay_and_the_check_say_it(cirulla: Path) -> None:
    plain = " ".join(scopa("replay", str(cirulla), "--plain").stdout.split())
    assert "the dealer's side takes them, 2 scope (V13)" in plain
    check = scopa("replay", str(cirulla), "--check")
    assert check.returncode == 0 and "result 32-1" in check.stdout
