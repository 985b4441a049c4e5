"""Commands to bytes and back: msgpack payloads, whole frames, and a streaming decoder.

Decoding checks, in order, and raises the first matching error:

1. the payload is one msgpack value, without bin or ext types  → :class:`MalformedFrame`
2. it is a map                                                   → :class:`MalformedFrame`
3. ``v`` is an integer and ``name`` a string                     → :class:`BadEnvelope`
4. ``v`` is :data:`PROTOCOL_VERSION`                             → :class:`BadVersion`
5. ``name`` is a command name                                    → :class:`UnknownCommand`
6. no map holds a key twice                                      → :class:`BadEnvelope` / :class:`BadBody`
7. the envelope fields are complete, typed, and nothing extra    → :class:`BadEnvelope`
8. the body matches the command's model                          → :class:`BadBody`

A valid ``play`` (most of what a server reads) is read first without the msgpack value
or its validation (:func:`~scopa.protocol.playread.read_play`): only a payload for which
every check above passes is taken that way, and it gives the command validation makes;
anything else is decoded the general way (:func:`unpack_general`), which says what is
wrong.

Validation is strict: the decoded msgpack value is checked as JSON-like data (nil,
bool, int, float, str, array, map with string keys), so ``"5"`` is never an integer
and ``1.0`` never a seat.

``lenient=True`` is how a client reads what a server sends (PROTOCOL.md §2): keys it
does not know, in the envelope or anywhere in a body, are dropped before validation,
so a newer server's additions do not break it.  Types stay strict.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
import types
import typing
from typing import Any, TypedDict

import msgpack
from pydantic import BaseModel, ValidationError

from .commands import BODY_BY_NAME, Body, PlayCard
from .envelope import COMMAND_ADAPTER, COMMAND_CLASSES, ENVELOPE_KEYS, PROTOCOL_VERSION, Command
from .errors import (
    BadBody,
    BadEnvelope,
    BadVersion,
    LocalProtocolError,
    MalformedFrame,
    UnknownCommand,
)
from .framing import MAX_FRAME_SIZE, FrameBuffer, frame_payload
from .parties import PARTY_MAX_LENGTH, PARTY_PATTERN, is_party
from .playread import BODY_BITS, ENVELOPE_BITS, PlayFields, model_of, read_play

# Limits well above anything a valid command needs, well below what hurts.
_MAX_ARRAY_LEN = 4096
_MAX_MAP_LEN = 256
MAX_DEPTH = 16
"""Deepest nesting of arrays and maps in a command (valid ones need 6)."""


def pack_command(command: Command) -> bytes:
    """The msgpack payload of ``command`` (no length prefix)."""
    if command.name != command.body.NAME:
        raise LocalProtocolError(
            f"command name {command.name!r} does not match its {type(command.body).__name__} body; "
            "build commands with make_command()"
        )
    return msgpack.packb(command.model_dump(mode="json"), use_bin_type=True)


def pack_body(body: Body) -> bytes:
    """The msgpack value of a body alone: pack it once and send it to many (a table's
    broadcast) with :func:`pack_envelope`."""
    return pack_data(body.model_dump(mode="json"))


_PACKER = msgpack.Packer(use_bin_type=True)


pack_data: Callable[[Any], bytes] = _PACKER.pack
"""``msgpack.packb(data)``, with one packer kept for every call (building a packer
costs more than packing a small body); a failed call leaves it empty.  The packer's own
method, not a function calling it: every move packs its ``played`` with it."""


def with_key(payload: bytes, key: str, value: Any) -> bytes:
    """A packed map (``payload``, fewer than 15 keys, ``key`` not among them) with ``key``
    set to ``value``: the map's header counts one key more and the pair goes at its end,
    so a body packed once (``your_turn``) is told again with a field of the moment."""
    if not payload or not 0x80 <= payload[0] < 0x8F:
        raise ValueError("with_key needs a packed map of fewer than 15 keys")
    packed_key = _PACKED_NAMES.get(key)
    if packed_key is None:
        packed_key = pack_data(key)
    packed = pack_uint(value) if type(value) is int and value >= 0 else pack_data(value)
    return b"".join((_SMALL_UINTS[payload[0] + 1], memoryview(payload)[1:], packed_key, packed))


_SMALL_UINTS = tuple(bytes((n,)) for n in range(0x100))  # 0x80 up: the one-byte map headers too
_PACKED_NAMES = {name: msgpack.packb(name) for name in ("turn_left_ms",)}


def pack_uint(n: int) -> bytes:
    """A non-negative integer as msgpack packs it (its shortest form), made without a
    packer: every frame's ``seq``."""
    if 0 <= n < 0x80:
        return _SMALL_UINTS[n]
    if n < 0:
        raise ValueError(f"{n} is negative")
    if n <= 0xFF:
        return b"\xcc" + n.to_bytes(1, "big")
    if n <= 0xFFFF:
        return b"\xcd" + n.to_bytes(2, "big")
    if n <= 0xFFFFFFFF:
        return b"\xce" + n.to_bytes(4, "big")
    return b"\xcf" + n.to_bytes(8, "big")


