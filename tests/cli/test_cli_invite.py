"""A private table from the command line, as a person does it: its host passes on one
string, the invite (``TABLE.CODE``, or the web page's link holding it); the friend gives
it to `scopa play --invite` and sits at the table, or to `scopa watch --invite`.  Watching
a private table by its number alone says why it cannot be found and how to watch it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pexpect
import pytest

from scopa.client.text import invite_string, parse_invite
from scopa.client.net import ClientSession

from serverthread import ServerThread
from test_cli_play import ENV, ROOT, spawn

pytestmark = pytest.mark.process


def host_a_private_table(server: ServerThread) -> tuple[ClientSession, str]:
    """A host seated at a private two-seat table, on the server's own loop: its invite."""
    async def host() -> tuple[ClientSession, str]:
        session = await ClientSession.connect("127.0.0.1", server.port, "nonna")
        info = await session.create_table(preset="scopa", private=True)
        assert session.invite is not None
        return session, invite_string(info.id, session.invite)

    assert server._loop is not None
    return asyncio.run_coroutine_threadsafe(host(), server._loop).result(30)


def scopa(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scopa.cli", *args], cwd=str(ROOT), env=ENV, text=True,
                          capture_output=True, timeout=60)


def test_the_invite_is_one_string_or_the_link_that_holds_it() -> None:
    assert parse_invite("7.Xq3vR0aT2m-k9LbZ_c8E") == ("7", "Xq3vR0aT2m-k9LbZ_c8E")
    assert parse_invite(" https://scopa.example/?invite=7.Xq3vR0aT2m-k9LbZ_c8E ") == ("7", "Xq3vR0aT2m-k9LbZ_c8E")
    assert parse_invite("http://h:8080/?table=7&invite=Xq3vR0aT2m-k9LbZ_c8E") == ("7", "Xq3vR0aT2m-k9LbZ_c8E")
    assert parse_invite("7 Xq3vR0aT2m-k9LbZ_c8E") == ("7", "Xq3vR0aT2m-k9LbZ_c8E")
    for bad in ("7", "Xq3vR0aT2m-k9LbZ_c8E", "7.short", "7.Xq3v R0aT2m", "https://h/?table=7"):
        with pytest.raises(ValueError, match="an invite looks like"):
            parse_invite(bad)
    run = scopa("play", "--plain", "--invite", "7", "--server", "127.0.0.1:1")
    assert run.returncode == 2 and "an invite looks like" in run.stderr


def test_a_friend_sits_down_with_the_invite_and_watching_by_number_says_how() -> None:
    with ServerThread() as server:
        host, invite = host_a_private_table(server)
        table = invite.split(".")[0]
        # By its number alone the private table is not found, and the person is told why and what to do.
        run = scopa("watch", "--table", table, "--server", server.address, "--name", "cleo")
        out = " ".join((run.stdout + run.stderr).split())
        assert "private" in out and "scopa watch --invite" in out, out
        # With the invite a spectator watches it.
        watcher = pexpect.spawn(sys.executable, ["-m", "scopa.cli", "watch", "--plain", "--invite", invite, "--server",
                                                 server.address, "--name", "cleo"],
                                cwd=str(ROOT), env=dict(os.environ, **ENV), encoding="utf-8", timeout=30,
                                dimensions=(50, 160))
        try:
            watcher.expect(f"Watching table {table}")
        finally:
            watcher.terminate(force=True)
        # The friend pastes the link holding the invite: straight to the table, and the game starts.
        child = spawn(server, "--name", "bea", "--invite", f"http://{server.address}/?invite={invite}")
        try:
            child.expect(f"You sit at table {table}")
            child.expect("Game starts")
        finally:
            child.terminate(force=True)
        assert server._loop is not None
        asyncio.run_coroutine_threadsafe(host.close(), server._loop).result(30)


def test_the_invite_of_a_game_that_is_over_takes_the_friend_to_its_waiting_rematch() -> None:
    """nonna's private game with bea ends (bea leaves; the table was made to end then) and
    nonna makes its rematch: bea's `scopa play --invite` with the first game's invite sits
    her there, and says so."""
    from scopa.bots import GreedyBot

    with ServerThread() as server:
        assert server._loop is not None

        async def over_then_rematch() -> tuple[ClientSession, str, str]:
            nonna = await ClientSession.connect("127.0.0.1", server.port, "nonna")
            old = (await nonna.create_table(preset="scopa", private=True, bot_takeover=False)).id
            assert nonna.invite is not None
            invite = invite_string(old, nonna.invite)
            bea = await ClientSession.connect("127.0.0.1", server.port, "bea")
            await bea.join_table(old, invite=nonna.invite)
            game = asyncio.ensure_future(nonna.play_game(GreedyBot()))
            await bea.leave_table()
            await bea.close()
            await game
            rematch = await nonna.create_table(preset="scopa", private=True, bot_takeover=False, rematch_of=old)
            return nonna, invite, rematch.id

        nonna, invite, rematch = asyncio.run_coroutine_threadsafe(over_then_rematch(), server._loop).result(30)
        old = invite.split(".")[0]
        child = spawn(server, "--name", "bea", "--invite", invite)
        try:
            child.expect(f"The game at table {old} is over: its invite took you to its rematch, table {rematch}")
            child.expect("Game starts")
        finally:
            child.terminate(force=True)
        asyncio.run_coroutine_threadsafe(nonna.close(), server._loop).result(30)
