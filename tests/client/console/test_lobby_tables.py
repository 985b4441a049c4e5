"""The plain lobby's list of tables says each table's turn timer, as the full-screen
lobby does ("· ⏱ 0:15"), and "private" at a private table (its players see it)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from scopa.client.console.lobby import render_tables
from scopa.client.text import i18n
from scopa.engine import RuleSet
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
