"""scopa.server: the asyncio NetworkEngine — lobby, tables, one game master per table."""

from .limits import Limits
from .network import NetworkEngine, serve
from .netplayer import NetworkPlayer
from .table import Table

__all__ = ["Limits", "NetworkEngine", "NetworkPlayer", "Table", "serve"]
