"""The words of the key line (the footer) in the language in effect when an app is built.

A class's ``BINDINGS`` are made when its module is imported, which may be before a
command's ``--lang`` (or a test) chooses the language.  Their words are written with
:func:`key_word`, which keeps the English beside the word shown; :func:`follow_language`,
called as an app is built, puts every key's word of the client's screens and widgets
(and of their groups) in the language of that moment."""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode

from ..text import tr


class KeyWord(str):
    """A key's word in the language of the moment it was made; ``english``: what it says in English."""

    english: str


def key_word(english: str) -> KeyWord:
    """``english`` (a key's word: "leave") in the client's language, remembering the English."""
    word = KeyWord(tr(english))
    word.english = english
    return word


def _again(text: str) -> str:
    return key_word(text.english) if isinstance(text, KeyWord) else text


def _said_now(binding: Binding, groups: dict[int, Binding.Group]) -> Binding:
    """``binding`` with its word (and its group's, one group for the keys that shared one) said now."""
    group = binding.group
    if group is not None and isinstance(group.description, KeyWord):
        group = groups.setdefault(id(group), replace(group, description=_again(group.description)))
    return replace(binding, description=_again(binding.description), group=group)


def _ours() -> list[type[DOMNode]]:
    """Every Textual class of this project (a screen, a widget, an app)."""
    found: list[type[DOMNode]] = []
    todo: list[type[DOMNode]] = [DOMNode]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return [cls for cls in found if cls.__module__.startswith(PACKAGE)]


PACKAGE = __name__.split(".")[0] + "."


def follow_language() -> None:
    """Every key's word of the client's Textual classes in the language in effect now;
    an app calls it as it is built, before its screens are (a node takes its class's keys
    when it is made)."""
    groups: dict[int, Binding.Group] = {}
    for cls in _ours():
        merged = cls._merged_bindings
        if merged is not None:
            cls._merged_bindings = BindingsMap.from_keys(
                {key: [_said_now(b, groups) for b in bindings] for key, bindings in merged.key_to_bindings.items()})
