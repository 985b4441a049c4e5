"""``scopa web``: the terminal client served to browsers (phones, laptops) on the LAN.

textual-serve runs one app process per browser connection and tells it only the screen
size.  :class:`WebHost` wraps it:

- each browser gets a cookie identity (``scopa_id``: random, HttpOnly, SameSite=Lax)
  and a name cookie (``scopa_name``, from the name form at ``/name``);
- the app process for a browser (:mod:`scopa.client.webapp`) is told, in its
  environment, the game server, the name, the identity to put in ``hello.proxied_for``
  (a digest of the cookie, never the cookie) and where that browser's seat tokens are
  kept: one file per browser on the web host, keyed by a digest of its identity, so a
  reloaded page (or a phone that slept) goes back to its seat;
- the pages are our own (:mod:`scopa.client.webpage`): nothing comes from the internet.

The game server must trust the web host's address (``scopa serve --trust-proxy``;
``scopa serve --web`` does so by itself) to cap browsers one by one rather than as one
client (PROTOCOL.md §7, "Front ends").
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import secrets
import shlex
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from scopa.protocol.parties import NAME_PATTERN, normal_name

from .webpage import game_page, name_page

log = logging.getLogger("scopa.web")

ID_COOKIE, NAME_COOKIE = "scopa_id", "scopa_name"
COOKIE_AGE = 400 * 24 * 3600  # seconds: about as long as browsers keep a cookie
_ID = re.compile(r"^[A-Za-z0-9_-]{32,64}$")
# What the app process of one browser is told (read by scopa.client.webapp).
ENV_SERVER, ENV_NAME = "SCOPA_WEB_SERVER", "SCOPA_WEB_NAME"
ENV_IDENTITY, ENV_SEATS = "SCOPA_WEB_IDENTITY", "SCOPA_WEB_SEATS"
MAX_APPS = 64  # app processes (open pages) at once on this web host
MAX_APPS_PER_BROWSER = 4  # open pages of one browser at once


def digest(purpose: str, secret: str) -> str:
    """A name for ``secret`` that does not reveal it (32 hex digits), one per purpose."""
    return hashlib.sha256(f"scopa-web {purpose}\0{secret}".encode()).hexdigest()[:32]


def valid_identity(value: str | None) -> str | None:
    return value if value is not None and _ID.match(value) else None


def valid_name(value: str | None) -> str | None:
    """``value`` as a player's name (NFC, as the wire carries it), or None if it is not one."""
    if value is None:
        return None
    name = normal_name(value)
    return name if re.fullmatch(NAME_PATTERN, name) else None


def cookie_name(request: web.Request) -> str | None:
    """The name this browser chose (kept percent-encoded in its cookie), if valid."""
    raw = request.cookies.get(NAME_COOKIE)
    return valid_name(unquote(raw)) if raw is not None else None


class BrowserApp(AppService):
    """textual-serve's app process, started with one browser's environment added."""

    def __init__(self, command: str, environment: dict[str, str], **kwargs: Any) -> None:
        super().__init__(command, **kwargs)
        self.browser_environment = environment

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        env = super()._build_environment(width=width, height=height)
        env.pop("NO_COLOR", None)  # the web host's own output may be plain; the page is in colour
        env.update(self.browser_environment)
        return env


