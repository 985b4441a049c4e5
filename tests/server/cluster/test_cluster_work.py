"""What a cluster member does for each change of a table and each refresh of its names,
without Redis (a recording stand-in for the client): a table's map dumped once for its
hash entry and its news, the same texts as ever; a held name asked about by its key."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from scopa.engine import RuleSet
from scopa.protocol import commands as wire
from scopa.protocol.convert import rules_to_wire
from scopa.server.cluster.keys import Keys, read_entry, read_news, TableNews
from scopa.server.cluster.names import Names
from scopa.server.cluster.presence import Presence
from scopa.server.core import name_key

pytestmark = pytest.mark.unit


class Pipe:
    """A pipeline that records its commands."""

    def __init__(self) -> None:
        self.commands: list[tuple[Any, ...]] = []

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: self.commands.append((name, *args))

    async def execute(self) -> list[Any]:
        return [None] * len(self.commands)


class Store:
    """A Redis client whose pipelines record their commands; every script answers nothing."""

    def __init__(self) -> None:
        self.pipes: list[Pipe] = []

    def pipeline(self, transaction: bool = True) -> Pipe:
        self.pipes.append(Pipe())
        return self.pipes[-1]

    async def eval(self, *args: Any) -> list[Any]:
        return []


class Table:
    def __init__(self, info: wire.TableInfo) -> None:
        self.id = info.id
        self._info = info

    def info(self) -> wire.TableInfo:
        return self._info


def _info(state: wire.TableState) -> wire.TableInfo:
    return wire.TableInfo(id="12", rules=rules_to_wire(RuleSet.build("scopa")), description="scopa, 2p, to 11",
                          seats=["anna", "bruno"], state=state, member="127.0.0.1:7015")


@pytest.mark.parametrize("state", [wire.TableState.PLAYING, wire.TableState.CLOSED])
async def test_a_changed_table_is_dumped_once_for_its_entry_and_its_news(
        monkeypatch: pytest.MonkeyPatch, state: wire.TableState) -> None:
    info = _info(state)
    dumped = info.model_dump(mode="json")
    dumps: list[object] = []
    dump = wire.TableInfo.model_dump
    monkeypatch.setattr(wire.TableInfo, "model_dump", lambda self, **kw: dumps.append(self) or dump(self, **kw))
    keys = Keys("p")
    presence = Presence("m1", keys, None, None, 10.0, lambda exc: None)  # type: ignore[arg-type]
    store = Store()
    presence.store = store  # type: ignore[assignment]
    presence.changed(Table(info))  # type: ignore[arg-type]
    while presence._flushing is not None:
        await asyncio.sleep(0)
    assert len(dumps) == 1
    (pipe,) = store.pipes
    news = json.dumps({"k": "table", "m": "m1", "n": 1, "table": dumped}, separators=(",", ":"))
    entry = json.dumps({"n": 1, "table": dumped}, separators=(",", ":"))
    kept = [("hdel", keys.tables("m1"), "12")] if state is wire.TableState.CLOSED \
        else [("hset", keys.tables("m1"), "12", entry)]
    assert pipe.commands == [*kept, ("publish", keys.lobby, news)]  # the texts the members have always exchanged
    assert read_news(news) == TableNews("m1", 1, info) == read_entry("m1", entry)


async def test_a_refresh_asks_whether_a_held_name_is_in_use_by_its_key() -> None:
    asked: list[str] = []
    names = Names("m1", Keys("p"), 30.0, lambda key: asked.append(key) or True, lambda exc: None)
    names.held[name_key("Bill")] = "Bill"
    await names.refresh(Store())  # type: ignore[arg-type]
    assert asked == [name_key("Bill")] and name_key("Bill") != "Bill"
    assert names.held == {name_key("Bill"): "Bill"}
