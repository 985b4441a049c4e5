"""The network client's subcommands of `scopa`: ``play`` (the lobby and games in the
terminal), ``bot`` (a bot that plays over TCP) and ``watch``."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from scopa.bots import STRATEGIES
from scopa.client.text import link_text, lost_text, name_problem, parse_invite, refusal_text, renamed_text, seated_text, tr
from scopa.client.net import LinkEvent, LinkStatus, ClientSession, ConnectionLost, ServerRefused, CertificateRefused
from scopa.client.net import TokenStore
from scopa.engine import Player
from scopa.protocol import DEFAULT_PORT, ErrorCode
from scopa.protocol.parties import normal_name

from . import interrupt, lan, tls
from .username import default_name
from .terminal import sane_terminal

CONNECT_FIRST_WAIT = 5.0
"""Seconds `scopa bot` waits after a refused connection before connecting again (the first time)."""
CONNECT_MOST_WAIT = 60.0
"""The longest wait between two connections refused."""

AddArguments = Callable[[argparse.ArgumentParser], None]


def add_subcommands(sub: Any, add_rules: AddArguments, add_display: AddArguments) -> None:
    """Add ``play``, ``bot`` and ``watch`` to the `scopa` command's subparsers."""
    play = sub.add_parser("play", help="connect to a server: the lobby, then games in this terminal")
    connection_arguments(play, default_name=None, default_server=None)  # None: ask at a terminal
    play.add_argument("--state-dir", metavar="DIR", default=None,
                      help="where seat tokens are kept so that a restarted client can return to its game "
                           "(default: your user state directory, or $SCOPA_STATE_DIR)")
    play.add_argument("--invite", metavar="INVITE", type=_invite,
                      help="join a friend's private table: the invite they passed on (7.Xq3…, or the link holding it)")
    add_rules(play)  # defaults for tables you create
    add_display(play)

    bot = sub.add_parser("bot", help="run a bot against a server")
    connection_arguments(bot, default_name=None)
    who = bot.add_mutually_exclusive_group()
    who.add_argument("--strategy", choices=tuple(STRATEGIES), default="greedy", metavar="NAME",
                     help=f"built-in bot or level: {', '.join(STRATEGIES)}; default greedy")
    who.add_argument("--bot", metavar="MODULE:CLASS",
                     help="your own Bot subclass, e.g. mybot:MyBot or path/to/mybot.py:MyBot")
    bot.add_argument("--table", metavar="ID", help="join this table (default: the first waiting one, or a new one)")
    bot.add_argument("--tournament", metavar="ID",
                     help="enter this tournament (where it allows bots) and play its games until it ends")
    bot.add_argument("--games", type=int, default=1, metavar="N", help="games to play before exiting; default 1")
    bot.add_argument("--seed", type=int, help="seed of a bot that draws at random (random, expert, ismcts, easy, hard)")
    bot.add_argument("--fill-with-bots", default="", metavar="NAMES",
                     help="when creating a table, seat server bots too, e.g. greedy or random,greedy")
    bot.add_argument("--quiet", action="store_true", help="print only errors")
    bot.add_argument("--delay", type=float, default=0.0, metavar="S",
                     help="wait S seconds before each move (to follow a game, or interrupt one)")
    bot.add_argument("--reconnect-for", type=float, default=130.0, metavar="S",
                     help="after a dropped connection or a server restart, keep trying to get the seat "
                          "back for S seconds (0: give up at once); default 130")

    watch = sub.add_parser("watch", help="watch a table's game (public events only)")
    connection_arguments(watch, default_name=None)  # None: asked at a terminal, as by play
    which = watch.add_mutually_exclusive_group(required=True)
    which.add_argument("--table", metavar="ID", help="the table to watch (a public one)")
    which.add_argument("--invite", metavar="INVITE", type=_invite,
                       help="a private table's invite (7.Xq3…, or the link holding it): watch that table")
    add_display(watch)
    add_rules(bot)  # tables it creates (and, when given, the only tables it joins)


