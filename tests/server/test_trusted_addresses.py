"""``scopa serve --trust-address ADDRESS`` (``Limits.trusted_addresses``): the
per-address caps on connections, waiting tables and name claims do not apply to a host
the operator names; every other address is capped as before."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from scopa.client.net import archive, ClientSession, ServerRefused
from scopa.protocol import ErrorCode
from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine

from wire_client import WireClient

pytestmark = pytest.mark.process  # the journal of the claims test runs in a process of its own

TRUSTED = ("127.0.0.0/24",)  # 127.0.0.1, where this test connects from


async def _engine(limits: Limits, **options: object) -> NetworkEngine:
    engine = NetworkEngine("127.0.0.1", 0, seed=8, limits=limits, **options)  # type: ignore[arg-type]
    await engine.start()
    return engine


@pytest.mark.parametrize("trusted", [False, True])
async def test_connections_from_a_trusted_address_are_not_capped_per_address(trusted: bool) -> None:
    engine = await _engine(Limits(max_connections_per_address=2, trusted_addresses=TRUSTED if trusted else ()))
    clients = []
    try:
        for n in range(3):
            clients.append(await WireClient.connect(engine.port))
            clients[-1].send(wire.Hello(name=f"c{n}"))
        replies = [(await c.recv()).body for c in clients]
        assert isinstance(replies[0], wire.Welcome) and isinstance(replies[1], wire.Welcome)
        if trusted:
            assert isinstance(replies[2], wire.Welcome)
        else:
            assert isinstance(replies[2], wire.Error) and replies[2].code is ErrorCode.RATE_LIMITED
    finally:
        for c in clients:
            await c.close()
        await engine.stop()


@pytest.mark.parametrize("trusted", [False, True])
async def test_waiting_tables_from_a_trusted_address_are_not_capped_per_address(trusted: bool) -> None:
    engine = await _engine(Limits(max_waiting_tables_per_address=2, trusted_addresses=TRUSTED if trusted else ()))
    sessions = [await ClientSession.connect("127.0.0.1", engine.port, f"t{n}") for n in range(3)]
    try:
        for s in sessions[:2]:
            await s.create_table()
        if trusted:
            await sessions[2].create_table()
            assert len([t for _, t in engine.tables.items() if t.state is wire.TableState.WAITING]) == 3
        else:
            with pytest.raises(ServerRefused) as refused:
                await sessions[2].create_table()
            assert refused.value.code is ErrorCode.TOO_MANY_TABLES
    finally:
        for s in sessions:
            await s.close()
        await engine.stop()


@pytest.mark.parametrize("trusted", [False, True])
async def test_name_claims_from_a_trusted_address_are_not_capped_per_address(tmp_path: Path, trusted: bool) -> None:
    engine = await _engine(Limits(name_claims_per_address=2, commands_per_second=None,
                                  trusted_addresses=TRUSTED if trusted else ()),
                           db=str(tmp_path / "games.db"), accounts=True)
    try:
        for n in range(3):
            async with await ClientSession.connect("127.0.0.1", engine.port, f"owner{n}") as s:
                if n < 2 or trusted:
                    assert await archive.claim_name(s, "correct horse battery") == f"owner{n}"
                else:
                    with pytest.raises(ServerRefused) as refused:
                        await archive.claim_name(s, "correct horse battery")
                    assert refused.value.code is ErrorCode.RATE_LIMITED
    finally:
        await engine.stop()


def test_scopa_serve_takes_trust_address_and_refuses_a_bad_one() -> None:
    from scopa.cli import build_parser, serve

    args = build_parser().parse_args(["serve", "--trust-address", "10.1.0.0/16", "--trust-address", "192.168.1.7"])
    assert args.trust_address == ["10.1.0.0/16", "192.168.1.7"]
    bad = build_parser().parse_args(["serve", "--trust-address", "the-bot-farm"])
    out = io.StringIO()
    assert serve.run_serve(bad, Console(file=out, width=200)) == 2
    assert "--trust-address: not an IP address or network: 'the-bot-farm'" in out.getvalue()
    limits = Limits(trusted_addresses=("10.1.0.0/16", "192.168.1.7"))
    assert limits.trusts("10.1.200.3") and limits.trusts("::ffff:192.168.1.7") and not limits.trusts("10.2.0.1")
    with pytest.raises(ValueError, match="not an IP address or network: 'x'"):
        Limits(trusted_addresses=("x",))
    assert Limits.from_options({"trusted_addresses": "10.0.0.1,10.0.0.2"}).trusted_addresses == ("10.0.0.1",
                                                                                                   "10.0.0.2")
