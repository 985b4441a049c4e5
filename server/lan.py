"""The server announces itself on the LAN (multicast DNS / DNS-SD), so nobody types an
address: ``scopa play`` and ``scopa servers`` find it.

- :func:`announces` decides whether a listening address is on the LAN at all: a server
  listening on loopback only is never announced.
- :class:`Announcer` keeps one service announced: it registers it, refreshes its TXT
  record (:class:`~scopa.protocol.servers.lan.LanRecord`) when the figures in it change, at most
  once per ``interval`` on the server's clock (:class:`RefreshPacer`), and withdraws it
  (a goodbye on the network) when stopped.  It knows nothing of the engine: it is given
  a function that returns the record, a :class:`Publisher` and a clock, so one
  announcer can stand for any set of servers that plays as one (it is told what to
  publish, not where the figures come from).
- :class:`ZeroconfPublisher` is the :class:`Publisher` of the ``zeroconf`` library.
- :func:`lobby_record` is a server's record; :func:`lan_announcer` makes the announcer
  of a server listening on an address (none for loopback).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import socket
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, replace
from typing import Any, Protocol

from scopa.protocol import PROTOCOL_VERSION
from scopa.protocol import commands as wire
from scopa.protocol.servers import SERVICE_TYPE, LanRecord, clean_server_name

from .core import Clock, Timer
from .lobby import TableDirectory

log = logging.getLogger("scopa.server")

REFRESH_INTERVAL = 2.0
"""Seconds between two refreshes of the announcement at most."""

STOP_TIMEOUT = 5.0
"""Seconds a stopping server waits for its goodbye to go out at most."""

_EVERY_ADDRESS = ("", "0.0.0.0", "::")


def announces(host: str) -> bool:
    """Whether a server listening on ``host`` is announced: every address or a LAN
    address is; loopback (``127.0.0.1``, ``::1``, ``localhost``) never is."""
    if host in _EVERY_ADDRESS:
        return True
    try:
        return not ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        found = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except OSError:
        return False
    return any(not ipaddress.ip_address(str(a).split("%")[0]).is_loopback for a in found)


def service_addresses(host: str) -> list[str]:
    """The addresses a service listening on ``host`` is reached at: ``host`` itself, or
    for every address each non-loopback, non-link-local address of this machine (IPv4
    for ``0.0.0.0``, both families for ``::``)."""
    if host not in _EVERY_ADDRESS:
        try:
            return [str(ipaddress.ip_address(host.strip("[]")))]
        except ValueError:
            return sorted({str(i[4][0]) for i in socket.getaddrinfo(host, None, socket.AF_INET)})
    import ifaddr

    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            text = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            address = ipaddress.ip_address(text)
            if address.is_loopback or address.is_link_local or (address.version == 6 and host == "0.0.0.0"):
                continue
            if str(address) not in found:
                found.append(str(address))
    return found


def reachable_hosts(host: str, most: int = wire.MAX_LAN_HOSTS) -> list[str]:
    """The addresses other machines reach a server listening on ``host`` at (``welcome``'s
    ``lan_hosts``): those it announces on the LAN; none when it listens on loopback only."""
    try:
        return service_addresses(host)[:most] if announces(host) else []
    except OSError:
        return []


class RefreshPacer:
    """Calls ``refresh`` after a change: at once if the last refresh is ``interval``
    old, else once when it is (however many changes come meanwhile)."""

    def __init__(self, clock: Clock, interval: float, refresh: Callable[[], None]) -> None:
        self.clock = clock
        self.interval = interval
        self._refresh = refresh
        self._last: float | None = None
        self._timer: Timer | None = None

    @property
    def pending(self) -> bool:
        """A refresh is waiting for its time."""
        return self._timer is not None

    def changed(self) -> None:
        if self._timer is not None:
            return  # the refresh already waiting will see this change too
        wait = 0.0 if self._last is None else self._last + self.interval - self.clock.now()
        if wait <= 0:
            self._fire()
        else:
            self._timer = self.clock.call_later(wait, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._last = self.clock.now()
        self._refresh()

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class Publisher(Protocol):
    """Where an announcement goes (the network; a list in tests)."""

    async def register(self, record: LanRecord) -> None: ...

    async def update(self, record: LanRecord) -> None: ...

    async def unregister(self) -> None: ...


class Announcer:
    """Keeps one service announced with the record ``figures`` returns (see the module)."""

    def __init__(self, publisher: Publisher, figures: Callable[[], LanRecord], clock: Clock,
                 interval: float = REFRESH_INTERVAL) -> None:
        self.publisher = publisher
        self.figures = figures
        self.pacer = RefreshPacer(clock, interval, self._refresh)
        self.published: LanRecord | None = None
        """The record last handed to the publisher."""
        self._work: asyncio.Task[None] | None = None  # the last step of the chain: register, updates…
        self._stopped = False
        self.web_port: int | None = None
        """The web page's port, once it listens (see :meth:`set_web_port`)."""

    def _then(self, step: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run ``step`` after every step before it (one at a time, in order)."""
        before = self._work

        async def run() -> None:
            if before is not None:
                await asyncio.gather(before, return_exceptions=True)
            try:
                await step()
            except Exception as exc:  # noqa: BLE001 - the network's trouble never stops a game server
                log.warning("the LAN announcement failed: %s", exc or type(exc).__name__)

        self._work = asyncio.ensure_future(run())

    def start(self) -> None:
        """Announce (the network's probing goes on in the background)."""
        record = self._record()
        self.published = record
        self._then(lambda: self.publisher.register(record))

    def changed(self) -> None:
        """Something in the record may have changed: refresh it, paced."""
        if not self._stopped and self.published is not None and self._record() != self.published:
            self.pacer.changed()

    def set_web_port(self, port: int | None) -> None:
        """The web page now listens on ``port``: the record says so at the next refresh."""
        self.web_port = port
        self.changed()

    def _record(self) -> LanRecord:
        record = self.figures()
        return record if self.web_port is None else replace(record, web_port=self.web_port)

    def _refresh(self) -> None:
        record = self._record()
        if record == self.published or self._stopped:
            return
        self.published = record
        self._then(lambda: self.publisher.update(record))

    async def settled(self) -> None:
        """Wait until what was handed to the publisher is published."""
        while self._work is not None and not self._work.done():
            await asyncio.gather(self._work, return_exceptions=True)

    async def stop(self) -> None:
        """Withdraw the announcement (the goodbye goes out before this returns)."""
        if self._stopped:
            return
        self._stopped = True
        self.pacer.cancel()
        if self.published is not None:
            self._then(self.publisher.unregister)
        try:
            async with self.pacer.clock.timeout(STOP_TIMEOUT):
                await self.settled()
        except TimeoutError:
            log.warning("the LAN announcement was not withdrawn within %g s", STOP_TIMEOUT)


def host_label(name: str) -> str:
    """A DNS host label made of ``name`` (letters, digits, hyphens)."""
    label = re.sub(r"[^A-Za-z0-9-]+", "-", name).strip("-")[:63]
    return label or "scopa"


class ZeroconfPublisher:
    """Publishes one ``_scopa._tcp`` service with the ``zeroconf`` library, on the
    interface of ``host`` (every interface for ``0.0.0.0`` or ``::``)."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self._zeroconf: Any = None
        self._info: Any = None

    def _service_info(self, record: LanRecord, instance: str | None = None) -> Any:
        from zeroconf import ServiceInfo

        name = instance or f"{clean_server_name(record.name)}.{SERVICE_TYPE}"
        return ServiceInfo(SERVICE_TYPE, name, port=self.port, properties=record.to_txt(),
                           server=f"{host_label(socket.gethostname())}.local.",
                           parsed_addresses=service_addresses(self.host))

    async def register(self, record: LanRecord) -> None:
        from zeroconf import InterfaceChoice, IPVersion
        from zeroconf.asyncio import AsyncZeroconf

        if self.host in _EVERY_ADDRESS:
            version = IPVersion.V4Only if self.host == "0.0.0.0" else IPVersion.All
            self._zeroconf = AsyncZeroconf(interfaces=InterfaceChoice.All, ip_version=version)
        else:
            self._zeroconf = AsyncZeroconf(interfaces=[self.host.strip("[]")])
        self._info = self._service_info(record)
        if not self._info.parsed_addresses():
            log.warning("no LAN address to announce: this server is not announced")
            return
        await (await self._zeroconf.async_register_service(self._info, allow_name_change=True))
        log.info("announced on the LAN as %r", self._info.name.removesuffix("." + SERVICE_TYPE))

    async def update(self, record: LanRecord) -> None:
        if self._zeroconf is None or self._info is None:
            return
        self._info = self._service_info(record, self._info.name)  # the name the network let it have
        await (await self._zeroconf.async_update_service(self._info))

    async def unregister(self) -> None:
        if self._zeroconf is None:
            return
        try:
            if self._info is not None and self._info.parsed_addresses():
                await (await self._zeroconf.async_unregister_service(self._info))
        finally:
            await self._zeroconf.async_close()
            self._zeroconf = None


@dataclass(frozen=True)
class LanIdentity:
    """How a server is shown on the LAN: its name, its web page's port if any, and its
    certificate's fingerprint when it speaks TLS."""

    name: str
    web_port: int | None = None
    tls: str | None = None


def lobby_record(tables: TableDirectory, clients: int, identity: LanIdentity) -> LanRecord:
    """A server's record: its public tables waiting for players, its named ``clients``."""
    waiting = tables.page(wire.TableState.WAITING, limit=1).total
    return LanRecord(identity.name, PROTOCOL_VERSION, waiting, clients, identity.web_port, identity.tls)


def lan_announcer(host: str, port: int, figures: Callable[[], LanRecord], clock: Clock) -> Announcer | None:
    """The announcer of a server listening on ``host``:``port`` (started by the caller,
    and told of every change), or None when it listens on loopback only."""
    if not announces(host):
        return None
    return Announcer(ZeroconfPublisher(host, port), figures, clock)
