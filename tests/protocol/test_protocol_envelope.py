"""The envelope's command classes are written out by hand: each body has exactly one."""

from __future__ import annotations

import typing

import pytest

from scopa.protocol.commands import BODY_TYPES, Body
from scopa.protocol.envelope import (
    COMMAND_ADAPTER,
    COMMAND_CLASSES,
    COMMAND_TYPES,
    AnyCommand,
    Command,
    body_type_of,
    make_command,
)


def _union_members() -> tuple[type[Command], ...]:
    union, _field = typing.get_args(AnyCommand)
    return typing.get_args(union)


def test_every_body_type_has_a_command_in_the_union() -> None:
    carried = {body_type_of(c) for c in _union_members()}
    missing = [b.__name__ for b in BODY_TYPES if b not in carried]
    assert missing == [], f"add a command class to protocol/envelope.py (and to AnyCommand) for {missing}"
    assert set(COMMAND_CLASSES) == set(BODY_TYPES)


def test_the_union_holds_nothing_but_the_registry() -> None:
    members = _union_members()
    assert len(members) == len(set(members)) == len(BODY_TYPES)
    assert members == COMMAND_TYPES
    assert [body_type_of(c) for c in members] == list(BODY_TYPES)


@pytest.mark.parametrize("command_type", COMMAND_TYPES, ids=lambda c: c.__name__)
def test_each_command_class_names_its_body(command_type: type[Command]) -> None:
    body_type = body_type_of(command_type)
    assert command_type.model_fields["name"].annotation == typing.Literal[body_type.NAME]
    assert command_type.model_fields["name"].default == body_type.NAME
    assert command_type.__name__ == f"{body_type.__name__}Command"


def test_a_body_without_a_command_class_is_refused_by_make_command() -> None:
    class Stray(Body):
        NAME = "stray"

    with pytest.raises(KeyError):
        make_command(Stray(), seq=1, sender="player:a", recipient="lobby")


def test_the_adapter_decodes_to_the_command_class_of_the_name() -> None:
    decoded = COMMAND_ADAPTER.validate_python(
        {"v": 2, "seq": 1, "sender": "player:a", "recipient": "lobby", "name": "list_tables", "body": {}}
    )
    assert type(decoded) is COMMAND_CLASSES[next(b for b in BODY_TYPES if b.NAME == "list_tables")]
