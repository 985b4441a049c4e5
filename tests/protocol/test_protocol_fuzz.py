"""Hypothesis: whatever arrives, only protocol errors come out (never a raw exception)."""

from __future__ import annotations

import struct
from typing import Any

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scopa.protocol import (
    COMMAND_NAMES,
    Command,
    FrameDecoder,
    ProtocolError,
    decode,
    encode,
    example_commands,
    frame_payload,
)

EXAMPLES = example_commands()
EXAMPLE_MAPS = {name: cmd.model_dump(mode="json") for name, cmd in EXAMPLES.items()}

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=True)
    | st.text(max_size=30)
    | st.binary(max_size=10)
    | st.sampled_from(sorted(COMMAND_NAMES) + ["v", "seq", "body", "lobby", "player:x", "7d"])
)
msgpackish = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=10) | st.sampled_from(["v", "seq", "name", "body"]), children, max_size=6),
    max_leaves=30,
)


def drain(decoder: FrameDecoder) -> list[Command]:
    """Every command the decoder yields, skipping bad frames, until it needs more bytes."""
    out: list[Command] = []
    for _ in range(10_000):
        try:
            command = decoder.next_command()
        except ProtocolError as exc:
            if exc.fatal:
                return out
            continue
        if command is None:
            return out
        out.append(command)
    raise AssertionError("decoder did not stop")


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(max_size=64), max_size=8))
def test_random_bytes_only_protocol_errors(chunks: list[bytes]) -> None:
    decoder = FrameDecoder(max_frame_size=1024)
    for chunk in chunks:
        decoder.feed(chunk)
        drain(decoder)
    try:
        decoder.close()
    except ProtocolError:
        pass


@settings(max_examples=300)
@given(st.binary(max_size=200))
def test_random_payload_in_a_valid_frame(payload: bytes) -> None:
    try:
        decode(frame_payload(payload))
    except ProtocolError:
        pass


def _decode_obj(obj: Any) -> Command | None:
    try:
        payload = msgpack.packb(obj, use_bin_type=True)
    except (ValueError, OverflowError, TypeError):
        return None  # msgpack itself cannot express it
    if len(payload) > 60_000:
        return None
    try:
        command = decode(struct.pack(">I", len(payload)) + payload)
    except ProtocolError:
        return None
    assert decode(encode(command)) == command
    return command


@settings(max_examples=400)
@given(msgpackish)
def test_random_msgpack_objects(obj: Any) -> None:
    _decode_obj(obj)


@settings(max_examples=300)
@given(msgpackish, msgpackish)
def test_random_envelopes_and_bodies(header: Any, body: Any) -> None:
    for name in ("play", "create_table", "your_turn", "round_end"):
        obj = dict(EXAMPLE_MAPS[name])
        obj["body"] = body
        _decode_obj(obj)
        if isinstance(header, dict):
            obj = dict(EXAMPLE_MAPS[name]) | header
            _decode_obj(obj)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, prefix + (i,))
    return out


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replaced(copy[head], rest, new)
    return copy


@settings(max_examples=500)
@given(st.sampled_from(sorted(EXAMPLE_MAPS)), st.data(), msgpackish)
def test_mutated_valid_commands(name: str, data: st.DataObject, new: Any) -> None:
    original = EXAMPLE_MAPS[name]
    path = data.draw(st.sampled_from(_paths(original)))
    _decode_obj(_replaced(original, path, new))


@settings(max_examples=300)
@given(st.sampled_from(sorted(EXAMPLES)), st.data())
def test_flipped_bytes(name: str, data: st.DataObject) -> None:
    frame = bytearray(encode(EXAMPLES[name]))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(4, len(frame) - 1))
        frame[i] = data.draw(st.integers(0, 255))
    try:
        decode(bytes(frame))
    except ProtocolError:
        pass
