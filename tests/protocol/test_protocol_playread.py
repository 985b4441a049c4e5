"""The decoder's first try at a payload (``scopa.protocol.playread``: a ``play`` read from
its bytes, without the msgpack value or its validation) changes nothing: for any payload,
``unpack_command`` gives the command the general path makes (the same values, types and
fields set) or raises the error it raises (the same type, code, message, seq, name and
recipient); the C twins and the Python twins give the same for the same bytes; and an
ordinary play is read the short way."""

from __future__ import annotations

import struct
import sys
from dataclasses import dataclass
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings, strategies as st

from scopa.protocol import ProtocolError, make_command
from scopa.protocol import codec
from scopa.protocol.codec import pack_command, unpack_command, unpack_general
from scopa.protocol.commands import Pong, PlayCard
from scopa.protocol.envelope import COMMAND_CLASSES
from scopa.protocol.playread import CARDS, MODEL_OF, READ_PLAY

pytestmark = pytest.mark.unit


@dataclass(frozen=True)
class Pairs:
    """A msgpack map as its (key, value) pairs, in order: a key may come twice."""

    items: tuple[tuple[Any, Any], ...]


@dataclass(frozen=True)
class Encoded:
    """A value and the msgpack encoding to write it in (``0``: the shortest; more: a longer
    one where there is one, a signed integer's, a bin's for a string)."""

    value: Any
    form: int


def _uint(value: int, form: int) -> bytes:
    unsigned = [(0x80, None), (0x100, (0xCC, ">B")), (0x10000, (0xCD, ">H")), (2**32, (0xCE, ">I")),
                (2**64, (0xCF, ">Q"))]
    signed = [(0x80, (0xD0, ">b")), (0x8000, (0xD1, ">h")), (2**31, (0xD2, ">i")), (2**63, (0xD3, ">q"))]
    fits = [how for bound, how in unsigned if value < bound]
    fits += [how for bound, how in signed if value < bound]
    how = fits[form % len(fits)]
    return bytes((value,)) if how is None else bytes((how[0],)) + struct.pack(how[1], value)


def _sized(n: int, fixed: int | None, fix_bound: int, tags: list[tuple[int, str]], form: int) -> bytes:
    heads = ([bytes((fixed | n,))] if fixed is not None and n < fix_bound else [])
    heads += [bytes((tag,)) + struct.pack(fmt, n) for tag, fmt in tags if n < 2 ** (8 * struct.calcsize(fmt))]
    return heads[form % len(heads)]


def pack(value: Any, form: int = 0) -> bytes:
    """``value`` as msgpack, in the encoding ``form`` picks (nested :class:`Encoded` values
    pick their own)."""
    if isinstance(value, Encoded):
        return pack(value.value, value.form)
    if value is None or isinstance(value, (bool, float)):
        return msgpack.packb(value)
    if isinstance(value, int):
        return _uint(value, form) if value >= 0 else msgpack.packb(value)
    if isinstance(value, str):
        data = value.encode("utf-8", "surrogatepass")
        if form == 9:  # a bin, which no command has
            return b"\xc4" + bytes((len(data),)) + data
        return _sized(len(data), 0xA0, 32, [(0xD9, ">B"), (0xDA, ">H"), (0xDB, ">I")], form) + data
    if isinstance(value, bytes):
        return value  # raw bytes, written as they are
    if isinstance(value, list):
        return _sized(len(value), 0x90, 16, [(0xDC, ">H"), (0xDD, ">I")], form) + b"".join(map(pack, value))
    assert isinstance(value, Pairs)
    return (_sized(len(value.items), 0x80, 16, [(0xDE, ">H"), (0xDF, ">I")], form)
            + b"".join(pack(k) + pack(v) for k, v in value.items))


VALID_PARTIES = ["player:ada", "table:t1", "lobby", "guest", "player:Niccolò", "player:Zoë", "table:t1/all",
                 "spectators:t1", "player:" + "a" * 24, "table:" + "t" * 16]
PARTIES = VALID_PARTIES + ["player:", "lobby\n", "player:" + "a" * 25, "table:" + "t" * 17, "x", "", "player:ad a",
                           "Player:ada", "player:a×b", "player:\udcff", "table:t1/al"]
CARD_WORDS = ["10d", "7x", "7D", "", "7", "7dd", "A\u00e0", "7\x00"]
NUMBERS = [0, 1, 2, 3, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**53, 2**53 + 1, 2**64 - 1, -1, -33]
ODD = st.sampled_from([None, True, 1.5, -1, "7d", b"\xc1", b"\xc4\x01x", b"\xd4\x01\x00"]) | st.builds(list) | st.builds(
    Pairs, st.just(()))


