"""The operator: a secret token the server writes to an owner-only file when it starts,
and the ``admin`` commands that carry it (``scopa admin --server HOST:PORT ...``).

With the token a connection may list the connections and every table (private ones
too), close a table (a running game is recorded as abandoned), disconnect a client by
name, list the journaled tables that could not be restored, and stop the server
gracefully (journaled games are suspended, not abandoned: the next start resumes them; a
member of a cluster sharing one journal hands its tables to the other members).
A wrong token is a fatal ``bad_token``: the connection is closed.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode

from .listing import table_number
from ..core import name_key

if TYPE_CHECKING:
    from ..conn import Connections, ServerSession
    from .seating import SeatingRegistry
    from .life import TableLife

log = logging.getLogger("scopa.server")


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

    def __init__(self, connections: Connections, seating: SeatingRegistry, life: TableLife, stopped: asyncio.Event,
                 token_file: str | None = None) -> None:
        """``stopped``: set when the operator asks the server to stop."""
        self.connections = connections
        self.seating = seating
        self.life = life
        self.stopped = stopped
        self.token = secrets.token_urlsafe(32)
        self._token_file = token_file
        self.token_path: Path | None = None

    def write_token(self, port: int) -> None:
        """Write the token where it was asked for (a ``{port}`` there is ``port``)."""
        if self._token_file is None:
            return
        path = Path(self._token_file.replace("{port}", str(port)))
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

    def holds(self, token: str | None) -> bool:
        """Whether ``token`` is this server's operator token."""
        return token is not None and hmac.compare_digest(token.encode(), self.token.encode())

    # ------------------------------------------------------------------ commands

    def handle(self, sess: ServerSession, body: wire.Admin, seq: int) -> None:
        if not self.holds(body.token):
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
                           for tid, why in sorted(self.life.damaged.items(), key=lambda kv: table_number(kv[0]))]
                self._reply(sess, seq, wire.AdminReply(op=body.op, damaged=damaged[:wire.MAX_ADMIN_ROWS],
                                                       total=len(damaged)))
            case wire.AdminOp.STOP:
                self._reply(sess, seq, wire.AdminReply(op=body.op, message=self._stopping()))
                self.stopped.set()

    def _stopping(self) -> str:
        """What stopping does to the running games: a server of its own resumes them on its
        next start; a member of a cluster sharing one journal hands them to the others."""
        shared = self.life.shared
        if shared is None:
            return "stopping; running games resume on the next start"
        if shared.leases is None:  # each member keeps its own journal
            return "stopping; this member's running games resume on its next start (the other members go on)"
        open_ = [t for t in self.seating.tables.values() if not t.closed]
        playing = sum(1 for t in open_ if t.state is wire.TableState.PLAYING)
        waiting = sum(1 for t in open_ if t.state is wire.TableState.WAITING)  # its players' clients leave with it
        closed = f", {_tables(waiting)} waiting for players closed" if waiting else ""
        return f"draining: {_tables(playing)} handed to the other members{closed}; stopping"

    @staticmethod
    def _reply(sess: ServerSession, seq: int, reply: wire.AdminReply) -> None:
        sess.tell(reply, re=seq)

    def _connections(self, sess: ServerSession, seq: int) -> None:
        rows = []
        for s in list(self.connections.sessions.values())[: wire.MAX_ADMIN_ROWS]:
            watched = self.seating.watched_by(s)
            rows.append(wire.ConnectionInfo(id=s.id, name=s.name, peer=str(s.peer)[:200],
                                            table=s.table_id,
                                            watching=watched.id if watched is not None else None,
                                            queued_bytes=min(s.queued_bytes, 1_000_000)))
        self._reply(sess, seq, wire.AdminReply(op=wire.AdminOp.CONNECTIONS, connections=rows,
                                               total=len(self.connections.sessions)))

    def _tables(self, sess: ServerSession, after: str, seq: int) -> None:
        tables = sorted(self.seating.tables.values(), key=lambda t: table_number(t.id))
        if after:
            tables = [t for t in tables if table_number(t.id) > table_number(after)]
        page = tables[: wire.MAX_PAGE]
        more = len(tables) > len(page)
        self._reply(sess, seq, wire.AdminReply(op=wire.AdminOp.TABLES, tables=[t.info() for t in page],
                                               next=page[-1].id if more else None, total=len(self.seating.tables)))

    def _close(self, sess: ServerSession, table_id: str, seq: int) -> None:
        table = self.seating.tables.get(table_id)
        if table is None or table.state is wire.TableState.FINISHED:
            sess.error(ErrorCode.NO_SUCH_TABLE, f"there is no open table {table_id!r}", re=seq)
            return
        if table.state is wire.TableState.PLAYING:
            table.abandon("closed by the operator")  # recorded as abandoned; everyone told
            message = f"table {table_id}: the game is abandoned"
        else:
            self.life.close_waiting(table, "closed by the operator")
            message = f"table {table_id}: closed"
        self._reply(sess, seq, wire.AdminReply(op=wire.AdminOp.CLOSE_TABLE, message=message))

    def _kick(self, sess: ServerSession, name: str, seq: int) -> None:
        target = self.connections.names.get(name_key(name)) if name else None
        if target is None:
            self._reply(sess, seq, wire.AdminReply(op=wire.AdminOp.KICK, message=f"nobody called {name!r} is connected"))
            return
        target.tell(wire.Bye(reason="disconnected by the operator"))
        target.close()
        self._reply(sess, seq, wire.AdminReply(op=wire.AdminOp.KICK, message=f"{target.name} disconnected"))


def _tables(n: int) -> str:
    return f"{n} table{'' if n == 1 else 's'}"
