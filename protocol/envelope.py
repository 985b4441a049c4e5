"""The envelope every command travels in, and the tagged union of all commands.

On the wire a command is one msgpack map::

    {"v": 2, "seq": 7, "sender": "player:bob", "recipient": "table:3",
     "re": null, "name": "play", "body": {"card": "7d", "capture": ["3c", "4s"]}}

In Python it is a :class:`Command`; each command name has its own subclass (generated
from the body models) whose ``name`` is a ``Literal``, and :data:`COMMAND_ADAPTER`
decodes any of them in one call, discriminated on ``name``.  Build commands with
:func:`make_command`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import Field, TypeAdapter, create_model

from .commands import BODY_TYPES, Body, WireModel
from .fields import PartyStr, SeqNo

PROTOCOL_VERSION = 2
ENVELOPE_KEYS: frozenset[str] = frozenset({"v", "seq", "sender", "recipient", "re", "name", "body"})


class Command(WireModel):
    """One command: the envelope (version, sequence number, parties, name) and a body.

    ``seq`` numbers the commands one end sends on a connection (1, 2, 3, ...);
    ``re`` is the ``seq`` of the peer's command this one answers, if any.
    """

    v: Literal[2] = PROTOCOL_VERSION
    seq: SeqNo
    sender: PartyStr
    recipient: PartyStr
    re: SeqNo | None = None
    name: str
    body: Body


def _command_class(body_type: type[Body]) -> type[Command]:
    name = body_type.NAME
    cls: type[Command] = create_model(  # type: ignore[call-overload]
        f"{body_type.__name__}Command",
        __base__=Command,
        __module__=__name__,
        __doc__=f"The ``{name}`` command.",
        name=(Literal[name], name),
        body=(body_type, ...),
    )
    return cls


COMMAND_CLASSES: dict[type[Body], type[Command]] = {b: _command_class(b) for b in BODY_TYPES}

AnyCommand = Annotated[Union[tuple(COMMAND_CLASSES.values())], Field(discriminator="name")]  # type: ignore[valid-type]
"""The tagged union of every command class, discriminated on ``name``."""

COMMAND_ADAPTER: TypeAdapter[Any] = TypeAdapter(AnyCommand)


def make_command(
    body: Body,
    *,
    seq: int,
    sender: str,
    recipient: str,
    re: int | None = None,
) -> Command:
    """Wrap ``body`` in its envelope; ``ValueError`` (a pydantic one) if a field is invalid."""
    cls = COMMAND_CLASSES[type(body)]
    return cls(seq=seq, sender=sender, recipient=recipient, re=re, body=body)
