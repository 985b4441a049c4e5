"""Which event loop `scopa serve` and `scopa cluster` run on (``--loop``)."""

from __future__ import annotations

import argparse
import asyncio

import pytest
import uvloop

from scopa.cli import cluster, interrupt, loops

pytestmark = pytest.mark.unit


def test_auto_is_uvloop_where_it_is_installed_and_asyncio_where_not(monkeypatch: pytest.MonkeyPatch) -> None:
    assert loops.chosen("auto") == "uvloop"  # the test extras install it
    monkeypatch.setattr(loops, "has_uvloop", lambda: False)
    assert loops.chosen("auto") == "asyncio"
    assert loops.chosen("uvloop") == "uvloop"  # named, it is asked for, installed or not
    with pytest.raises(ValueError, match=r"pip install 'scopa\[fast\]'"):
        loops.factory("uvloop")
    assert loops.factory("asyncio") is None
    with pytest.raises(ValueError, match="unknown event loop"):
        loops.chosen("trio")


def test_a_command_runs_on_the_loop_its_factory_makes() -> None:
    async def which() -> tuple[bool, str]:
        return loops.running_uvloop(), type(asyncio.get_running_loop()).__module__

    factory = loops.factory("uvloop")
    assert factory is uvloop.new_event_loop
    on_uvloop, module = interrupt.run(which(), loop_factory=factory)
    assert on_uvloop and module.startswith("uvloop")
    on_uvloop, module = interrupt.run(which())
    assert not on_uvloop and module.startswith("asyncio")


def test_the_members_of_scopa_cluster_are_told_their_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    args = argparse.Namespace(host="127.0.0.1", cluster="redis://127.0.0.1:6379/0", db="postgresql://127.0.0.1/test",
                              port=7400, cluster_prefix="scopa", web_port=None, loop="auto")
    command = cluster.member_command(args)
    assert command[command.index("--loop") + 1] == "uvloop"
    monkeypatch.setattr(loops, "has_uvloop", lambda: False)
    command = cluster.member_command(args)
    assert command[command.index("--loop") + 1] == "asyncio"
    args.loop = "asyncio"
    monkeypatch.undo()
    command = cluster.member_command(args)
    assert command[command.index("--loop") + 1] == "asyncio"


def test_scopa_serve_runs_on_uvloop_where_it_is_installed_unless_told_otherwise(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from scopa.cli.main import build_parser

    args = build_parser().parse_args(["serve"])
    assert loops.chosen(args.loop) == "uvloop"  # the test extras install it
    monkeypatch.setattr(loops, "has_uvloop", lambda: False)
    assert loops.chosen(args.loop) == "asyncio"
    assert build_parser().parse_args(["serve", "--loop", "asyncio"]).loop == "asyncio"


def test_the_start_line_names_the_loop() -> None:
    async def line() -> str:
        return loops.described()

    assert interrupt.run(line(), loop_factory=loops.factory("uvloop")) == "on uvloop"
    assert interrupt.run(line()) == "on asyncio's loop"
