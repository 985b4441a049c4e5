"""The LAN parts of the `scopa` command: ``scopa servers``, ``--server auto`` (and
``scopa play`` without ``--server``), and the ``scopa serve`` options ``--name`` and
``--no-announce``."""

from __future__ import annotations

import argparse
import asyncio
import socket
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markup import escape

from scopa.protocol.servers import ServerAddress

from scopa.client.net import (
    parse_servers, AUTO, BROWSE_SECONDS, FoundServer, NoServerFound, SeveralServersFound, discover, parse_choice,
    resolve_server,
)
from scopa.client.text import tr

InputFn = Callable[[str], str]


def add_serve_options(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("--name", default=None, metavar="NAME",
                       help="the name players see when they look for servers on the LAN; default: this computer's name")
    serve.add_argument("--no-announce", action="store_true",
                       help="do not announce the server on the LAN (it never is when it listens on 127.0.0.1)")


def add_servers_subcommand(sub: Any) -> None:
    servers = sub.add_parser("servers", help="list the Scopa servers announced on the LAN")
    servers.add_argument("--wait", type=float, default=BROWSE_SECONDS, metavar="S",
                         help=f"seconds to listen for answers; default {BROWSE_SECONDS:g}")


def lan_identity_options(args: argparse.Namespace) -> dict[str, Any]:
    """The LAN announcement of ``scopa serve``: the name, or nothing with --no-announce."""
    if getattr(args, "no_announce", False):
        return {}
    web = getattr(args, "web", None)
    return {"name": (getattr(args, "name", None) or socket.gethostname().split(".")[0]),
            "web_port": web if web else None}


def run_servers(args: argparse.Namespace, console: Console) -> int:
    """``scopa servers``: 0 if any answered, 1 if none did."""
    if args.wait <= 0:
        console.print(f"[red]{escape(tr('--wait must be more than 0 seconds'))}[/red]")
        return 2
    found = asyncio.run(discover(args.wait))
    if not found:
        console.print(escape(no_server_text(args.wait)), soft_wrap=not console.is_terminal)  # words whole
        return 1
    for row in server_rows(found):
        console.print(escape(row), soft_wrap=True, highlight=False)
    return 0


def no_server_text(seconds: float) -> str:
    """Why ``auto`` found no server, and what to do."""
    return tr("No Scopa server answered on this network within {seconds} s, nor on this computer. Host one with "
              "\"scopa serve --host 0.0.0.0\", or give the address of one: --server HOST:PORT", seconds=f"{seconds:g}")


def server_rows(servers: list[FoundServer]) -> list[str]:
    """One numbered line per server: name, address, open tables, players (and the web page)."""
    rows = []
    for i, s in enumerate(servers, 1):
        tables = (tr("1 open table") if s.record.tables == 1 else tr("{n} open tables", n=s.record.tables))
        players = (tr("1 player") if s.record.players == 1 else tr("{n} players", n=s.record.players))
        extra = tr(", web {address}", address=s.web_address) if s.web_address else ""
        if not s.compatible:
            extra += tr(" (protocol {n}: cannot be joined with this client)", n=s.record.protocol)
        rows.append(f"{i}. {s.name}  {s.address}  {tables}, {players}{extra}")
    return rows


def ask_choice(console: Console, ask: InputFn = input) -> Callable[[list[FoundServer]], FoundServer | None]:
    """Let a person pick one of several servers by number (an empty answer: none)."""

    def choose(servers: list[FoundServer]) -> FoundServer | None:
        console.print(tr("Scopa servers on this network:"))
        for row in server_rows(servers):
            console.print("  " + escape(row), soft_wrap=True, highlight=False)
        while True:
            answer = ask(tr("Which one (1-{n}, Enter for none)? ", n=len(servers)))
            if not answer.strip():
                return None
            index = parse_choice(answer, len(servers))
            if index is not None:
                return servers[index]
            console.print(f"[red]{escape(tr('Type a number from 1 to {n}', n=len(servers)))}[/red]")

    return choose


def find_server(args: argparse.Namespace, console: Console, may_ask: bool) -> list[ServerAddress] | None:
    """The addresses of ``--server`` (one, or several of one cluster: ``HOST:PORT,HOST:PORT``;
    none or ``auto``: the server on the LAN; when ``may_ask``, a person picks among
    several); None after saying why there is none."""
    server = args.server or AUTO
    if server.strip().lower() == AUTO:
        console.print(tr("Looking for Scopa servers on this network…"))
    try:
        if server.strip().lower() != AUTO:
            return parse_servers(server)
        return [asyncio.run(resolve_server(server, choose=ask_choice(console) if may_ask else None))]
    except ValueError:
        words = tr("{address} is not a server address: write HOST:PORT, e.g. 192.168.1.20:7000", address=server)
        console.print(f"[red]{escape(words)}[/red]")
    except NoServerFound as exc:
        words = (tr("No server chosen; give one with --server HOST:PORT") if exc.seconds is None
                 else no_server_text(exc.seconds))
        console.print(escape(words), soft_wrap=not console.is_terminal)  # at a terminal: words whole
    except SeveralServersFound as exc:
        console.print(tr("Several Scopa servers on this network; choose one with --server HOST:PORT:"))
        for row in server_rows(exc.servers):
            console.print("  " + escape(row), soft_wrap=True, highlight=False)
    return None
