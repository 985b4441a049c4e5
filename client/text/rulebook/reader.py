"""Who reads the rule book: the terminal (``scopa rules``, docs/RULES.md) or the browser
page (its Rules box).  The books' texts mark their parts for one reader only (how to type
a card, a command's options): a terminal-only part between ``<!-- terminal -->`` and
``<!-- /terminal -->`` lines, a page-only one between ``<!-- page -->`` and ``<!-- /page -->``."""

from __future__ import annotations

import re
from typing import Literal

Reader = Literal["terminal", "page"]

_PART = {reader: re.compile(rf"^<!-- {reader} -->\n(.*?)^<!-- /{reader} -->\n", re.S | re.M)
         for reader in ("terminal", "page")}


def for_reader(text: str, reader: Reader) -> str:
    """``text`` as ``reader`` reads it: its own parts kept (without their marks), the
    other reader's left out."""
    other = "page" if reader == "terminal" else "terminal"
    return re.sub(r"\n{3,}", "\n\n", _PART[reader].sub(r"\1", _PART[other].sub("", text)))
