"""Wire body and value classes are named apart from the engine's types.

The engine's ``Deal`` is a shuffled deck while the wire's ``deal`` is one seat's hand;
``Play``, ``View`` and the rest differ the same way.  One name for two things makes
code that imports both read wrong, so no public name of ``scopa.protocol`` that is a
class may also be a public class of ``scopa.engine`` unless it is the very same object
(shared enums such as ``DeclarationKind``).
"""

from __future__ import annotations

import inspect

import scopa.engine as engine
import scopa.protocol as protocol
from scopa.protocol import commands
from scopa.protocol.envelope import COMMAND_CLASSES


def _public_classes(module: object) -> dict[str, type]:
    return {name: obj for name, obj in vars(module).items()
            if not name.startswith("_") and inspect.isclass(obj)}


def test_no_wire_class_shares_a_name_with_a_different_engine_class() -> None:
    ours = _public_classes(engine)
    clashes = sorted(name for name, cls in {**_public_classes(protocol), **_public_classes(commands)}.items()
                     if name in ours and ours[name] is not cls)
    assert clashes == []


def test_every_body_class_is_named_apart_from_the_engine() -> None:
    ours = set(_public_classes(engine))
    bodies = {body.__name__ for body in COMMAND_CLASSES}
    assert len(bodies) > 40, "the envelope lists its bodies"
    assert not ours & bodies


def test_the_renamed_bodies_keep_their_wire_names() -> None:
    # Class names changed; the names on the wire did not (PROTOCOL.md section 8).
    assert commands.PlayCard.NAME == "play"
    assert commands.MakeDeclaration.NAME == "declare"
    assert commands.CardPlayed.NAME == "played"
    assert commands.DeclarationMade.NAME == "declared"
    assert commands.HandDeal.NAME == "deal"
