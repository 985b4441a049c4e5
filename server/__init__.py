"""scopa.server: the asyncio NetworkEngine — lobby, tables, one game master per table."""

from .core import Limits
from .network import NetworkEngine
from .serving import serve
from .table import Table

__all__ = ["Limits", "NetworkEngine", "Table", "serve"]