_PACKED_V = msgpack.packb("v") + msgpack.packb(PROTOCOL_VERSION)
_PACKED_KEYS = {key: msgpack.packb(key) for key in ("seq", "sender", "recipient", "re", "name", "body")}
_PACKED_NIL = msgpack.packb(None)
_PACKED_HEAD = b"\x87" + _PACKED_V + _PACKED_KEYS["seq"]  # a map of the 7 envelope keys, v, then seq's key


def pack_envelope(*, seq: int, sender: str, recipient: str, re: int | None, name: str, body: bytes) -> bytes:
    """The payload of a command whose body is packed already (:func:`pack_body`): the same
    bytes :func:`pack_command` makes of that command, with no model built for the
    envelope.  The caller vouches for the envelope fields (:class:`~scopa.protocol.Connection`
    checks the parties and numbers the commands)."""
    return envelope_head(seq) + envelope_tail(sender=sender, recipient=recipient, re=re, name=name, body=body)


ENVELOPE_HEAD_UINT16 = _PACKED_HEAD + b"\xcd"
"""The start of :func:`envelope_head` for a ``seq`` of 0x100..0xFFFF, which its two bytes
(big-endian) end: most of a connection's frames, packed inline by the sender."""


def envelope_head(seq: int) -> bytes:
    """The packed start of an envelope, up to and including its ``seq``: the only part
    of a broadcast that differs from one connection to the next."""
    return _PACKED_HEAD + pack_uint(seq)


def envelope_tail(*, sender: str, recipient: str, re: int | None, name: str, body: bytes) -> bytes:
    """The packed rest of an envelope after its ``seq`` (see :func:`envelope_head`)."""
    k = _PACKED_KEYS
    pack = _PACKER.pack  # the names are packed each time: a memo per party would cost a server more than this
    return b"".join((
        k["sender"], pack(sender), k["recipient"], pack(recipient),
        k["re"], _PACKED_NIL if re is None else pack_uint(re), k["name"], pack(name), k["body"], body,
    ))  # fmt: skip


def encode(command: Command, *, max_frame_size: int = MAX_FRAME_SIZE) -> bytes:
    """One whole frame: the 4-byte length prefix and the msgpack payload."""
    return frame_payload(pack_command(command), max_frame_size=max_frame_size)


class _DuplicateKeyMap(dict[Any, Any]):
    """A decoded msgpack map in which a key appeared more than once."""

    duplicate: str = ""


_duplicate_maps = [0]
"""How many maps with a key twice the decoder has met: a decode after which it has not
changed met none (one that has may have, and takes the full checks)."""


