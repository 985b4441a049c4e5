"""docs/protocol.schema.json: generated from the wire models, never stale, and it
accepts every documented example command and refuses broken ones."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from scopa.protocol import COMMAND_NAMES, PROTOCOL_VERSION, example_commands
from scopa.cli.schema import main
from scopa.protocol.spec import CLIENT_FILE, client_schema, protocol_schema, render

from procs import ROOT

COMMITTED = ROOT / "docs" / "protocol.schema.json"
REGENERATE = "python -m scopa.cli.schema --write"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return protocol_schema()


@pytest.fixture(scope="module")
def validator(schema: dict[str, Any]) -> Draft202012Validator:
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_committed_schema_is_the_generated_one(schema: dict[str, Any]) -> None:
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))
    assert committed == schema, f"docs/protocol.schema.json is stale: run `{REGENERATE}` and commit it"
    assert COMMITTED.read_text(encoding="utf-8") == render(schema)


def test_schema_names_every_command_of_this_version(schema: dict[str, Any]) -> None:
    assert set(schema["discriminator"]["mapping"]) == set(COMMAND_NAMES)
    assert len(schema["oneOf"]) == len(COMMAND_NAMES)
    assert f"version {PROTOCOL_VERSION}" in schema["title"]
    for ref in schema["discriminator"]["mapping"].values():
        command = schema["$defs"][ref.rsplit("/", 1)[1]]
        assert {"v", "seq", "sender", "recipient", "name", "body"} <= set(command["required"])
        assert command["additionalProperties"] is False


def as_json(name: str) -> dict[str, Any]:
    command: dict[str, Any] = json.loads(example_commands()[name].model_dump_json())
    return command


@pytest.mark.parametrize("name", sorted(COMMAND_NAMES))
def test_every_example_command_is_valid(validator: Draft202012Validator, name: str) -> None:
    errors = list(validator.iter_errors(as_json(name)))
    assert not errors, errors[0].message


def broken_commands() -> dict[str, dict[str, Any]]:
    play = as_json("play")
    out: dict[str, dict[str, Any]] = {}

    def variant(label: str, path: tuple[str, ...], value: Any) -> None:
        cmd = copy.deepcopy(play)
        target = cmd
        for key in path[:-1]:
            target = target[key]
        if value is KeyError:
            del target[path[-1]]
        else:
            target[path[-1]] = value
        out[label] = cmd

    variant("extra envelope key", ("trace",), 1)
    variant("extra body key", ("body", "speed"), 1)
    variant("unknown name", ("name",), "teleport")
    variant("no v", ("v",), KeyError)
    variant("no name", ("name",), KeyError)
    variant("no seq", ("seq",), KeyError)
    variant("wrong version", ("v",), PROTOCOL_VERSION + 1)
    variant("a card that is not one", ("body", "card"), "7x")
    variant("a string for an integer", ("seq",), "5")
    variant("a bad party", ("sender",), "player:")
    variant("no card", ("body", "card"), KeyError)
    return out


@pytest.mark.parametrize("label", sorted(broken_commands()))
def test_broken_commands_are_refused(validator: Draft202012Validator, label: str) -> None:
    assert not validator.is_valid(broken_commands()[label]), label


def test_write_and_check_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "schema.json"
    assert main(["--check", "--path", str(path)]) == 1  # missing
    assert main(["--write", "--path", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == COMMITTED.read_text(encoding="utf-8")
    assert main(["--check", "--path", str(path)]) == 0
    stale = json.loads(path.read_text(encoding="utf-8"))
    stale["$defs"]["PlayCard"]["properties"].pop("turn")
    path.write_text(json.dumps(stale), encoding="utf-8")
    assert main(["--check", "--path", str(path)]) == 1
    assert REGENERATE in capsys.readouterr().err


def test_the_clients_schema_allows_unknown_keys_at_every_depth() -> None:
    """PROTOCOL.md §1: a client MUST ignore keys it does not know; the schema published
    for clients says the same, so a validating client survives a key-adding change."""
    schema = client_schema()
    committed = ROOT / "docs" / CLIENT_FILE
    assert committed.read_text(encoding="utf-8") == render(schema), f"run `{REGENERATE}`"
    assert '"additionalProperties": false' not in render(schema)
    assert schema["$defs"].keys() == protocol_schema()["$defs"].keys()
    turn = as_json("your_turn")
    turn["trace"] = "x"
    turn["body"]["deadline"] = 30
    turn["body"]["view"]["mood"] = "calm"
    turn["body"]["legal"][0]["hint"] = 1
    own = Draft202012Validator({"$defs": schema["$defs"], "$ref": schema["discriminator"]["mapping"]["your_turn"]})
    assert not list(own.iter_errors(turn))
    strict = protocol_schema()
    closed = Draft202012Validator({"$defs": strict["$defs"], "$ref": strict["discriminator"]["mapping"]["your_turn"]})
    assert not closed.is_valid(turn)  # the server's schema: closed maps
    turn["body"]["legal"][0]["card"] = "7x"
    assert not own.is_valid(turn)  # types and patterns still hold
