"""The web front: the browser client's files over HTTP and the protocol over a
WebSocket (``/ws``), served by the server process itself (``scopa serve --web PORT``).

A browser's WebSocket is an ordinary connection of the server (a
:class:`~scopa.server.conn.session.ServerSession`, :mod:`scopa.server.web.websocket`): the
server's limits, caps per address and resuming a seat apply to it as to TCP.  Before
that, the front guards the port itself:

- every request must name this machine in ``Host`` (an IP address, ``localhost`` or
  one of the machine's names) and a WebSocket's ``Origin`` must be the page's own, so a
  page of another site whose name was pointed at this address (DNS rebinding) is
  refused (403);
- connections are capped per source address and in total, the total below the
  process's open-files limit (raised to its hard limit at start) and leaving
  ``tcp_reserve`` of the server's ``max_connections`` to the TCP port, the per-address
  cap at most half the total (none for ``Limits.trusted_addresses``); one over a cap is
  answered 503 and closed;
- a browser is counted by its own address: a ``proxied_for`` in its ``hello`` is
  ignored, even from a trusted front end's address (only a cluster's relay gives one);
- a connection that sends no request for ``idle_timeout`` seconds is closed.

In a cluster, a browser sent to another member (``redirect``) opens ``/ws?ticket=T``
with the ticket it was sent: that WebSocket is relayed to the member's TCP port
(server/web/relay.py).  The members of a cluster on one host may share one web port
(``reuse_port``, SO_REUSEPORT: ``scopa cluster --web-port``): every member serves the
same page, a WebSocket without a ticket is a connection of the member it lands on, and a
ticket any member's front sent is found in the cluster's passes (``passes``).
"""

from __future__ import annotations

import asyncio
import gzip
import ipaddress
import logging
import mimetypes
import socket
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, cast
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, web

from scopa.protocol import commands as wire
from ..core import Clock, Limits, HANDSHAKE_TIMEOUT, ServerTls
from ..conn import ServerSession
from .passes import PassBook, Passes
from .relay import relay
from .websocket import MAX_MESSAGE, SessionSocket, run_session

log = logging.getLogger("scopa.server.web")

FILES_RESERVE = 128
"""Open files the process keeps for everything but web connections (the TCP port's
listener and clients, the journal, the bot workers' pipes)."""

