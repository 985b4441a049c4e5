"""Finding servers on the LAN: they announce themselves over multicast DNS (DNS-SD,
``_scopa._tcp``) and this module listens.

- :func:`discover` browses for a moment and returns every server that answered.
- :class:`ServerBrowser` keeps browsing (an async context manager): :meth:`~ServerBrowser.found`
  is what is announced now, and :meth:`~ServerBrowser.wait_for` waits until a condition
  on it holds (a server appears, or its announcement is withdrawn).
- :func:`resolve_server` turns a ``--server`` value (``HOST:PORT`` or ``auto``: the
  server on the LAN, else one on this computer) into an address; :func:`choice_rows` and :func:`parse_choice` are the list a person picks from.

In a program::

    from scopa.client import ClientSession
    from scopa.client.net.discovery import resolve_server

    where = await resolve_server("auto")               # the one server on the LAN
    session = await ClientSession.connect(where.host, where.port, "ada", tls=where.tls,
                                          fingerprint=where.fingerprint)
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from scopa.protocol import DEFAULT_PORT, PROTOCOL_VERSION
from .clock import Clock, SystemClock
from scopa.protocol.servers import SERVICE_TYPE, LanRecord

from scopa.protocol.servers import ServerAddress, parse_server_address

BROWSE_SECONDS = 2.0
LOCAL_SECONDS = 1.0
"""How long a server on this computer (127.0.0.1) has to accept a connection."""
"""How long :func:`discover` listens for answers."""

AUTO = "auto"
"""The ``--server`` value that means: find the server on the LAN."""


@dataclass(frozen=True)
class FoundServer:
    """A server that announced itself: where it listens and what its record says."""

    host: str
    port: int
    record: LanRecord

    @property
    def name(self) -> str:
        return self.record.name

    @property
    def server_address(self) -> ServerAddress:
        """Where to connect: TLS, pinned to the announced fingerprint, when it speaks TLS."""
        return ServerAddress(self.host, self.port, self.record.tls is not None, self.record.tls)

    @property
    def address(self) -> str:
        """``HOST:PORT`` (``tls://HOST:PORT`` when it speaks TLS), as ``--server`` takes it."""
        return str(self.server_address)

    @property
    def compatible(self) -> bool:
        """It speaks this client's protocol version."""
        return self.record.protocol == PROTOCOL_VERSION

    @property
    def web_address(self) -> str | None:
        """Its web page, if it serves one."""
        if self.record.web_port is None:
            return None
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'https' if self.record.tls else 'http'}://{host}:{self.record.web_port}/"


class NoServerFound(Exception):
    """Nothing usable answered on the LAN within ``seconds`` (None: several did, and the
    person chose none)."""

    def __init__(self, message: str, seconds: float | None = None) -> None:
        super().__init__(message)
        self.seconds = seconds


class SeveralServersFound(Exception):
    """More than one server answered, and nobody may choose: ``servers`` lists them."""

    def __init__(self, servers: Sequence[FoundServer]) -> None:
        self.servers = list(servers)
        super().__init__("several Scopa servers on this network: " + ", ".join(
            f"{s.name} ({s.address})" for s in self.servers))


def _best_address(addresses: Sequence[str]) -> str | None:
    """The address to connect to: IPv4 before IPv6, never loopback or link-local."""
    usable = []
    for text in addresses:
        try:
            address = ipaddress.ip_address(text.split("%")[0])
        except ValueError:
            continue
        if not (address.is_loopback or address.is_link_local):
            usable.append(address)
    usable.sort(key=lambda a: a.version)
    return str(usable[0]) if usable else None


