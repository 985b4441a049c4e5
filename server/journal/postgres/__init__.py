"""The journal in PostgreSQL (:class:`PostgresStorage`), on the event loop over psycopg; only
imported for a PostgreSQL URL.  It never imports another backend."""

from __future__ import annotations

from .storage import PostgresStorage

__all__ = ["PostgresStorage"]
