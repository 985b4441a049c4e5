"""What the `scopa` command imports: each subcommand only what it needs, so that the
many `scopa bot` processes of a bot farm (and of these tests) start quickly.

`scopa bot` plays a whole game without importing the server, the full-screen app
(Textual, scopa.client.tui) or the rich rendering of a game (scopa.client.text.render);
`scopa serve` starts without the full-screen app."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from procs import ROOT

pytestmark = pytest.mark.process

PROBE = """
import sys
from scopa.cli.main import main

try:
    main(sys.argv[2:])
except SystemExit:
    pass
finally:
    with open(sys.argv[1], "w") as out:
        out.write("\\n".join(sorted(sys.modules)))
"""
"""Runs the `scopa` command with the arguments after the file's name, then writes to
that file every module imported by then."""


async def modules_of(tmp_path: Path, *args: str) -> set[str]:
    """The modules `scopa ARGS` imported, once it has finished."""
    listing = tmp_path / "modules.txt"
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", PROBE, str(listing), *args, cwd=ROOT,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate(), 90)
    assert proc.returncode == 0, out.decode(errors="replace")
    return set(listing.read_text().split())


def under(modules: set[str], *packages: str) -> list[str]:
    """The modules that are ``packages`` or inside them."""
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in packages))


async def test_a_bot_plays_a_game_without_the_server_the_app_or_the_rendering(tmp_path: Path, port: int) -> None:
    modules = await modules_of(tmp_path, "bot", f"127.0.0.1:{port}", "--games", "1", "--fill-with-bots", "greedy",
                               "--target", "11", "--quiet")
    assert "scopa.client.console.botrunner" in modules  # it did play
    assert under(modules, "scopa.server", "textual", "scopa.client.tui", "scopa.client.text.render") == []


async def test_serve_starts_without_the_full_screen_app(tmp_path: Path) -> None:
    modules = await modules_of(tmp_path, "serve", "--help")
    assert "scopa.cli.serve" in modules
    assert under(modules, "textual", "scopa.client.tui") == []

