"""What a server says about itself on the LAN: the DNS-SD service type and the TXT record.

A server listening on the LAN announces itself over multicast DNS as a service of type
:data:`SERVICE_TYPE`; clients browse for that type.  The service's TXT record is a
:class:`LanRecord`: written by the server (:meth:`LanRecord.to_txt`) and read by the
client (:meth:`LanRecord.from_txt`), so both sides read the same keys:

======== =============================================================
key      value
======== =============================================================
txtvers  ``1``: the layout of this record
name     the server's name (what a player picks it by)
proto    the wire protocol version it speaks (:data:`PROTOCOL_VERSION`)
tables   public tables waiting for players
players  people (and bots) connected
web      the port of its web page, when it serves one (absent otherwise)
tls      its certificate's SHA-256 fingerprint (scopa.protocol.servers.certs) when
         it speaks TLS, on its port and its web page (absent otherwise)
======== =============================================================

Pure: no sockets, no multicast (the server's ``announce`` and the client's ``discovery``
modules do that).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .certs import parse_fingerprint

SERVICE_TYPE = "_scopa._tcp.local."
"""The DNS-SD service type of a Scopa server."""

TXT_VERSION = "1"
MAX_NAME_BYTES = 63
"""A DNS label's limit: the service instance is named after the server."""


def clean_server_name(name: str) -> str:
    """``name`` as a service instance can carry it: one line, no dots (they separate DNS
    labels), at most :data:`MAX_NAME_BYTES` bytes of UTF-8, never empty."""
    text = " ".join(name.replace(".", " ").split())
    data = text.encode()[:MAX_NAME_BYTES]
    text = data.decode(errors="ignore").strip()
    return text or "scopa"


@dataclass(frozen=True)
class LanRecord:
    """One server's TXT record."""

    name: str
    protocol: int
    tables: int
    players: int
    web_port: int | None = None
    tls: str | None = None
    """The certificate's fingerprint of a server speaking TLS (None: plain TCP)."""

    def to_txt(self) -> dict[str, str]:
        """The TXT record's keys and values."""
        txt = {"txtvers": TXT_VERSION, "name": clean_server_name(self.name), "proto": str(self.protocol),
               "tables": str(self.tables), "players": str(self.players)}
        if self.web_port is not None:
            txt["web"] = str(self.web_port)
        if self.tls is not None:
            txt["tls"] = self.tls
        return txt

    @classmethod
    def from_txt(cls, properties: Mapping[bytes, bytes | None] | Mapping[str, str | None]) -> LanRecord:
        """Read a TXT record (keys and values as zeroconf gives them, bytes or text);
        ``ValueError`` names what is missing or malformed."""
        txt: dict[str, str] = {}
        for key, value in properties.items():
            k = key.decode(errors="replace") if isinstance(key, bytes) else key
            v = value.decode(errors="replace") if isinstance(value, bytes) else value
            if v is not None:
                txt[k.lower()] = v
        if txt.get("txtvers") != TXT_VERSION:
            raise ValueError(f"TXT record of layout {txt.get('txtvers')!r}, not {TXT_VERSION!r}")
        web = _count(txt, "web") if "web" in txt else None
        if web is not None and not 0 < web < 65536:
            raise ValueError(f"TXT key 'web': {web} is not a port")
        tls = parse_fingerprint(txt["tls"]) if "tls" in txt else None
        return cls(name=clean_server_name(txt.get("name", "")), protocol=_count(txt, "proto"),
                   tables=_count(txt, "tables"), players=_count(txt, "players"), web_port=web, tls=tls)


def _count(txt: Mapping[str, str], key: str) -> int:
    if key not in txt:
        raise ValueError(f"TXT key {key!r} is missing")
    value = txt[key].strip()
    if not value.isdigit():
        raise ValueError(f"TXT key {key!r}: {value!r} is not a whole number")
    return int(value)
