"""docs/RL.md documents the action ids and the observation layout as they are."""

from __future__ import annotations

import re

from procs import ROOT

from scopa.rl.actions import DECLARE_BASE, DONE, NUM_ACTIONS
from scopa.rl.observation import LAYOUT, OBS_SIZE, RULE_FLAGS

DOC = (ROOT / "docs" / "RL.md").read_text()


def test_observation_table_matches_the_layout() -> None:
    rows = re.findall(r"^\| (\d+) \| (\d+) \| `(\w+)` \|", DOC, flags=re.MULTILINE)
    documented = [(name, int(offset), int(size)) for offset, size, name in rows]
    actual = [(name, s.start, s.stop - s.start) for name, s in LAYOUT.items()]
    assert documented == actual
    assert f"**{OBS_SIZE}** values" in DOC
    assert ", ".join(RULE_FLAGS) in DOC


def test_action_ids_are_as_documented() -> None:
    assert (DONE, DECLARE_BASE, NUM_ACTIONS) == (40, 41, 63)
    assert f"`Discrete({NUM_ACTIONS})`" in DOC and f"`{DONE}` (`DONE`)" in DOC
    assert f"`{DECLARE_BASE}..{NUM_ACTIONS - 1}`" in DOC
