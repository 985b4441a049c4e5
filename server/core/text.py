"""Free text from clients, made safe to relay and to log; and what makes a name taken.

Chat text and ``hello.client`` reach other people's terminals and the server's log.  A
terminal obeys escape sequences (ANSI CSI: clear the screen, move the cursor; OSC: set
the window title, write the clipboard), so the server removes every control character
(Unicode categories Cc and Cf: C0 and C1 controls, ESC, BEL, bidirectional overrides,
zero-width characters) before relaying or logging a client's text.  Without its ESC or
BEL the rest of a sequence is harmless printable text.

Names are already restricted by the protocol (letters, accented Latin ones too, digits,
``_``, ``.``, ``-``; ``protocol.parties.NAME_PATTERN``).  Two names are the same name when
they look alike: :func:`name_key` folds letter case, the characters that Unicode's
confusables data (the ``confusable_homoglyphs`` package) says can be mistaken for one
another (``l``, ``I`` and ``1``; ``O`` and ``0``; ``rn`` and ``m``) and the separators
``.``, ``_`` and ``-`` — so ``bill``, ``BILL``, ``biII``, ``bi1l``, ``b1ll`` and ``bil.l``
are one name, online, for a claimed account and on the leaderboard.  The names the
server gives its own bots (``greedy-bot-1``) are never a client's, in any of their
look-alikes either.
"""

from __future__ import annotations

import functools
import re
import string
import unicodedata
from collections.abc import Iterable
from typing import TypeVar

from confusable_homoglyphs.confusables import confusables_data

V = TypeVar("V")

_CONTROL_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co"})
_BREAKS = re.compile("[\t\n\r\x0b\x0c\x85\u2028\u2029]+")


def clean_text(text: str) -> str:
    """``text`` without control characters (a run of line breaks and tabs becomes one space)."""
    text = _BREAKS.sub(" ", text)
    return "".join(ch for ch in text if unicodedata.category(ch) not in _CONTROL_CATEGORIES).strip()


NAME_CHARACTERS = string.ascii_letters + string.digits + "._-"
SEPARATORS = "._-"


@functools.cache
def _folding() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """What :func:`name_key` replaces: a non-ASCII character by an ASCII look-alike,
    a sequence of name characters by the one it looks like (``rn``: ``m``), and each
    name character, once case-folded, by the first of the characters it may be taken
    for (in case or in shape)."""
    to_ascii: dict[str, str] = {}
    sequences: dict[str, str] = {}
    parent = {c: c for c in NAME_CHARACTERS.casefold()}

    def root(c: str) -> str:
        while parent[c] != c:
            c = parent[c]
        return c

    for char, groups in confusables_data.items():
        if len(char) != 1:
            continue
        for glyph in (g["c"] for g in groups):
            if len(glyph) == 1 and not char.isascii() and glyph in NAME_CHARACTERS:
                to_ascii[char] = min(to_ascii.get(char, glyph), glyph)
            elif char in NAME_CHARACTERS and len(glyph) == 1 and glyph in NAME_CHARACTERS:
                a, b = root(char.casefold()), root(glyph.casefold())
                parent[max(a, b)] = min(a, b)
            elif char in NAME_CHARACTERS and len(glyph) > 1 and all(g in NAME_CHARACTERS for g in glyph):
                sequences[glyph.casefold()] = char.casefold()
    # Digits after letters: a class is named by its first letter (l and 1: i).
    classes: dict[str, list[str]] = {}
    for c in parent:
        classes.setdefault(root(c), []).append(c)
    first = {r: min(members, key=lambda m: (m.isdigit(), m)) for r, members in classes.items()}
    return to_ascii, sequences, {c: first[root(c)] for c in parent}


def name_key(name: str) -> str:
    """The key under which a name is unique: the same for names that look alike (in
    any letter case, with confusable characters swapped, separators left out)."""
    to_ascii, sequences, same = _folding()
    text = "".join(to_ascii.get(c, c) for c in unicodedata.normalize("NFKC", name)).casefold()
    for sequence, char in sequences.items():
        text = text.replace(sequence, char)
    return "".join(same.get(c, c) for c in text if c not in SEPARATORS)


class Names(dict[str, V]):
    """A dict whose keys are names, stored under :func:`name_key`: ``names["b1ll"]``
    finds what ``names["bill"]`` holds."""

    def __getitem__(self, name: str) -> V:
        return super().__getitem__(name_key(name))

    def __setitem__(self, name: str, value: V) -> None:
        super().__setitem__(name_key(name), value)

    def __delitem__(self, name: str) -> None:
        super().__delitem__(name_key(name))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and super().__contains__(name_key(name))

    def get(self, name: str, default: V | None = None) -> V | None:  # type: ignore[override]
        return super().get(name_key(name), default)

    def pop(self, name: str, *default: V) -> V:  # type: ignore[override]
        return super().pop(name_key(name), *default)


def bot_name(strategy: str, seat: int) -> str:
    """The name the server gives its built-in bot at ``seat``."""
    return f"{strategy}-bot-{seat}"


def reserved_name(name: str, strategies: Iterable[str]) -> bool:
    """Whether ``name`` (or a look-alike of it) has the form of a server bot's name."""
    alternatives = "|".join(re.escape(name_key(s)) for s in strategies)
    digits = "".join(sorted({re.escape(name_key(d)) for d in string.digits}))
    return re.fullmatch(rf"(?:{alternatives}){name_key('bot')}[{digits}]+", name_key(name)) is not None
