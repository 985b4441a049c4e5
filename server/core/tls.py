"""TLS on the server's ports (``scopa serve --tls-cert FILE --tls-key FILE`` or
``--tls self-signed``).

- :func:`self_signed` makes a key and a certificate once, with ``cryptography``, and
  keeps them in a folder (the server's data directory): every later start uses them, so
  the fingerprint that clients pinned stays the same.
- :func:`server_tls` is the :class:`ServerTls` of a certificate and its key: the
  standard library's server context (TLS 1.2 at least) and the certificate's SHA-256
  fingerprint (:mod:`scopa.protocol.servers.certs`).
- :class:`PlainSecrets` says whether a connection may send a secret (a password, the
  operator's token): always over TLS; without TLS only from loopback, unless the
  operator allowed it (``--allow-plain-secrets``).
"""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import logging
import os
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path

from scopa.protocol.servers import ServerAddress, fingerprint

log = logging.getLogger("scopa.server")

CERT_NAME = "self-signed-cert.pem"
KEY_NAME = "self-signed-key.pem"
VALID_DAYS = 3650
"""How long a self-signed certificate is valid (one is made again once it expires)."""

HANDSHAKE_TIMEOUT = 10.0
"""Seconds a connection has to finish its TLS handshake."""


@dataclass(frozen=True)
class ServerTls:
    """The TLS of a server's ports."""

    context: ssl.SSLContext
    fingerprint: str
    """The certificate's SHA-256 fingerprint (scopa.protocol.servers.certs)."""
    self_signed: bool
    """A certificate the server made itself: clients pin its fingerprint."""
    cert: Path
    key: Path


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    """The standard library's server context of ``cert`` and ``key``: TLS 1.2 at least.
    ``ssl.SSLError`` or ``OSError`` when they cannot be read."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context


def cert_fingerprint(cert: Path) -> str:
    """The fingerprint of the first certificate of a PEM file."""
    return fingerprint(ssl.PEM_cert_to_DER_cert(cert.read_text(encoding="ascii")))


def server_tls(cert: Path, key: Path, self_signed: bool = False) -> ServerTls:
    """The :class:`ServerTls` of a certificate file (its chain, PEM) and its key."""
    return ServerTls(server_context(cert, key), cert_fingerprint(cert), self_signed, cert, key)


def self_signed(directory: Path, now: datetime.datetime | None = None) -> ServerTls:
    """The self-signed certificate kept in ``directory``, made there first if it is
    missing or expired (the key readable by this user only)."""
    from cryptography import x509

    cert, key = directory / CERT_NAME, directory / KEY_NAME
    now = now or datetime.datetime.now(datetime.timezone.utc)
    if cert.exists() and key.exists():
        loaded = x509.load_pem_x509_certificate(cert.read_bytes())
        if loaded.not_valid_after_utc > now:
            return server_tls(cert, key, self_signed=True)
        log.warning("the self-signed certificate in %s has expired: making a new one (clients that pinned the "
                    "old one will refuse the new one until told to accept it)", directory)
    _make_self_signed(cert, key, now)
    log.info("made a self-signed certificate in %s", directory)
    return server_tls(cert, key, self_signed=True)


def _make_self_signed(cert: Path, key: Path, now: datetime.datetime) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    private = ec.generate_private_key(ec.SECP256R1())
    host = socket.gethostname().split(".")[0] or "scopa"
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"Scopa server {host}"[:64])])
    names: list[x509.GeneralName] = [x509.DNSName("localhost"), x509.DNSName(host), x509.DNSName(f"{host}.local"),
                                     x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                     x509.IPAddress(ipaddress.ip_address("::1"))]
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
                   .public_key(private.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(days=1))
                   .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
                   .add_extension(x509.SubjectAlternativeName(names), critical=False)
                   .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                   .sign(private, hashes.SHA256()))
    cert.parent.mkdir(parents=True, exist_ok=True)
    key_bytes = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption())
    fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, key_bytes)
    finally:
        os.close(fd)
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))


def is_loopback(address: str) -> bool:
    """Whether a peer's address is this machine's loopback (``127.0.0.0/8``, ``::1``)."""
    try:
        found = ipaddress.ip_address(address.split("%")[0].strip("[]"))
    except ValueError:
        return False
    mapped = found.ipv4_mapped if isinstance(found, ipaddress.IPv6Address) else None
    return (mapped or found).is_loopback


@dataclass(frozen=True)
class PlainSecrets:
    """Whether secrets (passwords, the operator's token) may come over a connection."""

    tls: bool = False
    """The server's ports speak TLS: every secret is private."""
    allowed: bool = False
    """Without TLS, accept secrets from any address (``--allow-plain-secrets``)."""

    def refusal(self, address: str, what: str) -> str | None:
        """Why ``what`` (e.g. "a password") from ``address`` is refused, or None."""
        if self.tls or self.allowed or is_loopback(address):
            return None
        return (f"this server does not use TLS, so {what} would cross the network in clear: it takes one only "
                "from this machine; its operator can serve with --tls self-signed (or --tls-cert and --tls-key), "
                "or accept secrets in clear with --allow-plain-secrets")


async def open_member(where: ServerAddress, own: ServerTls | None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A stream to another member of this server's cluster at ``where``: over TLS for a
    ``tls://`` address, where the member must show ``own``'s certificate when that is
    self-signed (the members of one cluster share it), else one the system trusts."""
    if not where.tls:
        return await asyncio.open_connection(where.host, where.port)
    if own is not None and own.self_signed:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        reader, writer = await asyncio.open_connection(where.host, where.port, ssl=context)
        der = writer.get_extra_info("ssl_object").getpeercert(binary_form=True)
        if der is None or fingerprint(der) != own.fingerprint:
            writer.close()
            raise OSError(f"the member at {where} does not show this cluster's certificate")
        return reader, writer
    context = ssl.create_default_context()
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return await asyncio.open_connection(where.host, where.port, ssl=context, server_hostname=where.host)
