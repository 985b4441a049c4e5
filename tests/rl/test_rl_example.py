"""examples/train_rl.py: trains with NumPy only and prints its margin against random."""

from __future__ import annotations

import ast
import asyncio
import re
import subprocess
import sys
from pathlib import Path

from procs import ROOT, finish

from scopa.bots import RandomBot
from scopa.client.console.botrunner import load_bot_class
from scopa.engine import RuleSet, play_local

EXAMPLE = ROOT / "examples" / "train_rl.py"


def test_training_example_runs_with_a_small_budget_and_prints_its_margin(tmp_path: Path) -> None:
    weights = tmp_path / "agent.npy"
    proc = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--rounds", "200", "--games", "10", "--seed", "1", "--save", str(weights)],
        cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    rc, out = finish(proc, "training example")
    assert rc == 0, out
    assert re.search(r"untrained agent vs random: [+-]\d+\.\d\d ± \d+\.\d\d points per game", out), out
    assert re.search(r"trained on 200 rounds in \d+\.\d s", out), out
    figure = re.search(r"margin vs random: ([+-]\d+\.\d\d) ± (\d+\.\d\d) points per game over 10 games "
                       r"\(5 paired deals\), \d+% won", out)
    assert figure, out
    # the saved agent loads the way `scopa bot --bot FILE.py:CLASS` loads a bot, and plays
    agent_class = load_bot_class(f"{EXAMPLE}:TrainedAgent")
    agent = agent_class(str(weights))
    record = asyncio.run(play_local(RuleSet.build(), [agent, RandomBot(seed=1)], seed=3))
    assert record.reason is not None and len(record.actions) > 36


def test_training_example_refuses_a_table_of_more_than_two() -> None:
    proc = subprocess.Popen([sys.executable, str(EXAMPLE), "--rules", "scopone"], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    rc, out = finish(proc, "training example")
    assert rc == 2 and "not a two-player game" in out, out


def test_training_example_needs_no_deep_learning_framework() -> None:
    roots = set()
    for node in ast.walk(ast.parse(EXAMPLE.read_text())):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            roots.add((node.module or "").split(".")[0])
    assert roots <= {"__future__", "argparse", "asyncio", "collections", "os", "time", "typing", "numpy", "scopa"}, roots
