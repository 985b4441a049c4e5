"""The name a player gets when they give none: their login name, made fit for the wire
(a name they give is checked by :func:`scopa.client.text.name_problem`)."""

from __future__ import annotations

import getpass
import re

from scopa.protocol.parties import NAME_CHARS, normal_name


def default_name() -> str:
    """The user's login name with only the characters a name may have (letters, accented
    ones too, digits, ``_``, ``.`` and ``-``; at most 24), or ``player``."""
    try:
        user = getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name: any name will do
        user = ""
    return re.sub(rf"[^{NAME_CHARS}]", "", normal_name(user))[:24] or "player"
