"""The wire's rules model is the protocol's own: the engine's RuleSet may not change it
by growing a field (the table options of R5, R9, R12, R15, R22 and V1-V13)."""

from __future__ import annotations

from typing import Any

import pytest

from pydantic import ValidationError

from scopa.engine import RuleSet
from scopa.engine.rules import Preset
from scopa.protocol import CreateTable, WireRules, decode, encode, make_command
from scopa.protocol.convert import rules_from_wire, rules_to_wire

from paths import ROOT


def _field_schemas(model: type[Any]) -> dict[str, Any]:
    """Each field's type, bounds and default (its description is prose for people: the
    engine's speaks to players, the wire's to client authors)."""
    schema: dict[str, Any] = model.model_json_schema()
    return {name: {k: v for k, v in prop.items() if k not in ("description", "title")}
            for name, prop in schema["properties"].items()}


def test_the_wire_model_knows_every_field_of_the_engines_rule_set() -> None:
    engine, wire = set(RuleSet.model_fields), set(WireRules.model_fields)
    assert engine - wire == set(), (
        f"RuleSet has fields the wire does not carry: {sorted(engine - wire)}; adding them to "
        "WireRules (protocol/rules.py) changes the protocol: do it deliberately"
    )
    assert wire - engine == set(), f"WireRules carries fields the engine no longer has: {sorted(wire - engine)}"


def test_each_wire_field_takes_the_same_values_as_the_engine_field() -> None:
    engine, wire = _field_schemas(RuleSet), _field_schemas(WireRules)
    changed = sorted(name for name in engine if engine[name] != wire.get(name))
    assert changed == [], f"these RuleSet fields no longer match the wire's: {changed}"


@pytest.mark.parametrize("preset", list(Preset))
def test_every_preset_crosses_the_wire_and_back(preset: Preset) -> None:
    rules = RuleSet.build(preset)
    wire = rules_to_wire(rules)
    assert isinstance(wire, WireRules) and wire.model_dump() == rules.model_dump()
    assert rules_from_wire(wire) == rules


def test_options_off_the_preset_survive_the_round_trip() -> None:
    rules = RuleSet.build("scopa", players=4, teams=True, target=21, capture_mode="free", re_bello=True)
    command = make_command(CreateTable(rules=rules_to_wire(rules)), seq=1, sender="player:a", recipient="lobby")
    body = decode(encode(command)).body
    assert isinstance(body, CreateTable) and body.rules is not None
    assert rules_from_wire(body.rules) == rules


def test_a_combination_the_engine_refuses_is_not_a_wire_rule_set() -> None:
    with pytest.raises(ValidationError, match="two teams of three"):  # R5: six play as two teams of three
        WireRules(players=6, teams=False)


def test_the_wire_model_is_not_the_engine_model() -> None:
    with pytest.raises(ValueError):
        CreateTable.model_validate({"rules": RuleSet.build("scopa")})


def test_no_engine_rule_set_is_part_of_any_wire_schema() -> None:
    """Every body (the game record's included) carries the wire's rules, never the
    engine's model, so the engine can change without changing the protocol."""
    import json
    from pathlib import Path

    from scopa.protocol.record import Record

    root = ROOT
    for schema in (json.loads((root / "docs" / "protocol.schema.json").read_text()),
                   Record.model_json_schema()):
        titles = {d.get("title") for d in schema.get("$defs", {}).values()}
        assert "RuleSet" not in titles and "WireRules" in titles


def test_a_combination_is_judged_once_however_many_table_maps_carry_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table map (made for each change of a table, read back for each table of
    another cluster member) holds a rule set: the engine judges each combination once."""
    from scopa.protocol import rules as wire_rules
    from scopa.protocol.commands import TableInfo, TableState

    judged: list[RuleSet] = []
    judge = wire_rules.sense_problems
    monkeypatch.setattr(wire_rules, "sense_problems", lambda r: judged.append(r) or judge(r))
    rules = rules_to_wire(RuleSet.build(Preset.SCOPA, target=16, napola=True))
    for seats in (["ann", None], ["ann", "bea"], ["ann", "bea"]):
        table = TableInfo(id="1", rules=rules, description="scopa", seats=seats, state=TableState.WAITING)
        TableInfo.model_validate(table.model_dump(mode="json"), strict=False)
    assert len(judged) <= 1
    with pytest.raises(ValidationError):  # a combination refused is refused each time
        WireRules(players=2, hand_size=20, table_cards=10)
    with pytest.raises(ValidationError):
        WireRules(players=2, hand_size=20, table_cards=10)
