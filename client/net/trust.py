"""Checking a TLS server (``tls://HOST:PORT``) before anything is sent to it.

A certificate the system trusts (its store of authorities, for the server's name) is
accepted as it is.  Any other certificate (a server's self-signed one, ``scopa serve
--tls self-signed``) is pinned on first use, as ssh does with ``known_hosts``: its
SHA-256 fingerprint (scopa.protocol.servers.certs) is written beside the server's address in
:class:`KnownServers` (a file in the user's data directory), and every later connection
to that address must show the same certificate.  A different one is refused
(:class:`CertificateRefused`, which says what happened and how to accept a new
certificate on purpose: ``accept``, ``--accept-certificate FINGERPRINT``).  A server found
on the LAN announced its fingerprint: a first connection must show that one.

:func:`open_stream` opens a stream to a :class:`~scopa.protocol.servers.address.ServerAddress`
(plain TCP, or TLS checked as above)::

    trust = ServerTrust(KnownServers.default())
    reader, writer = await open_stream(parse_server_address("tls://10.0.0.5:7015"), trust)
"""

from __future__ import annotations

import asyncio
import logging
import os
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from scopa.protocol.servers import ServerAddress, fingerprint

from .channel import SessionError

log = logging.getLogger("scopa.client")

Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class CertificateRefused(SessionError):
    """A TLS server showed a certificate this client does not accept."""


class KnownServers:
    """The fingerprints pinned on first use: one line per server, ``ADDRESS FINGERPRINT``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def default(cls) -> KnownServers:
        """The user's file (in platformdirs' user data directory for ``scopa``)."""
        import platformdirs

        return cls(Path(platformdirs.user_data_dir("scopa")) / "known_servers")

    def read(self) -> dict[str, str]:
        """Address (``HOST:PORT``) -> fingerprint."""
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return {}
        pins: dict[str, str] = {}
        for line in lines:
            parts = line.split()
            if len(parts) == 2 and not line.startswith("#"):
                pins[parts[0]] = parts[1]
        return pins

    def get(self, address: str) -> str | None:
        return self.read().get(address)

    def pin(self, address: str, print_: str) -> None:
        """Pin ``print_`` for ``address`` (replacing what was pinned for it)."""
        pins = self.read()
        pins[address] = print_
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".new")
        temporary.write_text("".join(f"{a} {f}\n" for a, f in sorted(pins.items())), encoding="utf-8")
        os.replace(temporary, self.path)


@dataclass
class ServerTrust:
    """How a client checks TLS servers: its pins, and a new fingerprint accepted on purpose."""

    known: KnownServers
    accept: str | None = None
    """A fingerprint to pin in place of the one pinned (``--accept-certificate``)."""
    notice: Callable[[str], None] = field(default=log.warning)
    """Told when a certificate is pinned (a person should hear of it)."""
    authorities: ssl.SSLContext | None = None
    """The context checking certificates against authorities (default: the system's store)."""

    def verifying(self) -> ssl.SSLContext:
        if self.authorities is None:
            self.authorities = ssl.create_default_context()
            self.authorities.minimum_version = ssl.TLSVersion.TLSv1_2
        return self.authorities


def _pinning_context() -> ssl.SSLContext:
    """A context that lets any certificate through (it is checked by its fingerprint after)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


async def open_stream(address: ServerAddress, trust: ServerTrust | None = None) -> Streams:
    """A stream to ``address``: plain TCP, or TLS checked by ``trust`` (default: the
    user's pins).  OSError when the server cannot be reached or the TLS handshake
    fails; :class:`CertificateRefused` for a certificate not accepted."""
    if not address.tls:
        return await asyncio.open_connection(address.host, address.port)
    trust = trust if trust is not None else ServerTrust(KnownServers.default())
    key = address.host_port
    pinned = trust.known.get(key)
    if pinned is None and trust.accept is None:
        try:
            return await asyncio.open_connection(address.host, address.port, ssl=trust.verifying(),
                                                 server_hostname=address.host)
        except ssl.SSLCertVerificationError:
            pass  # not signed by an authority this system trusts: pinned on first use below
    reader, writer = await asyncio.open_connection(address.host, address.port, ssl=_pinning_context())
    der = writer.get_extra_info("ssl_object").getpeercert(binary_form=True)
    shown = fingerprint(der or b"")
    refusal = _refusal(address, trust, pinned, shown)
    if refusal is not None:
        writer.close()
        raise CertificateRefused(refusal)
    if pinned != shown:
        trust.known.pin(key, shown)
        trust.notice(f"{address}: {'accepted the new' if pinned else 'first connection, pinned the'} "
                     f"certificate with SHA-256 fingerprint {shown} (in {trust.known.path})")
    return reader, writer


async def speaks_tls(host: str, port: int, timeout: float = 5.0) -> bool:
    """Whether the server at ``host:port`` answers a TLS handshake (a plain client's
    hello was closed at once: it may be a TLS port)."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port, ssl=_pinning_context()), timeout)
    except (OSError, asyncio.TimeoutError):
        return False
    writer.close()
    return True


def _refusal(address: ServerAddress, trust: ServerTrust, pinned: str | None, shown: str) -> str | None:
    """Why the certificate with fingerprint ``shown`` is refused at ``address``, or None."""
    if trust.accept is not None:
        if shown == trust.accept:
            return None
        return (f"the server at {address} shows a certificate with SHA-256 fingerprint {shown}, not the "
                f"{trust.accept} given to --accept-certificate: nothing was sent to it")
    if pinned is None:
        if address.fingerprint is None or shown == address.fingerprint:
            return None
        return (f"the server at {address} shows a certificate with SHA-256 fingerprint {shown}, not the "
                f"{address.fingerprint} it announced on the LAN: someone may be intercepting the connection; "
                "nothing was sent to it")
    if shown == pinned:
        return None
    return (f"the certificate of the server at {address} has changed: it shows SHA-256 fingerprint {shown}, but "
            f"{pinned} was pinned on first use (in {trust.known.path}). Someone may be intercepting the "
            "connection, or the server has a new certificate: nothing was sent to it. If its operator says the "
            f"new fingerprint is {shown}, accept it with --accept-certificate {shown}")
