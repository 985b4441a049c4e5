"""``scopa serve``: host games, a server on this computer (with ``--web``, the browser
client too; with ``--db``, a journal that outlives restarts)."""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import logging
import sqlite3
from typing import Any, Literal

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from scopa.client.text import set_language, tr
from scopa.protocol import DEFAULT_PORT

from . import admin, interrupt, lan, loops, serverlog, tls, web


def add_serve_subcommand(sub: Any) -> None:
    """Add ``serve`` to the `scopa` command's subparsers."""
    serve = sub.add_parser("serve", help="host games: run a server (Ctrl-C stops it)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (0.0.0.0 to host on your LAN); default 127.0.0.1")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port; default {DEFAULT_PORT}")
    serve.add_argument("--db", metavar="PATH", default=None,
                       help="SQLite file journaling every game: after a crash or restart unfinished games "
                            "resume from it (created if missing, readable by you only); default: none, nothing persists")
    serve.add_argument("--accounts", action="store_true",
                       help="let players claim their names with a password (kept in the --db file)")
    serve.add_argument("--rate-shared-address", action="append", default=[], metavar="ADDRESS",
                       help="rate games between players who all connect from this address or network (a class "
                            "behind one router); otherwise two seats played from one address are not rated "
                            "(repeatable)")
    serve.add_argument("--trust-address", action="append", default=[], metavar="ADDRESS",
                       help="no per-address cap (connections, waiting tables, name claims) for clients at this "
                            "address or network: a host of yours that runs many bots (repeatable)")
    serve.add_argument("--cluster", metavar="URL", default=None,
                       help="share one lobby with the other servers using this Redis (redis://HOST:PORT/N, or through "
                            "its Sentinels: redis+sentinel://HOST:PORT[,HOST:PORT...]/MASTER): "
                            "their tables are listed here, names are unique across them (needs scopa[cluster])")
    serve.add_argument("--advertise", metavar="HOST:PORT", default=None,
                       help="with --cluster: the address at which clients reach this server, given to the other "
                            "servers' lobbies; default: --host and --port")
    serve.add_argument("--cluster-port", type=int, metavar="PORT", default=None,
                       help="with --cluster: listen on this port too, shared (SO_REUSEPORT) with the other members "
                            "on this host: the cluster's one address (scopa cluster sets it)")
    serve.add_argument("--cluster-web-port", type=int, metavar="PORT", default=None,
                       help="with --cluster: serve the browser client on this port, shared (SO_REUSEPORT) with the "
                            "other members on this host, instead of a --web port of its own (scopa cluster "
                            "--web-port sets it)")
    serve.add_argument("--cluster-seeds", metavar="HOST:PORT,...", default="",
                       help="with --cluster: addresses at which clients reach the cluster (a DNS name of its "
                            "members, a shared port), given to every client with the members' own to try when "
                            "its member is gone")
    serve.add_argument("--cluster-prefix", metavar="PREFIX", default="scopa",
                       help="with --cluster: the start of every Redis key and channel of this cluster (clusters "
                            "sharing one Redis keep apart); default scopa")
    serve.add_argument("--loop", choices=(loops.AUTO, *loops.LOOPS), default=loops.AUTO,
                       help="the event loop: uvloop, faster, where it is installed (scopa[fast] brings it; the "
                            "default, auto), else asyncio's own; the start line says which runs")
    serve.add_argument("--metrics", metavar="HOST:PORT", default=None,
                       help="serve Prometheus metrics (/metrics) and health checks (/healthz, /readyz) on this "
                            "address, or on the --web port with 'web'; default: none (docs/OPERATING.md)")
    serve.add_argument("--log-format", choices=("text", "json"), default="text",
                       help="the log on stderr: text, lines of text (default), or json, one JSON object a line "
                            "(time, level, event, table, member, message) for a log store")
    serve.add_argument("--tournament-creator", action="append", default=[], metavar="NAME",
                       help="only this name may create tournaments (repeat for more); default: any player")
    serve.add_argument("--tournament-seed", type=int, metavar="N",
                       help="draw the tournaments' seeds from N: the same players playing alike make the same "
                            "tournament (for tests and replays); default: unforeseeable")
    serve.add_argument("--tournaments-by-operator", action="store_true",
                       help="only the operator creates tournaments (scopa tournament create --operator, which "
                            "sends the operator token), besides any --tournament-creator; others are refused "
                            "not_allowed")
    admin.add_serve_options(serve)
    web.add_serve_options(serve)
    lan.add_serve_options(serve)
    tls.add_serve_options(serve)


