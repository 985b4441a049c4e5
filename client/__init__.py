"""``scopa.client``: the terminal client, the built-in bots and the bot SDK.

The names below are imported on first use, so ``scopa local`` never loads the network
code::

    from scopa.client import Bot, ClientSession
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Bot": "sdk",
    "ClientSession": "net",
    "ConnectionLost": "net",
    "ServerRefused": "net",
    "SessionError": "net",
    "GameResult": "game",
    "LinkEvent": "net",
    "LinkStatus": "net",
    "BotRunner": "console",
    "RandomBot": "sdk",
    "GreedyBot": "sdk",
    "make_bot": "sdk",
    "CertificateRefused": "net",
    "KnownServers": "net",
    "ServerTrust": "net",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'scopa.client' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
