"""Running a server: its engine, its web port and its LAN announcement started together,
kept until the operator or a signal stops it, and shut down in order."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

from scopa.protocol import DEFAULT_PORT

from .lan import LanIdentity, lan_announcer, lobby_record
from .core import Collector, follow_member, Limits, ServerTls
from .network import DEFAULT_TURN_TIMEOUT, NetworkEngine

if TYPE_CHECKING:
    from .club import ClubOptions
    from .cluster import ClusterOptions
    from .endpoints import MetricsPort, Probes
    from .web import WebFront, WebOptions

log = logging.getLogger("scopa.server")


async def serve(host: str = "127.0.0.1", port: int = DEFAULT_PORT, seed: int | None = None,
                db: str | None = None, accounts: bool = False, *, limits: Limits | None = None,
                turn_timeout: float | None = DEFAULT_TURN_TIMEOUT, admin_token_file: str | None = None,
                bot_workers: int = 1, trusted_proxies: Sequence[str] = (), rate_shared_addresses: Sequence[str] = (),
                beside: Callable[[NetworkEngine], Coroutine[object, object, None]] | None = None,
                lan: LanIdentity | None = None, web: WebOptions | None = None,
                announce: Callable[[NetworkEngine], None] | None = None,
                cluster: ClusterOptions | None = None, tls: ServerTls | None = None,
                allow_plain_secrets: bool = False,
                metrics: tuple[str, int] | Literal["web"] | None = None, club: ClubOptions | None = None) -> None:
    """Run a server until cancelled (Ctrl-C, SIGTERM) or stopped by the operator, then
    shut down cleanly; ``db``: the journal (a SQLite file or a postgresql:// URL; games
    survive restarts) or None (nothing persists); ``accounts``: names may be claimed with
    a password (needs ``db``); ``trusted_proxies``, ``rate_shared_addresses``: see
    NetworkEngine; ``beside``: run with the started engine until the server stops (its
    failure stops the server too); ``lan``: announce the server on the LAN under this name
    (never when it listens on loopback only; withdrawn when it stops); ``web``: also serve
    browsers (server/web/front.py); ``announce``: called once the server has opened its journal
    and listens; ``cluster``: share the lobby with other servers (server/cluster/);
    ``tls``: every port speaks TLS with this certificate, announced with its fingerprint
    (server/core/tls.py); ``allow_plain_secrets``: see NetworkEngine.
    ``metrics``: serve ``/metrics``, ``/healthz`` and ``/readyz`` (server/endpoints.py) on
    this host and port, or on the web port (``"web"``); ``club``: run quick play and
    tournaments (server/club/)."""
    engine = NetworkEngine(host, port, seed, db=db, limits=limits, turn_timeout=turn_timeout,
                           admin_token_file=admin_token_file, accounts=accounts, bot_workers=bot_workers,
                           trusted_proxies=trusted_proxies, rate_shared_addresses=rate_shared_addresses,
                           cluster=cluster, tls=tls, allow_plain_secrets=allow_plain_secrets, club=club)
    _stop_on_sigterm(engine)  # from the start: a stop while it opens its journal or ports still stops it cleanly
    await engine.start(join=False)
    front: WebFront | None = None
    probes: Probes | None = None
    endpoints: MetricsPort | None = None
    try:
        probes, endpoints = await _probes(engine, metrics, lambda: front.sessions if front is not None else 0)
        if web is not None:
            from .web import start_front  # aiohttp is imported only by a server with a web port

            if tls is not None:
                web = replace(web, tls=tls)
            front = await start_front(engine, replace(web, probes=probes if metrics == "web" else None),
                                      engine.cluster.web_passes if engine.cluster is not None else None)
            engine.router.greeting.web_port = front.port
        if engine.cluster is not None:
            follow_member(lambda: engine.cluster.address if engine.cluster is not None else "")
        await engine.join_cluster()  # listed in the cluster once it listens on every port it has
    except BaseException:
        await engine.stop()  # its web port is taken (or refused): the server does not run half
        if front is not None:
            await front.stop()
        if endpoints is not None:
            await endpoints.stop()
        raise
    if probes is not None:
        probes.started = True
    if lan is not None:
        identity = replace(lan, tls=tls.fingerprint if tls is not None else None)
        engine.announcer = lan_announcer(engine.host, engine.port,
                                         lambda: lobby_record(engine.tables, len(engine.names), identity), engine.clock)
    if engine.announcer is not None:
        if front is not None:
            engine.announcer.set_web_port(front.port)
        engine.lobby_listeners.append(engine.announcer.changed)
        engine.announcer.start()
    if announce is not None:
        announce(engine)
    collector = Collector(engine.clock)
    collector.start()
    companion = asyncio.create_task(beside(engine), name="beside-the-server") if beside is not None else None
    try:
        if companion is None:
            await engine.stopped.wait()
        else:
            stopped = asyncio.ensure_future(engine.stopped.wait())
            await asyncio.wait({companion, stopped}, return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if companion.done():
                companion.result()  # the companion's failure is the server's
    finally:
        if companion is not None and not companion.done():
            companion.cancel()
            await asyncio.gather(companion, return_exceptions=True)
        collector.stop()
        if probes is not None:
            probes.stopping = True  # not ready from now on: a load balancer sends nobody more
        if engine.announcer is not None:
            await engine.announcer.stop()  # the goodbye goes out while the server still answers
        await engine.stop()
        if front is not None:
            await front.stop()
        if endpoints is not None:
            await endpoints.stop()


async def _probes(engine: NetworkEngine, metrics: tuple[str, int] | Literal["web"] | None,
                  web_sockets: Callable[[], int]) -> tuple[Probes | None, MetricsPort | None]:
    """The server's probes and, on a port of their own, their endpoints, listening
    already (readiness says ``starting`` until the server has joined its cluster)."""
    if metrics is None:
        return None, None
    from .endpoints import MetricsPort, Probes  # aiohttp and prometheus_client: only with --metrics

    probes = Probes(engine, web_sockets)
    if metrics == "web":
        return probes, None
    port = MetricsPort(probes)
    await port.start(*metrics)
    return probes, port


def _stop_on_sigterm(engine: NetworkEngine) -> None:
    """SIGTERM (a service manager's stop) stops the server as Ctrl-C does: the games are
    suspended, every client told ``bye``, the journal closed."""
    def stop() -> None:
        log.info("SIGTERM: stopping the server")
        engine.stopped.set()

    try:
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop)
    except (NotImplementedError, RuntimeError, ValueError):
        pass  # no signals here (not the main thread, or not a Unix loop): Ctrl-C only
