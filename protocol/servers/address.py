"""A server's address as people and the protocol write it: ``HOST:PORT`` for plain TCP,
``tls://HOST:PORT`` for TLS (an IPv6 host in brackets, ``[::1]:7015``).

:func:`parse_server_address` reads one (the ``--server`` of the commands, a cluster's
``redirect``); ``str()`` of a :class:`ServerAddress` writes it back.  Pure: no sockets.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..envelope import DEFAULT_PORT

TLS_SCHEME = "tls://"
"""The start of a TLS server's address."""


@dataclass(frozen=True)
class ServerAddress:
    """Where a server listens and whether it speaks TLS there."""

    host: str
    port: int
    tls: bool = False
    fingerprint: str | None = None
    """The certificate's fingerprint the server announced (on the LAN), if known: a
    client pins it (scopa.protocol.servers.certs); never part of the written address."""

    @property
    def host_port(self) -> str:
        """``HOST:PORT`` (an IPv6 host in brackets), without the scheme."""
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    def __str__(self) -> str:
        return (TLS_SCHEME if self.tls else "") + self.host_port


def parse_server_address(text: str, default_port: int = DEFAULT_PORT) -> ServerAddress:
    """``[tls://]host:port`` (or ``host``, or ``:port``) as a :class:`ServerAddress`;
    ValueError if it is not one."""
    rest = text.strip()
    tls = rest.lower().startswith(TLS_SCHEME)
    if tls:
        rest = rest[len(TLS_SCHEME):]
    elif "://" in rest:
        raise ValueError(f"unknown scheme in {text!r}: use HOST:PORT or {TLS_SCHEME}HOST:PORT")
    host, sep, port = rest.rpartition(":")
    if not sep or (host.count(":") and not host.startswith("[")):  # no port, or a bare IPv6 address
        host, port = rest, ""
    host = host.strip("[]") or "127.0.0.1"
    if not port:
        return ServerAddress(host, default_port, tls)
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"bad port in {text!r}: use HOST:PORT, e.g. 127.0.0.1:{default_port}")
    return ServerAddress(host, int(port), tls)
