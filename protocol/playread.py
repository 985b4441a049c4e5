"""The fields of a ``play`` command's msgpack payload, read without building the msgpack
value: :func:`read_play`, the codec's first try at a payload (a seat's moves are most of
what a server reads).

It decides nothing the codec does not.  It takes only a payload that is one map of the
envelope's keys, each once (``re`` may be left out), whose ``v`` is 2, ``name`` is
``"play"`` and ``body`` a map of the play's keys, each once (``card``, and ``capture``
and ``turn`` may be left out): unsigned integers up to 2**53 for ``seq``, ``re`` and
``turn`` (``re`` and ``turn`` may be nil), UTF-8 strings for the parties, one of
:data:`CARDS` for ``card`` and an array of distinct ones for ``capture``; and nothing
after the map.  Anything else (another command, a key twice or unknown, another type or
encoding, a value out of bounds, a payload that is not ``bytes``) is None, and :func:`scopa.protocol.codec.unpack_command`
reads the payload the general way and says what is wrong.  The party names are returned
as they are: the caller checks them against the party grammar.

The result: ``(envelope, body, keys, body_keys)``: the values of the play command's
fields and of its body's, as dictionaries in the models' field order (left-out ones
have their defaults; the envelope's ``body`` is None, for the caller to set), and
for each, the keys the payload has: a bit for each (:data:`ENVELOPE_BITS`,
:data:`BODY_BITS`).  :func:`model_of` makes a model of such values, as its validation
would have made it.

Their C twins come from ``_playread.c`` when that was built (``pip install`` builds it
when a C compiler is there), else the Python twins, :func:`read_play_python` and
:func:`model_of_python`, are used; both give the same result for the same arguments.
``READ_PLAY`` and ``MODEL_OF`` hold every twin that can be imported here, by name, for
tests that run each over the same inputs; ``IMPLEMENTATION`` names the ones in use
(``SCOPA_SPEEDUPS=python`` in the environment picks the Python twins).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from .commands import PlayCard
from .envelope import PROTOCOL_VERSION
from .fields import CARD_PATTERN
from scopa.engine.twins import Twin, chosen

PlayFields = tuple[dict[str, Any], dict[str, Any], int, int]
ReadPlay = Callable[[bytes], PlayFields | None]
Model = TypeVar("Model", bound=BaseModel)

_CARD_RE = re.compile(CARD_PATTERN)
CARDS: tuple[str, ...] = tuple(a + b for a in string.printable for b in string.printable
                               if _CARD_RE.fullmatch(a + b))
"""Every card notation :data:`~scopa.protocol.fields.CARD_PATTERN` allows (each is two
ASCII characters)."""

ENVELOPE_BITS = {"v": 1, "seq": 2, "sender": 4, "recipient": 8, "re": 16, "name": 32, "body": 64}
BODY_BITS = {"card": 1, "capture": 2, "turn": 4}
_ENVELOPE_KEYS = {key.encode(): bit for key, bit in ENVELOPE_BITS.items()}
_BODY_KEYS = {key.encode(): bit for key, bit in BODY_BITS.items()}
_REQUIRED = 1 | 2 | 4 | 8 | 32 | 64  # every envelope key but re
_MAX_NUMBER = 2**53
_MAX_CAPTURE = 64  # more than there are cards: such an array has a card twice
_PLAY_NAME = PlayCard.NAME.encode()
_CARD_INDEX = {card.encode(): i for i, card in enumerate(CARDS)}


class _NotAPlay(Exception):
    """The payload is not one :func:`read_play_python` reads."""


class _Reader:
    __slots__ = ("data", "at")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, n: int) -> bytes:
        if len(self.data) - self.at < n:
            raise _NotAPlay
        chunk = self.data[self.at:self.at + n]
        self.at += n
        return chunk

    def header(self, fix_lo: int, fix_hi: int, fix_mask: int, tags: dict[int, int]) -> int:
        tag = self.take(1)[0]
        if fix_lo <= tag <= fix_hi:
            return tag & fix_mask
        size = tags.get(tag)
        if size is None:
            raise _NotAPlay
        return int.from_bytes(self.take(size), "big")

    def string(self) -> bytes:
        return self.take(self.header(0xA0, 0xBF, 0x1F, {0xD9: 1, 0xDA: 2, 0xDB: 4}))

    def map(self) -> int:
        return self.header(0x80, 0x8F, 0x0F, {0xDE: 2, 0xDF: 4})

    def array(self) -> int:
        return self.header(0x90, 0x9F, 0x0F, {0xDC: 2, 0xDD: 4})

    def number(self) -> int:
        tag = self.take(1)[0]
        if tag < 0x80:
            return tag
        size = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8}.get(tag)
        if size is None:
            raise _NotAPlay
        value = int.from_bytes(self.take(size), "big")
        if value > _MAX_NUMBER:
            raise _NotAPlay
        return value

    def optional_number(self) -> int | None:
        if self.data[self.at:self.at + 1] == b"\xc0":
            self.at += 1
            return None
        return self.number()

    def card(self) -> int:
        index = _CARD_INDEX.get(self.string())
        if index is None:
            raise _NotAPlay
        return index

    def party(self) -> str:
        try:
            return self.string().decode("utf-8")
        except UnicodeDecodeError:
            raise _NotAPlay from None


def read_play_python(payload: bytes) -> PlayFields | None:
    """The Python twin of :func:`read_play` (see the module's docstring)."""
    if type(payload) is not bytes:
        return None
    r = _Reader(payload)
    envelope: dict[str, Any] = {"v": PROTOCOL_VERSION, "seq": None, "sender": None, "recipient": None, "re": None,
                                "name": PlayCard.NAME, "body": None}
    body: dict[str, Any] = {"card": None, "capture": [], "turn": None}
    keys = body_keys = 0
    try:
        for _ in range(r.map()):
            bit = _ENVELOPE_KEYS.get(r.string(), 0)
            if bit == 0 or keys & bit:
                return None
            keys |= bit
            if bit == 1:
                if r.number() != PROTOCOL_VERSION:
                    return None
            elif bit == 2:
                envelope["seq"] = r.number()
            elif bit == 4:
                envelope["sender"] = r.party()
            elif bit == 8:
                envelope["recipient"] = r.party()
            elif bit == 16:
                envelope["re"] = r.optional_number()
            elif bit == 32:
                if r.string() != _PLAY_NAME:
                    return None
            else:
                body_keys = _read_body(r, body)
    except _NotAPlay:
        return None
    if keys & _REQUIRED != _REQUIRED or r.at != len(payload):
        return None
    return envelope, body, keys, body_keys


def _read_body(r: _Reader, body: dict[str, Any]) -> int:
    """Read a play's body into ``body``: the bits of the keys it has."""
    body_keys = 0
    for _ in range(r.map()):
        bit = _BODY_KEYS.get(r.string(), 0)
        if bit == 0 or body_keys & bit:
            raise _NotAPlay
        body_keys |= bit
        if bit == 1:
            body["card"] = CARDS[r.card()]
        elif bit == 2:
            count = r.array()
            if count > _MAX_CAPTURE:
                raise _NotAPlay
            indexes = [r.card() for _ in range(count)]
            if len(set(indexes)) != count:
                raise _NotAPlay
            body["capture"] = [CARDS[i] for i in indexes]
        else:
            body["turn"] = r.optional_number()
    if not body_keys & 1:
        raise _NotAPlay
    return body_keys


def model_of_python(cls: type[Model], values: dict[str, Any], names: Iterable[str]) -> Model:
    """The Python twin of :func:`model_of`: ``object.__new__(cls)`` with ``values`` as its
    ``__dict__`` and ``set(names)`` its fields set, as pydantic's ``model_construct`` makes
    a model (``values`` are what validation made of them: nothing is checked)."""
    if not isinstance(cls, type) or type(values) is not dict:
        raise TypeError("model_of(cls, values: dict, names)")
    if cls.__new__ is not object.__new__:
        raise TypeError("model_of() makes only objects that object.__new__ makes")
    model = object.__new__(cls)
    object.__setattr__(model, "__dict__", values)
    object.__setattr__(model, "__pydantic_fields_set__", set(names))
    object.__setattr__(model, "__pydantic_extra__", None)
    object.__setattr__(model, "__pydantic_private__", None)
    return model


class MakeModel(Protocol):
    """The signature of :func:`model_of`'s twins."""

    def __call__(self, cls: type[Model], values: dict[str, Any], names: Iterable[str], /) -> Model: ...


READ_PLAY: dict[Twin, ReadPlay] = {"python": read_play_python}
MODEL_OF: dict[Twin, MakeModel] = {"python": model_of_python}
try:
    from ._playread import init as _c_init, model_of as _c_model_of, read_play as _c_read_play
except ImportError:  # pragma: no cover - depends on the install
    pass
else:
    _c_init(CARDS, PROTOCOL_VERSION, PlayCard.NAME)
    READ_PLAY["c"] = _c_read_play
    MODEL_OF["c"] = _c_model_of

IMPLEMENTATION: Twin = chosen(READ_PLAY)
read_play: ReadPlay = READ_PLAY[IMPLEMENTATION]
"""The fields of a valid ``play`` command's payload, or None: see the module's docstring."""
model_of: MakeModel = MODEL_OF[IMPLEMENTATION]
"""``model_of(cls, values, names)``: a model of values its validation made (see
:func:`model_of_python`)."""
