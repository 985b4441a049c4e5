"""A server does its first-use work before it listens: the tables that fold names are
built by ``NetworkEngine.start``, so its first client's ``hello`` does not wait for them
(nor does the memory they take look like that client's)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scopa.server import NetworkEngine
from scopa.server.core import text

pytestmark = pytest.mark.integration


async def test_a_server_builds_its_name_tables_before_it_listens() -> None:
    text._folding.cache_clear()  # noqa: SLF001 - as in a fresh process
    engine = NetworkEngine("127.0.0.1", 0)
    await engine.start()
    try:
        assert text._folding.cache_info().currsize == 1  # noqa: SLF001
        assert text._folding.cache_info().hits == 0  # noqa: SLF001 - built once, before any client
    finally:
        await engine.stop()


_MODELS_BUILT = """
import asyncio, json, sys
from pydantic import BaseModel
import scopa.cli.main
from scopa.protocol.envelope import COMMAND_ADAPTER

def models():
    pending, seen = [BaseModel], []
    while pending:
        cls = pending.pop()
        seen.append(cls)
        pending.extend(cls.__subclasses__())
    return [c for c in seen if c.__module__.startswith("scopa.protocol.")]

def built():
    return sorted(c.__qualname__ for c in models() if c.__pydantic_complete__)

report = {"on_import": built(), "adapter_on_import": COMMAND_ADAPTER.pydantic_complete}
from scopa.server import NetworkEngine

async def main():
    engine = NetworkEngine("127.0.0.1", 0)
    await engine.start()
    await engine.stop()

asyncio.run(main())
report["unbuilt_after_start"] = sorted(c.__qualname__ for c in models() if not c.__pydantic_complete__)
report["adapter_after_start"] = COMMAND_ADAPTER.pydantic_complete
report["wire_models"] = len(models())
json.dump(report, sys.stdout)
"""


@pytest.mark.process
def test_the_wire_models_are_built_by_a_server_before_it_listens_not_by_an_import() -> None:
    """A fresh process: the command line's import builds no wire or record model (a command
    that sends none does not pay for them); a server's start builds every one, and the
    command adapter, before its first client."""
    out = subprocess.run([sys.executable, "-c", _MODELS_BUILT], capture_output=True, text=True, check=True,
                         timeout=120).stdout
    report = json.loads(out)
    assert report["wire_models"] > 100
    assert report["adapter_on_import"] is False
    assert report["unbuilt_after_start"] == []
    assert report["adapter_after_start"] is True
    assert report["on_import"] == ["WireRules"]  # not a deferred model
