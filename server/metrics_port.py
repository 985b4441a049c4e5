"""The operator's HTTP endpoints: ``/metrics`` (Prometheus' text format, server/metrics.py),
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
from collections.abc import Callable
from typing import TYPE_CHECKING

from aiohttp import web

from .metrics import ServerState, exposition

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
        why = getattr(engine.storage, "unavailable", None)  # a queued journal's (server/writer.py)
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

