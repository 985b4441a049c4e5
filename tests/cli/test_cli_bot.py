"""`scopa bot` and `scopa serve` as processes, against a real server."""

from __future__ import annotations

import os
import signal
import socket

import pexpect
import pytest

from serverthread import ServerThread

from procs import ROOT, SCOPA, finish, scopa
from procs import scopa_bot as bot


def test_two_bot_processes_play_two_games_and_exit_0() -> None:
    with ServerThread() as server:
        first = bot(server.address, "--strategy", "random", "--games", "2", "--name", "alpha")
        second = bot(server.address, "--strategy", "greedy", "--games", "2", "--name", "beta")
        (rc1, out1), (rc2, out2) = finish(first), finish(second)
    assert rc1 == 0 and rc2 == 0, out1 + out2
    for out in (out1, out2):
        assert "game 1/2" in out and "game 2/2" in out and "Traceback" not in out
    totals1 = [line.rsplit("totals", 1)[1] for line in out1.splitlines() if "totals" in line]
    totals2 = [line.rsplit("totals", 1)[1] for line in out2.splitlines() if "totals" in line]
    assert totals1 == totals2  # they played each other


def test_a_user_bot_class_joins_a_given_table() -> None:
    with ServerThread() as server:
        host = bot(server.address, "--games", "1", "--name", "host", "--target", "16")
        first_line = host.stdout.readline()  # type: ignore[union-attr]
        guest = bot(server.address, "--bot", "examples/sdk_bot.py:Sweeper", "--table", "1", "--quiet")
        (rc1, out1), (rc2, out2) = finish(host), finish(guest)
    assert rc1 == 0 and rc2 == 0, out1 + out2
    assert "created table 1" in first_line and "waiting" in first_line
    assert "game 1/1 at table 1" in out1 and out2.strip() == ""


def test_bot_with_fill_and_rules_plays_alone_against_server_bots() -> None:
    with ServerThread() as server:
        rc, out = finish(bot(server.address, "--rules", "scopone", "--fill-with-bots", "random,greedy,random"))
    assert rc == 0 and "game 1/1" in out, out


def test_the_server_may_be_given_as_the_first_argument_as_the_js_bot_takes_it() -> None:
    def run(*args: str) -> tuple[int, str]:
        return finish(scopa("bot", *args))

    with ServerThread() as server:
        rc, out = run(server.address, "--fill-with-bots", "random", "--name", "first")
        assert rc == 0 and "game 1/1" in out, out
        rc, out = run(server.address, "--server", server.address, "--fill-with-bots", "random")
        assert rc == 0 and "game 1/1" in out, out
        rc, out = run(server.address, "--server", "127.0.0.1:1")
        assert rc == 2 and f"the server is given twice: {server.address} and --server 127.0.0.1:1" in out, out


def test_bot_errors_are_messages_not_tracebacks() -> None:
    with socket.create_server(("127.0.0.1", 0)) as s:
        free = s.getsockname()[1]
    rc, out = finish(bot(f"127.0.0.1:{free}"))
    assert rc == 1 and "No server answers at" in out and "Traceback" not in out
    rc, out = finish(bot("127.0.0.1:notaport"))
    assert rc == 2 and "127.0.0.1:notaport is not a server address" in out
    rc, out = finish(bot("127.0.0.1:1", "--bot", "nosuchmodule_zz:Bot"))
    assert rc == 2 and "cannot import" in out
    with ServerThread() as server:
        rc, out = finish(bot(server.address, "--table", "nope"))
        assert rc == 1 and "no_such_table" in out and "Traceback" not in out
        rc, out = finish(bot(server.address, "--players", "6", "-o", "teams=false"))
        assert rc == 2 and "Those rules do not work" in out


@pytest.mark.parametrize("loop,stop", [("asyncio", signal.SIGINT), ("uvloop", signal.SIGINT), ("uvloop", signal.SIGTERM)])
def test_serve_stops_cleanly_on_ctrl_c(loop: str, stop: signal.Signals) -> None:
    with socket.create_server(("127.0.0.1", 0)) as s:
        port = s.getsockname()[1]
    child = pexpect.spawn(SCOPA[0], [*SCOPA[1:], "serve", "--port", str(port), "--loop", loop], cwd=str(ROOT),
                          encoding="utf-8", timeout=30, env=dict(os.environ, NO_COLOR="1"))
    try:
        child.expect("listening on")
        child.expect("Ctrl-C to stop")
        assert ("on uvloop" in child.before) == (loop == "uvloop")  # the server says which loop it runs on
        finished = bot(f"127.0.0.1:{port}", "--fill-with-bots", "greedy")
        assert finish(finished)[0] == 0
        child.expect("closed")  # the server logs the bot's goodbye
        child.kill(stop)
        child.expect("server stopped")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    finally:
        if child.isalive():
            child.terminate(force=True)