def run_serve(args: argparse.Namespace, console: Console) -> int:
    """``scopa serve``: run a server until Ctrl-C; the exit status."""
    from scopa.server import Limits, serve  # imported here: the other commands start without the server
    from scopa.server.club import ClubOptions
    from scopa.server.lan import LanIdentity, announces
    from scopa.server.core.proxies import parse_networks
    from scopa.server.journal.values import StorageError
    from scopa.server.core.jsonlog import configure
    from scopa.server.web import WebOptions

    try:
        limits = Limits.from_options(admin.limit_options(args))
        loop = loops.chosen(getattr(args, "loop", loops.AUTO))
        loop_factory = loops.factory(loop)
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    turn_timeout = getattr(args, "turn_timeout", 60.0)
    metrics = getattr(args, "metrics", None)
    metrics_at: tuple[str, int] | Literal["web"] | None = None
    try:
        if metrics is not None:
            metrics_at = "web" if metrics == "web" else parse_address(metrics)
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    if metrics_at == "web" and getattr(args, "web", None) is None and getattr(args, "cluster_web_port", None) is None:
        console.print(f"[red]{escape(tr('--metrics web: give --web PORT too'))}[/red]")
        return 2
    if not logging.getLogger().handlers:  # the server logs connections, tables and games
        configure(getattr(args, "log_format", "text"))
        serverlog.speak_the_locale()  # its text lines in the terminal's language
    as_json = getattr(args, "log_format", "text") == "json"
    if as_json:  # a log for programs to read: its messages stay in one language, whatever the locale
        set_language("en")

    def report(event: str, text: str, error: bool = False) -> None:
        """What the server says once it runs: a console line, or with --log-format json a log line."""
        if as_json:
            logging.getLogger("scopa.server").log(logging.ERROR if error else logging.INFO, text,
                                                  extra={"event": f"server.{event}"})
        else:
            console.print(f"[red]{escape(text)}[/red]" if error else escape(text), soft_wrap=True,
                          emoji=False)  # a fingerprint's :CD: is no emoji
    db = getattr(args, "db", None)
    accounts = bool(getattr(args, "accounts", False))
    if accounts and not db:
        console.print(f"[red]{escape(tr('--accounts needs --db: the accounts are kept in the database'))}[/red]")
        return 2
    server_tls = tls.server_tls(args, console)
    if server_tls is False:
        return 2
    options = web.serve_options(args, console, server_tls or None)  # --web, --trust-proxy
    if options is None:
        return 2
    if server_tls:
        options["tls"] = server_tls
    options["allow_plain_secrets"] = bool(getattr(args, "allow_plain_secrets", False))
    if "web" in options:
        options["web"] = WebOptions(**options["web"])

    for option, given in (("--trust-proxy", options.get("trusted_proxies", ())),
                          ("--rate-shared-address", args.rate_shared_address),
                          ("--trust-address", getattr(args, "trust_address", []))):
        try:
            parse_networks(given)
        except ValueError as exc:
            console.print(f"[red]{option}: {exc}[/red]")
            return 2
    limits = dataclasses.replace(limits, trusted_addresses=limits.trusted_addresses
                                 + tuple(getattr(args, "trust_address", [])))
    cluster = _cluster_options(args, console)
    if cluster is False:
        return 2
    lan_options = lan.lan_identity_options(args)
    identity = LanIdentity(**lan_options) if lan_options else None

    def announce(engine: Any) -> None:  # once the journal is open and the port listens
        report("serving", tr("Scopa server on {address}", address=f"{args.host}:{engine.port}")
            + (tr(", games journaled to {db}", db=db) if db else "")
            + (tr(", in the cluster at {url} as {member}", url=cluster.url, member=engine.cluster.address)
               if cluster else "")
            + (tr(", announced on the LAN as {name}", name=repr(identity.name))
               if identity and announces(args.host) else "")
            + tr(", {loop} (Ctrl-C to stop)", loop=loops.described()))
        if engine.tls is not None:
            report("tls", tls.describe(engine.tls))

    try:
        interrupt.run(serve(args.host, args.port, db=db, accounts=accounts, limits=limits, announce=announce,
                          turn_timeout=turn_timeout if turn_timeout and turn_timeout > 0 else None,
                          admin_token_file=getattr(args, "admin_token_file", None),
                          bot_workers=getattr(args, "bot_workers", 1), lan=identity,
                          rate_shared_addresses=args.rate_shared_address, cluster=cluster, metrics=metrics_at,
                          club=ClubOptions(creators=frozenset(args.tournament_creator) or None,
                                           seed=args.tournament_seed,
                                           operator_only=bool(getattr(args, "tournaments_by_operator", False))),
                          **options),
                      loop_factory=loop_factory, once=True)
    except KeyboardInterrupt:
        pass
    except StorageError as exc:  # e.g. a journal from a newer server: one clear line, no traceback
        report("failed", tr("cannot use the journal {db}: {error}", db=db, error=exc), error=True)
        return 1
    except OSError as exc:
        report("failed", tr("cannot serve on {address}: {error}", address=f"{args.host}:{args.port}",
                         error=exc.strerror or exc), error=True)
        return 1
    except sqlite3.Error as exc:
        report("failed", tr("cannot use the database {db}: {error}", db=db, error=exc), error=True)
        return 1
    if as_json:  # a text log has the server's own line (its time first): the console says it once
        report("stopped", tr("server stopped"))
    return 0


