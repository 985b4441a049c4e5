"""Where a server is and how it is known, as both ends write it: its address
(``ServerAddress``, ``parse_server_address``, ``TLS_SCHEME``), its certificate's
fingerprint (``fingerprint``, ``parse_fingerprint``) and its announcement on the LAN
(``LanRecord``, ``SERVICE_TYPE``, ``MAX_NAME_BYTES``, ``clean_server_name``).

Must never: open a socket, resolve a name or read a certificate file (pure: text and
bytes in, values out).
"""

from __future__ import annotations

from .address import ServerAddress, TLS_SCHEME, parse_server_address
from .certs import fingerprint, parse_fingerprint
from .lan import MAX_NAME_BYTES, SERVICE_TYPE, LanRecord, clean_server_name

__all__ = [
    "LanRecord",
    "MAX_NAME_BYTES",
    "SERVICE_TYPE",
    "ServerAddress",
    "TLS_SCHEME",
    "clean_server_name",
    "fingerprint",
    "parse_fingerprint",
    "parse_server_address",
]
