"""The game-record subcommands of `scopa`: ``replay`` (a record file: step through it,
print it, or check it against the rules), and, from a server that keeps its games,
``games`` (list them), ``record`` (fetch one), ``leaderboard`` and ``claim`` (a name,
with a password)."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from rich.markup import escape

from scopa.client.console import load_record, write_record
from scopa.client.text import DeckStyle, error_text, game_lines, leaderboard_lines, plain_lines, tr, viewer_seat, word_text
from scopa.client.net import PLAYED_KEPT, ClientSession, ConnectionLost, ServerRefused, CertificateRefused
from scopa.protocol.servers import parse_server_address
from scopa.engine import Preset
from scopa.protocol import DEFAULT_PORT, ErrorCode
from scopa.protocol.commands import GameSummary
from scopa.protocol.parties import NAME_PATTERN, TABLE_ID_PATTERN
from scopa.protocol.record import Record, RecordError
from scopa.protocol.record import RecordMismatch, Step, replay_steps

from .terminal import sane_terminal

COMMANDS: tuple[str, ...] = ("replay", "games", "record", "leaderboard", "claim")
PASSWORD_ENV = "SCOPA_PASSWORD"
"""Where the network commands find the password of a claimed name (never on the command line)."""
T = TypeVar("T")

EXIT_OK, EXIT_MISMATCH, EXIT_BAD_INPUT = 0, 1, 2


def add_subcommands(sub: Any) -> None:
    """Add ``replay`` to the `scopa` command's subparsers."""
    replay = sub.add_parser("replay", help="step through a game record (or print or check it)")
    replay.add_argument("file", metavar="FILE", help="a game record (docs/RECORDS.md); with --server: a game id "
                                                     "of that server (the first column of scopa games)")
    replay.add_argument("--server", metavar="HOST:PORT", help="fetch the finished game FILE names from this server")
    replay.add_argument("--name", metavar="NAME", help="your name on the server (as for scopa games)")
    replay.add_argument("--token", metavar="TOKEN", help="a seat token of the game's table (a private table; "
                                                         "default: the tokens scopa play kept, as for scopa games)")
    _state_dir_argument(replay)
    how = replay.add_mutually_exclusive_group()
    how.add_argument("--plain", action="store_true", help="print the game as a log")
    how.add_argument("--check", action="store_true",
                     help="replay every action through the rules: exit 0 when the record is consistent, "
                          "1 with the first difference when it is not")
    replay.add_argument("--lang", choices=("en", "it"), default=None,
                        help="the language: en (English) or it (italiano); default: the locale's "
                             "(LANG=it_IT.UTF-8 is it)")
    replay.add_argument("--deck", choices=[s.value for s in DeckStyle], default="italian",
                        help="card style of the step-through viewer and the log: italian (Italian cards) or french "
                             "(the French deck)")

    presets = [p.value for p in Preset]
    games = sub.add_parser("games", help="list a server's finished games (newest first)")
    _server_arguments(games)
    games.add_argument("--player", metavar="NAME", help="only games where NAME had a seat")
    games.add_argument("--rules", metavar="PRESET", choices=presets, help="only games of this preset: " + ", ".join(presets))
    games.add_argument("--limit", type=int, default=50, metavar="N", help="at most N games (1-100); default 50")
    games.add_argument("--token", action="append", default=[], metavar="TOKEN",
                       help="a seat token you held: that private table's games are listed too")
    _state_dir_argument(games)

    record = sub.add_parser("record", help="fetch a finished game's record from a server")
    _server_arguments(record)
    record.add_argument("game", metavar="GAME_ID", help="the game id (the first column of scopa games)")
    record.add_argument("-o", "--output", required=True, metavar="FILE", help="where to write the record")
    record.add_argument("--token", metavar="TOKEN", help="a seat token of the game's table (a private table; "
                                                         "default: the tokens scopa play kept, as for scopa games)")
    _state_dir_argument(record)

    board = sub.add_parser("leaderboard", help="a server's ratings: rank, name, mu - 3 sigma, games, wins")
    _server_arguments(board)
    board.add_argument("--rules", metavar="PRESET", choices=presets, default="scopa",
                       help="the preset whose ratings to show: " + ", ".join(presets) + "; default scopa")
    board.add_argument("--limit", type=int, default=20, metavar="N", help="at most N names (1-100); default 20")

    claim = sub.add_parser("claim", help=f"claim a name on a server with accounts (password from ${PASSWORD_ENV} "
                                         "or a prompt)")
    _server_arguments(claim, name_required=True)


def _state_dir_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--state-dir", metavar="DIR", default=None,
                   help="where scopa play keeps its seat tokens: the private tables you played at there are "
                        "yours to see (default: your user state directory, or $SCOPA_STATE_DIR)")


