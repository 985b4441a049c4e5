"""Long text for a person to read: Markdown drawn by rich and shown through a pager on a
terminal (as UTF-8 when the terminal is, whatever the locale less finds); the text as it
is when the output goes to a file or a pipe."""

from __future__ import annotations

import os
import sys
from typing import TextIO

from rich.console import Console
from rich.markdown import Markdown


def show_markdown(text: str, out: TextIO | None = None) -> None:
    """Page ``text`` (Markdown) drawn for the terminal, or write it unchanged if ``out``
    (standard output by default) is not a terminal."""
    out = out if out is not None else sys.stdout
    if not out.isatty():
        out.write(text)
        return
    os.environ.setdefault("LESS", "-R")  # less (the usual pager) shows colours, not their codes
    if (out.encoding or "").lower().replace("-", "") == "utf8" and not os.environ.keys() & {"LESSCHARSET",
                                                                                            "LESSCHARDEF"}:
        os.environ["LESSCHARSET"] = "utf-8"  # where the locale is missing, less would show "<E2><94><80>"
    console = Console(file=out)
    with console.pager(styles=True):
        console.print(Markdown(text))