class ServerBrowser:
    """Browses the LAN for Scopa servers while open (``async with ServerBrowser() as b``)."""

    def __init__(self) -> None:
        self._zeroconf: Any = None
        self._browser: Any = None
        self._names: set[str] = set()
        self._servers: dict[str, FoundServer] = {}
        self._changed = asyncio.Event()
        self._lookups: set[asyncio.Task[None]] = set()

    async def __aenter__(self) -> ServerBrowser:
        from zeroconf import IPVersion
        from zeroconf.asyncio import AsyncServiceBrowser, AsyncZeroconf

        self._zeroconf = AsyncZeroconf(ip_version=IPVersion.V4Only)
        self._browser = AsyncServiceBrowser(self._zeroconf.zeroconf, SERVICE_TYPE, handlers=[self._on_change])
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        for task in self._lookups:
            task.cancel()
        await asyncio.gather(*self._lookups, return_exceptions=True)
        if self._browser is not None:
            await self._browser.async_cancel()
        if self._zeroconf is not None:
            await self._zeroconf.async_close()

    def _on_change(self, zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        from zeroconf import ServiceStateChange

        if state_change is ServiceStateChange.Removed:
            self._names.discard(name)
            self._servers.pop(name, None)
            self._changed.set()
            return
        self._names.add(name)
        task = asyncio.ensure_future(self._look_up(name))
        self._lookups.add(task)
        task.add_done_callback(self._lookups.discard)

    async def _look_up(self, name: str) -> None:
        from zeroconf.asyncio import AsyncServiceInfo

        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if not await info.async_request(self._zeroconf.zeroconf, 3000) or name not in self._names:
            return
        host = _best_address(info.parsed_addresses())
        if host is None or info.port is None:
            return
        try:
            record = LanRecord.from_txt(info.properties)
        except ValueError:
            return  # not a record this client can read: not a server it can join
        self._servers[name] = FoundServer(host, info.port, record)
        self._changed.set()

    def found(self) -> list[FoundServer]:
        """The servers announced now, by name then address."""
        return sorted(self._servers.values(), key=lambda s: (s.name.lower(), s.address))

    async def wait_for(self, condition: Callable[[list[FoundServer]], bool]) -> list[FoundServer]:
        """Wait until ``condition(found())`` holds (wrap in a timeout)."""
        while not condition(self.found()):
            self._changed.clear()
            await self._changed.wait()
        return self.found()


async def discover(seconds: float = BROWSE_SECONDS, clock: Clock | None = None) -> list[FoundServer]:
    """Every server that announced itself within ``seconds``, by name."""
    async with ServerBrowser() as browser:
        await (clock or SystemClock()).sleep(seconds)
        return browser.found()


async def listening_here(port: int, seconds: float = LOCAL_SECONDS) -> bool:
    """Whether a server listens on this computer (127.0.0.1) at ``port``: ``scopa serve``
    alone listens there and is never announced on the LAN."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), seconds)
    except (OSError, TimeoutError):
        return False
    writer.close()
    try:
        await writer.wait_closed()
    except OSError:
        pass
    return True


async def resolve_server(server: str, seconds: float = BROWSE_SECONDS,
                         choose: Callable[[list[FoundServer]], FoundServer | None] | None = None,
                         local_port: int | None = DEFAULT_PORT) -> ServerAddress:
    """The address of ``server``: ``[tls://]HOST:PORT`` as given, or for ``auto`` the one
    server on the LAN speaking this client's protocol, else one listening on this
    computer at ``local_port`` (127.0.0.1; None: not looked for).  Several on the LAN:
    ``choose`` picks one (None from it: :class:`NoServerFound`), or
    :class:`SeveralServersFound` without it; none: :class:`NoServerFound`.
    ``ValueError`` for a malformed address."""
    if server.strip().lower() != AUTO:
        return parse_server_address(server)
    servers = [s for s in await discover(seconds) if s.compatible]
    if not servers:
        if local_port is not None and await listening_here(local_port):
            return ServerAddress("127.0.0.1", local_port)
        raise NoServerFound(no_server_hint(seconds), seconds)
    if len(servers) == 1:
        return servers[0].server_address
    if choose is None:
        raise SeveralServersFound(servers)
    chosen = choose(servers)
    if chosen is None:
        raise NoServerFound("No server chosen; give one with --server HOST:PORT")
    return chosen.server_address


def no_server_hint(seconds: float = BROWSE_SECONDS) -> str:
    return (f"No Scopa server answered on this network within {seconds:g} s, nor on this computer. Host one with "
            "\"scopa serve --host 0.0.0.0\", or give the address of one: --server HOST:PORT")


def choice_rows(servers: Sequence[FoundServer]) -> list[str]:
    """One numbered line per server: name, address, open tables, players (and the web page)."""
    rows = []
    for i, s in enumerate(servers, 1):
        tables = f"{s.record.tables} open table" + ("" if s.record.tables == 1 else "s")
        players = f"{s.record.players} player" + ("" if s.record.players == 1 else "s")
        extra = f", web {s.web_address}" if s.web_address else ""
        if not s.compatible:
            extra += f" (protocol {s.record.protocol}: cannot be joined with this client)"
        rows.append(f"{i}. {s.name}  {s.address}  {tables}, {players}{extra}")
    return rows


def parse_choice(answer: str, count: int) -> int | None:
    """The 0-based index a person picked with ``answer`` (a number from 1 to ``count``),
    or None if it is not one."""
    text = answer.strip()
    if not text.isdigit():
        return None
    number = int(text)
    return number - 1 if 1 <= number <= count else None
