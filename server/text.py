"""Free text from clients, made safe to relay and to log; and what makes a name taken.

Chat text and ``hello.client`` reach other people's terminals and the server's log.  A
terminal obeys escape sequences (ANSI CSI: clear the screen, move the cursor; OSC: set
the window title, write the clipboard), so the server removes every control character
(Unicode categories Cc and Cf: C0 and C1 controls, ESC, BEL, bidirectional overrides,
zero-width characters) before relaying or logging a client's text.  Without its ESC or
BEL the rest of a sequence is harmless printable text.

Names are already restricted by the protocol (letters, accented Latin ones too, digits,
``_``, ``.``, ``-``; ``protocol.parties.NAME_PATTERN``); two names are the
same name when they differ only in case (``Ada`` and ``ada``), and the names the server
gives its own bots (``greedy-bot-1``) are never a client's.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_CONTROL_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co"})
_BREAKS = re.compile("[\t\n\r\x0b\x0c\x85\u2028\u2029]+")


def clean_text(text: str) -> str:
    """``text`` without control characters (a run of line breaks and tabs becomes one space)."""
    text = _BREAKS.sub(" ", text)
    return "".join(ch for ch in text if unicodedata.category(ch) not in _CONTROL_CATEGORIES).strip()


def name_key(name: str) -> str:
    """The key under which a name is unique: the same for names differing only in case."""
    return name.casefold()


def bot_name(strategy: str, seat: int) -> str:
    """The name the server gives its built-in bot at ``seat``."""
    return f"{strategy}-bot-{seat}"


def reserved_name(name: str, strategies: Iterable[str]) -> bool:
    """Whether ``name`` (in any case) has the form of a server bot's name."""
    alternatives = "|".join(re.escape(s) for s in strategies)
    return re.fullmatch(rf"(?:{alternatives})-bot-\d+", name, re.IGNORECASE) is not None
