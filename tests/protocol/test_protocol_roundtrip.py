"""Every command round-trips; the stream decoder is indifferent to chunking."""

from __future__ import annotations

import msgpack
import pytest

from scopa.protocol.convert import rules_from_wire, rules_to_wire

from scopa.engine.rules import RuleSet
from scopa.protocol import (
    BODY_TYPES,
    COMMAND_CLASSES,
    COMMAND_NAMES,
    RESERVED_NAMES,
    Command,
    CreateTable,
    FrameDecoder,
    Hello,
    LocalProtocolError,
    PlayCard,
    Welcome,
    decode,
    encode,
    example_commands,
    make_command,
    pack_command,
)

EXAMPLES = example_commands()


def test_examples_cover_every_command_name() -> None:
    assert set(EXAMPLES) == set(COMMAND_NAMES)
    assert {type(c.body) for c in EXAMPLES.values()} == set(BODY_TYPES)
    assert len(COMMAND_NAMES) == len(BODY_TYPES)  # no two bodies share a name
    assert not COMMAND_NAMES & RESERVED_NAMES


@pytest.mark.parametrize("name", sorted(COMMAND_NAMES))
def test_round_trip(name: str) -> None:
    command = EXAMPLES[name]
    frame = encode(command)
    decoded = decode(frame)
    assert decoded == command
    assert type(decoded) is COMMAND_CLASSES[type(command.body)]
    assert decoded.name == name
    assert encode(decoded) == frame


def test_wire_shape_is_a_plain_map() -> None:
    frame = encode(EXAMPLES["play"])
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4
    obj = msgpack.unpackb(frame[4:], raw=False)
    assert obj == {
        "v": 2,
        "seq": 6,
        "sender": "player:ada",
        "recipient": "table:7",
        "re": 10,
        "name": "play",
        "body": {"card": "7d", "capture": ["4s", "3b"], "turn": 4},
    }


def test_rules_travel_as_the_wire_rules_and_convert_back() -> None:
    rules = RuleSet.build("cirulla", players=4)
    cmd = make_command(CreateTable(rules=rules_to_wire(rules)), seq=1, sender="player:a", recipient="lobby")
    back = decode(encode(cmd))
    assert isinstance(back.body, CreateTable) and back.body.rules is not None
    assert rules_from_wire(back.body.rules) == rules
    assert rules_from_wire(back.body.rules).has_teams


def test_make_command_rejects_bad_envelope_values() -> None:
    with pytest.raises(ValueError):
        make_command(PlayCard(card="7d"), seq=1, sender="player:bad name", recipient="table:7")
    with pytest.raises(ValueError):
        make_command(PlayCard(card="7d"), seq=-1, sender="player:ada", recipient="table:7")


def test_bodies_reject_bad_values_at_construction() -> None:
    with pytest.raises(ValueError):
        PlayCard(card="7x")
    with pytest.raises(ValueError):
        PlayCard(card="7d", capture=["Ad"] * 41)
    with pytest.raises(ValueError):
        Hello(name="x" * 25)
    with pytest.raises(ValueError):
        CreateTable(rules=rules_to_wire(RuleSet.build("scopa")), preset="scopa")  # type: ignore[arg-type]


def test_mismatched_name_is_refused_on_encode() -> None:
    body = Welcome(you="player:ada", server="s", protocol=2)
    cmd = Command(seq=1, sender="lobby", recipient="player:ada", name="play", body=body)
    with pytest.raises(LocalProtocolError):
        pack_command(cmd)


def _stream() -> tuple[bytes, list[Command]]:
    commands = list(EXAMPLES.values())
    return b"".join(encode(c) for c in commands), commands


def test_stream_split_at_every_position() -> None:
    # Every position of the stream, each frame cut with its neighbours on both sides:
    # the decoder holds a partial frame after a whole one and finishes it before the next.
    _, commands = _stream()
    frames = [encode(c) for c in commands]
    for i, frame in enumerate(frames):
        first = max(i - 1, 0)
        before = b"".join(frames[first:i])
        after = b"".join(frames[i + 1 : i + 2])
        expected = commands[first : i + 2]
        for cut in range(len(frame) + 1):
            decoder = FrameDecoder()
            out: list[Command] = []
            decoder.feed(before + frame[:cut])
            out.extend(decoder)
            decoder.feed(frame[cut:] + after)
            out.extend(decoder)
            assert out == expected, f"frame {i} split at {cut}"
            assert decoder.buffered == 0


def test_stream_fed_byte_by_byte() -> None:
    stream, commands = _stream()
    decoder = FrameDecoder()
    out: list[Command] = []
    for i in range(len(stream)):
        decoder.feed(stream[i : i + 1])
        out.extend(decoder)
    assert out == commands
    decoder.close()  # nothing left over: no error


def test_stream_split_in_three_everywhere_for_one_frame() -> None:
    frame = encode(EXAMPLES["your_turn"])
    for a in range(0, len(frame) + 1, 7):
        for b in range(a, len(frame) + 1, 5):
            decoder = FrameDecoder()
            got = []
            for part in (frame[:a], frame[a:b], frame[b:]):
                decoder.feed(part)
                got.extend(decoder)
            assert got == [EXAMPLES["your_turn"]]
