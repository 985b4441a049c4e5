"""`scopa admin` under an Italian locale answers in Italian, as every other command does:
the tables' list (its title, headings, states, "sì" for a private table) and the other
subcommands' lines."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scopa.client.net import ClientSession

from paths import ROOT
from serverthread import ServerThread

pytestmark = pytest.mark.process


def admin(server: ServerThread, token_file: str, *args: str) -> str:
    env = dict(os.environ, LANG="it_IT.UTF-8", LC_ALL="it_IT.UTF-8", COLUMNS="120")
    done = subprocess.run([sys.executable, "-m", "scopa.cli", "admin", "--server", server.address, "--token-file",
                           token_file, *args], capture_output=True, text=True, cwd=str(ROOT), env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_scopa_admin_speaks_italian(tmp_path: Path) -> None:
    token_file = str(tmp_path / "tok-{port}")
    with ServerThread(admin_token_file=token_file) as server:
        async def host() -> ClientSession:
            session = await ClientSession.connect("127.0.0.1", server.port, "nonna")
            await session.create_table(preset="scopa", private=True)
            return session

        assert server._loop is not None
        session = asyncio.run_coroutine_threadsafe(host(), server._loop).result(30)
        listed = admin(server, token_file, "tables")
        assert "1 tavolo " in listed and "stato" in listed and "privato" in listed and "in attesa" in listed, listed
        assert "sì" in listed and "tables" not in listed and "waiting" not in listed and "yes" not in listed, listed
        damaged = admin(server, token_file, "damaged")
        assert "nessun tavolo danneggiato" in damaged, damaged
        asyncio.run_coroutine_threadsafe(session.close(), server._loop).result(30)
