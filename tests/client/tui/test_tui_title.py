"""The board's title names the game as players know it: a classic game's own name when
the rules are that game option for option (RULES.md §6), "custom" only otherwise."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from scopa.client.tui.app import LocalGameApp
from scopa.client.text import PRESET_NAMES, rules_name
from scopa.engine import Preset, RuleSet


async def title_of(rules: RuleSet, seats: int = 2) -> str:
    app = LocalGameApp(rules, ["human"] + ["greedy"] * (seats - 1), seed=3, pace=0)
    async with app.run_test(size=(120, 24)) as pilot:  # wide enough for the whole line
        for _ in range(200):
            await pilot.pause()
            if app.board_screen.asking:
                break
        return str(app.board_screen.query_one("#top", Static).render())


async def test_default_rules_are_called_scopa_not_custom() -> None:
    top = await title_of(RuleSet())
    assert "Scopa, 2p, to 11" in top and "custom" not in top


async def test_a_preset_is_named_as_players_know_it() -> None:
    top = await title_of(RuleSet.build("scopone-scientifico"), seats=4)
    assert "Scopone scientifico, 4p teams" in top and "custom" not in top
    assert top.count("Scop") == 1  # the game is named once (no "Scopa" title beside a Scopone game)


async def test_the_target_is_said_once() -> None:
    top = await title_of(RuleSet())
    assert top.count("to 11") == 1 and top.endswith("Scopa, 2p, to 11 · local game")  # no seed: a headline


async def test_changed_rules_are_custom() -> None:
    top = await title_of(RuleSet(napola=True))
    assert "custom, 2p, to 11, napola" in top and "Scopa," not in top


@pytest.mark.parametrize("preset", list(Preset))
def test_each_preset_has_its_name_and_rules_built_without_the_preset_name_find_it(preset: Preset) -> None:
    rules = RuleSet.build(preset)
    assert rules_name(rules) == PRESET_NAMES[preset]
    assert rules_name(RuleSet.build(None, **rules.model_dump(exclude={"preset"}))) == PRESET_NAMES[preset]
    changed = RuleSet.build(preset, target=31 if rules.target != 31 else 21)
    assert rules_name(changed) == f"custom ({PRESET_NAMES[preset]} changed)"


def test_teams_as_played_decide_not_how_they_were_said() -> None:
    assert rules_name(RuleSet.build("scopone", teams=True)) == "Scopone"  # 4 players play in teams anyway (R5)
    assert rules_name(RuleSet.build("scopone", teams=False)).startswith("custom")
