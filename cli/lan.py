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
    parse_servers, AUTO, BROWSE_SECONDS, FoundServer, NoServerFound, SeveralServersFound, choice_rows, discover,
    no_server_hint, parse_choice, resolve_server,
)

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
        console.print("[red]--wait must be more than 0 seconds[/red]")
        return 2
    found = asyncio.run(discover(args.wait))
    if not found:
        console.print(no_server_hint(args.wait), soft_wrap=True)
        return 1
    for row in choice_rows(found):
        console.print(escape(row), soft_wrap=True, highlight=False)
    return 0


def ask_choice(console: Console, ask: InputFn = input) -> Callable[[list[FoundServer]], FoundServer | None]:
    """Let a person pick one of several servers by number (an empty answer: none)."""

    def choose(servers: list[FoundServer]) -> FoundServer | None:
        console.print("Scopa servers on this network:")
        for row in choice_rows(servers):
            console.print("  " + escape(row), soft_wrap=True, highlight=False)
        while True:
            answer = ask(f"Which one (1-{len(servers)}, Enter for none)? ")
            if not answer.strip():
                return None
            index = parse_choice(answer, len(servers))
            if index is not None:
                return servers[index]
            console.print(f"[red]Type a number from 1 to {len(servers)}[/red]")

    return choose


def find_server(args: argparse.Namespace, console: Console, may_ask: bool) -> list[ServerAddress] | None:
    """The addresses of ``--server`` (one, or several of one cluster: ``HOST:PORT,HOST:PORT``;
    none or ``auto``: the server on the LAN; when ``may_ask``, a person picks among
    several); None after saying why there is none."""
    server = args.server or AUTO
    if server.strip().lower() == AUTO:
        console.print("Looking for Scopa servers on this network…")
    try:
        if server.strip().lower() != AUTO:
            return parse_servers(server)
        return [asyncio.run(resolve_server(server, choose=ask_choice(console) if may_ask else None))]
    except ValueError as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
    except NoServerFound as exc:
        console.print(escape(str(exc)), soft_wrap=True)
    except SeveralServersFound as exc:
        console.print("Several Scopa servers on this network; choose one with --server HOST:PORT:")
        for row in choice_rows(exc.servers):
            console.print("  " + escape(row), soft_wrap=True, highlight=False)
    return None
