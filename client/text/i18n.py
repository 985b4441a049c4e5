"""The language of the terminal client: English, or Italian when the environment's
locale says so (``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` set to ``it_*``, as POSIX reads
them: the first one set wins).  :func:`tr` gives a string in that language, from the one
catalog of the terminal's Italian (:mod:`scopa.client.text.italian`); a test fails when a
string shown by the terminal client has no Italian there."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Literal

from .italian import ITALIAN

Lang = Literal["en", "it"]
LANGS: tuple[Lang, ...] = ("en", "it")


def language(env: Mapping[str, str] | None = None) -> Lang:
    """The language the locale of ``env`` (default: this process's) asks for."""
    env = os.environ if env is None else env
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        if value:
            return "it" if value.lower().startswith("it") else "en"
    return "en"


LANGUAGE: Lang = language()
"""The terminal client's language, read once when it starts (``set_language``: a
command's ``--lang``)."""


def set_language(lang: Lang) -> None:
    """Speak ``lang`` from now on, whatever the locale says (``scopa local --lang it``)."""
    global LANGUAGE
    LANGUAGE = lang


def current_language() -> Lang:
    """The language the client speaks now."""
    return LANGUAGE


def tr(text: str, /, **values: object) -> str:
    """``text`` (the English, a ``str.format`` template) in the terminal's language, with
    ``values`` put in.  A string the catalog lacks stays English (the test says so)."""
    template = elide(ITALIAN.get(text, text), values) if LANGUAGE == "it" else text
    return template.format(**values) if values else template


_A_BEFORE = re.compile(r"(?<![\w'])a \{(\w+)\}")
VOWELS = "aeiouàèéìòù"


def elide(template: str, values: Mapping[str, object]) -> str:
    """An Italian template with "a {name}" written "ad {name}" where the value put in
    begins with a vowel ("vanno ad Ada")."""
    def a_or_ad(found: re.Match[str]) -> str:
        first = str(values.get(found[1], "")).lstrip()[:1].lower()
        return ("ad " if first and first in VOWELS else "a ") + "{" + found[1] + "}"

    return _A_BEFORE.sub(a_or_ad, template)
