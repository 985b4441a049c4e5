"""A TLS certificate's fingerprint, as the server prints and announces it and as a client
pins it: the SHA-256 digest of the certificate's DER bytes, in upper-case hexadecimal
pairs joined by colons (``AB:CD:…``, 95 characters), the form browsers show.

Pure: no sockets.
"""

from __future__ import annotations

import hashlib
import re

FINGERPRINT_LENGTH = 95
"""Characters of a fingerprint: 32 pairs and 31 colons."""

_FINGERPRINT = re.compile(r"^[0-9A-F]{2}(:[0-9A-F]{2}){31}$")


def fingerprint(der: bytes) -> str:
    """The SHA-256 fingerprint of a certificate's DER bytes."""
    digest = hashlib.sha256(der).hexdigest().upper()
    return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


def parse_fingerprint(text: str) -> str:
    """A fingerprint as given by a person (colons or not, any case) in the form of
    :func:`fingerprint`; ValueError if it is not one."""
    bare = re.sub(r"[\s:]", "", text).upper()
    if len(bare) != 64 or not re.fullmatch(r"[0-9A-F]+", bare):
        raise ValueError(f"not a SHA-256 fingerprint: {text!r} (64 hexadecimal digits, colons allowed)")
    found = ":".join(bare[i:i + 2] for i in range(0, 64, 2))
    assert _FINGERPRINT.match(found)
    return found
