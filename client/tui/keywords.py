"""The words of the key line (the footer) in the language in effect when an app is built.

A class's ``BINDINGS`` are made when its module is imported, which may be before a
command's ``--lang`` (or a test) chooses the language.  Their words are written with
:func:`key_word`, which keeps the English beside the word shown; after
:func:`follow_language` (called as the package is imported and as an app is built) each
screen or widget of the client says its keys' words (and their groups') in the language
in effect when it is made."""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode

from ..text import current_language, tr


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


class _KeysNow:
    """A class's keys, read by each node as it is made: their words in the language of
    that moment."""

    def __init__(self, merged: BindingsMap) -> None:
        self.merged = merged
        self.said: dict[str, BindingsMap] = {}

    def __get__(self, node: object, owner: type | None = None) -> BindingsMap:
        lang = current_language()
        if lang not in self.said:
            groups: dict[int, Binding.Group] = {}
            self.said[lang] = BindingsMap.from_keys(
                {key: [_said_now(b, groups) for b in bindings] for key, bindings in self.merged.key_to_bindings.items()})
        return self.said[lang]


def follow_language() -> None:
    """From now on every node of the client's Textual classes takes its keys with their
    words in the language in effect when the node is made (once for each class; a class
    made after this call needs it again: an app calls it as it is built)."""
    for cls in _ours():
        merged = cls.__dict__.get("_merged_bindings")
        if isinstance(merged, BindingsMap):
            setattr(cls, "_merged_bindings", _KeysNow(merged))


NAMED_KEYS = {"esc": "Esc", "tab": "Tab", "enter": "Enter", "space": "Space", "home": "Home", "end": "End"}
"""Keys with a name, as they are written on the keyboard (and in the help)."""


def shown_key(display: str) -> str:
    """A key as the key line writes it: as on the keyboard (``F1``, ``Esc``), not as
    Textual names it (``f1``, ``esc``); a letter or a sign as it is."""
    if len(display) > 1 and display[0] == "f" and display[1:].isdigit():
        return display.upper()
    return NAMED_KEYS.get(display, display)
