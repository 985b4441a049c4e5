"""`scopa serve --accounts`: a name claimed with a password (a salted scrypt hash,
computed off the event loop), wrong attempts rate-limited (PROTOCOL.md §13)."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from scopa.bots import GreedyBot
from scopa.client.net import archive, ClientSession, ServerRefused
from scopa.protocol import ErrorCode
from scopa.protocol import commands as wire
from scopa.server import Limits, NetworkEngine
from scopa.server.players import accounts as accounts_module
from scopa.server.core.clock import FakeClock
from scopa.server.journal.sqlite.process import StorageProcess

from wire_client import WireClient

SECRET = "correct horse battery"


@pytest.fixture
async def server(tmp_path: Path, clock: FakeClock) -> AsyncIterator[NetworkEngine]:
    engine = NetworkEngine("127.0.0.1", 0, seed=2, db=str(tmp_path / "games.db"), accounts=True, clock=clock,
                           limits=Limits(commands_per_second=None))
    await engine.start()
    try:
        yield engine
    finally:
        await engine.stop()


async def claim(port: int, name: str, password: str = SECRET) -> None:
    async with await ClientSession.connect("127.0.0.1", port, name) as s:
        assert await archive.claim_name(s, password) == name


async def hello(port: int, name: str, password: str | None) -> wire.Body:
    c = await WireClient.connect(port)
    c.send(wire.Hello(name=name, password=password))
    reply = await c.recv()
    await c.close()
    return reply.body


async def test_a_claimed_name_needs_its_password(server: NetworkEngine) -> None:
    await claim(server.port, "ada")
    refused = await hello(server.port, "ada", None)
    assert isinstance(refused, wire.Error) and refused.code is ErrorCode.NAME_TAKEN and "claimed" in refused.message
    wrong = await hello(server.port, "ada", "not the password")
    assert isinstance(wrong, wire.Error) and wrong.code is ErrorCode.BAD_PASSWORD
    welcome = await hello(server.port, "ada", SECRET)
    assert isinstance(welcome, wire.Welcome) and welcome.you == "player:ada"
    async with await ClientSession.connect("127.0.0.1", server.port, "ada") as s:
        assert s.name == "ada2"  # without the password, another name
    async with await ClientSession.connect("127.0.0.1", server.port, "ada", password=SECRET) as s:
        assert s.name == "ada"
        with pytest.raises(ServerRefused) as again:
            await archive.claim_name(s, "another password")
        assert again.value.code is ErrorCode.NAME_TAKEN
    free = await hello(server.port, "bea", "any password at all")  # an unclaimed name: the password is not needed
    assert isinstance(free, wire.Welcome)


async def test_only_a_salted_scrypt_hash_is_kept(server: NetworkEngine, tmp_path: Path) -> None:
    await claim(server.port, "ada")
    await claim(server.port, "bea")
    storage = server.storage
    assert storage is not None and isinstance(storage, StorageProcess)
    ada, bea = await storage.account("ada"), await storage.account("bea")
    assert ada is not None and bea is not None
    assert len(ada.salt) == 16 and ada.salt != bea.salt and ada.hash != bea.hash  # same password, other salt
    assert ada.hash == accounts_module.scrypt_hash(SECRET, ada.salt, ada.n, ada.r, ada.p)
    assert SECRET.encode() not in (tmp_path / "games.db").read_bytes()
    assert all(SECRET.encode() not in p.read_bytes() for p in tmp_path.glob("games.db*"))


async def test_hashing_runs_off_the_event_loop(server: NetworkEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    real = accounts_module.scrypt_hash

    def spy(*args: object) -> bytes:
        threads.append(threading.current_thread().name)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(accounts_module, "scrypt_hash", spy)
    await claim(server.port, "ada")
    assert isinstance(await hello(server.port, "ada", SECRET), wire.Welcome)
    assert len(threads) == 2 and threading.main_thread().name not in threads


async def test_wrong_passwords_are_rate_limited(server: NetworkEngine, clock: FakeClock) -> None:
    await claim(server.port, "ada")
    limiter = server.accounts.limiter
    for _ in range(limiter.max_failures):
        reply = await hello(server.port, "ada", "wrong password")
        assert isinstance(reply, wire.Error) and reply.code is ErrorCode.BAD_PASSWORD
    limited = await hello(server.port, "ada", SECRET)  # even the right one is not tried now
    assert isinstance(limited, wire.Error) and limited.code is ErrorCode.RATE_LIMITED
    clock.advance(limiter.window)
    assert isinstance(await hello(server.port, "ada", SECRET), wire.Welcome)


async def test_a_private_game_is_served_to_its_logged_in_player(server: NetworkEngine) -> None:
    await claim(server.port, "ada")
    c = await WireClient.connect(server.port)
    c.send(wire.Hello(name="ada", password=SECRET))
    assert isinstance((await c.recv()).body, wire.Welcome)
    c.party = "player:ada"
    c.send(wire.CreateTable(fill_with_bots=["random"], private=True))
    c.table = (await c.recv_until("table_created")).body.table.id
    await c.recv_until("joined")
    await c.play_game(GreedyBot())
    await c.recv_until("left")
    c.send(wire.GetRecord(game=c.table))
    assert (await c.recv_until("record", "error")).name == "record"  # no token needed: ada's own game
    await c.close()
    async with await ClientSession.connect("127.0.0.1", server.port, "ada") as other:  # "ada2", no password
        assert await archive.list_games(other) == []
        with pytest.raises(ServerRefused) as refused:
            await archive.fetch_record(other, c.table)
        assert refused.value.code is ErrorCode.PRIVATE_TABLE


async def test_accounts_need_a_database() -> None:
    with pytest.raises(ValueError, match="database"):
        NetworkEngine("127.0.0.1", 0, accounts=True)


def test_password_bounds_are_part_of_the_protocol() -> None:
    with pytest.raises(ValueError):
        wire.ClaimName(password="short")
    with pytest.raises(ValueError):
        wire.Hello(name="ada", password="x" * 201)


async def test_scopa_claim_then_connecting_with_the_password(server: NetworkEngine) -> None:
    import asyncio
    import os
    import subprocess

    from procs import ROOT, SCOPA

    async def scopa(password: str, *args: str) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ, TERM="dumb", COLUMNS="200", SCOPA_PASSWORD=password)
        return await asyncio.to_thread(subprocess.run, [*SCOPA, *args, "--server", f"127.0.0.1:{server.port}"],
                                       capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=90,
                                       env=env, cwd=ROOT)

    done = await scopa(SECRET, "claim", "--name", "ada")
    assert done.returncode == 0 and "the name ada is yours" in done.stdout, done.stdout + done.stderr
    again = await scopa(SECRET, "claim", "--name", "ada")
    assert again.returncode == 1 and "claimed already" in again.stdout
    wrong = await scopa("wrong password", "games", "--name", "ada")
    assert wrong.returncode == 1 and "bad_password" in wrong.stdout
    right = await scopa(SECRET, "games", "--name", "ada")
    assert right.returncode == 0 and "no finished games" in right.stdout
    short = await scopa("short", "games", "--name", "ada")
    assert short.returncode == 2 and "SCOPA_PASSWORD must be 8-200 characters" in short.stdout


async def test_one_password_check_at_a_time_per_address(server: NetworkEngine) -> None:
    import asyncio

    await claim(server.port, "ada")
    clients = [await WireClient.connect(server.port) for _ in range(3)]
    for c in clients:  # three guesses at once from one address
        c.send(wire.Hello(name="ada", password="guess number one"))
    replies = [(await c.recv()).body for c in clients]
    codes = sorted(r.code.value for r in replies if isinstance(r, wire.Error))
    assert codes.count("bad_password") == 1 and codes.count("rate_limited") == 2
    await asyncio.gather(*(c.close() for c in clients))
