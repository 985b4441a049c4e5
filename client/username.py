"""The name a player gets when they give none: their login name, made fit for the wire."""

from __future__ import annotations

import getpass
import re


def default_name() -> str:
    """The user's login name with only letters, digits, ``_``, ``.`` and ``-`` (at most
    24 characters), or ``player``."""
    try:
        user = getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name: any name will do
        user = ""
    return re.sub(r"[^A-Za-z0-9_.-]", "", user)[:24] or "player"
