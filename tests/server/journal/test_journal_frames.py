"""The frames between the server and its SQLite journal's process (server/journal/sqlite/pipe.py)
carry each action as its three fields; the child gets back the very commands the
server wrote (R7: what is journaled is the action the game master took)."""

from __future__ import annotations

import pickle

import pytest

from scopa.engine import RuleSet
from scopa.server.journal.commands import AppendAction, CreateTable, FinishTable, Request, SetSeat
from scopa.server.journal.sqlite.pipe import calls as to_calls, requests as from_calls

pytestmark = pytest.mark.unit


def test_a_frame_carries_actions_as_fields_and_gives_back_the_same_commands() -> None:
    sent: list[Request | None] = [
        CreateTable("t1", RuleSet.build("scopa"), 7), SetSeat("t1", 0, "ana"), AppendAction("t1", 0, "p:7c"),
        AppendAction("t1", 1, "p:1d:1d"), None, FinishTable("t1", 0, (11, 4), "target"), AppendAction("t2", 5, "x"),
    ]
    calls = to_calls(sent)
    assert [type(c) for c in calls][2:4] == [tuple, tuple]
    back = from_calls(pickle.loads(pickle.dumps(calls, pickle.HIGHEST_PROTOCOL)))
    assert back == sent
    assert [type(r) for r in back] == [type(r) for r in sent]
    action = back[2]
    assert isinstance(action, AppendAction)
    assert hash(action) == hash(AppendAction("t1", 0, "p:7c"))
    with pytest.raises(AttributeError):
        action.index = 3  # type: ignore[misc]  # still frozen