def _map_from_pairs(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    out = dict(pairs)
    if len(out) == len(pairs):
        return out
    _duplicate_maps[0] += 1
    seen: set[Any] = set()
    marked = _DuplicateKeyMap(out)
    for key, _ in pairs:
        if key in seen:
            marked.duplicate = str(key)[:40]
            break
        seen.add(key)
    return marked


def _inspect(value: Any, limit: int) -> tuple[bool, str | None]:
    """Whether arrays/maps nest deeper than ``limit``, and the first key found twice in a
    map anywhere inside ``value`` (one iterative walk: no recursion to exhaust)."""
    duplicate: str | None = None
    stack: list[tuple[Any, int]] = [(value, 1)] if isinstance(value, (list, dict)) else []
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True, duplicate
        if isinstance(item, dict):
            if duplicate is None and type(item) is _DuplicateKeyMap:
                duplicate = item.duplicate
            children: Any = item.values()
        else:
            children = item
        deeper = depth + 1
        stack.extend((child, deeper) for child in children if isinstance(child, (list, dict)))
    return False, duplicate


Pruner = Callable[[Any], Any]
_PRUNERS: dict[int, tuple[Any, Pruner | None]] = {}


def _pruner(annotation: Any) -> Pruner | None:
    """A function dropping the map keys ``annotation`` (a wire type) does not know from a
    value of that type; None when nothing inside it can hold a map.  Built once per type."""
    cached = _PRUNERS.get(id(annotation))
    if cached is not None and cached[0] is annotation:
        return cached[1]
    made = _make_pruner(annotation)
    _PRUNERS[id(annotation)] = (annotation, made)
    return made


def _make_pruner(annotation: Any) -> Pruner | None:
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _pruner(typing.get_args(annotation)[0])
    if origin is typing.Union or origin is types.UnionType:
        models = [a for a in typing.get_args(annotation) if isinstance(a, type) and issubclass(a, BaseModel)]
        return _pruner(models[0]) if len(models) == 1 else None
    if origin is list:
        item = _pruner(typing.get_args(annotation)[0])
        if item is None:
            return None
        return lambda value: [item(v) for v in value] if isinstance(value, list) else value
    if origin is dict:
        inner = _pruner(typing.get_args(annotation)[1])
        if inner is None:
            return None
        return lambda value: {k: inner(v) for k, v in value.items()} if isinstance(value, dict) else value
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        fields: dict[str, Pruner | None] = {}
        _PRUNERS[id(annotation)] = (annotation, lambda value: prune_model(value))  # recursive models
        fields.update({name: _pruner(f.annotation) for name, f in annotation.model_fields.items()})

        def prune_model(value: Any) -> Any:
            if not isinstance(value, dict):
                return value
            out = {}
            for key, item in value.items():
                if key in fields:
                    inner = fields[key]
                    out[key] = item if inner is None else inner(item)
            return out

        return prune_model
    return None


def _prune(value: Any, annotation: Any) -> Any:
    """``value`` without the map keys that ``annotation`` (a wire model type) does not know."""
    pruner = _pruner(annotation)
    return value if pruner is None else pruner(value)


_PLAIN_BODIES = frozenset({"play", "pong"})
"""Commands whose every field (envelope and body) is a string, an integer, null or a list
of strings: strict validation of the decoded value accepts exactly what strict JSON
validation accepts (no enum, tuple, float or free-form field, where the two differ), so
a valid one skips the JSON text.  What either path refuses goes through the JSON path."""


def _unpack(payload: bytes) -> Any:
    try:
        return msgpack.unpackb(
            payload,
            raw=False,
            strict_map_key=True,
            object_pairs_hook=_map_from_pairs,
            use_list=True,
            max_str_len=len(payload),
            max_bin_len=0,
            max_ext_len=0,
            max_array_len=_MAX_ARRAY_LEN,
            max_map_len=_MAX_MAP_LEN,
        )
    except (ValueError, TypeError, msgpack.UnpackException, RecursionError, MemoryError) as exc:
        # ValueError covers ExtraData, FormatError, StackError, bad UTF-8 and over-limit lengths.
        raise MalformedFrame(f"payload is not one msgpack value: {type(exc).__name__}: {exc}") from None


def _seq_of(obj: dict[Any, Any]) -> int | None:
    seq = obj.get("seq")
    return seq if type(seq) is int and 0 <= seq <= 2**53 else None


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False)[:5]:
        loc = ".".join(str(x) for x in err["loc"][1:])  # [0] is the union tag
        parts.append(f"{loc or 'command'}: {err['msg']}")
    return "; ".join(parts)


