"""The operator (``scopa admin``): a token in a 0600 file written at start; with it, list
connections and tables, close a table (recorded as abandoned), kick a name, show the
damaged tables, and stop the server so that running games resume on the next start."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from scopa.bots import RandomBot
from scopa.cli.admin import admin_request
from scopa.protocol import commands as wire
from scopa.server import NetworkEngine
from scopa.server.journal.sqlite.storage import SQLiteStorage

from wire_client import WireClient

OP = wire.AdminOp


async def _server(tmp_path: Path, db: str | None = None) -> NetworkEngine:
    engine = NetworkEngine("127.0.0.1", 0, seed=9, db=db, admin_token_file=str(tmp_path / "admin-{port}.token"))
    await engine.start()
    return engine


def _token(tmp_path: Path, engine: NetworkEngine) -> str:
    path = tmp_path / f"admin-{engine.port}.token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    return path.read_text().strip()


async def test_the_operator_lists_closes_and_kicks(tmp_path: Path) -> None:
    engine = await _server(tmp_path, db=str(tmp_path / "j.db"))
    try:
        token = _token(tmp_path, engine)
        ann = await WireClient.connect(engine.port, "ann")
        playing = await ann.create(bots=["greedy"])
        await ann.recv_until("your_turn", "played")
        bob = await WireClient.connect(engine.port, "bob")
        bob.send(wire.CreateTable(private=True))
        private = (await bob.recv_until("table_created")).body.table.id

        reply = await admin_request("127.0.0.1", engine.port, token, OP.CONNECTIONS)
        assert isinstance(reply, wire.AdminReply)
        names = {c.name: c for c in reply.connections}
        assert {"ann", "bob"} <= set(names) and names["ann"].table == playing

        reply = await admin_request("127.0.0.1", engine.port, token, OP.TABLES)
        assert isinstance(reply, wire.AdminReply) and {t.id for t in reply.tables} == {playing, private}

        reply = await admin_request("127.0.0.1", engine.port, token, OP.CLOSE_TABLE, playing)
        assert isinstance(reply, wire.AdminReply) and "abandoned" in reply.message
        assert (await ann.recv_until("game_end")).body.reason == "abandoned"
        reply = await admin_request("127.0.0.1", engine.port, token, OP.CLOSE_TABLE, private)
        assert isinstance(reply, wire.AdminReply)
        assert (await bob.recv_until("left")).body.table == private and private not in engine.tables

        reply = await admin_request("127.0.0.1", engine.port, token, OP.KICK, "BOB")
        assert isinstance(reply, wire.AdminReply) and "bob" in reply.message
        assert (await bob.recv_until("bye")).body.reason == "disconnected by the operator"
        with pytest.raises(ConnectionError):
            await bob.recv()
        await ann.close()
    finally:
        await engine.stop()
    db = SQLiteStorage(str(tmp_path / "j.db"))
    assert [r.reason for r in db.reads.load_results() if r.id == playing] == ["abandoned"]
    db.close()


async def test_a_wrong_token_closes_the_connection(tmp_path: Path) -> None:
    engine = await _server(tmp_path)
    try:
        _token(tmp_path, engine)
        reply = await admin_request("127.0.0.1", engine.port, "x" * 43, OP.STOP)
        assert isinstance(reply, wire.Error) and reply.code == "bad_token" and reply.fatal
        assert not engine.stopped.is_set()
    finally:
        await engine.stop()
    assert not (tmp_path / f"admin-{engine.port}.token").exists()  # removed at stop


async def test_stop_suspends_running_games_and_the_next_start_resumes_them(tmp_path: Path) -> None:
    db = str(tmp_path / "j.db")
    engine = await _server(tmp_path, db=db)
    try:
        token = _token(tmp_path, engine)
        ann = await WireClient.connect(engine.port, "ann")
        table = await ann.create(bots=["greedy"])
        bot = RandomBot(seed=1)
        from scopa.protocol.convert import action_to_wire, legal_from_wire, rules_from_wire, view_from_wire

        rules = None
        plays = 0
        while plays < 3:  # three plays of ours, journaled and acknowledged
            cmd = await ann.recv()
            if isinstance(cmd.body, wire.GameStart):
                rules = rules_from_wire(cmd.body.rules)
            if isinstance(cmd.body, wire.YourTurn):
                assert rules is not None
                action = await bot.choose(view_from_wire(cmd.body.view, rules), legal_from_wire(cmd.body))
                ann.send(action_to_wire(action), recipient=f"table:{table}")
                await ann.recv_until("played")
                plays += 1
        done = len(engine.tables[table].master.actions)
        reply = await admin_request("127.0.0.1", engine.port, token, OP.STOP)
        assert isinstance(reply, wire.AdminReply) and engine.stopped.is_set()
    finally:
        await engine.stop()
    assert ann.token is not None
    again = await _server(tmp_path, db=db)
    try:
        restored = again.tables[table]
        assert restored.state is wire.TableState.PLAYING and len(restored.master.actions) >= done
        c = await WireClient.connect(again.port)
        assert (await c.resume(ann.token, ann.last_event, "ann")).name == "welcome"
        assert (await c.recv_until("joined")).body.resumed
        await c.close()
        reply = await admin_request("127.0.0.1", again.port, _token(tmp_path, again), OP.DAMAGED)
        assert isinstance(reply, wire.AdminReply) and reply.damaged == []
    finally:
        await again.stop()


def test_scopa_admin_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scopa.cli import main
    from serverthread import ServerThread

    with ServerThread(admin_token_file=str(tmp_path / "tok-{port}")) as server:
        token_file = str(tmp_path / "tok-{port}")
        assert main(["admin", "--server", server.address, "--token-file", token_file, "tables"]) == 0
        assert "0 tables" in capsys.readouterr().out
        assert main(["admin", "--server", server.address, "--token-file", token_file, "damaged"]) == 0
        assert "no damaged tables" in capsys.readouterr().out
        assert main(["admin", "--server", server.address, "--token-file", str(tmp_path / "nope"), "stop"]) == 1
        assert main(["admin", "--server", server.address, "--token-file", token_file, "stop"]) == 0
        assert "stopping" in capsys.readouterr().out
        assert server.engine.stopped.is_set()
