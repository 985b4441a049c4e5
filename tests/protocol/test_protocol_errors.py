"""Every kind of bad frame gives its own typed error, and the decoder carries on."""

from __future__ import annotations

import struct
from typing import Any

import msgpack
import pytest

from scopa.protocol import (
    MAX_FRAME_SIZE,
    BadBody,
    BadEnvelope,
    BadVersion,
    ErrorCode,
    FrameDecoder,
    FrameTooLarge,
    LocalProtocolError,
    MalformedFrame,
    ProtocolError,
    RemoteProtocolError,
    TruncatedFrame,
    UnknownCommand,
    decode,
    encode,
    example_commands,
    frame_payload,
)

EXAMPLES = example_commands()


def frame_of(obj: Any) -> bytes:
    payload = msgpack.packb(obj, use_bin_type=True)
    return struct.pack(">I", len(payload)) + payload


def play_map(**changes: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "v": 2, "seq": 6, "sender": "player:ada", "recipient": "table:7", "re": None,
        "name": "play", "body": {"card": "7d", "capture": ["4s", "3b"], "turn": 4},
    }  # fmt: skip
    obj.update(changes)
    return obj


def test_the_helper_map_is_valid() -> None:
    assert decode(frame_of(play_map())).body == EXAMPLES["play"].body


def expect(frame: bytes, error: type[ProtocolError], code: ErrorCode) -> ProtocolError:
    with pytest.raises(error) as info:
        decode(frame)
    assert info.value.code is code
    assert isinstance(info.value, RemoteProtocolError)
    return info.value


def test_truncated_stream() -> None:
    frame = encode(EXAMPLES["play"])
    for cut in (1, 3, 4, 5, len(frame) - 1):
        decoder = FrameDecoder()
        decoder.feed(frame[:cut])
        assert decoder.next_command() is None
        with pytest.raises(TruncatedFrame) as info:
            decoder.close()
        assert info.value.code is ErrorCode.MALFORMED_FRAME
        assert info.value.fatal


def test_truncated_msgpack_inside_a_whole_frame() -> None:
    payload = msgpack.packb(play_map())[:-3]
    expect(frame_payload(payload), MalformedFrame, ErrorCode.MALFORMED_FRAME)


def test_empty_payload() -> None:
    expect(b"\x00\x00\x00\x00", MalformedFrame, ErrorCode.MALFORMED_FRAME)


def test_oversize_prefix_refused_before_the_body_arrives() -> None:
    decoder = FrameDecoder()
    decoder.feed(struct.pack(">I", MAX_FRAME_SIZE + 1))  # no body at all
    with pytest.raises(FrameTooLarge) as info:
        decoder.next_command()
    assert info.value.code is ErrorCode.FRAME_TOO_LARGE and info.value.fatal
    assert decoder.broken
    decoder.feed(encode(EXAMPLES["ping"]))  # the stream is lost for good
    with pytest.raises(FrameTooLarge):
        decoder.next_command()


def test_largest_allowed_frame_size_is_accepted_by_the_framing() -> None:
    decoder = FrameDecoder(max_frame_size=10)
    decoder.feed(struct.pack(">I", 10) + b"\xc0" * 10)
    with pytest.raises(MalformedFrame):  # 10 nils: framing fine, msgpack has extra data
        decoder.next_command()
    assert not decoder.broken


def test_encoder_refuses_oversize() -> None:
    with pytest.raises(LocalProtocolError) as info:
        encode(EXAMPLES["your_turn"], max_frame_size=100)
    assert info.value.code is ErrorCode.FRAME_TOO_LARGE


@pytest.mark.parametrize("obj", [[1, 2], "hello", 42, None, 1.5, True])
def test_non_map(obj: Any) -> None:
    expect(frame_of(obj), MalformedFrame, ErrorCode.MALFORMED_FRAME)


def test_not_msgpack() -> None:
    expect(frame_payload(b"\xc1"), MalformedFrame, ErrorCode.MALFORMED_FRAME)  # never-used byte
    expect(frame_payload(b"\xa3\xff\xfe\xfd"), MalformedFrame, ErrorCode.MALFORMED_FRAME)  # bad UTF-8


def test_two_values_in_one_frame() -> None:
    payload = msgpack.packb(play_map()) + msgpack.packb(1)
    expect(frame_payload(payload), MalformedFrame, ErrorCode.MALFORMED_FRAME)


def test_bin_and_ext_types_are_not_used() -> None:
    expect(frame_of(play_map(body={"card": b"7d", "capture": []})), MalformedFrame, ErrorCode.MALFORMED_FRAME)
    expect(frame_of(play_map(seq=msgpack.ExtType(1, b"x"))), MalformedFrame, ErrorCode.MALFORMED_FRAME)


def test_unknown_name() -> None:
    err = expect(frame_of(play_map(name="teleport")), UnknownCommand, ErrorCode.UNKNOWN_COMMAND)
    assert err.seq == 6


def test_reserved_name_is_unknown_in_this_version() -> None:
    expect(frame_of(play_map(name="resume")), UnknownCommand, ErrorCode.UNKNOWN_COMMAND)


def test_bad_version() -> None:
    err = expect(frame_of(play_map(v=1)), BadVersion, ErrorCode.BAD_VERSION)
    assert err.seq == 6


