"""The game record format (docs/RECORDS.md): built from games, checked by replay, and
its JSON Schema kept in step with the model."""

from __future__ import annotations

import asyncio
import json

import jsonschema
import pytest

from scopa.bots import make_bot
from scopa.engine import LocalGame, RuleSet
from scopa.protocol.record import (
    PlayerKind,
    Record,
    RecordError,
    RecordPlay,
    RecordPlayer,
    build_record,
    dumps_record,
    parse_record,
    schema_text,
)
from scopa.protocol.record import RecordMismatch, check_record, plain_log

from paths import ROOT

DOCS = ROOT / "docs"


def bot_game(rules: RuleSet, seed: int, stop_after: int | None = None) -> Record:
    bots = [make_bot("greedy" if i % 2 == 0 else "random", f"bot {i}", seed=seed + i) for i in range(rules.players)]
    master = LocalGame(rules, bots, seed)
    asyncio.run(master.run())
    players = [RecordPlayer(seat=i, name=b.name, side=rules.side_of(i), kind=PlayerKind.BOT,
                            strategy="greedy" if i % 2 == 0 else "random") for i, b in enumerate(bots)]
    actions = master.actions if stop_after is None else master.actions[:stop_after]
    return build_record(rules, seed, master.first_dealer, actions, players)


PRESETS = ["scopa", "scopone", "cirulla", "escoba", "trentino", "frac", "quindici", "scopone-scientifico"]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_bot_game_record_round_trips_and_replays(preset: str) -> None:
    rules = RuleSet.build(preset)
    record = bot_game(rules, 11)
    text = dumps_record(record)
    assert parse_record(text) == record
    assert check_record(record) > len(record.rounds)
    last = record.rounds[-1]
    assert record.result.totals == last.totals
    assert sum(1 for r in record.rounds for a in r.actions if isinstance(a, RecordPlay)) > 0


def test_the_schema_file_is_generated_from_the_model() -> None:
    committed = (DOCS / "record.schema.json").read_text(encoding="utf-8")
    assert committed == schema_text(), "stale: run python -m scopa.cli.schema --record > docs/record.schema.json"


@pytest.mark.parametrize("preset", ["scopa", "cirulla", "scopone"])
def test_records_validate_against_the_schema(preset: str) -> None:
    schema = json.loads((DOCS / "record.schema.json").read_text(encoding="utf-8"))
    record = bot_game(RuleSet.build(preset), 4)
    jsonschema.validate(json.loads(dumps_record(record)), schema)
    broken = json.loads(dumps_record(record))
    broken["rounds"][0]["deck"] = broken["rounds"][0]["deck"][:39]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


def test_the_documentation_names_every_field() -> None:
    text = (DOCS / "RECORDS.md").read_text(encoding="utf-8")
    from scopa.protocol.record import document as models

    for model in (models.Record, models.RecordPlayer, models.RecordRound, models.RecordPlay,
                  models.RecordDeclaration, models.RecordResult):
        for field in model.model_fields:
            assert f"`{field}`" in text, f"{model.__name__}.{field} is not documented"


def test_the_documented_example_is_a_consistent_record() -> None:
    text = (DOCS / "RECORDS.md").read_text(encoding="utf-8")
    example = text.split("<!-- example -->\n```json\n", 1)[1].split("\n```", 1)[0]
    record = parse_record(example)
    check_record(record)
    assert record.result.reason.value in ("target", "trentino", "all_denari")


def test_an_abandoned_game_records_where_it_stopped() -> None:
    rules = RuleSet.build("scopa")
    full = bot_game(rules, 2)
    cut = bot_game(rules, 2, stop_after=len(full.rounds[0].actions) + 5)
    assert cut.result.reason.value == "abandoned" and cut.result.winner is None
    assert check_record(cut) > 0
    lines = list(plain_log(cut))
    assert lines[-1].startswith("Result: abandoned")


@pytest.mark.parametrize("text,needle", [
    ("not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"format": 7}', "format 1"),
    ('{"format": 1, "seed": 3}', "not a valid record"),
])
def test_unreadable_records_are_refused_with_a_reason(text: str, needle: str) -> None:
    with pytest.raises(RecordError, match=needle):
        parse_record(text)


def test_a_record_with_a_seat_out_of_order_is_refused() -> None:
    data = json.loads(dumps_record(bot_game(RuleSet.build("scopa"), 1)))
    data["players"].reverse()
    with pytest.raises(RecordError, match="seats 0..1 in order"):
        parse_record(json.dumps(data))


def test_a_changed_breakdown_or_result_is_the_first_difference() -> None:
    record = bot_game(RuleSet.build("scopa"), 8)
    data = json.loads(dumps_record(record))
    data["rounds"][0]["points"] = [p + 1 for p in data["rounds"][0]["points"]]
    with pytest.raises(RecordMismatch, match="round 1, end: the points are"):
        check_record(parse_record(json.dumps(data)))
    data = json.loads(dumps_record(record))
    data["result"]["winner"] = 1 - data["result"]["winner"]
    with pytest.raises(RecordMismatch, match="^result: side"):
        check_record(parse_record(json.dumps(data)))
