"""A server does its first-use work before it listens: the tables that fold names are
built by ``NetworkEngine.start``, so its first client's ``hello`` does not wait for them
(nor does the memory they take look like that client's)."""

from __future__ import annotations

import pytest

from scopa.server import NetworkEngine
from scopa.server.core import text

pytestmark = pytest.mark.integration


async def test_a_server_builds_its_name_tables_before_it_listens() -> None:
    text._folding.cache_clear()  # noqa: SLF001 - as in a fresh process
    engine = NetworkEngine("127.0.0.1", 0)
    await engine.start()
    try:
        assert text._folding.cache_info().currsize == 1  # noqa: SLF001
        assert text._folding.cache_info().hits == 0  # noqa: SLF001 - built once, before any client
    finally:
        await engine.stop()
