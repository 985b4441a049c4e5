"""The decoder's shortcut for the most frequent commands (``play``, ``pong``) takes and
refuses exactly what strict JSON validation takes and refuses."""

from __future__ import annotations

import json
import math
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings, strategies as st
from pydantic import ValidationError

from scopa.protocol import ProtocolError
from scopa.protocol.codec import _PLAIN_BODIES, unpack_command
from scopa.protocol.envelope import COMMAND_ADAPTER

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-2**63, max_value=2**64 - 1),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(["7d", "Rb", "Ad", "3s", "x", "", "player:ada",
                                                                     "table:t1", "lobby", "10d"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
    ["card", "capture", "turn", "nonce", "x"]), inner, max_size=3), max_leaves=8)


def _body(name: str) -> st.SearchStrategy[dict[str, Any]]:
    if name == "play":
        good = st.fixed_dictionaries({"card": st.sampled_from(["7d", "Rb", "Ad"]),
                                      "capture": st.lists(st.sampled_from(["3s", "4c", "Fd", "Rb"]), max_size=3)},
                                     optional={"turn": st.none() | st.integers(min_value=0, max_value=2**53)})
    else:
        good = st.fixed_dictionaries({"nonce": st.integers(min_value=0, max_value=2**53)})
    return st.one_of(good, st.dictionaries(st.sampled_from(["card", "capture", "turn", "nonce", "x"]), VALUES,
                                           max_size=4))


def _command(name: str) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({
        "v": st.just(2), "seq": st.integers(min_value=1, max_value=9) | SCALARS,
        "sender": st.sampled_from(["player:ada", "guest"]) | SCALARS,
        "recipient": st.sampled_from(["table:t1", "lobby"]) | SCALARS,
        "re": st.none() | st.integers(min_value=0, max_value=9) | SCALARS,
        "name": st.just(name), "body": _body(name),
    })


def _by_json(obj: dict[str, Any]) -> Any:
    """What the JSON path makes of ``obj``: a command, or None if it refuses it."""
    try:
        return COMMAND_ADAPTER.validate_json(json.dumps(obj, allow_nan=False), strict=True)
    except (ValueError, ValidationError):
        return None


@pytest.mark.parametrize("name", sorted(_PLAIN_BODIES))
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_the_shortcut_takes_and_refuses_what_the_json_path_does(name: str, data: st.DataObject) -> None:
    obj = data.draw(_command(name))
    expected = _by_json(obj)
    try:
        got = unpack_command(msgpack.packb(obj))
    except ProtocolError:
        got = None
    assert got == expected


def test_a_non_finite_number_in_a_shortcut_command_is_refused() -> None:
    for bad in (math.nan, math.inf):
        obj = {"v": 2, "seq": 1, "sender": "player:ada", "recipient": "table:t1", "re": None, "name": "play",
               "body": {"card": "7d", "capture": [], "turn": bad}}
        with pytest.raises(ProtocolError):
            unpack_command(msgpack.packb(obj))


@pytest.mark.parametrize("name", sorted(_PLAIN_BODIES))
def test_a_shortcut_body_has_only_plain_fields(name: str) -> None:
    """The shortcut is only right for bodies of strings, integers, nulls and lists of
    strings: a field of another kind added to one of them must take it off the list."""
    from scopa.protocol.commands import BODY_BY_NAME

    schema = BODY_BY_NAME[name].model_json_schema()
    for field, spec in schema["properties"].items():
        kinds = [spec] if "anyOf" not in spec else spec["anyOf"]
        for kind in kinds:
            assert kind.get("type") in {"string", "integer", "null", "array"}, (name, field, kind)
            if kind.get("type") == "array":
                assert kind["items"].get("type") == "string", (name, field, kind)