class _About(TypedDict):
    """What an error about a command can say of it (the keywords of a ProtocolError)."""

    seq: int | None
    name: str | None
    recipient: str | None


def _recipient_of(obj: dict[Any, Any]) -> str | None:
    recipient = obj.get("recipient")
    return recipient if type(recipient) is str and is_party(recipient) else None


_PARTY_RE = re.compile(PARTY_PATTERN)
_PARTIES_SEEN: dict[str, None] = {}
_MAX_PARTIES_SEEN = 4096
"""Party names found valid (a bounded memo: a server reads the same few again and again).
A dict, not a set: as fast to ask, and a third of a set's size for the same names."""


def _valid_party(text: str) -> bool:
    """Whether ``text`` is a party as the envelope's validation has it (its pattern, whole,
    and its length)."""
    if text in _PARTIES_SEEN:
        return True
    if len(text) > PARTY_MAX_LENGTH or _PARTY_RE.fullmatch(text) is None:
        return False
    if len(_PARTIES_SEEN) >= _MAX_PARTIES_SEEN:
        _PARTIES_SEEN.clear()
    _PARTIES_SEEN[text] = None
    return True


def _named(bits: dict[str, int]) -> list[frozenset[str]]:
    """For each set of ``bits`` (a number), the names of its bits."""
    return [frozenset(name for name, bit in bits.items() if n & bit) for n in range(2 ** len(bits))]


_ENVELOPE_SETS = _named(ENVELOPE_BITS)
_BODY_SETS = _named(BODY_BITS)
_PLAY_COMMAND = COMMAND_CLASSES[PlayCard]


def _play_command(fields: PlayFields) -> Command | None:
    """The command :func:`read_play` read, as validation would have made it (the same
    values and fields set); None if a party is not one (the general path says so)."""
    envelope, body, keys, body_keys = fields
    seen = _PARTIES_SEEN
    if not ((envelope["sender"] in seen or _valid_party(envelope["sender"]))
            and (envelope["recipient"] in seen or _valid_party(envelope["recipient"]))):
        return None
    envelope["body"] = model_of(PlayCard, body, _BODY_SETS[body_keys])
    return model_of(_PLAY_COMMAND, envelope, _ENVELOPE_SETS[keys])


def unpack_command(payload: bytes, *, lenient: bool = False) -> Command:
    """Decode one msgpack payload into a typed command, or raise a :class:`ProtocolError`.

    ``lenient``: drop unknown keys instead of refusing them (a client reading a server)."""
    fields = read_play(payload)
    if fields is not None:  # a valid play, read without the msgpack value (the usual case on a server)
        command = _play_command(fields)
        if command is not None:
            return command
    return unpack_general(payload, lenient=lenient)


