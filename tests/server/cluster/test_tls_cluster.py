"""A cluster whose members speak TLS (servers in this process sharing a real Redis, each
test under a key prefix of its own): a member advertises a ``tls://`` address, so the
lobby lists its tables there and a ``redirect`` names it; a client of another member
follows it over TLS and plays.  A web front relays to a ``tls://`` member only when it
shows the cluster's certificate."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from redis_server import redis_prefix  # noqa: F401 - the fixture
from scopa.bots import GreedyBot
from scopa.client import ClientSession, KnownServers, ServerTrust
from scopa.protocol.servers import ServerAddress
from scopa.server import NetworkEngine
from scopa.server.core.tls import open_member, self_signed
from test_cluster_lobby import members

pytestmark = pytest.mark.integration

DEADLINE = 20.0  # a safety net: every wait normally ends long before


async def test_a_redirect_names_the_tls_address_and_the_client_follows_it(redis_prefix: str,
                                                                        tmp_path: Path) -> None:
    tls = self_signed(tmp_path / "tls")
    trust = ServerTrust(KnownServers(tmp_path / "known_servers"), notice=lambda text: None)
    async with members(redis_prefix, tls=tls) as (a, b):
        assert a.cluster is not None and a.cluster.address == f"tls://127.0.0.1:{a.port}"
        ann = await ClientSession.connect("127.0.0.1", a.port, "ann", tls=True, trust=trust)
        bob = await ClientSession.connect("127.0.0.1", b.port, "bob", tls=True, trust=trust)
        async with ann, bob:
            table = await ann.create_table()
            async with asyncio.timeout(DEADLINE):
                while not any(t.id == table.id for t in await bob.list_tables()):
                    await asyncio.sleep(0.05)  # B's lobby hears of A's table through Redis
            listed = {t.id: t for t in await bob.list_tables()}
            assert listed[table.id].member == f"tls://127.0.0.1:{a.port}"
            joined = await asyncio.wait_for(bob.join_table(table.id), DEADLINE)  # B sends bob on to A
            assert joined.table == table.id
            assert (bob.host, bob.port, bob.tls) == ("127.0.0.1", a.port, True)
            games = await asyncio.wait_for(asyncio.gather(ann.play_game(GreedyBot()), bob.play_game(GreedyBot())),
                                           DEADLINE)
            assert games[0].totals == games[1].totals
        assert trust.known.read() == {f"127.0.0.1:{a.port}": tls.fingerprint, f"127.0.0.1:{b.port}": tls.fingerprint}


async def test_a_relay_reaches_a_tls_member_only_with_the_clusters_certificate(tmp_path: Path) -> None:
    ours, theirs = self_signed(tmp_path / "ours"), self_signed(tmp_path / "theirs")
    member = NetworkEngine("127.0.0.1", 0, tls=ours)
    await member.start()
    try:
        where = ServerAddress("127.0.0.1", member.port, tls=True)
        _, writer = await asyncio.wait_for(open_member(where, ours), DEADLINE)
        assert writer.get_extra_info("ssl_object") is not None
        writer.close()
        with pytest.raises(OSError, match="does not show this cluster's certificate"):
            await asyncio.wait_for(open_member(where, theirs), DEADLINE)
    finally:
        await member.stop()