def _rarely(often: st.SearchStrategy[Any], rare: st.SearchStrategy[Any], one_in: int = 8) -> st.SearchStrategy[Any]:
    # a middle value for the rare one: Hypothesis draws the bounds of a range more often than the rest
    return st.integers(min_value=1, max_value=one_in).flatmap(lambda n: rare if n == one_in // 2 else often)


def _encoded(values: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``values``, often in the shortest encoding, else in a longer one, rarely as a bin."""
    form = _rarely(st.integers(min_value=0, max_value=3), st.just(9), 40)
    return values | st.builds(Encoded, values, form)


def _number() -> st.SearchStrategy[Any]:
    return _encoded(st.sampled_from(NUMBERS) | st.integers(min_value=0, max_value=2**53))


def _map(draw: st.DrawFn, fields: dict[str, st.SearchStrategy[Any]], optional: set[str]) -> Any:
    """A map of ``fields`` in any order: some optional ones left out, sometimes a key left
    out, twice, unknown or not a string, or a value of another type."""
    names = [n for n in fields if n not in optional or draw(st.booleans())]
    if draw(st.integers(min_value=0, max_value=19)) == 10 and names:
        names.remove(draw(st.sampled_from(names)))
    items = [(name, draw(fields[name])) for name in names]
    trouble = draw(st.integers(min_value=0, max_value=29))  # the middle values: see _rarely
    if trouble == 15 and items:
        twice = draw(st.sampled_from(items))[0]
        items.append((twice, draw(fields[twice] | ODD)))
    elif trouble == 14:
        items.append((draw(st.sampled_from(["x", "Card", "body2", ""])), draw(ODD)))
    elif trouble == 16 and items:
        items[draw(st.integers(min_value=0, max_value=len(items) - 1))] = (draw(st.sampled_from([1, None, b"v"])),
                                                                            draw(ODD))
    elif trouble == 17 and items:
        i = draw(st.integers(min_value=0, max_value=len(items) - 1))
        items[i] = (items[i][0], draw(ODD))
    items = draw(st.permutations(items))
    keys = [Encoded(k, draw(st.integers(min_value=0, max_value=3))) if isinstance(k, str) else k for k, _ in items]
    return Encoded(Pairs(tuple(zip(keys, (v for _, v in items)))), draw(st.integers(min_value=0, max_value=2)))


@st.composite
def play_payloads(draw: st.DrawFn) -> bytes:
    """A play payload, often valid, in any encoding, or broken in one of many ways."""
    card = _encoded(_rarely(st.sampled_from(CARDS), st.sampled_from(CARD_WORDS), 10))
    whole_deck = st.permutations(CARDS).flatmap(lambda cards: st.sampled_from([cards[:39], cards, cards + cards[:1]]))
    capture = _rarely(st.lists(card, max_size=6), whole_deck, 10)
    body = st.composite(lambda d: _map(d, {"card": card, "capture": _encoded(capture), "turn": st.none() | _number()},
                                       {"capture", "turn"}))()
    envelope = _map(draw, {
        "v": _encoded(_rarely(st.just(2), st.sampled_from([1, 3]))), "seq": _number(),
        "sender": _encoded(_rarely(st.sampled_from(VALID_PARTIES), st.sampled_from(PARTIES))),
        "recipient": _encoded(_rarely(st.sampled_from(VALID_PARTIES), st.sampled_from(PARTIES))),
        "re": st.none() | _number(), "name": _encoded(_rarely(st.just("play"), st.sampled_from(["pong", "Play", "plays"]))),
        "body": body,
    }, {"re"})
    payload = pack(envelope)
    cut = draw(st.integers(min_value=0, max_value=29))  # the middle values: see _rarely
    if cut == 15:
        payload = payload[:draw(st.integers(min_value=0, max_value=len(payload)))]
    elif cut == 16:
        payload += draw(st.binary(min_size=1, max_size=3))
    elif cut == 17 and payload:
        at = draw(st.integers(min_value=0, max_value=len(payload) - 1))
        payload = payload[:at] + bytes((draw(st.integers(min_value=0, max_value=255)),)) + payload[at + 1:]
    return payload


def outcome(read: Any, payload: bytes) -> tuple[Any, ...]:
    """What ``read`` makes of ``payload``: the command, with its fields' order, types and
    fields set, or the error with everything it says."""
    try:
        command = read(payload)
    except ProtocolError as exc:
        return ("error", type(exc), exc.code, exc.message, exc.seq, exc.name, exc.recipient, exc.fatal)
    body = command.body
    return ("command", type(command), command, list(command.__dict__.items()), command.model_fields_set,
            command.__pydantic_extra__, command.__pydantic_private__, type(body), list(body.__dict__.items()),
            [type(v) for v in body.__dict__.values()], body.model_fields_set, body.__pydantic_extra__,
            body.__pydantic_private__)


@settings(max_examples=3000, deadline=None)
@given(payload=play_payloads())
def test_any_payload_decodes_as_the_general_path_decodes_it(payload: bytes) -> None:
    assert outcome(unpack_command, payload) == outcome(unpack_general, payload)


@settings(max_examples=3000, deadline=None)
@given(payload=play_payloads() | st.binary(max_size=120))
def test_the_twins_read_the_same_fields(payload: bytes) -> None:
    results = {name: twin(payload) for name, twin in READ_PLAY.items()}
    shown = {name: None if r is None else (list(r[0].items()), list(r[1].items()), r[2], r[3])
             for name, r in results.items()}
    assert len({repr(s) for s in shown.values()}) == 1, shown


def _plays() -> list[bytes]:
    bodies = [PlayCard(card="7d"), PlayCard(card="7d", capture=["7c"], turn=0),
              PlayCard(card="Rb", capture=["3s", "4c", "Fd"], turn=2**53), PlayCard(card="Ad", capture=[], turn=None)]
    return [pack_command(make_command(body, seq=seq, sender=sender, recipient=recipient, re=re))
            for body in bodies for seq, re in ((1, None), (300, 7), (2**53, 2**53))
            for sender, recipient in (("player:ada", "table:t1"), ("player:Niccolò", "table:x-1"))]


@pytest.mark.parametrize("payload", _plays())
def test_an_ordinary_play_is_read_the_short_way(payload: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = outcome(unpack_general, payload)
    for twin in READ_PLAY.values():
        assert twin(payload) is not None
    monkeypatch.setattr(codec, "unpack_general", lambda *a, **k: pytest.fail("read the general way"))
    assert outcome(unpack_command, payload) == expected


def test_a_party_name_outside_the_grammar_is_left_to_the_general_path() -> None:
    for sender in ("player:", "lobby\n", "player:" + "a" * 25, "player:a×b"):
        payload = pack_command(make_command(PlayCard(card="7d"), seq=1, sender="player:ada", recipient="table:t1"))
        payload = payload.replace(pack("player:ada"), pack(sender))
        assert all(twin(payload) is not None for twin in READ_PLAY.values())  # read, then checked
        with pytest.raises(ProtocolError) as refused:
            unpack_command(payload)
        assert "sender" in refused.value.message


def test_other_commands_and_other_values_are_not_read_the_short_way() -> None:
    pong = pack_command(make_command(Pong(nonce=3), seq=1, sender="player:ada", recipient="lobby"))
    for twin in READ_PLAY.values():
        assert twin(pong) is None
        assert twin(bytearray(pong)) is None  # type: ignore[arg-type]
        assert twin(b"") is None


def test_the_twins_make_the_same_models() -> None:
    command_class = COMMAND_CLASSES[PlayCard]
    made = []
    for twin in MODEL_OF.values():
        body = twin(PlayCard, {"card": "7d", "capture": ["7c"], "turn": None}, frozenset({"card", "capture"}))
        command = twin(command_class, {"v": 2, "seq": 1, "sender": "player:ada", "recipient": "table:t1", "re": None,
                                       "name": "play", "body": body}, ["v", "seq", "sender", "recipient", "name", "body"])
        made.append((command, command.model_fields_set, body.model_fields_set, command.__pydantic_extra__,
                     body.__pydantic_private__))
        with pytest.raises(TypeError):
            twin(int, {}, ())  # not an object object.__new__ makes
        with pytest.raises(TypeError):
            twin(PlayCard, [("card", "7d")], ())  # type: ignore[arg-type]
    assert all(m == made[0] for m in made)
    assert made[0][0] == unpack_general(pack_command(made[0][0]))


def test_the_cards_are_the_notation_of_the_forty_cards() -> None:
    from scopa.engine import CARDS as ENGINE_CARDS

    assert sorted(CARDS) == sorted(str(c) for c in ENGINE_CARDS)



def test_the_memo_of_parties_read_holds_a_loaded_server_s_players_in_a_small_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every play's sender and recipient is checked once, then remembered: 1,000 players at
    250 tables cost the memo a few dozen kilobytes (not a set's hundred and more)."""
    monkeypatch.setattr(codec, "_PARTIES_SEEN", type(codec._PARTIES_SEEN)())
    seat = 0
    for table in range(250):
        for _ in range(4):
            payload = pack_command(make_command(PlayCard(card="3d"), seq=5, sender=f"player:p{seat}",
                                                recipient=f"table:t{table}"))
            assert unpack_command(payload).body == PlayCard(card="3d")
            seat += 1
    assert len(codec._PARTIES_SEEN) == 1250
    assert sys.getsizeof(codec._PARTIES_SEEN) < 40_000
