"""The rules for players in words, in each language: ``en``, the English book (which also
hands over to the book of the player's language), and ``it``, the Italian one (the same
structure in its own words; a test holds them to each other).

Public names, from ``en``: ``book``, ``preset_rules``, ``table_rules``, ``options_text``,
``option_lines``, ``category_names``, ``declaration_names``, ``BASICS``, ``PRESET_TEXT``,
``CAPTURE_MODE_TEXT``, ``CAPTURE_MODE_NAMES``, ``ASSO_TEXT``, ``CATEGORY_NAMES``.

Must never: read the terminal, a file or the network.
"""

from __future__ import annotations

from . import en, it
from .en import (
    ASSO_TEXT,
    BASICS,
    CAPTURE_MODE_NAMES,
    CAPTURE_MODE_TEXT,
    CATEGORY_NAMES,
    PRESET_TEXT,
    book,
    category_names,
    declaration_names,
    option_lines,
    options_text,
    preset_rules,
    table_rules,
)

__all__ = [
    "ASSO_TEXT",
    "BASICS",
    "CAPTURE_MODE_NAMES",
    "CAPTURE_MODE_TEXT",
    "CATEGORY_NAMES",
    "PRESET_TEXT",
    "book",
    "category_names",
    "declaration_names",
    "en",
    "it",
    "option_lines",
    "options_text",
    "preset_rules",
    "table_rules",
]
