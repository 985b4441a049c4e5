"""The embedded journal: one SQLite file (:class:`SQLiteStorage`), written by a child process
(:class:`StorageProcess`) with the moves of running games first in a move file beside it.
It never imports another backend."""

from __future__ import annotations

from .process import StorageProcess
from .storage import SQLiteStorage

__all__ = ["SQLiteStorage", "StorageProcess"]
