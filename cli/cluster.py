"""``scopa cluster``: several members of one cluster on this host, at one address.

Each member is a ``scopa serve --cluster URL --db URL`` process of its own (one event
loop, one core), listening on a port of its own, which it advertises to the others
and to which the lobby sends the clients of its tables (``redirect``), and on the
cluster's port ``--port`` too, shared with the other members (SO_REUSEPORT: the kernel
hands each new connection to one of them).  With ``--web-port`` they serve the browser
client on that port the same way (``scopa serve --cluster-web-port``): a page and its
WebSocket may each reach any member, and a ticket of a ``redirect`` sent by one member's
web front is found by any other's (server/web/relay.py).  Clients connect to ``--port``; while any
member runs, that address answers, and each member's ``welcome`` names it (with ``--seeds``
and the members' own addresses) for clients to come back to.  Ctrl-C or SIGTERM stops every member (each hands
its tables back to the journal, where the next start takes them); a member that stops
on its own (``scopa admin drain``, a crash) leaves the others running; on Linux the
members get SIGTERM when this command dies, however it dies.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
import subprocess
import sys
import time
from types import FrameType
from typing import Any

from rich.console import Console

from scopa.client.text import tr
from scopa.protocol import DEFAULT_PORT

from . import loops, tls

STOP_WAIT = 30.0  # seconds the members have to hand their tables on before they are killed


def add_cluster_subcommand(sub: Any) -> None:
    cluster = sub.add_parser("cluster", help="run several members of a cluster on this host, at one address "
                                             "(Ctrl-C stops them all)")
    cluster.add_argument("--processes", type=int, default=os.cpu_count() or 1, metavar="N",
                         help="members to run; default one per core")
    cluster.add_argument("--cluster", required=True, metavar="URL", help="the Redis the members share (redis://..., or "
                         "redis+sentinel://HOST:PORT[,HOST:PORT...]/MASTER through its Sentinels)")
    cluster.add_argument("--db", required=True, metavar="URL", help="the PostgreSQL journal they share (postgresql://...)")
    cluster.add_argument("--host", default="127.0.0.1", help="address to listen on; default 127.0.0.1")
    cluster.add_argument("--port", type=int, default=DEFAULT_PORT,
                         help=f"the cluster's port, shared by the members; default {DEFAULT_PORT}")
    cluster.add_argument("--cluster-prefix", metavar="PREFIX", default="scopa",
                         help="the start of every Redis key of this cluster; default scopa")
    cluster.add_argument("--seeds", metavar="HOST:PORT,...", default="",
                         help="more addresses at which clients reach the cluster (e.g. a DNS name), given to every "
                              "client after the cluster's port")
    cluster.add_argument("--loop", choices=(loops.AUTO, *loops.LOOPS), default=loops.AUTO,
                         help="the members' event loop: uvloop where it is installed (scopa[cluster] brings it), "
                              "else asyncio's (auto, the default), or the one named")
    cluster.add_argument("--web-port", type=int, metavar="PORT", default=None,
                         help="also serve the browser client on this port, shared by the members (the page and its "
                              "WebSocket may reach any of them)")
    cluster.add_argument("--tls", choices=(tls.SELF_SIGNED,), default=None,
                         help=tr("self-signed: every member speaks TLS with one self-signed certificate, made once and kept in {dir}",
                                 dir=tls.tls_directory()))
    cluster.add_argument("--tls-cert", metavar="FILE", default=None,
                         help="every member speaks TLS with this certificate (PEM); needs --tls-key")
    cluster.add_argument("--tls-key", metavar="FILE", default=None, help="the private key (PEM) of --tls-cert")
    cluster.add_argument("--metrics-port", type=int, metavar="PORT", default=None,
                         help="serve each member's metrics and health checks (/metrics, /healthz, /readyz) on --host "
                              "at PORT, PORT+1, ... (one port per member: Prometheus scrapes each)")
    cluster.add_argument("--log-format", choices=("text", "json"), default="text",
                         help="the members' log: text, lines of text (default), or json, JSON lines")


def _die_with_parent() -> None:
    """In a member, before it runs: on Linux, SIGTERM when this command dies (even killed
    with SIGKILL), so that no member outlives it."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def member_command(args: argparse.Namespace, index: int = 0) -> list[str]:
    """The ``scopa serve`` of member ``index`` (from 0)."""
    command = [sys.executable, "-m", "scopa.cli", "serve", "--host", args.host, "--port", "0",
               "--cluster", args.cluster, "--db", args.db, "--cluster-port", str(args.port),
               "--cluster-prefix", args.cluster_prefix, "--no-announce",
               "--cluster-seeds", ",".join(filter(None, (f"{args.host}:{args.port}", getattr(args, "seeds", "")))),
               "--loop", loops.chosen(getattr(args, "loop", loops.AUTO))]
    if args.web_port is not None:
        command += ["--cluster-web-port", str(args.web_port)]
    if getattr(args, "tls_cert", None):
        command += ["--tls-cert", args.tls_cert, "--tls-key", args.tls_key]
    if getattr(args, "metrics_port", None) is not None:
        command += ["--metrics", f"{args.host}:{args.metrics_port + index}"]
    command += ["--log-format", getattr(args, "log_format", "text")]
    return command


def run_cluster(args: argparse.Namespace, console: Console) -> int:
    """``scopa cluster``: start the members, wait, stop them together; the exit status."""
    from scopa.server.journal.commands import is_postgres

    if args.processes < 1:
        console.print("[red]--processes must be at least 1[/red]")
        return 2
    if not is_postgres(args.db):
        console.print("[red]--db: the members share a PostgreSQL journal (postgresql://...)[/red]")
        return 2
    if args.host in ("0.0.0.0", "::", ""):
        console.print("[red]--host: give the address clients reach this host at (each member advertises "
                      "it with its own port)[/red]")
        return 2
    if args.web_port is not None and not 0 < args.web_port < 65536:
        console.print("[red]--web-port: give the port the members share (not 0)[/red]")
        return 2
    if importlib.util.find_spec("redis") is None:
        console.print("[red]scopa cluster needs the redis package: pip install 'scopa[cluster]'[/red]")
        return 2
    loop = loops.chosen(args.loop)
    try:
        loops.factory(loop)
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    chosen = tls.server_tls(args, console)  # made here once: every member shows the same certificate
    if chosen is False:
        return 2
    if chosen:
        args.tls_cert, args.tls_key, args.tls = str(chosen.cert), str(chosen.key), None
        console.print(tls.describe(chosen), soft_wrap=True, highlight=False, emoji=False)
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    previous = signal.signal(signal.SIGTERM, stop)
    members = [subprocess.Popen(member_command(args, i), preexec_fn=_die_with_parent) for i in range(args.processes)]
    console.print(f"{args.processes} members of the cluster at {args.host}:{args.port} "
                  + (f"(web page on port {args.web_port}) " if args.web_port is not None else "")
                  + f"on {loop} "
                  + f"(processes {', '.join(str(m.pid) for m in members)})")
    try:
        while not stopping and any(m.poll() is None for m in members):
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        for m in members:
            if m.poll() is None:
                m.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_WAIT
        for m in members:
            try:
                m.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                m.kill()
                m.wait()
    console.print("cluster stopped")
    return max((m.returncode for m in members if m.returncode not in (None, -signal.SIGTERM)), default=0)
