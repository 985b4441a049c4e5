"""The plain lobby's list of tables says each table's turn timer, as the full-screen
lobby does ("· ⏱ 0:15"), and "private" at a private table (its players see it)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from scopa.client.console.lobby import render_tables
from scopa.client.text import i18n
from scopa.engine import Preset, RuleSet
from scopa.protocol import TableInfo, TableState
from scopa.protocol.convert import rules_to_wire

pytestmark = pytest.mark.unit


def test_the_plain_lobby_lists_a_tables_timer_and_privacy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    tables = [TableInfo(id="2", rules=rules_to_wire(RuleSet()), description="scopa", seats=["dora", None],
                        state=TableState.WAITING, turn_timeout=15.0),
              TableInfo(id="3", rules=rules_to_wire(RuleSet()), description="scopa", seats=["ada", None],
                        state=TableState.WAITING, turn_timeout=90.0, private=True),
              TableInfo(id="4", rules=rules_to_wire(RuleSet()), description="scopa", seats=["bea", None],
                        state=TableState.WAITING)]
    out = Console(width=160, file=io.StringIO(), color_system=None)
    out.print(render_tables(tables))
    rows = {line.split("│")[1].strip(): line for line in out.file.getvalue().splitlines()  # type: ignore[attr-defined]
            if line.startswith("│") and line.split("│")[1].strip().isdigit()}
    assert "Scopa, 2 giocatori, a 11 · ⏱ 0:15 " in rows["2"] and "privato" not in rows["2"], rows
    assert "· ⏱ 1:30 · privato" in rows["3"], rows
    assert "⏱" not in rows["4"], rows


@pytest.mark.parametrize(("language", "name"), [("it", "Scopone trentino"), ("en", "Scopone de trente")])
def test_the_trentino_game_is_named_as_the_rule_book_names_it(monkeypatch: pytest.MonkeyPatch, language: i18n.Lang,
                                                              name: str) -> None:
    """In Italian the `trentino` preset is "Scopone trentino" (the Italian rule book's name)
    in the lobby's list, not the English book's "Scopone de trente"."""
    from scopa.client.text import rulebook_it

    monkeypatch.setattr(i18n, "LANGUAGE", language)
    info = TableInfo(id="5", rules=rules_to_wire(RuleSet.build("trentino")), description="trentino",
                     seats=["dora", None, None, None], state=TableState.WAITING)
    out = Console(width=200, file=io.StringIO(), color_system=None)
    out.print(render_tables([info]))
    assert f"{name}, 4" in out.file.getvalue(), out.file.getvalue()  # type: ignore[attr-defined]
    assert "Scopone trentino:" in rulebook_it.PRESET_TEXT[Preset.TRENTINO]
