"""The rules for players: docs/RULES.md, `scopa rules [PRESET]` and `scopa options`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scopa.client.text import CATEGORY_NAMES, book, options_text, table_rules
from scopa.engine import Category, Preset, RuleSet

from paths import ROOT


def scopa(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scopa.cli", *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60, cwd=ROOT)


def test_docs_rules_md_is_the_rule_book_the_program_prints() -> None:
    assert (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8") == book()
    done = scopa("rules")
    assert done.returncode == 0 and done.stdout == book()


def test_every_preset_and_option_is_explained_in_the_book_V1_to_V13() -> None:
    text = book()
    for p in Preset:
        assert f"### `{p.value}`" in text
    for name, field in RuleSet.model_fields.items():
        assert field.description, f"RuleSet.{name} has no description"
        assert f"`{name}`" in text and field.description in text
    for word in ("`fewest`", "`under10`", "`tris`", "Re bello", "primiera", "11 to 11"):
        assert word in text


def test_scopa_options_lists_every_field_with_its_description() -> None:
    done = scopa("options")
    assert done.returncode == 0 and done.stdout == options_text().replace("`", "")  # no Markdown code marks
    for name, field in RuleSet.model_fields.items():
        assert f"\n{name} " in done.stdout and field.description in done.stdout


@pytest.mark.parametrize("preset", [p.value for p in Preset])
def test_scopa_rules_preset_prints_that_game(preset: str) -> None:
    done = scopa("rules", preset)
    assert done.returncode == 0 and done.stdout.startswith(f"# {preset}\n")
    assert "## Your turn" in done.stdout


def test_scopa_rules_refuses_an_unknown_game() -> None:
    done = scopa("rules", "poker")
    assert done.returncode == 2 and "invalid choice" in done.stderr


def test_table_rules_spell_out_what_a_table_changes_R15_V11() -> None:
    text = table_rules(RuleSet.build("scopa", capture_mode="fewest", re_bello=True, target=21))
    assert "21 points or more" in text and "Fewest cards" in text and "Re bello" in text
    assert "Traditional" in table_rules(RuleSet())


def test_every_scoring_category_has_a_player_facing_name() -> None:
    assert set(CATEGORY_NAMES) == set(Category)
    assert "re_bello" not in CATEGORY_NAMES.values()


def test_nothing_in_the_project_links_to_the_shared_folder() -> None:
    offenders = []
    for path in ROOT.rglob("*"):
        if path.suffix not in {".py", ".md", ".toml", ".txt", ".cfg"} or ".venv" in path.parts or ".git" in path.parts:
            continue
        if "../shared" in path.read_text(encoding="utf-8", errors="replace") and path.name != Path(__file__).name:
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