class WebHost(Server):
    """textual-serve's server with a cookie identity, a name form and our own page."""

    def __init__(self, game_server: str, seats_dir: Path, host: str = "0.0.0.0", port: int = 8000,
                 title: str = "Scopa") -> None:
        command = shlex.join([sys.executable, "-m", "scopa.client.webapp"])
        super().__init__(command, host=host, port=port, title=title)
        self.game_server = game_server
        self.seats_dir = seats_dir
        self.apps: dict[str, int] = {}  # browser identity digest -> open app processes
        self.announce: Callable[[str], None] = print

    # ------------------------------------------------------------------ the aiohttp app

    async def _make_app(self) -> web.Application:
        app = web.Application()
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/name", self.handle_name_form, name="name"),
            web.post("/name", self.handle_name_post),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.static("/static", self.statics_path, name="static"),
        ])
        return app

    async def start(self) -> web.AppRunner:
        """Listen (``port`` 0: any free port, then set to the real one); stop with
        ``await runner.cleanup()``."""
        runner = web.AppRunner(await self._make_app(), handle_signals=False, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        for address in runner.addresses:
            if isinstance(address, tuple) and len(address) >= 2:
                self.port = int(address[1])
                break
        self.seats_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        return runner

    def addresses(self) -> list[str]:
        """The addresses to type in a browser to reach this host."""
        hosts: list[str] = []
        if self.host in ("0.0.0.0", "", "::"):
            hosts.extend(lan_addresses())
            hosts.append("127.0.0.1")
        else:
            hosts.append(self.host)
        return [f"http://{h if ':' not in h else f'[{h}]'}:{self.port}/" for h in hosts]

    # ------------------------------------------------------------------ pages

    @staticmethod
    def _identity(request: web.Request) -> str | None:
        return valid_identity(request.cookies.get(ID_COOKIE))

    @staticmethod
    def _set_cookie(response: web.StreamResponse, name: str, value: str) -> None:
        response.set_cookie(name, value, max_age=COOKIE_AGE, path="/", httponly=True, samesite="Lax")

    def _with_identity(self, request: web.Request, response: web.StreamResponse) -> web.StreamResponse:
        if self._identity(request) is None:
            self._set_cookie(response, ID_COOKIE, secrets.token_urlsafe(32))
        return response

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        name = cookie_name(request)
        if name is None:
            return self._with_identity(request, _see_other("/name"))
        page = web.Response(text=game_page(name, self.title), content_type="text/html",
                            headers={"Cache-Control": "no-store"})
        return self._with_identity(request, page)

    async def handle_name_form(self, request: web.Request) -> web.StreamResponse:
        name = cookie_name(request) or ""
        return self._with_identity(request, web.Response(text=name_page(name, title=self.title),
                                                         content_type="text/html"))

    async def handle_name_post(self, request: web.Request) -> web.StreamResponse:
        if not _same_origin(request):
            raise web.HTTPForbidden(text="a name is set from this host's own page")
        form = await request.post()
        raw = form.get("name")
        name = valid_name(raw if isinstance(raw, str) else None)
        if name is None:
            shown = raw if isinstance(raw, str) else ""
            page = name_page(shown[:24], "Use 1 to 24 letters (accented ones too), digits, dots, dashes or "
                             "underscores.", self.title)
            return self._with_identity(request, web.Response(text=page, content_type="text/html", status=400))
        response = _see_other("/")
        self._set_cookie(response, NAME_COOKIE, quote(name))
        return self._with_identity(request, response)

    # ------------------------------------------------------------------ the terminal

    def browser_environment(self, identity: str, name: str) -> dict[str, str]:
        """What the app process of the browser with cookie ``identity`` is told."""
        return {
            ENV_SERVER: self.game_server,
            ENV_NAME: name,
            ENV_IDENTITY: digest("player", identity),
            ENV_SEATS: str(self.seats_dir / digest("seats", identity)),
        }

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        identity = self._identity(request)
        if identity is None or not _same_origin(request):
            raise web.HTTPForbidden(text="open the page first: it gives this browser its identity")
        name = cookie_name(request) or "player"
        key = digest("player", identity)
        if sum(self.apps.values()) >= MAX_APPS or self.apps.get(key, 0) >= MAX_APPS_PER_BROWSER:
            raise web.HTTPTooManyRequests(text="too many open pages; close one and reload")
        width = _cells(request.query.get("width"), 80)
        height = _cells(request.query.get("height"), 24)
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        self.apps[key] = self.apps.get(key, 0) + 1
        service = BrowserApp(self.command, self.browser_environment(identity, name),
                             write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                             close=websocket.close, download_manager=self.download_manager, debug=self.debug)
        try:
            await service.start(width, height)
            try:
                await self._relay(websocket, service)
            finally:
                await service.stop()
        except asyncio.CancelledError:
            await websocket.close()
        except Exception:  # noqa: BLE001 - one browser's trouble must not stop the host
            log.exception("the page of %s…: unexpected error", key[:8])
        finally:
            left = self.apps.get(key, 0) - 1
            if left > 0:
                self.apps[key] = left
            else:
                self.apps.pop(key, None)
        return websocket

    async def _relay(self, websocket: web.WebSocketResponse, service: AppService) -> None:
        """What the browser sends: keys and mouse (``stdin``), its size, focus, pings."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = message.json()
                kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            except (ValueError, TypeError, IndexError, KeyError):
                continue
            if kind == "stdin" and isinstance(data, str):
                await service.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                await service.set_terminal_size(_cells(data.get("width"), 80), _cells(data.get("height"), 24))
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await service.blur()
            elif kind == "focus":
                await service.focus()


def _see_other(where: str) -> web.Response:
    return web.Response(status=303, headers={"Location": where, "Cache-Control": "no-store"})


def _cells(value: object, default: int) -> int:
    """A terminal dimension from the browser, kept within sane bounds."""
    try:
        number = int(str(value))
    except ValueError:
        return default
    return max(10, min(500, number))


def _same_origin(request: web.Request) -> bool:
    """No ``Origin`` (not a browser's cross-site request), or this very host."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return origin.split("://", 1)[-1].rstrip("/") == request.host


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (what phones on the LAN type):
    from its host name, else from ``hostname -I`` (Linux)."""
    candidates: list[str] = []
    try:
        candidates += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    if not any(not a.startswith("127.") for a in candidates):
        try:
            listed = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5, check=False)
            candidates += listed.stdout.split()
        except (OSError, subprocess.SubprocessError):
            pass
    found: list[str] = []
    for address in candidates:
        if "." in address and not address.startswith("127.") and address not in found:
            found.append(address)
    return found


def default_seats_dir() -> Path:
    from .tokens import default_state_dir

    return default_state_dir() / "web-seats"


async def run_web(game_server: str, host: str = "0.0.0.0", port: int = 8000, seats_dir: Path | None = None,
                  announce: Callable[[str], None] = print) -> None:
    """Serve the client to browsers until cancelled."""
    webhost = WebHost(game_server, seats_dir or default_seats_dir(), host, port)
    webhost.announce = announce
    runner = await webhost.start()
    try:
        urls = webhost.addresses()
        announce(f"Scopa for browsers on port {webhost.port}, playing on {game_server}. Open: " + "  ".join(urls))
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
