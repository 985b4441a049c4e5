"""The browser parts of the `scopa` command: ``scopa web`` and ``scopa serve --web``,
``--trust-proxy``.  The web host itself (:mod:`scopa.client.webhost`) needs the ``web``
extra (``pip install 'scopa[web]'``); without it these say so in one line."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from rich.console import Console

from .session import parse_address

WEB_PORT = 8000
LOOPBACK = ("127.0.0.1", "::1")
NEEDS_EXTRA = "the web host needs the web extra: pip install 'scopa[web]'"


def add_web_subcommand(sub: Any) -> None:
    web = sub.add_parser("web", help="let browsers (phones, laptops) play: serve the client as a web page")
    web.add_argument("--server", required=True, metavar="HOST:PORT", help="the game server the browsers play on")
    web.add_argument("--host", default="0.0.0.0",
                     help="address the web page listens on; default 0.0.0.0 (every address: your LAN)")
    web.add_argument("--port", type=int, default=WEB_PORT, help=f"the web page's TCP port; default {WEB_PORT}")
    _state_dir_argument(web)


def add_serve_options(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("--web", type=int, metavar="PORT", default=None,
                       help="also serve the browser client (a page and its WebSocket) on this port (e.g. 8000; 0: any free port)")
    serve.add_argument("--web-host", default=None, metavar="ADDRESS",
                       help="address the web page listens on; default: --host's")
    serve.add_argument("--trust-proxy", action="append", default=[], metavar="ADDRESS",
                       help="a web host (scopa web) at this address or network connects for many browsers: "
                            "cap its connections per browser, not per address (repeatable); "
                            "--web trusts its own")
    _state_dir_argument(serve)


def _state_dir_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--state-dir", metavar="DIR", default=None,
                   help="where the web host keeps each browser's seat tokens (default: your user state "
                        "directory, or $SCOPA_STATE_DIR)")


def _seats_dir(args: argparse.Namespace) -> Path | None:
    state = getattr(args, "state_dir", None)
    return Path(state) / "web-seats" if state else None


def run_web(args: argparse.Namespace, console: Console) -> int:
    """``scopa web``."""
    try:
        parse_address(args.server)
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    try:
        from .webhost import run_web as serve_pages
    except ImportError:
        console.print(f"[red]{NEEDS_EXTRA}[/red]")
        return 2
    try:
        asyncio.run(serve_pages(args.server, args.host, args.port, _seats_dir(args),
                                lambda line: console.print(line, soft_wrap=True)))
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        console.print(f"[red]cannot serve the web page on {args.host}:{args.port}: {exc.strerror or exc}[/red]")
        return 1
    return 0


def print_qr(console: Console, urls: list[str]) -> None:
    """The page's first LAN address as a QR code, for a phone's camera."""
    lan = [u for u in urls if "://127." not in u and "://[::1]" not in u]
    if not lan:
        return
    import io

    import segno

    out = io.StringIO()
    segno.make(lan[0], error="l").terminal(out=out, compact=True, border=2)
    console.print(f"Point a phone's camera at this to open {lan[0]}:")
    console.print(out.getvalue(), highlight=False, markup=False, soft_wrap=True, end="")


class WebStartError(Exception):
    """The web page of ``scopa serve --web`` could not start (its port is taken…)."""


def web_root() -> Path:
    """The browser client's built files (index.html, app.js, app.css), shipped in the package."""
    return Path(__file__).resolve().parent / "webdist"


def serve_options(args: argparse.Namespace, console: Console) -> dict[str, Any] | None:
    """The keyword arguments ``scopa serve`` adds to ``scopa.server.serve`` for
    ``--trust-proxy`` and ``--web`` (None: a bad option, already reported).  ``web`` is
    given as the fields of ``scopa.server.web.WebOptions``."""
    trusted = list(getattr(args, "trust_proxy", []) or [])
    web_port = getattr(args, "web", None)
    options: dict[str, Any] = {}
    if web_port is not None:
        web_host = getattr(args, "web_host", None) or args.host

        def listening(port: int) -> None:
            urls = page_urls(web_host, port)
            for url in urls:
                console.print(f"Open: {url}", soft_wrap=True)
            print_qr(console, urls)

        options["web"] = {"port": web_port, "host": web_host, "root": web_root(), "listening": listening}
    if trusted:
        options["trusted_proxies"] = trusted  # checked by `scopa serve` (the server's own parser)
    return options


def page_urls(host: str, port: int) -> list[str]:
    """The addresses a browser opens to reach the page served on ``host:port``."""
    if host not in ("0.0.0.0", "", "::"):
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/"]
    import ifaddr

    urls = [f"http://{ip.ip}:{port}/" for adapter in ifaddr.get_adapters() for ip in adapter.ips
            if isinstance(ip.ip, str) and not ip.ip.startswith("127.")]
    return urls + [f"http://127.0.0.1:{port}/"]
