"""A player's name as typed on the command line, and the one a player gets when they
give none: their login name, made fit for the wire."""

from __future__ import annotations

import argparse
import getpass
import re

from scopa.protocol.parties import NAME_CHARS, NAME_PATTERN, normal_name


def default_name() -> str:
    """The user's login name with only the characters a name may have (letters, accented
    ones too, digits, ``_``, ``.`` and ``-``; at most 24), or ``player``."""
    try:
        user = getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name: any name will do
        user = ""
    return re.sub(rf"[^{NAME_CHARS}]", "", normal_name(user))[:24] or "player"


def player_name(text: str) -> str:
    """``--name``: ``text`` as a player's name (NFC, as the wire carries it), or a clear error."""
    name = normal_name(text)
    if re.fullmatch(NAME_PATTERN, name) is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a name: use 1 to 24 letters (accented ones too), "
                                         "digits, '.', '_' or '-'")
    return name
