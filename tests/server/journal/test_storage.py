"""Storage backends: round trips, refusals, SQLite file settings."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from scopa.engine import Deal, DeclarationKind, Declare, Play, RuleSet
from scopa.server.journal.commands import JournalBackend as StorageBackend
from scopa.server.journal.values import decode_action, encode_action
from scopa.server.journal.memory.storage import MemoryStorage
from scopa.server.journal.sqlite.storage import SQLiteStorage, StorageError


@pytest.fixture(params=["memory", "sqlite"])
def storage(request, tmp_path):
    s = MemoryStorage() if request.param == "memory" else SQLiteStorage(str(tmp_path / "t.db"))
    yield s
    s.close()


def test_action_encoding_round_trip() -> None:
    deal = Deal(tuple(reversed(range(40))))
    for a in (Play(3, 0), Play(39, (1 << 5) | (1 << 17)), Declare(DeclarationKind.TRIS, None),
              Declare(DeclarationKind.UNDER_TEN, 4), deal):
        text = encode_action(a)
        assert decode_action(text) == a and type(decode_action(text)) is type(a)
    assert encode_action(Play(3, 5)) == '["p",3,5]'
    assert encode_action(Declare(DeclarationKind.UNDER_TEN, 4)) == '["d","under10",4]'
    for bad in ('["x",1]', '["p","3",0]', '["s",[1,2]]', '{}'):
        with pytest.raises(ValueError):
            decode_action(bad)


def test_round_trip(storage: StorageBackend) -> None:
    assert isinstance(storage, StorageBackend)
    rules = RuleSet.build("cirulla", players=4)
    seed = 2**63 - 1
    digest = hashlib.sha256(b"secret-token").hexdigest()
    storage.writes.create_table("7", rules, seed, private=True, options={"grace": 120})
    storage.writes.set_seat("7", 0, "ada", token_digest=digest)
    storage.writes.set_seat("7", 1, "greedy-bot-1", bot="greedy")
    storage.writes.set_seat("7", 2, "bob", token_digest="00" * 32)
    storage.writes.clear_seat("7", 2)
    storage.writes.set_seat("7", 2, "cy", token_digest="11" * 32)
    storage.writes.set_seat("7", 3, "random-bot-3", bot="random")
    storage.writes.create_table("12", RuleSet.build("scopa"), 5)
    storage.writes.set_seat("12", 0, "dora", token_digest="22" * 32)
    assert storage.reads.last_table_id() == 12

    waiting = storage.reads.load_unfinished()
    assert [t.id for t in waiting] == ["7", "12"] and {t.status for t in waiting} == {"waiting"}
    t7 = waiting[0]
    assert t7.rules == rules and t7.seed == seed and t7.private and t7.options == {"grace": 120}
    assert [s.name if s else None for s in t7.seats] == ["ada", "greedy-bot-1", "cy", "random-bot-3"]
    assert t7.seats[0].token_digest == digest and t7.seats[0].bot is None
    assert t7.seats[1].bot == "greedy" and t7.seats[1].token_digest is None
    assert waiting[1].seats == [waiting[1].seats[0], None]

    storage.writes.start_table("7")
    actions = [Deal(tuple(range(40))), Play(1, 0), Declare(DeclarationKind.TRIS), Play(2, 6)]
    for i, a in enumerate(actions):
        storage.writes.append_action("7", i, a)
    storage.writes.append_action("7", 3, Play(2, 6))  # a resent play is journaled once
    with pytest.raises(StorageError):  # another play for a journaled index is refused
        storage.writes.append_action("7", 3, Play(1, 0))
    t7 = storage.reads.load_unfinished()[0]
    assert t7.status == "playing" and t7.actions == actions and storage.reads.load_actions("7") == actions

    storage.writes.finish_table("7", 1, [12, 51], "target")
    storage.writes.close_table("12", "server restart")
    assert storage.reads.load_unfinished() == []
    [result] = storage.reads.load_results()
    assert result.id == "7" and result.winner == 1 and result.totals == (12, 51) and result.reason == "target"
    assert result.seats == ("ada", "greedy-bot-1", "cy", "random-bot-3") and result.rules == rules
    with pytest.raises(StorageError):
        storage.writes.create_table("7", rules, 1)
    with pytest.raises(StorageError):
        storage.writes.finish_table("99", None, [], "abandoned")


def test_sqlite_survives_reopen_and_stores_no_token(tmp_path) -> None:
    path = str(tmp_path / "s.db")
    s = SQLiteStorage(path)
    s.writes.create_table("1", RuleSet.build("scopa"), 42)
    s.writes.set_seat("1", 0, "ada", token_digest=hashlib.sha256(b"tok-ada").hexdigest())
    s.writes.start_table("1")
    s.writes.append_action("1", 0, Deal(tuple(range(40))))
    # No close(): what a killed process leaves behind must be readable by the next one.
    again = SQLiteStorage(path)
    [t] = again.reads.load_unfinished()
    assert t.actions == [Deal(tuple(range(40)))] and t.seats[0].name == "ada"
    assert again.integrity_check() == "ok"
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert raw.execute("SELECT COUNT(*) FROM seats WHERE token_digest LIKE '%tok-ada%'").fetchone()[0] == 0
    raw.close()
    s.close()
    again.close()
    with open(path, "rb") as f:
        assert b"tok-ada" not in f.read()
