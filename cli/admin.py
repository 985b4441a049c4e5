"""``scopa admin``: the operator's commands, and the ``scopa serve`` options for every
server limit.

The server writes a secret token to an owner-only file when it starts (by default
``<user state dir>/scopa/admin-<port>.token``); ``scopa admin --server HOST:PORT OP``
reads it from there (or ``--token-file``) and sends one ``admin`` command.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from scopa.client.net import CertificateRefused, open_stream
from scopa.protocol.servers import ServerAddress, parse_server_address
from scopa.protocol import DEFAULT_PORT, Connection, ConnectionRole, Message
from scopa.protocol import commands as wire
from scopa.client.text import error_text, tr, word_text

TIMEOUT = 10.0


def default_token_file() -> str:
    """Where ``scopa serve`` writes, and ``scopa admin`` reads, the operator token
    (``{port}``: the server's port)."""
    import platformdirs

    return str(Path(platformdirs.user_state_dir("scopa")) / "admin-{port}.token")


# ---------------------------------------------------------------------- scopa serve options

# The limits that get an option of their own (any other: --limit NAME=VALUE).
_NAMED_LIMITS = {
    "max_waiting_tables_per_client": "tables a client may have waiting for players",
    "max_waiting_tables": "tables waiting for players on the whole server",
    "max_bot_tables_per_client": "bot-only games a client may have running at once",
    "max_bot_tables": "bot-only games running on the whole server",
    "max_queued_bytes": "bytes waiting for a client that does not read before it is dropped",
    "max_connections": "open connections overall",
    "max_connections_per_address": "open connections from one IP address",
}


def add_serve_options(serve: argparse.ArgumentParser) -> None:
    """The server's turn clock, its limits and the operator token file."""
    serve.add_argument("--turn-timeout", type=float, default=60.0, metavar="S",
                       help="seconds a seat at a public table has for a move (a table may ask for less; "
                            "only a private table may have none); 0: no turn clock by default; default 60")
    serve.add_argument("--bot-workers", type=int, default=1, metavar="N",
                       help="processes in which the bots that search (expert, hard) think, so their moves never "
                            "hold up other tables; default 1")
    serve.add_argument("--admin-token-file", default=default_token_file(), metavar="PATH",
                       help="where to write the operator token for `scopa admin` (0600; {port} is replaced "
                            "by the port); default %(default)s")
    g = serve.add_argument_group("limits (defaults: the table of limits in the README; 'none': no limit)")
    for name, text in _NAMED_LIMITS.items():
        g.add_argument("--" + name.replace("_", "-"), default=None, metavar="N", help=text)
    g.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                   help="any other limit of the README's table, e.g. --limit ping_interval=20")


def limit_options(args: argparse.Namespace) -> dict[str, str]:
    """The limits ``scopa serve`` was given, by name, as typed (``ValueError`` if malformed)."""
    chosen = {name: getattr(args, name) for name in _NAMED_LIMITS if getattr(args, name, None) is not None}
    for item in getattr(args, "limit", []):
        name, sep, text = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--limit {item!r}: expected NAME=VALUE")
        chosen[name.strip().replace("-", "_")] = text.strip()
    return chosen


# ---------------------------------------------------------------------- scopa admin

_OPS = {
    "connections": (wire.AdminOp.CONNECTIONS, "list the open connections"),
    "tables": (wire.AdminOp.TABLES, "list every table, private ones too (ARG: list the tables after this id)"),
    "close": (wire.AdminOp.CLOSE_TABLE, "close table ARG (a running game is recorded as abandoned)"),
    "kick": (wire.AdminOp.KICK, "disconnect the client named ARG"),
    "damaged": (wire.AdminOp.DAMAGED, "the journaled tables that could not be restored, and why (with --db: read "
                                      "from the journal itself, no server needed)"),
    "stop": (wire.AdminOp.STOP, "stop the server; running games resume on its next start"),
    "drain": (wire.AdminOp.STOP, "a cluster member (ARG: its HOST:PORT, else --server) hands its tables to the "
                                 "other members, then stops"),
}
_JOURNAL_OPS = {
    "migrate": "bring the journal --db (an SQLite file or a postgresql:// URL) up to this server's schema",
    "export": "write the finished games, ratings and accounts of --db to standard output (JSON lines)",
    "import": "journal into --db what an export wrote, read from standard input",
}