def unpack_general(payload: bytes, *, lenient: bool = False) -> Command:
    """:func:`unpack_command` without its first try (:func:`read_play`): every payload
    decoded as a msgpack value and validated."""
    duplicates = _duplicate_maps[0]
    obj = _unpack(payload)
    if not isinstance(obj, dict):
        raise MalformedFrame(f"payload is a msgpack {type(obj).__name__}, not a map")
    seq = _seq_of(obj)
    v, name = obj.get("v"), obj.get("name")
    if type(v) is not int:
        raise BadEnvelope("'v' (protocol version) must be an integer", seq=seq)
    if v != PROTOCOL_VERSION:
        raise BadVersion(f"protocol version {v} is not supported; this end speaks {PROTOCOL_VERSION}", seq=seq)
    if type(name) is not str:
        raise BadEnvelope("'name' must be a string", seq=seq)
    if name not in BODY_BY_NAME:
        raise UnknownCommand(f"unknown command {name[:40]!r}", seq=seq, name=name[:40])
    if name in _PLAIN_BODIES and duplicates == _duplicate_maps[0] and "body" in obj:
        # The usual case, without the JSON text (the same rules hold for these bodies).
        # No map had a key twice, and nothing nested deeper than a list of strings passes
        # their validation: the walk below could not refuse what it takes.  One with keys
        # this end does not know (lenient) is refused here and pruned below.
        try:
            command: Command = COMMAND_ADAPTER.validate_python(obj, strict=True)
            return command
        except ValidationError:
            pass  # the JSON path below says what is wrong, as for every command
    about: _About = {"seq": seq, "name": name, "recipient": _recipient_of(obj)}
    if isinstance(obj, _DuplicateKeyMap):
        raise BadEnvelope(f"{name}: the key {obj.duplicate!r} appears twice in the envelope", **about)
    if "body" not in obj:
        raise BadEnvelope(f"{name}: 'body' is missing", **about)
    body_deep, body_duplicate = _inspect(obj["body"], MAX_DEPTH - 1)
    if body_deep:
        raise BadBody(f"body nests deeper than {MAX_DEPTH} levels", **about)
    envelope_deep, envelope_duplicate = _inspect({k: v for k, v in obj.items() if k != "body"}, MAX_DEPTH)
    if envelope_deep:
        raise BadEnvelope(f"envelope nests deeper than {MAX_DEPTH} levels", **about)
    if envelope_duplicate is not None:
        raise BadEnvelope(f"{name}: the key {envelope_duplicate!r} appears twice in a map", **about)
    if body_duplicate is not None:
        raise BadBody(f"{name}: the key {body_duplicate!r} appears twice in a map", **about)
    if lenient:
        obj = {k: v for k, v in obj.items() if k in ENVELOPE_KEYS}
        obj["body"] = _prune(obj["body"], BODY_BY_NAME[name])
    try:
        text = json.dumps(obj, allow_nan=False, check_circular=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise BadBody(f"value not allowed in a command: {exc}", **about) from None
    try:
        command = COMMAND_ADAPTER.validate_json(text, strict=True)
    except ValidationError as exc:
        in_body = any(len(e["loc"]) > 1 and e["loc"][1] == "body" for e in exc.errors())
        error = BadBody if in_body else BadEnvelope
        raise error(f"{name}: {_describe(exc)}", **about) from None
    except (ValueError, RecursionError) as exc:  # pragma: no cover - defensive
        raise BadBody(f"{name}: {exc}", **about) from None
    return command


def decode(frame: bytes, *, max_frame_size: int = MAX_FRAME_SIZE, lenient: bool = False) -> Command:
    """Decode exactly one whole frame (prefix and payload)."""
    buffer = FrameBuffer(max_frame_size=max_frame_size)
    buffer.feed(frame)
    payload = buffer.next_payload()
    if payload is None:
        buffer.close()
        raise MalformedFrame("empty frame")
    if buffer.buffered:
        raise MalformedFrame(f"{buffer.buffered} bytes after the end of the frame")
    return unpack_command(payload, lenient=lenient)


class FrameDecoder(FrameBuffer):
    """Feed bytes in any chunks; get whole typed commands out (a :class:`FrameBuffer`
    whose payloads come out decoded).

    >>> from scopa.protocol import Ping, make_command
    >>> frame = encode(make_command(Ping(nonce=1), seq=1, sender="lobby", recipient="player:bob"))
    >>> d = FrameDecoder()
    >>> d.feed(frame[:3]); d.next_command() is None
    True
    >>> d.feed(frame[3:]); d.next_command().body
    Ping(nonce=1)

    A bad frame raises its :class:`ProtocolError` once and is skipped, so the next
    frame decodes normally; only :class:`FrameTooLarge` (``fatal``) ends the stream.
    """

    __slots__ = ('lenient',)

    def __init__(self, *, max_frame_size: int = MAX_FRAME_SIZE, lenient: bool = False) -> None:
        super().__init__(max_frame_size=max_frame_size)
        self.lenient = lenient

    def next_command(self) -> Command | None:
        """The next whole command, ``None`` if more bytes are needed."""
        payload = self.next_payload()
        return None if payload is None else unpack_command(payload, lenient=self.lenient)

    def __iter__(self) -> Iterator[Command]:
        """Every command now complete (stops at the first error, which it raises)."""
        while (command := self.next_command()) is not None:
            yield command
