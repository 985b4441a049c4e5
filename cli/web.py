"""The browser parts of the `scopa` command: ``scopa serve --web PORT`` (the server
serves the browser client, ``client/webdist``, and its WebSocket: scopa.server.web.front),
``scopa web`` (the same on this computer, opened in its browser) and
``--trust-proxy``."""

from __future__ import annotations

import argparse
import socket
import threading
import time
import webbrowser
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from scopa.client.text import tr
from scopa.client.webfiles import web_files, web_root
from scopa.protocol import DEFAULT_PORT

from .tls import web_fragment

if TYPE_CHECKING:
    from scopa.server.core.tls import ServerTls

WEB_PORT = 8000


def add_web_subcommand(sub: Any) -> None:
    web = sub.add_parser("web", help="play in a browser: a server with its web page, opened in this computer's browser")
    web.add_argument("--host", default="127.0.0.1",
                     help="address the server and its page listen on; default 127.0.0.1 (this computer only; "
                          "0.0.0.0: your LAN)")
    web.add_argument("--port", type=int, default=WEB_PORT, help=f"the web page's TCP port; default {WEB_PORT}")
    web.add_argument("--game-port", type=int, default=DEFAULT_PORT,
                     help=f"the game server's TCP port; default {DEFAULT_PORT}")
    web.add_argument("--no-open", action="store_true", help="do not open the page in this computer's browser")


def add_serve_options(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("--web", type=int, metavar="PORT", default=None,
                       help="also serve the browser client (a page and its WebSocket) on this port (e.g. 8000; 0: any free port)")
    serve.add_argument("--web-host", default=None, metavar="ADDRESS",
                       help="address the web page listens on; default: --host's")
    serve.add_argument("--trust-proxy", action="append", default=[], metavar="ADDRESS",
                       help="a front end at this address or network connects for many users: "
                            "cap its connections per user (hello.proxied_for), not per address (repeatable)")


def run_web(args: argparse.Namespace, run_command: Callable[[list[str]], int]) -> int:
    """``scopa web``: ``scopa serve --web`` (run by ``run_command``, the `scopa` command
    itself) on this computer, its page opened in the browser."""
    if not args.no_open:
        host = "127.0.0.1" if args.host in ("0.0.0.0", "", "::") else args.host
        threading.Thread(target=_open_when_listening, args=(host, args.port), daemon=True).start()
    return run_command(["serve", "--host", args.host, "--port", str(args.game_port), "--web", str(args.port)])


def _open_when_listening(host: str, port: int, wait: float = 10.0) -> None:
    """Open the page in this computer's browser once its port answers."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=1):
                webbrowser.open(f"http://{host}:{port}/")
                return
        except OSError:
            time.sleep(0.2)


def print_qr(console: Console, urls: list[str]) -> None:
    """The page's first LAN address as a QR code, for a phone's camera."""
    lan = [u for u in urls if "://127." not in u and "://[::1]" not in u]
    if not lan:
        return
    from scopa.client.text import qr_text

    console.print(tr("Point a phone's camera at this to open {url}:", url=lan[0]), soft_wrap=True, emoji=False)
    console.print(qr_text(lan[0]), highlight=False, markup=False, soft_wrap=True, end="")


def serve_options(args: argparse.Namespace, console: Console, tls: ServerTls | None = None) -> dict[str, Any] | None:
    """The keyword arguments ``scopa serve`` adds to ``scopa.server.serve`` for
    ``--trust-proxy`` and ``--web`` or ``--cluster-web-port`` (None: a bad option, already reported).  ``web`` is
    given as the fields of ``scopa.server.web.front.WebOptions``; ``tls``: the server's
    ``ServerTls`` (the page is then https://, its QR code's address with the fingerprint
    of a self-signed certificate)."""
    trusted = list(getattr(args, "trust_proxy", []) or [])
    web_port = getattr(args, "web", None)
    shared_port = getattr(args, "cluster_web_port", None)
    options: dict[str, Any] = {}
    if shared_port is not None and (web_port is not None or getattr(args, "cluster", None) is None):
        console.print(Text(tr("--cluster-web-port is for a cluster member (give --cluster), instead of --web"),
                           style="red"))
        return None
    if shared_port is not None:
        web_port = shared_port
    if web_port is not None:
        web_host = getattr(args, "web_host", None) or args.host

        def listening(port: int) -> None:
            urls = page_urls(web_host, port, https=tls is not None)
            for url in urls:
                console.print(tr("Open: {url}", url=url), soft_wrap=True)
            print_qr(console, [url + web_fragment(tls) for url in urls])

        options["web"] = {"port": web_port, "host": web_host, "root": web_root(), "extra": web_files(),
                          "listening": listening, "reuse_port": shared_port is not None}
    if trusted:
        options["trusted_proxies"] = trusted  # checked by `scopa serve` (the server's own parser)
    return options


def page_urls(host: str, port: int, https: bool = False) -> list[str]:
    """The addresses a browser opens to reach the page served on ``host:port``."""
    scheme = "https" if https else "http"
    if host not in ("0.0.0.0", "", "::"):
        shown = f"[{host}]" if ":" in host else host
        return [f"{scheme}://{shown}:{port}/"]
    import ifaddr

    urls = [f"{scheme}://{ip.ip}:{port}/" for adapter in ifaddr.get_adapters() for ip in adapter.ips
            if isinstance(ip.ip, str) and not ip.ip.startswith("127.")]
    return urls + [f"{scheme}://127.0.0.1:{port}/"]