def add_admin_subcommand(sub: Any) -> None:
    admin = sub.add_parser("admin", help="act on a running server as its operator (the token file is needed)")
    admin.add_argument("--server", default=f"127.0.0.1:{DEFAULT_PORT}", metavar="HOST:PORT",
                       help=f"the server (tls://HOST:PORT: over TLS); default 127.0.0.1:{DEFAULT_PORT}")
    admin.add_argument("--token-file", default=None, metavar="PATH",
                       help="the operator token file the server wrote; default: where `scopa serve` writes it")
    admin.add_argument("--db", default=None, metavar="PATH|URL",
                       help="the journal (for migrate, export, import, damaged)")
    admin.add_argument("op", choices=[*_OPS, *_JOURNAL_OPS],
                       help="; ".join([f"{k}: {v[1]}" for k, v in _OPS.items()] + [f"{k}: {v}" for k, v in _JOURNAL_OPS.items()]))
    admin.add_argument("arg", nargs="?", default="", metavar="ARG", help="the table id (close, tables), name (kick) or a member's HOST:PORT (drain)")


def run_admin(args: argparse.Namespace, console: Console) -> int:
    if args.op in _JOURNAL_OPS or (args.op == "damaged" and args.db):
        return run_journal_admin(args, console)
    try:
        where = parse_server_address(args.arg if args.op == "drain" and args.arg else args.server)
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    op = _OPS[args.op][0]
    if op in (wire.AdminOp.CLOSE_TABLE, wire.AdminOp.KICK) and not args.arg:
        console.print(f"[red]{escape(tr('{op} needs an argument', op=args.op))}[/red]")
        return 2
    host, port = where.host, where.port
    path = (args.token_file or default_token_file()).replace("{port}", str(port))
    try:
        token = Path(path).read_text().strip()
    except OSError as exc:
        console.print(f"[red]{escape(tr('cannot read the operator token {path}: {why}', path=path, why=exc.strerror or exc))}[/red]")
        return 1
    try:
        reply = asyncio.run(admin_request(host, port, token, op, args.arg, tls=where.tls))
    except CertificateRefused as exc:
        console.print(f"[red]{escape(str(exc))}[/red]", soft_wrap=True, emoji=False)
        return 1
    except (OSError, ConnectionError, TimeoutError) as exc:
        console.print(f"[red]{escape(tr('cannot reach {host}:{port}: {why}', host=host, port=port, why=exc))}[/red]")
        return 1
    if isinstance(reply, wire.Error):
        console.print(f"[red]{escape(tr('The server refused: {message}', message=error_text(reply.code, reply.message)))}[/red] ({reply.code.value})")
        return 1
    _show(reply, console)
    return 0


