"""Rules equal to a preset are that preset wherever a person reads or a server files them:
`scopa local`'s log, `scopa bot`'s output, the table list, the games list and the ratings
(§6: the default rules are the game called scopa)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from scopa.cli import main
from scopa.client.net import ClientSession
from serverthread import ServerThread
from scopa.engine import Preset
from scopa.protocol import TableState

from procs import finish
from procs import scopa_bot as bot


def scopa(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """The `scopa` command run here, its output into a pipe: (exit code, output)."""
    capsys.readouterr()
    code = main(list(args))
    return code, capsys.readouterr().out


def test_a_logged_game_with_seats_or_a_preset_option_names_its_preset(capsys: pytest.CaptureFixture[str]) -> None:
    """`--seats` decides the player count and `-o preset=NAME` names the game: neither makes
    the ordinary game "custom"."""
    for extra in ([], ["-o", "preset=scopa"], ["--players", "2"]):
        code, out = scopa(capsys, "local", "--seats", "greedy,random", "--seed", "3", *extra)
        assert code == 0 and "Game starts: Scopa, 2p, to 11" in out and "custom" not in out, out
    code, out = scopa(capsys, "local", "--seats", "greedy,random", "--seed", "3", "-o", "preset=cirulla")
    assert code == 0 and "Game starts: Cirulla, 2p, to 51" in out, out


async def waiting_tables(address: str) -> list[tuple[str, Preset | None]]:
    host, port = address.rsplit(":", 1)
    async with await ClientSession.connect(host, int(port), "onlooker") as session:
        return [(t.description, t.rules.preset) for t in await session.list_tables(TableState.WAITING)]


def test_a_default_game_between_two_scopa_bots_is_listed_filed_and_rated_as_scopa(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`scopa bot` with no rules creates the ordinary game: its output and the table list
    say scopa, the finished game is filed under scopa and both players (two names) are on
    scopa's leaderboard."""
    with ServerThread(db=str(tmp_path / "games.db"), rate_shared_addresses=["127.0.0.1"]) as server:
        ada = bot(server.address, "--strategy", "greedy", "--games", "1", "--name", "ada")
        created = ada.stdout.readline()  # type: ignore[union-attr]
        assert "created table 1 (scopa, 2p, to 11)" in created, created
        assert asyncio.run(waiting_tables(server.address)) == [("scopa, 2p, to 11", Preset.SCOPA)]
        bob = bot(server.address, "--strategy", "random", "--games", "1", "--name", "bob")
        (rc1, out1), (rc2, out2) = finish(ada), finish(bob)
        assert rc1 == 0 and rc2 == 0, out1 + out2
        code, games = scopa(capsys, "games", "--server", server.address)
        assert code == 0 and games.split()[3:6] == ["ada,", "bob", "scopa"], games
        code, board = scopa(capsys, "leaderboard", "--server", server.address, "--rules", "scopa")
        assert code == 0 and sorted(line.split()[1] for line in board.splitlines()[1:]) == ["ada", "bob"], board
