"""`scopa tournament` and `scopa bot --tournament` as processes against a real server:
a tournament created, listed, entered by two bot processes, started by its creator,
played to its end, its final standings shown; a bot is refused where bots are not
allowed."""

from __future__ import annotations

from pathlib import Path

import pytest

from procs import finish, scopa
from procs import scopa_bot as bot
from scopa.server.club import ClubOptions
from serverthread import ServerThread

pytestmark = pytest.mark.process


def run(*args: str) -> tuple[int, str]:
    return finish(scopa(*args), "scopa")


def test_a_tournament_from_the_command_line_with_two_bot_processes() -> None:
    with ServerThread(club=ClubOptions()) as server:
        rc, out = run("tournament", "create", "Coppa", "--rounds", "1", "--cap", "2", "--bots-allowed", "--name", "ada", "--server",
                      server.address)
        assert rc == 0 and "c1" in out and "Coppa" in out and "registering" in out, out
        rc, out = run("tournament", "list", "--server", server.address)
        assert rc == 0 and "c1" in out and "0/2" in out, out
        bots = [bot(server.address, "--tournament", "c1", "--name", name) for name in ("uno", "due")]
        for b in bots:
            line = b.stdout.readline()  # type: ignore[union-attr]
            assert "registered in tournament c1" in line, line
        rc, out = run("tournament", "start", "c1", "--name", "ada", "--server", server.address)
        assert rc == 0 and "running" in out, out
        (rc1, out1), (rc2, out2) = finish(bots[0]), finish(bots[1])
        assert rc1 == 0 and rc2 == 0, out1 + out2
        for out in (out1, out2):
            assert "seated at table" in out and "tournament c1 is over: rank" in out and "Traceback" not in out
        rc, out = run("tournament", "standings", "c1", "--server", server.address)
        assert rc == 0 and "final standings" in out and "uno" in out and "due" in out, out
        rc, out = run("tournament", "list", "--server", server.address)  # over: no longer among the open ones
        assert rc == 0 and "c1" not in out and "No tournament is open" in out, out
        rc, out = run("tournament", "list", "--finished", "--server", server.address)  # but kept with the records
        assert rc == 0 and "c1" in out and "finished" in out and "uno" in out, out


def test_only_the_operator_creates_tournaments_where_the_server_says_so(tmp_path: Path) -> None:
    token_file = tmp_path / "admin-{port}.token"
    with ServerThread(club=ClubOptions(operator_only=True), admin_token_file=str(token_file)) as server:
        rc, out = run("tournament", "create", "Coppa", "--rounds", "1", "--cap", "2", "--name", "ada", "--server",
                      server.address)
        assert rc == 1 and "not_allowed" in out and "operator" in out and "Traceback" not in out, out
        wrong = tmp_path / "wrong.token"
        wrong.write_text("not-the-operators-token-at-all\n")
        rc, out = run("tournament", "create", "Coppa", "--rounds", "1", "--cap", "2", "--name", "ada", "--server",
                      server.address, "--operator", "--token-file", str(wrong))
        assert rc == 1 and "not_allowed" in out, out
        rc, out = run("tournament", "create", "Coppa", "--rounds", "1", "--cap", "2", "--name", "ada", "--server",
                      server.address, "--operator", "--token-file", str(token_file))
        assert rc == 0 and "c1" in out and "Coppa" in out and "by ada" in out, out
        rc, out = run("tournament", "create", "Coppa", "--name", "ada", "--server", server.address, "--operator",
                      "--token-file", str(tmp_path / "none.token"))
        assert rc == 1 and "cannot read the operator token" in out and "Traceback" not in out, out


def test_a_bot_is_refused_where_the_tournament_allows_no_bots() -> None:
    with ServerThread(club=ClubOptions()) as server:
        rc, out = run("tournament", "create", "Coppa", "--rounds", "1", "--cap", "2", "--name", "ada", "--server", server.address)
        assert rc == 0, out
        rc, out = finish(bot(server.address, "--tournament", "c1", "--name", "uno"))
        assert rc == 1 and "bad_entrant" in out and "does not allow bots" in out and "Traceback" not in out, out
        rc, out = run("tournament", "join", "c1", "--name", "bea", "--server", server.address)  # a person may
        assert rc == 0 and "bea" in out, out
        rc, out = run("tournament", "join", "c9", "--name", "bea", "--server", server.address)
        assert rc == 1 and "no_such_tournament" in out and "Traceback" not in out, out