_BUSY = b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
_REFUSED_LINGER = 5.0
"""Seconds a refused connection is read (and dropped) after its 503, for the browser to close it."""
_CSP = ("default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


class Probes(Protocol):
    """The operator's endpoints this front serves too (``scopa serve --metrics web``:
    scopa.server.endpoints.Probes)."""

    def add_routes(self, app: web.Application) -> None:
        """Add ``/metrics``, ``/healthz`` and ``/readyz`` to the front's routes."""


class NetworkEngine(Protocol):
    """What the front needs of the server (scopa.server.network.NetworkEngine)."""

    limits: Limits
    clock: Clock

    def new_session(self) -> ServerSession:
        """A new connection of the server."""

    def seat_open(self, table_id: str, invite: str | None) -> tuple[bool | None, wire.TableState | None]:
        """Whether a link to the table would seat its person now, and the table's state (None: no such table here)."""


@dataclass(frozen=True)
class WebLimits:
    """What the web port tolerates (None: no cap of this kind)."""

    idle_timeout: float = 15.0
    """Seconds a connection may stay without a request (HTTP keep-alive included)."""
    per_address: int | None = 32
    """Open connections (HTTP and WebSocket) from one address."""
    total: int | None = 2000
    """Open connections overall (lowered to fit the open-files limit)."""
    tcp_reserve: int = 64
    """Connections of the server's ``max_connections`` that WebSockets never take."""


def raise_open_files() -> int:
    """Raise this process's soft open-files limit to its hard limit; the new soft limit
    (a large number where the system sets none)."""
    try:
        import resource
    except ImportError:  # not on this system
        return 1 << 20
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def per_address_cap(per_address: int | None, total: int | None) -> int | None:
    """The cap on one address's connections given the overall cap ``total``: never more
    than half of it (at least one), so one address cannot fill the port."""
    if total is None:
        return per_address
    most = max(1, total // 2)
    return most if per_address is None else min(per_address, most)


def machine_names() -> frozenset[str]:
    """The names by which this machine may be asked for, lower case."""
    names = {"localhost"}
    for name in (socket.gethostname(), socket.getfqdn()):
        name = name.lower().rstrip(".")
        if name:
            names.update({name, name.split(".")[0], name.split(".")[0] + ".local"})
    return frozenset(names)


def host_name(value: str) -> str:
    """The name in a ``Host`` header or an origin's network location, without the port."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def allowed_host(value: str | None, names: frozenset[str]) -> bool:
    """Whether a ``Host`` header names this machine: an IP address or one of ``names``."""
    if not value:
        return False
    name = host_name(value)
    if name in names:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def same_origin(origin: str | None, host: str) -> bool:
    """Whether a WebSocket's ``Origin`` is the page's own (no ``Origin``: not a browser)."""
    if origin is None:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.strip().lower()


class _Guard(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the front's caps."""

    def __init__(self, front: WebFront) -> None:
        self._front = front
        self._handler: asyncio.Protocol | None = None
        self._address: str | None = None
        self._refused = False  # answered 503: its request is read and dropped

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)
        refusal = self._front.admit(address)
        if refusal is not None:
            log.warning("web: refusing a connection from %s: %s", address, refusal)
            # A stream transport (uvloop's are not asyncio.WriteTransport subclasses).
            stream = cast(asyncio.WriteTransport, transport)
            stream.write(_BUSY)
            # Half-close and read on until the browser closes: closing with its request
            # unread would reset the connection, and the 503 with it.
            if stream.can_write_eof():
                stream.write_eof()
                self._refused = True
                self._front.engine.clock.call_later(_REFUSED_LINGER, stream.close)
            else:
                stream.close()
            return
        self._address = address
        server = self._front.http
        assert server is not None
        handler = server()
        self._handler = handler
        handler.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._handler is not None:
            self._handler.data_received(data)

    def eof_received(self) -> bool | None:
        if self._refused:
            return False  # the browser is done too: close
        return self._handler.eof_received() if self._handler is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        if self._address is not None:
            self._front.release(self._address)
            self._address = None
        if self._handler is not None:
            self._handler.connection_lost(exc)

    def pause_writing(self) -> None:
        if self._handler is not None:
            self._handler.pause_writing()

    def resume_writing(self) -> None:
        if self._handler is not None:
            self._handler.resume_writing()


class WebFront:
    """The web port of one :class:`NetworkEngine`."""

    def __init__(self, engine: NetworkEngine, root: Path | None, limits: WebLimits = WebLimits(),
                 names: frozenset[str] | None = None, extra: Mapping[str, bytes] | None = None,
                 passes: PassBook | None = None, tls: ServerTls | None = None) -> None:
        """``root``: the folder of the client's files (``index.html`` …; None: only the
        WebSocket); ``names``: the host names a request may use besides IP addresses
        (default: this machine's); ``extra``: more files by name (made by the caller);
        ``passes``: where ``redirect``s are noted and tickets found (default: this
        front's own); ``tls``: serve HTTPS (and HSTS) with this certificate; without it the
        page says that it is not private."""
        self.engine = engine
        self.limits = limits
        self.names = names if names is not None else machine_names()
        self.files = _load(root) if root is not None else {}
        for name, body in (extra or {}).items():
            self.files[name] = _entry(name, body)
        self.tls = tls
        if tls is None and "index.html" in self.files:
            self.files["index.html"] = _entry("index.html", not_private(self.files["index.html"][0]))
        engine_cap = engine.limits.max_connections
        self.max_sessions = None if engine_cap is None else max(1, engine_cap - limits.tcp_reserve)
        """WebSocket sessions at once: the server's cap less the TCP port's reserve."""
        self.total = limits.total
        self.per_address_cap = per_address_cap(limits.per_address, self.total)
        """Connections from one address: at most half of ``total`` (one address never fills the port)."""
        self.per_address: dict[str, int] = {}
        self.sessions = 0
        self._open: set[web.WebSocketResponse] = set()
        """The WebSockets open now (their own sessions and relays), closed by ``stop``."""
        self.passes: PassBook = passes if passes is not None else Passes(time.monotonic)
        """The ``redirect``s sent to this front's clients, by ticket (server/web/relay.py)."""
        self.http: web.Server | None = None
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self.port = 0
        self.probes: Probes | None = None  # /metrics, /healthz and /readyz here too (scopa serve --metrics web)

    # ------------------------------------------------------------------ caps

    def admit(self, address: str) -> str | None:
        """Count a new connection from ``address``, or say why it is refused."""
        open_now = sum(self.per_address.values())
        if self.total is not None and open_now >= self.total:
            return f"{self.total} web connections are open"
        per = self.per_address_cap
        if per is not None and self.per_address.get(address, 0) >= per and not self.engine.limits.trusts(address):
            return f"{per} web connections from this address are open"
        self.per_address[address] = self.per_address.get(address, 0) + 1
        return None

    def release(self, address: str) -> None:
        left = self.per_address.get(address, 0) - 1
        if left > 0:
            self.per_address[address] = left
        else:
            self.per_address.pop(address, None)

    # ------------------------------------------------------------------ lifecycle

    async def start(self, host: str, port: int, reuse_port: bool = False) -> int:
        """Listen on ``host:port`` (0: any free port; ``reuse_port``: shared with the other
        processes listening on it so, SO_REUSEPORT); the port listened on."""
        files = raise_open_files() - FILES_RESERVE
        engine_cap = self.engine.limits.max_connections or 0
        room = max(16, files - engine_cap)  # what the TCP port may hold stays free
        self.total = room if self.total is None else min(self.total, room)
        self.per_address_cap = per_address_cap(self.limits.per_address, self.total)
        app = web.Application(client_max_size=64 * 1024)
        app.router.add_get("/ws", self._websocket)
        if self.probes is not None:
            self.probes.add_routes(app)
        app.router.add_get("/seat-open", self._seat_open)
        app.router.add_get("/", self._file)
        app.router.add_get("/{name}", self._file)
        app.middlewares.append(self._guard_host)
        if self.tls is not None:
            app.on_response_prepare.append(_strict_transport)
        self._runner = web.AppRunner(app, keepalive_timeout=self.limits.idle_timeout, access_log=None,
                                     handle_signals=False)
        await self._runner.setup()
        self.http = self._runner.server
        loop = asyncio.get_running_loop()
        self._listener = await loop.create_server(lambda: _Guard(self), host, port, reuse_port=reuse_port or None,
                                                  ssl=self.tls.context if self.tls else None,
                                                  ssl_handshake_timeout=HANDSHAKE_TIMEOUT if self.tls else None)
        self.port = self._listener.sockets[0].getsockname()[1]
        log.info("web page on %s://%s:%s/ (WebSocket /ws)", "https" if self.tls else "http", host, self.port)
        return self.port

    async def stop(self) -> None:
        """Stop listening, close every open WebSocket (1001, going away: the page
        reconnects as after a restart) and then the front.  A relayed WebSocket would
        otherwise stay open as long as the member it is carried to, and aiohttp waits up
        to a minute for its handler."""
        if self._listener is not None:
            self._listener.close()
        await asyncio.gather(*(ws.close(code=WSCloseCode.GOING_AWAY, message=b"the server is stopping")
                               for ws in list(self._open)), return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
        if self._listener is not None:
            await self._listener.wait_closed()

    # ------------------------------------------------------------------ requests

    @web.middleware
    async def _guard_host(self, request: web.Request,
                          handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        if not allowed_host(request.headers.get("Host"), self.names):
            return web.Response(status=403, text="this server does not answer to that name\n")
        return await handler(request)

    async def _file(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info.get("name", "index.html")
        found = self.files.get(name)
        if found is None:
            return web.Response(status=404, text="not found\n")
        body, packed, kind = found
        headers = {"Content-Type": kind, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
                   "Content-Security-Policy": _CSP, "Referrer-Policy": "no-referrer"}
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return web.Response(body=packed, headers=headers)
        return web.Response(body=body, headers=headers)

    async def _seat_open(self, request: web.Request) -> web.StreamResponse:
        """``/seat-open?table=ID&invite=CODE``: whether an invite's table has a seat for
        its person now, and the table's state (``{"open": bool, "state": "waiting"}``; a
        finished game's: ``"finished"``; ``{"open": null, "state": null}`` when this server
        knows no such table, or not with that invite: an answer, not an error, for a link
        that is out of date)."""
        found, state = self.engine.seat_open(request.query.get("table", ""), request.query.get("invite") or None)
        return web.json_response({"open": found, "state": state.value if state is not None else None},
                                 headers={"Cache-Control": "no-store"})

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        if not same_origin(request.headers.get("Origin"), request.headers.get("Host", "")):
            return web.Response(status=403, text="a page of another site may not connect\n")
        if self.max_sessions is not None and self.sessions >= self.max_sessions:
            return web.Response(status=503, text="the server is full; try later\n")
        ticket = request.query.get("ticket")
        address = await self.passes.find(ticket) if ticket is not None else None
        if ticket is not None and address is None:
            return web.Response(status=403, text="no such ticket\n")
        # No permessage-deflate, though every browser offers it: the commands are small, and
        # deflating each would cost the server more CPU per move than all the rest of a
        # browser's path (benchmarks/server_load.py --web).
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, autoping=True, heartbeat=None, compress=False) \
            if address is not None else SessionSocket()
        await ws.prepare(request)
        self.sessions += 1
        self._open.add(ws)
        try:
            if address is not None:  # handed on: carried to the member serving the table
                await relay(ws, address, request.remote or "", self.tls)
            else:
                session = self.engine.new_session()
                session.handed_on = self.passes.note
                session.own_address = True  # a browser: never a front end speaking for others
                await run_session(request, session, ws)
        finally:
            self.sessions -= 1
            self._open.discard(ws)
        return ws


NOT_PRIVATE = ("<p id=\"not-private\" role=\"alert\" style=\"margin:0;padding:.4em .8em;background:#fde68a;"
               "color:#3b2f00;font:14px/1.4 system-ui,sans-serif\">Not private: this page is served without TLS, "
               "so anyone on this network can read what you send (passwords too).</p>")
"""What a page served without TLS says first."""


def not_private(page: bytes) -> bytes:
    """``page`` (an HTML document) saying first that it is not private."""
    return page.replace(b"<body>", b"<body>\n" + NOT_PRIVATE.encode(), 1)


async def _strict_transport(request: web.Request, response: web.StreamResponse) -> None:
    """HSTS on every answer of a front served over TLS."""
    response.headers["Strict-Transport-Security"] = "max-age=31536000"


def _load(root: Path) -> dict[str, tuple[bytes, bytes, str]]:
    """The client's files by name: their bytes, gzipped, and their content type."""
    files: dict[str, tuple[bytes, bytes, str]] = {}
    for path in sorted(root.iterdir()):
        if not path.is_file() or path.name.startswith("."):
            continue
        files[path.name] = _entry(path.name, path.read_bytes())
    if "index.html" not in files:
        raise FileNotFoundError(f"no index.html in {root}")
    return files


def _entry(name: str, body: bytes) -> tuple[bytes, bytes, str]:
    """A file as served: its bytes, gzipped, and its content type."""
    kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if kind.startswith("text/") or kind in ("application/javascript", "application/json", "image/svg+xml"):
        kind += "; charset=utf-8"
    return body, gzip.compress(body, 9, mtime=0), kind


@dataclass(frozen=True)
class WebOptions:
    """``serve(web=...)``: where the web front listens and what it serves."""

    port: int
    host: str = "127.0.0.1"
    root: Path | None = None
    limits: WebLimits = WebLimits()
    names: frozenset[str] | None = None
    extra: Mapping[str, bytes] | None = None
    listening: Callable[[int], None] | None = None
    """Told the port once the front listens (to print the address)."""
    reuse_port: bool = False
    """Share the port with the other members of a cluster on this host (SO_REUSEPORT)."""
    tls: ServerTls | None = None
    """Serve HTTPS with this certificate (the server's: server/core/tls.py)."""
    probes: Probes | None = None
    """Serve the operator's endpoints (server/endpoints.py) on this port too."""


async def start_front(engine: NetworkEngine, options: WebOptions, passes: PassBook | None = None) -> WebFront:
    """A started :class:`WebFront` of ``engine`` (``passes``: the cluster's, else its own)."""
    front = WebFront(engine, options.root, options.limits, options.names, options.extra, passes, options.tls)
    front.probes = options.probes
    try:
        await front.start(options.host, options.port, options.reuse_port)
    except OSError as exc:
        await front.stop()
        raise OSError(exc.errno, f"the web page's port {options.port}: {exc.strerror or exc}") from None
    if options.listening is not None:
        options.listening(front.port)
    return front
