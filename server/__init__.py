"""scopa.server: the asyncio NetworkEngine — lobby, tables, one game master per table."""

from .limits import Limits
from .network import NetworkEngine, serve
from .table import Table

__all__ = ["Limits", "NetworkEngine", "Table", "serve"]