def run_journal_admin(args: argparse.Namespace, console: Console) -> int:
    """``scopa admin migrate|export|import --db DB``: on the journal itself, no server needed."""
    import sys

    from scopa.server.journal.values import StorageError
    from scopa.server.journal.upkeep import damaged, export, import_into, migrate

    if not args.db:
        console.print(f"[red]{escape(tr('{op} needs --db (an SQLite file or a postgresql:// URL)', op=args.op))}[/red]")
        return 2
    errors = Console(stderr=True)
    try:
        if args.op == "export":
            for line in export(args.db):
                sys.stdout.write(line + "\n")
            return 0
        if args.op == "damaged":
            found = damaged(args.db)
            for table_id, reason in found:
                console.print(tr("table {table}: {reason}", table=table_id, reason=reason), soft_wrap=True, markup=False,
                              highlight=False)
            if not found:
                console.print(tr("no damaged tables"))
            return 0
        if args.op == "import":
            done = import_into(args.db, sys.stdin)
            for skipped in done.skipped:
                errors.print(tr("skipped: {what}", what=skipped), soft_wrap=True, markup=False)
            errors.print(tr("imported {games} games, {ratings} ratings, {accounts} accounts", games=done.games,
                            ratings=done.ratings, accounts=done.accounts))
            return 1 if done.skipped else 0
        applied = migrate(args.db)
    except StorageError as exc:
        errors.print(f"[red]{escape(tr('cannot {op} {db}: {why}', op=args.op, db=args.db, why=exc))}[/red]", soft_wrap=True)
        return 1
    console.print(tr("applied: {names}", names=", ".join(applied)) if applied else tr("the journal is up to date"),
                  soft_wrap=True)
    return 0


async def admin_request(host: str, port: int, token: str, op: wire.AdminOp, target: str = "",
                        tls: bool = False) -> wire.AdminReply | wire.Error:
    """Connect (``tls``: over TLS, the certificate checked or pinned: client/net/trust.py),
    say hello, send one ``admin`` command; its reply (or the error)."""
    reader, writer = await open_stream(ServerAddress(host, port, tls))
    conn = Connection(ConnectionRole.CLIENT)
    try:
        name = f"admin-{secrets.token_hex(4)}-{os.getpid() % 10000}"
        writer.write(conn.send(Message(wire.Hello(name=name, client="scopa-admin"), "lobby")))
        welcome = await _next(reader, conn)
        if isinstance(welcome, wire.Error):
            return welcome
        writer.write(conn.send(Message(wire.Admin(token=token, op=op, target=target), "lobby")))
        while True:
            body = await _next(reader, conn)
            if isinstance(body, (wire.AdminReply, wire.Error)):
                return body
    finally:
        writer.close()
        try:
            await writer.wait_closed()
        except (ConnectionError, OSError):
            pass


async def _next(reader: asyncio.StreamReader, conn: Connection) -> wire.Body:
    async def one() -> wire.Body:
        while True:
            cmd = conn.next_command()
            if cmd is not None:
                return cmd.body
            data = await reader.read(65536)
            if not data:
                raise ConnectionError("the server closed the connection")
            conn.feed(data)

    return await asyncio.wait_for(one(), TIMEOUT)


def _show(reply: wire.AdminReply, console: Console) -> None:
    if reply.message:
        console.print(reply.message)
    if reply.op is wire.AdminOp.CONNECTIONS:
        t = RichTable(*(tr(c) for c in ("id", "name", "peer", "table", "watching", "queued bytes")),
                      title=tr("{n} connections", n=reply.total) if reply.total != 1 else tr("1 connection"))
        for c in reply.connections:
            t.add_row(str(c.id), c.name or "-", c.peer, c.table or "-", c.watching or "-", str(c.queued_bytes))
        console.print(t)
    elif reply.op is wire.AdminOp.TABLES:
        t = RichTable(*(tr(c) for c in ("id", "state", "seats", "private", "spectators", "rules")),
                      title=tr("{n} tables", n=reply.total) if reply.total != 1 else tr("1 table"))
        for info in reply.tables:
            t.add_row(info.id, word_text(info.state.value), ", ".join(s or "-" for s in info.seats),
                      tr("yes") if info.private else "",
                      str(info.spectators), info.description)
        console.print(t)
        if reply.next:
            console.print(tr("more: scopa admin tables {next}", next=reply.next))
    elif reply.op is wire.AdminOp.DAMAGED:
        if not reply.damaged:
            console.print(tr("no damaged tables"))
        for d in reply.damaged:
            console.print(tr("table {table}: {reason}", table=d.id, reason=d.reason))
