"""The journal in a dict (:class:`MemoryStorage`): the reference of every backend's semantics;
nothing survives the process.  It never imports another backend."""

from __future__ import annotations

from .storage import MemoryStorage

__all__ = ["MemoryStorage"]
