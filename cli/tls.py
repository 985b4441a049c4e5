"""TLS in the `scopa` command: the ``scopa serve`` options ``--tls self-signed``,
``--tls-cert``/``--tls-key`` and ``--allow-plain-secrets``, and the clients' pinned
certificates (``--accept-certificate``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from scopa.client.text import tr

if TYPE_CHECKING:
    from scopa.client.net import ServerTrust
    from scopa.server.core.tls import ServerTls

SELF_SIGNED = "self-signed"


def tls_directory() -> Path:
    """Where ``--tls self-signed`` keeps its key and certificate: the server's data directory."""
    import platformdirs

    return Path(platformdirs.user_data_dir("scopa")) / "tls"


def add_serve_options(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("--tls", choices=(SELF_SIGNED,), default=None,
                       help=tr("self-signed: speak TLS on every port with a certificate made once and kept in {dir} (its fingerprint is "
                               "printed, announced and pinned by clients)", dir=tls_directory()))
    serve.add_argument("--tls-cert", metavar="FILE", default=None,
                       help="speak TLS on every port with this certificate (PEM, its chain after it; e.g. from an "
                            "ACME client); needs --tls-key")
    serve.add_argument("--tls-key", metavar="FILE", default=None, help="the private key (PEM) of --tls-cert")
    serve.add_argument("--allow-plain-secrets", action="store_true",
                       help="without TLS, take passwords and the operator's commands from other machines too "
                            "(they cross the network in clear); default: from this machine only")


def add_client_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--accept-certificate", metavar="FINGERPRINT", default=None,
                   help="for a tls:// server whose certificate changed on purpose: pin this new SHA-256 "
                        "fingerprint (the one its operator's server printed) instead of the old one")


def server_tls(args: argparse.Namespace, console: Console) -> ServerTls | None | Literal[False]:
    """The server's TLS for ``scopa serve``'s options (None: no TLS; False: the options
    are wrong, or the files cannot be used, and the console says why)."""
    import ssl

    from scopa.server.core.tls import self_signed, server_tls as load

    chosen, cert, key = getattr(args, "tls", None), getattr(args, "tls_cert", None), getattr(args, "tls_key", None)
    if chosen is not None and (cert or key):
        console.print(Text(tr("--tls self-signed and --tls-cert/--tls-key: give one or the other"), style="red"))
        return False
    if bool(cert) != bool(key):
        console.print(Text(tr("--tls-cert and --tls-key go together: give both"), style="red"))
        return False
    if getattr(args, "allow_plain_secrets", False) and (chosen or cert):
        console.print(Text(tr("--allow-plain-secrets is for a server without TLS"), style="red"))
        return False
    try:
        if chosen == SELF_SIGNED:
            return self_signed(tls_directory())
        if cert and key:
            return load(Path(cert), Path(key))
    except (OSError, ssl.SSLError, ValueError) as exc:
        which = tls_directory() if chosen == SELF_SIGNED else tr("{cert} with its key {key}", cert=cert, key=key)
        console.print(Text(tr("cannot use the TLS certificate ({which}): {error}", which=which, error=exc), style="red"),
                      soft_wrap=True)
        return False
    return None


def describe(tls: ServerTls) -> str:
    """The line ``scopa serve`` prints about its certificate."""
    if tls.self_signed:
        return tr("TLS with a self-signed certificate ({cert}), SHA-256 fingerprint {fingerprint}", cert=tls.cert,
                  fingerprint=tls.fingerprint)
    return tr("TLS with the certificate {cert}, SHA-256 fingerprint {fingerprint}", cert=tls.cert,
              fingerprint=tls.fingerprint)


def client_trust(args: argparse.Namespace, console: Console) -> ServerTrust | None:
    """How ``play``, ``bot`` and ``watch`` check a TLS server (None: a bad
    ``--accept-certificate``, already reported)."""
    from scopa.client.net import KnownServers, ServerTrust
    from scopa.protocol.servers import parse_fingerprint

    accept = getattr(args, "accept_certificate", None)
    try:
        accepted = parse_fingerprint(accept) if accept else None
    except ValueError as exc:
        console.print(Text(tr("--accept-certificate: {error}", error=exc), style="red"), emoji=False)
        return None
    return ServerTrust(KnownServers.default(), accept=accepted,
                       notice=lambda text: console.print(escape(text), soft_wrap=True, highlight=False, emoji=False))


def web_fragment(tls: ServerTls | None) -> str:
    """What the QR code's address of the page ends with: the fingerprint of a
    self-signed certificate, to compare with what the browser shows."""
    return f"#sha256={tls.fingerprint}" if tls is not None and tls.self_signed else ""