def _server_arguments(p: argparse.ArgumentParser, name_required: bool = False) -> None:
    p.add_argument("--server", default=f"127.0.0.1:{DEFAULT_PORT}", metavar="HOST:PORT",
                   help=f"the server (tls://HOST:PORT: over TLS); default 127.0.0.1:{DEFAULT_PORT}")
    p.add_argument("--name", required=name_required, metavar="NAME",
                   help=f"your name on the server (with ${PASSWORD_ENV}: a claimed name, to see its private games)")


def run(args: argparse.Namespace, console: Console) -> int:
    if args.command == "replay" and args.server is None:
        return replay(args, console)
    problem = _bad_input(args)
    if problem is not None:
        console.print(f"[red]{escape(problem)}[/red]")
        return EXIT_BAD_INPUT
    where = parse_server_address(args.server)
    host, port = where.host, where.port
    try:
        if args.command == "replay":
            return replay(args, console, _fetch(args, host, port, args.file))
        if args.command == "games":
            return _games(args, host, port, console)
        if args.command == "record":
            return _record(args, host, port, console)
        if args.command == "leaderboard":
            return _leaderboard(args, host, port, console)
        return _claim(args, host, port, console)
    except (ConnectionLost, CertificateRefused) as exc:
        console.print(f"[red]{escape(str(exc))}[/red]", emoji=False)
        return EXIT_MISMATCH
    except ServerRefused as exc:
        why = error_text(exc.code.value, exc.message)
        if exc.code is ErrorCode.PRIVATE_TABLE and args.command in ("replay", "record"):
            why = tr("the game was played at a private table, which only its players see: give --token TOKEN (a "
                     "seat token of that table), or ask as the user who played it with scopa play (its tokens "
                     "are kept in --state-dir)")
        refused = tr("The server refused: {message}", message=why)
        console.print(f"[red]{escape(refused)}[/red] ({exc.code.value})")
        return EXIT_MISMATCH


def _bad_input(args: argparse.Namespace) -> str | None:
    """What is wrong with the network commands' arguments, before connecting."""
    try:
        parse_server_address(args.server)
    except ValueError as exc:
        return str(exc)
    if args.name is not None and not re.fullmatch(NAME_PATTERN, args.name):
        return tr("not a valid name: {name} (1-24 letters, digits, _ . -)", name=repr(args.name))
    if getattr(args, "player", None) is not None and not re.fullmatch(NAME_PATTERN, args.player):
        return tr("not a valid player name: {name} (1-24 letters, digits, _ . -)", name=repr(args.player))
    if hasattr(args, "limit") and not 1 <= args.limit <= 100:
        return tr("--limit must be 1-100, not {n}", n=args.limit)
    if args.command in ("record", "replay"):
        game = args.game if args.command == "record" else args.file
        if not re.fullmatch(TABLE_ID_PATTERN, game):
            return tr("not a game id: {game} (the first column of scopa games, e.g. 7)", game=repr(game))
    if args.command == "record":
        out = Path(args.output)
        if out.is_dir() or not out.parent.is_dir():
            return tr("cannot write the record to {file}: no such folder, or it is a folder", file=str(out))
    token = getattr(args, "token", None)
    tokens = list(token or []) if args.command == "games" else [token] if token else []
    for token in tokens:
        if not re.fullmatch(r"[A-Za-z0-9_\-]{8,64}", token):
            return tr("not a seat token: a token is 8-64 letters, digits, _ and -")
    password = os.environ.get(PASSWORD_ENV)
    if password is not None and not 8 <= len(password) <= 200:
        return tr("${env} must be 8-200 characters", env=PASSWORD_ENV)
    return None


def _connect_and(args: argparse.Namespace, host: str, port: int,
                 work: Callable[[ClientSession], Awaitable[T]], password: str | None = None) -> T:
    from .username import default_name

    async def go() -> T:
        name = args.name or default_name()[:16] + "-records"
        secret = password or (os.environ.get(PASSWORD_ENV) if args.name else None)
        async with await ClientSession.connect(host, port, name, client="scopa-records 0.1", password=secret,
                                               tls=parse_server_address(args.server).tls) as session:
            return await work(session)

    return asyncio.run(go())


def _games(args: argparse.Namespace, host: str, port: int, console: Console) -> int:
    from scopa.client.net import list_games

    from .username import default_name

    tokens = [*args.token, *(t for t in _played(args, host, port) if t not in args.token)][:PLAYED_KEPT]
    games = _connect_and(args, host, port, lambda s: list_games(s, args.player, args.rules, args.limit, tokens))
    if not games:
        console.print(tr("no finished games of {player}", player=args.player) if args.player else
                      tr("no finished games"), highlight=False)
    for line in game_lines(games, args.name or default_name()):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    return EXIT_OK


def _played(args: argparse.Namespace, host: str, port: int) -> list[str]:
    """The seat tokens of the tables played at on this server from this user's state
    directory: their private games are this user's to see."""
    from scopa.client.net import FileTokenStore

    return FileTokenStore(Path(args.state_dir) if args.state_dir else None).played(f"{host}:{port}")


