"""`scopa play` with no --server on the computer that runs `scopa serve`: that server
listens on 127.0.0.1 only and is never announced on the LAN, so finding none there the
client looks on this computer before giving up."""

from __future__ import annotations

import pytest

from scopa.client.net.discovery import NoServerFound, resolve_server
from scopa.protocol.servers import ServerAddress
from scopa.server import NetworkEngine

pytestmark = pytest.mark.process  # the LAN browser (zeroconf) runs ldconfig to find its libraries


async def test_auto_finds_the_server_on_this_computer() -> None:
    engine = NetworkEngine("127.0.0.1", 0)
    await engine.start()
    port = engine.port
    try:
        found = await resolve_server("auto", seconds=0, local_port=port)  # nothing announced in no time
        assert found == ServerAddress("127.0.0.1", port)
    finally:
        await engine.stop()
    with pytest.raises(NoServerFound, match="nor on this computer"):  # stopped: nobody here either
        await resolve_server("auto", seconds=0, local_port=port)
