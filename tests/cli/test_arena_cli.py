"""`scopa arena` on the command line, and the levels in `scopa local --seats`."""

from __future__ import annotations

import json

import pytest

from scopa.cli import main
from scopa.client.seats import parse_seats


def test_arena_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "greedy", "random", "--deals", "3", "--workers", "1", "--seed", "4", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["a"] == "greedy" and summary["b"] == "random"
    assert summary["deals"] == 3 and summary["rounds"] == 6
    assert summary["rules"].startswith("scopa")
    assert summary["wins"] + summary["draws"] + summary["losses"] == 6


def test_arena_table_and_scopone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "medium", "easy", "--deals", "1", "--workers", "1", "--rules", "scopone"]) == 0
    out = capsys.readouterr().out
    assert "medium (A) vs easy (B)" in out and "scopone" in out and "95% CI" in out


def test_arena_refuses_an_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "nobody", "greedy", "--deals", "1", "--workers", "1"]) == 2
    assert "no bot called 'nobody'" in capsys.readouterr().out


def test_levels_and_the_expert_sit_at_a_local_table() -> None:
    assert parse_seats("human,hard", 2) == ["human", "hard"]
    assert parse_seats("easy,medium,expert,greedy-v1", 4) == ["easy", "medium", "expert", "greedy-v1"]
    with pytest.raises(ValueError, match="unknown seat kind"):
        parse_seats("human,impossible", 2)
