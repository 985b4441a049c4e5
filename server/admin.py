"""The operator: a secret token the server writes to an owner-only file when it starts,
and the ``admin`` commands that carry it (``scopa admin --server HOST:PORT ...``).

With the token a connection may list the connections and every table (private ones
too), close a table (a running game is recorded as abandoned), disconnect a client by
name, list the journaled tables that could not be restored, and stop the server
gracefully (journaled games are suspended, not abandoned: the next start resumes them).
A wrong token is a fatal ``bad_token``: the connection is closed.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode

from .listing import table_number
from .text import name_key

if TYPE_CHECKING:
    from .lobby import TableDirectory
    from .session import ClientSession
    from .table import Table

log = logging.getLogger("scopa.server")


class Operated(Protocol):
    """What the operator acts on: the server (``NetworkEngine``)."""

    port: int
    damaged: dict[str, str]
    stopped: asyncio.Event
    sessions: dict[int, ClientSession]
    tables: TableDirectory
    names: dict[str, ClientSession]

    def watched_by(self, sess: ClientSession) -> Table | None:
        """The table ``sess`` watches, if any."""

    def close_waiting(self, table: Table, reason: str) -> None:
        """Close a table whose game has not begun."""


def write_secret(path: Path, secret: str) -> None:
    """Write ``secret`` to ``path``, readable and writable by its owner only (0600)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # also when the file was there before with another mode
        os.write(fd, (secret + "\n").encode())
    finally:
        os.close(fd)


class Operator:
    """The server's side of ``scopa admin``."""

    def __init__(self, engine: Operated, token_file: str | None = None) -> None:
        self.engine = engine
        self.token = secrets.token_urlsafe(32)
        self._token_file = token_file
        self.token_path: Path | None = None

    def write_token(self) -> None:
        if self._token_file is None:
            return
        path = Path(self._token_file.replace("{port}", str(self.engine.port)))
        try:
            write_secret(path, self.token)
        except OSError as exc:
            log.error("could not write the operator token to %s: %s (scopa admin will not work)", path, exc)
            return
        self.token_path = path
        log.info("operator token written to %s", path)

    def remove_token(self) -> None:
        path, self.token_path = self.token_path, None
        if path is None:
            return
        try:
            if path.read_text().strip() == self.token:  # not another server's since
                path.unlink()
        except OSError:
            pass

    # ------------------------------------------------------------------ commands

    def handle(self, sess: ClientSession, body: wire.Admin, seq: int) -> None:
        if not hmac.compare_digest(body.token.encode(), self.token.encode()):
            log.warning("connection %s (%s, %s) gave a wrong operator token; closing it", sess.id, sess.party, sess.peer)
            sess.error(ErrorCode.BAD_TOKEN, "that is not this server's operator token", re=seq, fatal=True)
            sess.close()
            return
        log.info("operator (connection %s): %s %s", sess.id, body.op.value, body.target)
        match body.op:
            case wire.AdminOp.CONNECTIONS:
                self._connections(sess, seq)
            case wire.AdminOp.TABLES:
                self._tables(sess, body.target, seq)
            case wire.AdminOp.CLOSE_TABLE:
                self._close(sess, body.target, seq)
            case wire.AdminOp.KICK:
                self._kick(sess, body.target, seq)
            case wire.AdminOp.DAMAGED:
                damaged = [wire.DamagedTable(id=tid, reason=why[:500])
                           for tid, why in sorted(self.engine.damaged.items(), key=lambda kv: table_number(kv[0]))]
                self._reply(sess, seq, wire.AdminReply(op=body.op, damaged=damaged[:wire.MAX_ADMIN_ROWS],
                                                       total=len(damaged)))
            case wire.AdminOp.STOP:
                self._reply(sess, seq, wire.AdminReply(op=body.op, message="stopping; running games resume on the next start"))
                self.engine.stopped.set()

    @staticmethod
    def _reply(sess: ClientSession, seq: int, reply: wire.AdminReply) -> None:
        sess.send(reply, re=seq)

    def _connections(self, sess: ClientSession, seq: int) -> None:
        rows = []
        for s in list(self.engine.sessions.values())[: wire.MAX_ADMIN_ROWS]:
            watched = self.engine.watched_by(s)
            rows.append(wire.ConnectionInfo(id=s.id, name=s.name, peer=s.peer[:200],
                                            table=s.table_id,
                                            watching=watched.id if watched is not None else None,
                                            queued_bytes=min(s.queued_bytes, 1_000_000)))
        self._reply(sess, seq, wire.AdminReply(op=wire.AdminOp.CONNECTIONS, connections=rows,
                                               total=len(self.engine.sessions)))

    def _tables(self, sess: ClientSession, after: str, seq: int) -> None:
        tables = sorted(self.engine.tables.values(), key=lambda t: table_number(t.id))
        if after:
            tables = [t for t in tables if table_number(t.id) > table_number(after)]
        page = tables[: wire.MAX_PAGE]
        more = len(tables) > len(page)
        self._reply(sess, seq, wire.AdminReply(op=wire.AdminOp.TABLES, tables=[t.info() for t in page],
                                               next=page[-1].id if more else None, total=len(self.engine.tables)))

    def _close(self, sess: ClientSession, table_id: str, seq: int) -> None:
        table = self.engine.tables.get(table_id)
        if table is None or table.state is wire.TableState.FINISHED:
            sess.error(ErrorCode.NO_SUCH_TABLE, f"there is no open table {table_id!r}", re=seq)
            return
        if table.state is wire.TableState.PLAYING:
            table.abandon("closed by the operator")  # recorded as abandoned; everyone told
            message = f"table {table_id}: the game is abandoned"
        else:
            self.engine.close_waiting(table, "closed by the operator")
            message = f"table {table_id}: closed"
        self._reply(sess, seq, wire.AdminReply(op=wire.AdminOp.CLOSE_TABLE, message=message))

    def _kick(self, sess: ClientSession, name: str, seq: int) -> None:
        target = self.engine.names.get(name_key(name)) if name else None
        if target is None:
            self._reply(sess, seq, wire.AdminReply(op=wire.AdminOp.KICK, message=f"nobody called {name!r} is connected"))
            return
        target.send(wire.Bye(reason="disconnected by the operator"))
        target.close()
        self._reply(sess, seq, wire.AdminReply(op=wire.AdminOp.KICK, message=f"{target.name} disconnected"))