def _fetch(args: argparse.Namespace, host: str, port: int, game: str) -> Record:
    """The finished ``game``'s record: with ``--token``, or else as anyone, and when the
    game was played at a private table, with each seat token scopa play kept for this
    server in turn (the first of its table's is the one that shows it)."""
    from scopa.client.net import fetch_record

    async def fetch(session: ClientSession) -> Record:
        if args.token:
            return await fetch_record(session, game, args.token)
        try:
            return await fetch_record(session, game)
        except ServerRefused as refused:
            if refused.code is not ErrorCode.PRIVATE_TABLE:
                raise
            for token in _played(args, host, port):
                try:
                    return await fetch_record(session, game, token)
                except ServerRefused as exc:
                    if exc.code is not ErrorCode.PRIVATE_TABLE:
                        raise
            raise

    return _connect_and(args, host, port, fetch)


def _record(args: argparse.Namespace, host: str, port: int, console: Console) -> int:
    record = _fetch(args, host, port, args.game)
    try:
        write_record(record, args.output)
    except OSError as exc:
        problem = tr("cannot write {file}: {why}", file=args.output, why=exc.strerror or str(exc))
        console.print(f"[red]{escape(problem)}[/red]")
        return EXIT_BAD_INPUT
    console.print(tr("game {game}: record written to {file} ({n} rounds)", game=args.game, file=args.output,
                     n=len(record.rounds)),
                  highlight=False, markup=False)
    return EXIT_OK


def _leaderboard(args: argparse.Namespace, host: str, port: int, console: Console) -> int:
    from scopa.client.net import leaderboard

    board = _connect_and(args, host, port, lambda s: leaderboard(s, args.rules, args.limit))
    for line in leaderboard_lines(board):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    return EXIT_OK


def _claim(args: argparse.Namespace, host: str, port: int, console: Console) -> int:
    from scopa.client.net import claim_name

    password = os.environ.get(PASSWORD_ENV)
    if password is None:
        password = getpass.getpass(tr("password for {name}: ", name=args.name))
        if getpass.getpass(tr("again: ")) != password:
            console.print(f"[red]{escape(tr('the two passwords differ'))}[/red]")
            return EXIT_BAD_INPUT
        if not 8 <= len(password) <= 200:
            console.print(f"[red]{escape(tr('a password is 8-200 characters'))}[/red]")
            return EXIT_BAD_INPUT

    async def claim(session: ClientSession) -> str:
        if session.name != args.name:  # connected under a variant: the name is in use
            raise ServerRefused(ErrorCode.NAME_TAKEN, f"the name {args.name!r} is in use on this server")
        return await claim_name(session, password)

    name = _connect_and(args, host, port, claim)
    console.print(tr("the name {name} is yours: give its password (${env}) when you connect as {name}", name=name,
                     env=PASSWORD_ENV),
                  highlight=False, markup=False)
    return EXIT_OK



def replay(args: argparse.Namespace, console: Console, record: Record | None = None) -> int:
    """Step through, print or check a record: ``record`` (fetched from a server), else the file's."""
    try:
        record = record or load_record(args.file)
    except RecordError as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        return EXIT_BAD_INPUT
    if args.check:
        count = 0  # the steps a viewer stands at: each of the record's, then the game's end (one more)
        try:
            for _ in replay_steps(record):
                count += 1
        except RecordMismatch as exc:
            console.print(f"[red]{escape(tr('inconsistent:'))}[/red] {escape(str(exc))}", highlight=False)
            return EXIT_MISMATCH
        console.print(tr("consistent: {rounds} rounds, {steps} steps, result {totals} ({reason})",
                         rounds=len(record.rounds), steps=count + 1, totals="-".join(map(str, record.result.totals)),
                         reason=word_text(record.result.reason.value)), highlight=False)
        return EXIT_OK
    if args.plain or not sys.stdout.isatty():
        try:
            for line in plain_lines(record, DeckStyle(args.deck), viewer_seat(record, args.name)):
                console.print(line, highlight=False, markup=False, soft_wrap=True)
        except RecordMismatch as exc:
            stops = tr("the record stops making sense here: {problem}", problem=str(exc))
            console.print(f"[red]{escape(stops)}[/red]", highlight=False)
            return EXIT_MISMATCH
        return EXIT_OK
    from scopa.client.tui import ReplayApp

    steps: list[Step] = []
    problem: RecordMismatch | None = None
    try:
        for step in replay_steps(record):
            steps.append(step)
    except RecordMismatch as exc:
        problem = exc
    if not steps:
        console.print(f"[red]{escape(tr('nothing to show: {problem}', problem=str(problem)))}[/red]")
        return EXIT_MISMATCH
    sane_terminal()  # a terminal left raw by a client killed with kill -9 is set right first
    ReplayApp(record, steps, problem, DeckStyle(args.deck), viewer=args.name).run()
    return EXIT_OK if problem is None else EXIT_MISMATCH
