"""The PostgreSQL server the tests use (127.0.0.1:5432, database ``test``, trust auth,
or ``$SCOPA_TEST_POSTGRES``): each test gets a schema of its own, dropped afterwards,
so tests of several people may run against the same server at once."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from urllib.parse import quote

import psycopg
import pytest

SERVER = os.environ.get("SCOPA_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


def _admin() -> psycopg.Connection:
    try:
        return psycopg.connect(SERVER, autocommit=True, connect_timeout=5)
    except psycopg.Error as exc:
        pytest.fail(f"PostgreSQL is not reachable at {SERVER} ({str(exc).strip().splitlines()[0]}): these tests "
                    "need a running server with trust auth and a database 'test' (or set $SCOPA_TEST_POSTGRES)",
                    pytrace=False)


def with_schema(schema: str) -> str:
    """The server's URL with ``schema`` as the search path."""
    sep = "&" if "?" in SERVER else "?"
    return f"{SERVER}{sep}options={quote(f'-csearch_path={schema}')}"


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A URL to a fresh, empty schema of the test server (dropped after the test)."""
    schema = f"scopa_t_{uuid.uuid4().hex[:16]}"
    with _admin() as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield with_schema(schema)
    finally:
        with _admin() as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