@pytest.mark.parametrize(
    "changes",
    [
        {"v": "1"},
        {"name": 7},
        {"seq": "6"},
        {"seq": -1},
        {"sender": "bob"},
        {"recipient": "table:"},
        {"re": 1.0},
        {"extra": 1},
    ],
)
def test_bad_envelope(changes: dict[str, Any]) -> None:
    expect(frame_of(play_map(**changes)), BadEnvelope, ErrorCode.BAD_ENVELOPE)


def test_missing_envelope_field() -> None:
    obj = play_map()
    del obj["sender"]
    expect(frame_of(obj), BadEnvelope, ErrorCode.BAD_ENVELOPE)


def test_extra_field_in_body() -> None:
    err = expect(frame_of(play_map(body={"card": "7d", "capture": [], "index": 0})), BadBody, ErrorCode.BAD_BODY)
    assert "index" in err.message


@pytest.mark.parametrize(
    "body",
    [
        {"card": 7, "capture": []},
        {"card": "7d", "capture": "4s"},
        {"card": "7x", "capture": []},
        {"card": "7d", "capture": ["4s", 3]},
        {"card": "7d", "capture": ["4s"] * 41},
        {"capture": []},
        [],
        None,
    ],
)
def test_wrong_type_in_body(body: Any) -> None:
    expect(frame_of(play_map(body=body)), BadBody, ErrorCode.BAD_BODY)


def test_strict_rules_no_coercion() -> None:
    rules = example_commands()["create_table"].model_dump(mode="json")
    rules["body"] = {"rules": {"players": "4"}}
    expect(frame_of(rules), BadBody, ErrorCode.BAD_BODY)
    rules["body"] = {"rules": {"players": 5}}
    expect(frame_of(rules), BadBody, ErrorCode.BAD_BODY)
    rules["body"] = {"rules": {"players": 2, "cirulla": True, "quindici": True}}  # RuleSet's own sense check
    expect(frame_of(rules), BadBody, ErrorCode.BAD_BODY)
    rules["body"] = {"rules": {"players": 4, "capture_mode": "fewest"}}
    assert decode(frame_of(rules)).body.rules.players == 4


def test_overlong_string_in_body() -> None:
    chat = example_commands()["chat"].model_dump(mode="json")
    chat["body"] = {"text": "x" * 501}
    expect(frame_of(chat), BadBody, ErrorCode.BAD_BODY)


def nested_body_frame(depth: int) -> bytes:
    """A play whose card is ``depth`` nested one-element arrays around nil."""
    head = msgpack.packb({"v": 2, "seq": 1, "sender": "player:a", "recipient": "table:1", "name": "play"})
    payload = b"\x86" + head[1:] + msgpack.packb("body") + b"\x81" + msgpack.packb("card") + b"\x91" * depth + b"\xc0"
    return frame_payload(payload)


@pytest.mark.parametrize("depth", [5, 20, 300, 1000])
def test_deep_nesting_in_body(depth: int) -> None:
    expect(nested_body_frame(depth), BadBody, ErrorCode.BAD_BODY)


def test_nesting_beyond_msgpack_stack() -> None:
    expect(nested_body_frame(5000), MalformedFrame, ErrorCode.MALFORMED_FRAME)


def test_deep_nesting_in_envelope() -> None:
    deep: Any = 1
    for _ in range(40):
        deep = [deep]
    expect(frame_of(play_map(re=deep)), BadEnvelope, ErrorCode.BAD_ENVELOPE)


def test_decoder_recovers_after_each_bad_frame() -> None:
    good = encode(EXAMPLES["ping"])
    bad_frames = [
        frame_of([1]),
        frame_of(play_map(name="teleport")),
        frame_of(play_map(v=9)),
        frame_of(play_map(extra=True)),
        frame_of(play_map(body={"card": 1})),
        frame_payload(b"\xc1"),
    ]
    decoder = FrameDecoder()
    decoder.feed(b"".join(bad + good for bad in bad_frames))
    for _ in bad_frames:
        with pytest.raises(RemoteProtocolError):
            decoder.next_command()
        assert decoder.next_command() == EXAMPLES["ping"]
    assert decoder.next_command() is None


def test_trailing_bytes_after_one_frame() -> None:
    with pytest.raises(MalformedFrame):
        decode(encode(EXAMPLES["ping"]) + b"\x00")


def test_error_codes_are_snake_case_and_unique() -> None:
    values = [c.value for c in ErrorCode]
    assert len(values) == len(set(values))
    assert all(v.replace("_", "").isalpha() and v.islower() for v in values)


def test_missing_body_is_an_envelope_error() -> None:
    obj = play_map()
    del obj["body"]
    expect(frame_of(obj), BadEnvelope, ErrorCode.BAD_ENVELOPE)


def test_largest_table_listing_fits_in_a_frame() -> None:
    from scopa.engine.rules import RuleSet
    from scopa.protocol import TableInfo, Tables, TableState, make_command

    from scopa.protocol.convert import rules_to_wire

    rules = rules_to_wire(RuleSet.build("scopone", re_bello=True, napola=True, ponino=True, max_two=True))
    info = TableInfo(
        id="t" * 16, rules=rules, description="d" * 200, seats=["n" * 24] * 6, state=TableState.PLAYING,
        spectators=999,
    )  # fmt: skip
    cmd = make_command(Tables(tables=[info] * 64), seq=2**53, sender="lobby", recipient="player:" + "n" * 24, re=2**53)
    assert len(encode(cmd)) <= MAX_FRAME_SIZE + 4
    assert decode(encode(cmd)) == cmd
