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


def test_a_finished_game_abandoned_says_so_and_names_fit_before_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished table whose game was abandoned is "abbandonata", another "finita"; at a
    narrow terminal the rules wrap and the seats keep every name whole."""
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    four = rules_to_wire(RuleSet.build("scopone"))
    tables = [TableInfo(id="12", rules=four, description="scopone", seats=["Giulia_Rossi", "Alessandro", "Francesca",
                                                                            "Bot"], state=TableState.FINISHED,
                        bots=[3], abandoned=True, turn_timeout=30.0),
              TableInfo(id="13", rules=rules_to_wire(RuleSet()), description="scopa", seats=["Anna", "Luca"],
                        state=TableState.FINISHED),
              TableInfo(id="14", rules=four, description="scopone", seats=["Massimiliano", None, "Bartolomeo", None],
                        state=TableState.WAITING, private=True)]
    for width in (80, 64):
        out = Console(width=width, file=io.StringIO(), color_system=None)
        out.print(render_tables(tables))
        lines = out.file.getvalue().splitlines()  # type: ignore[attr-defined]
        seats = " ".join(line.split("│")[3].strip() for line in lines if line.startswith("│"))
        assert all(len(line) <= width for line in lines), lines
        for name in ("Giulia_Rossi,", "Alessandro,", "Francesca,", "Bot (bot)", "Massimiliano,", "Bartolomeo,"):
            assert name in seats, (width, lines)
        states = {line.split("│")[1].strip(): line.split("│")[4].strip() for line in lines
                  if line.startswith("│") and line.split("│")[1].strip()}
        assert states == {"12": "abbandonata", "13": "finita", "14": "in attesa"}, lines


@pytest.mark.integration
async def test_the_server_lists_a_game_left_as_abandoned() -> None:
    """The lobby's listing of finished tables: a game its person left is ``abandoned``."""
    import asyncio

    from scopa.client.net import ClientSession
    from scopa.server import NetworkEngine

    engine = NetworkEngine("127.0.0.1", 0, seed=5)
    await engine.start()
    try:
        async with asyncio.timeout(60):  # a safety net only
            luca = await ClientSession.connect("127.0.0.1", engine.port, "Luca")
            table = await luca.create_table(fill_with_bots=["greedy"])
            assert await luca.wait_for_game_start(30)
            await luca.leave_table()
            [finished] = await luca.list_tables(TableState.FINISHED)
            assert finished.id == table.id and finished.abandoned
            assert "abandoned" in finished.model_dump_json()
            await luca.close()
    finally:
        await engine.stop()
