"""scopa.server: the asyncio NetworkEngine — lobby, tables, one game master per table."""

from .limits import Limits
from .network import DEFAULT_PORT, NetworkEngine, serve
from .table import Table

__all__ = ["DEFAULT_PORT", "Limits", "NetworkEngine", "Table", "serve"]