def connection_arguments(p: argparse.ArgumentParser, default_name: str | None,
                          default_server: str | None = f"127.0.0.1:{DEFAULT_PORT}") -> None:
    p.add_argument("address", nargs="?", default=None, metavar="HOST:PORT", help="the same as --server")
    p.set_defaults(server_default=default_server)
    p.add_argument("--server", default=default_server, metavar="HOST:PORT",
                   help="the server (tls://HOST:PORT: over TLS, its certificate checked or pinned on first use; "
                        "several members of a cluster: HOST:PORT,HOST:PORT, tried in turn when one is gone), "
                        "or auto: the one announced on the LAN; default "
                        + (default_server or "auto (a list to choose from if there are several)"))
    p.add_argument("--name", default=default_name, type=normal_name,  # checked in run(), in the person's language
                   help="your name at the tables: letters (accented ones too), digits, . _ -, at most 24 "
                        "(a number is added if it is taken)")
    tls.add_client_options(p)


def _invite(text: str) -> tuple[str, str]:
    """``--invite``: the table and its code (argparse says what one looks like otherwise)."""
    try:
        return parse_invite(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _password() -> str | None:
    """A claimed name's password (a server with accounts), from $SCOPA_PASSWORD."""
    return os.environ.get("SCOPA_PASSWORD") or None


def take_address(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """``scopa play HOST:PORT`` as ``scopa play --server HOST:PORT`` (both given: an error
    unless they agree)."""
    address = getattr(args, "address", None)
    if address is None:
        return
    if args.server != args.server_default and args.server != address:
        parser.error(f"the server is given twice: {address} and --server {args.server}")
    args.server = address


def run(args: argparse.Namespace, console: Console) -> int:
    """Run ``play``, ``bot`` or ``watch``; the exit status."""
    problem = name_problem(args.name) if args.name is not None else None
    if problem is not None:
        console.print(f"[red]{escape(problem)}[/red]", soft_wrap=True, highlight=False)
        return 2
    found = lan.find_server(args, console, may_ask=args.command == "play" and sys.stdin.isatty())
    if found is None:
        return 2 if args.server and args.server.strip().lower() != "auto" else 1
    first, others = found[0], found[1:]  # several: members of one cluster, tried in turn
    host, port = first.host, first.port
    trust = tls.client_trust(args, console)
    if trust is None:
        return 2
    link = {"tls": first.tls, "trust": trust, "fingerprint": first.fingerprint,  # ClientSession.connect's
            "others": others}
    secret = _password()
    if secret is not None and not 8 <= len(secret) <= 200:
        console.print(f"[red]{escape(tr('$SCOPA_PASSWORD must be 8-200 characters'))}[/red]")
        return 2
    if args.command == "watch" and args.invite is not None:
        args.table = args.invite[0]
    app = args.command in ("play", "watch") and full_screen(args)  # the full-screen app asks itself
    if args.command in ("play", "watch", "tournament") and args.name is None and not app:
        args.name = ask_name(console) if sys.stdin.isatty() else default_name()
    try:
        if args.command in ("play", "watch") and full_screen(args):
            return _run_app(args, host, port, console, args.table if args.command == "watch" else None, link)
        if args.command == "play":
            return interrupt.run(_play(args, host, port, console, link))
        if args.command == "watch":
            return interrupt.run(_watch(args, host, port, console, link))
        if args.command == "tournament":
            return interrupt.run(_tournament(args, host, port, console, link))
        return interrupt.run(_bot(args, host, port, console, link))
    except ConnectionLost as exc:
        # at a terminal, lines that break between words; elsewhere (a log) one line each
        console.print(f"[red]{escape(lost_text(exc.unreachable))}[/red]", soft_wrap=not console.is_terminal,
                      emoji=False)
        return 1
    except CertificateRefused as exc:
        console.print(f"[red]{escape(str(exc))}[/red]", soft_wrap=True, emoji=False)  # a fingerprint's :CD: is no emoji
        return 1
    except ServerRefused as exc:
        watching = args.table if args.command == "watch" else None
        invited = getattr(args, "invite", None) is not None
        console.print(f"[red]{refusal_text(exc.code, exc.message, watching, invited)}[/red] ({exc.code.value})",
                      markup=True, highlight=False)
        return 1


def ask_name(console: Console) -> str:
    """The plain client's question for a name (Enter: the login name), asked again until it is one."""
    login = default_name()
    while True:
        typed = console.input(Text(tr("Your name at the tables (Enter: {name}): ", name=login))).strip() or login
        problem = name_problem(typed, option="")
        if problem is None:
            return normal_name(typed)
        console.print(f"[yellow]{escape(problem)}[/yellow]", soft_wrap=True, highlight=False)


def full_screen(args: argparse.Namespace) -> bool:
    """The Textual app, unless --plain or the output is not a terminal."""
    return not getattr(args, "plain", False) and sys.stdout.isatty() and sys.stdin.isatty()


def _run_app(args: argparse.Namespace, host: str, port: int, console: Console, watch: str | None,
             link: dict[str, Any]) -> int:
    from scopa.client.text import DeckStyle
    from scopa.client.tui import NetApp

    from .options import rules_from_args

    store = _token_store(args)
    defaults = rules_from_args(args) if watch is None else None
    pace = args.delay if getattr(args, "delay", None) is not None else 0.5
    app = NetApp(host, port, args.name or default_name(), store, defaults, DeckStyle(args.deck), not args.no_autoplay, watch=watch,
                 pace=pace, invite=getattr(args, "invite", None))
    app.link_options = link
    app.ask_name = args.name is None
    sane_terminal()  # a terminal left raw by a client killed with kill -9 is set right first
    status = app.run()
    return 0 if status is None else int(status)


async def _play(args: argparse.Namespace, host: str, port: int, console: Console, link: dict[str, Any]) -> int:
    from scopa.client.console import LineReader, Lobby, SeatKeeper, TerminalPlayer, back_line, come_back, said_before
    from scopa.client.text import DeckStyle

    from .options import rules_from_args

    defaults = rules_from_args(args)
    reader = LineReader(console)
    seats = SeatKeeper(_token_store(args), f"{host}:{port}", args.name)  # the full-screen client's seats too
    session = await come_back(seats, reader, host, port, link)
    if session is None:
        session = await ClientSession.connect(host, port, args.name, password=_password(), **link)
    async with session:
        console.print(tr("Connected to {address} as {name}.", address=f"{host}:{port}", name=f"[bold]{escape(session.name or '')}[/bold]")
                      + f" {escape(session.motd)}")
        _say_renamed(console, args.name, session)

        def make_player() -> Player:
            def time_left() -> int | None:
                return session.turn_clock.left(session.clock.now(), session.seat)

            return TerminalPlayer(session.name, console, DeckStyle(args.deck), not args.no_autoplay, args.delay,
                                  time_left=time_left, reader=reader)

        lobby = Lobby(session, console, make_player, defaults, reader=reader, seats=seats)
        if session.table_id is not None:  # back at the saved seat: the game goes on, then the lobby
            console.print(back_line(session), *said_before(session), sep="\n")
            await lobby.play()
        elif args.invite is not None:  # straight to the friend's table, then the lobby
            table, code = args.invite
            joined = await session.join_table(table, invite=code)
            console.print(escape(seated_text(table, joined.table, joined.seat)), *said_before(session), sep="\n")
            await lobby.play()
        await lobby.run()
    console.print(f"[dim]{tr('bye')}[/dim]")
    return 0


def _token_store(args: argparse.Namespace) -> TokenStore:
    """Where ``scopa play`` keeps its seat tokens, full-screen or plain (``--state-dir``,
    else the user's state directory)."""
    from pathlib import Path

    from scopa.client.net import FileTokenStore

    state_dir = getattr(args, "state_dir", None)
    return FileTokenStore(Path(state_dir) if state_dir else None)


async def _bot(args: argparse.Namespace, host: str, port: int, console: Console, link: dict[str, Any]) -> int:
    from scopa.bots import make_bot
    from scopa.bots.loader import load_bot_class
    from scopa.client.console import BotRunner

    from .options import rules_from_args

    if args.games < 1:
        console.print(f"[red]{tr('--games must be at least 1')}[/red]")
        return 2
    if args.bot:
        try:
            player: Player = load_bot_class(args.bot)()
        except (ValueError, TypeError) as exc:
            console.print(f"[red]{exc}[/red]")
            return 2
    else:
        player = make_bot(args.strategy, seed=args.seed)
    if args.delay > 0:
        from scopa.client.console import DelayedPlayer

        player = DelayedPlayer(player, args.delay)
    explicit = args.rules or args.players or args.target or args.capture_mode or args.option
    rules = rules_from_args(args) if explicit else None
    fill = [n.strip() for n in args.fill_with_bots.split(",") if n.strip()]
    name = args.name or f"{getattr(player, 'name', 'bot')}-bot"

    def say(line: str) -> None:
        if not args.quiet:
            console.print(f"[dim]{name}:[/dim] {escape(line)}", soft_wrap=True)

    async with await _connect_patiently(host, port, name, say, link) as session:
        session.reconnect_for = args.reconnect_for

        def log(line: str) -> None:
            if not args.quiet:
                console.print(f"[dim]{session.name}:[/dim] {escape(line)}", soft_wrap=True)  # one line each

        session.add_listener(lambda event: log(_link_line(event, session)))

        if args.tournament is not None:
            from .tournament import play_tournament

            await play_tournament(session, args.tournament, player, log)
            return 0
        runner = BotRunner(session, player, args.games, args.table, rules, fill, log)
        await runner.run()
    return 0


async def _tournament(args: argparse.Namespace, host: str, port: int, console: Console, link: dict[str, Any]) -> int:
    from .tournament import run as run_tournament

    async with await ClientSession.connect(host, port, args.name, password=_password(), **link) as session:
        return await run_tournament(args, session, console, port)


async def _connect_patiently(host: str, port: int, name: str, say: Callable[[str], None],
                             link: dict[str, Any]) -> ClientSession:
    """A bot's connection: a server refusing it for now (``rate_limited``: too many
    connections, from here or overall) is asked again after the wait it gave, or
    ``CONNECT_FIRST_WAIT`` doubling up to ``CONNECT_MOST_WAIT`` seconds."""
    wait = CONNECT_FIRST_WAIT
    while True:
        try:
            return await ClientSession.connect(host, port, name, client="scopa-bot 0.1", password=_password(), **link)
        except ServerRefused as exc:
            if exc.code is not ErrorCode.RATE_LIMITED:
                raise
            seconds = max(exc.retry_after or 0.0, wait)
            say(tr("the server refused ({code}: {message}); connecting again in {seconds} s", code=exc.code.value,
                   message=exc.message, seconds=f"{seconds:.1f}"))
            await asyncio.sleep(seconds)
            wait = min(wait * 2, CONNECT_MOST_WAIT)


def _link_line(event: LinkEvent, session: ClientSession) -> str:
    if event.status is LinkStatus.LOST:
        return tr("connection lost; reconnecting…")
    if event.status is LinkStatus.RECONNECTED:  # where the session is back: its table, or the lobby
        if session.table_id is not None:
            return tr("reconnected: back in table {table} as {name}", table=session.table_id, name=session.name)
        return tr("reconnected: back in the lobby")
    return tr("Could not get back to the server: it does not answer.")


def _watch_link_line(event: LinkEvent) -> str:
    """The connection lost or back, as the plain lobby says it, while watching a table."""
    if event.status is LinkStatus.GAVE_UP:
        return tr("Could not get back to the server: it does not answer.")
    return link_text(back=event.status is LinkStatus.RECONNECTED)


def _say_renamed(console: Console, asked: str | None, session: ClientSession) -> None:
    """Tell the person, once, that the server gave them another name than the one asked for."""
    renamed = renamed_text(asked, session.name)
    if renamed is not None:
        console.print(Text(renamed, style="bold yellow"))


async def _watch(args: argparse.Namespace, host: str, port: int, console: Console, link: dict[str, Any]) -> int:
    from scopa.client.console import watch_table
    from scopa.client.text import DeckStyle

    async with await ClientSession.connect(host, port, args.name, password=_password(), **link) as session:
        console.print(tr("Connected to {address} as {name}.", address=f"{host}:{port}",
                         name=f"[bold]{escape(session.name or '')}[/bold]"))
        _say_renamed(console, args.name, session)
        session.add_listener(lambda event: console.print(f"[dim]{escape(_watch_link_line(event))}[/dim]"))
        watched = await watch_table(session, console, args.table, args.invite[1] if args.invite else None,
                                    DeckStyle(args.deck))
    return 0 if watched else 1