def _cluster_options(args: argparse.Namespace, console: Console) -> Any:
    """``--cluster`` and ``--advertise`` as the server's ClusterOptions (None: no cluster;
    False: they are wrong, and the console says why)."""
    from scopa.server.cluster import ClusterOptions
    from scopa.server.journal.commands import is_postgres

    url, advertise = getattr(args, "cluster", None), getattr(args, "advertise", None)
    if url is None:
        if advertise is not None:
            console.print(Text(tr("--advertise is for a cluster member: give --cluster too"), style="red"))
            return False
        return None
    if importlib.util.find_spec("redis") is None:
        console.print(Text(tr("--cluster needs the redis package: pip install 'scopa[cluster]'"), style="red"))
        return False
    if advertise is None and args.host in ("0.0.0.0", "::", ""):
        console.print(Text(tr("--cluster: give --advertise HOST:PORT, the address clients reach this server at "
                              "(it listens on {host})", host=args.host), style="red"))
        return False
    try:
        return ClusterOptions(url=url, advertise=advertise, prefix=getattr(args, "cluster_prefix", "scopa"),
                              front_port=getattr(args, "cluster_port", None),
                              seeds=tuple(a.strip() for a in getattr(args, "cluster_seeds", "").split(",") if a.strip()),
                              shared_journal=is_postgres(getattr(args, "db", None) or ""))
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        return False


def parse_address(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a host and a port; ``ValueError`` if not one."""
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) < 65536:
        raise ValueError(tr("--metrics: give HOST:PORT (e.g. 127.0.0.1:9715) or web, not {value}", value=repr(value)))
    host = host.strip("[]") or "127.0.0.1"
    return host, int(port)
