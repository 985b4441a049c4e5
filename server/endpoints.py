"""The operator's HTTP endpoints: ``/metrics`` (Prometheus' text format, server/core/metrics.py),
``/healthz`` (the process answers) and ``/readyz`` (it accepts players), on a port of
their own (``scopa serve --metrics HOST:PORT``) or on the web front's
(``--metrics web``).

``/readyz`` answers 200 ``ready`` or 503 with one reason a line, for a load balancer or
a container orchestrator: ``starting`` until the server listens (and, in a cluster, has
joined it), ``draining`` once it is asked to stop (the operator's ``stop``, ``scopa
admin drain``, SIGTERM: it turns not-ready before it stops listening, and answers until
the end), ``journal unavailable`` while the journal cannot store what it is given (a
lost connection, a full disk, its process gone: the tables that need it wait), ``redis
unreachable`` while a cluster member cannot reach the cluster's Redis.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from aiohttp import web

from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from .core import PREFIX

if TYPE_CHECKING:
    from .network import NetworkEngine

log = logging.getLogger("scopa.server")

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"  # Prometheus' text exposition format


class Probes:
    """What the endpoints of one server answer: its readiness and its figures."""

    def __init__(self, engine: NetworkEngine, web_sockets: Callable[[], int] = lambda: 0) -> None:
        """``web_sockets``: the WebSockets open on the server's web front now (its own
        sessions' and those it relays to other members)."""
        self.engine = engine
        self.started = False
        """Set once the server listens on every port it has and has joined its cluster."""
        self.stopping = False
        """Set when the server begins to stop, however it was asked to."""
        self.state = ServerState(engine, web_sockets, self.reasons)

    def reasons(self) -> list[str]:
        """Why the server does not accept players now (empty: it does)."""
        engine = self.engine
        found: list[str] = []
        if engine.stopped.is_set() or self.stopping:
            found.append("draining")
        elif not self.started:
            found.append("starting")
        why = getattr(engine.storage, "unavailable", None)  # a queued journal's (server/journal/writer.py)
        if why:
            found.append(f"journal unavailable: {why}")
        if engine.cluster is not None and not engine.cluster.available:
            found.append("redis unreachable")
        return found

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)

    async def _metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=exposition(self.state), headers={"Content-Type": CONTENT_TYPE})

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _readyz(self, request: web.Request) -> web.Response:
        reasons = self.reasons()
        if reasons:
            return web.Response(status=503, text="".join(f"{r}\n" for r in reasons))
        return web.Response(text="ready\n")


class MetricsPort:
    """The endpoints on a port of their own."""

    def __init__(self, probes: Probes) -> None:
        self.probes = probes
        self.port = 0
        self._runner: web.AppRunner | None = None

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host:port`` (0: any free port); the port listened on."""
        app = web.Application()
        self.probes.add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        try:
            await site.start()
        except OSError as exc:
            await self.stop()
            raise OSError(exc.errno, f"the metrics port {port}: {exc.strerror or exc}") from None
        self.port = int(self._runner.addresses[0][1])
        log.info("metrics on http://%s:%s/metrics (and /healthz, /readyz)", host, self.port)
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


SESSION_STATES = ("greeting", "lobby", "seated", "watching")
CONNECTION_KINDS = ("tcp", "websocket", "relayed")


class ServerState(Collector):
    """The gauges of one server, read when Prometheus scrapes.  ``web_sockets``: how many
    WebSockets its web front holds (its sessions', and those it relays to another
    member); ``reasons``: why it is not ready (empty: ready)."""

    def __init__(self, engine: NetworkEngine, web_sockets: Callable[[], int],
                 reasons: Callable[[], list[str]]) -> None:
        self.engine = engine
        self.web_sockets = web_sockets
        self.reasons = reasons

    def collect(self) -> Iterator[Metric]:
        yield from self._sessions()
        yield self._tables()
        yield from self._journal()
        ready = GaugeMetricFamily(f"{PREFIX}_ready", "1 while this server accepts players (its /readyz answers 200)")
        ready.add_metric([], 0.0 if self.reasons() else 1.0)
        yield ready
        cluster = self.engine.cluster
        if cluster is not None:
            members = GaugeMetricFamily(f"{PREFIX}_cluster_members", "Members of the cluster this member sees, itself too")
            members.add_metric([], float(len(cluster.presence.alive) + 1))
            yield members
            leases = cluster.leases
            held = GaugeMetricFamily(f"{PREFIX}_cluster_leases_held", "Table leases this member holds")
            held.add_metric([], float(0 if leases is None else
                                      sum(leases.holds(t.id) for t in list(self.engine.tables.values()))))
            yield held
            up = GaugeMetricFamily(f"{PREFIX}_cluster_redis_up", "1 while this member reaches the cluster's Redis")
            up.add_metric([], 1.0 if cluster.available else 0.0)
            yield up

    def _sessions(self) -> Iterator[Metric]:
        from .web import WebSocketTransport  # aiohttp: imported with the metrics' HTTP port

        kinds = dict.fromkeys(CONNECTION_KINDS, 0)
        states = dict.fromkeys(SESSION_STATES, 0)
        seating = self.engine.seating
        for sess in list(self.engine.sessions.values()):
            kinds["websocket" if isinstance(sess.transport, WebSocketTransport) else "tcp"] += 1
            if not sess.welcomed:
                states["greeting"] += 1
            elif sess.table_id is not None:
                states["seated"] += 1
            elif seating.watched_by(sess) is not None:
                states["watching"] += 1
            else:
                states["lobby"] += 1
        kinds["relayed"] = max(0, self.web_sockets() - kinds["websocket"])
        connections = GaugeMetricFamily(f"{PREFIX}_connections", "Open client connections, by kind", labels=["kind"])
        for kind, n in kinds.items():
            connections.add_metric([kind], float(n))
        yield connections
        sessions = GaugeMetricFamily(f"{PREFIX}_sessions", "Connections by what they are doing", labels=["state"])
        for state, n in states.items():
            sessions.add_metric([state], float(n))
        yield sessions

    def _tables(self) -> Metric:
        counts: dict[tuple[str, str], int] = {}
        for table in list(self.engine.tables.values()):
            named = table.rules.preset
            key = (table.state.value, named.value if named is not None else "custom")
            counts[key] = counts.get(key, 0) + 1
        tables = GaugeMetricFamily(f"{PREFIX}_tables", "This server's tables, by state and preset",
                                   labels=["state", "preset"])
        for (state, preset), n in sorted(counts.items()):
            tables.add_metric([state, preset], float(n))
        return tables

    def _journal(self) -> Iterable[Metric]:
        storage = self.engine.storage
        if storage is None:
            return
        queued = getattr(storage, "queued", None)  # a queued journal's (server/journal/writer.py), as unavailable
        depth = GaugeMetricFamily(f"{PREFIX}_journal_queue_depth", "Journal requests waiting to be stored")
        depth.add_metric([], float(queued() if callable(queued) else 0))
        yield depth
        unavailable = getattr(storage, "unavailable", None)
        up = GaugeMetricFamily(f"{PREFIX}_journal_up", "1 while the journal stores what it is given")
        up.add_metric([], 0.0 if unavailable else 1.0)
        yield up


def exposition(state: ServerState) -> bytes:
    """The text Prometheus scrapes: the process-wide counters, histograms and process
    collector, then the gauges of one server."""
    own = CollectorRegistry(auto_describe=False)
    own.register(state)
    return generate_latest(REGISTRY) + generate_latest(own)
