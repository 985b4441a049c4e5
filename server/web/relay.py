"""A browser handed on to another member of the cluster (``redirect``, PROTOCOL.md §7).

A browser speaks WebSocket to the member that served its page only (its page's origin,
the ``connect-src 'self'`` of the page's CSP), while a ``redirect`` names another
member's TCP address.  So the member serving the page carries the browser there:

- each ``redirect`` it sends to one of its WebSocket clients is noted
  (:class:`~.passes.Passes`), the ticket with the address it names, for the
  ticket's lifetime; in a cluster whose members share one web port (``scopa cluster
  --web-port``), the cluster keeps every ``redirect``'s address beside its ticket too,
  so a front finds a ticket another member's front sent
  (:class:`~.cluster.tickets.SharedPasses`);
- the page then opens ``/ws?ticket=T``: the front takes ``T``'s address (once) and
  relays that WebSocket to the member's TCP port, each message one frame's body either
  way (:func:`relay`).  The browser speaks the protocol itself over it: ``hello`` with
  the ticket, then the command again, as over TCP.  Its ``hello`` (the first message)
  gets ``proxied_for``: a digest of the browser's address (whatever the browser put
  there), so a member that trusts the others (``--trust-proxy``) counts relayed
  browsers per browser, not all as the relaying member's address (PROTOCOL.md §7,
  "Front ends").

Only addresses the cluster's own ``redirect``s named are ever connected to, each once.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging

import msgpack
from aiohttp import WSMsgType, web

from scopa.protocol.servers import TLS_SCHEME, ServerAddress, parse_server_address
from scopa.protocol.framing import MAX_FRAME_SIZE, PREFIX_SIZE, frame_prefix

from ..core import ServerTls, open_member

log = logging.getLogger("scopa.server.web")

CONNECT_TIMEOUT = 5.0
"""Seconds to reach the member a ticket names."""


def split_address(address: str) -> ServerAddress | None:
    """``[tls://]host:port`` (``[v6]:port`` too) as a :class:`ServerAddress`; None if it
    is not one (a host and a port are needed)."""
    try:
        where = parse_server_address(address, default_port=0)
    except ValueError:
        return None
    if where.port == 0 or address.strip().lower().removeprefix(TLS_SCHEME).startswith(":"):
        return None
    return where


def identity(address: str) -> str:
    """The ``proxied_for`` of a browser at ``address``: opaque, one per address."""
    return hashlib.sha256(f"scopa-web:{address}".encode()).hexdigest()[:32]


def with_identity(message: bytes, who: str) -> bytes:
    """``message`` with ``who`` as its body's ``proxied_for`` when it is a ``hello``
    (anything else as it came: the member answers it)."""
    try:
        command = msgpack.unpackb(message, raw=False, strict_map_key=False)
    except (ValueError, TypeError, msgpack.UnpackException):
        return message
    if not isinstance(command, dict) or command.get("name") != "hello" or not isinstance(command.get("body"), dict):
        return message
    command["body"]["proxied_for"] = who
    packed: bytes = msgpack.packb(command, use_bin_type=True)
    return packed


async def relay(ws: web.WebSocketResponse, address: str, browser: str, tls: ServerTls | None = None) -> None:
    """Carry the prepared ``ws`` to the member at ``address`` until either side closes
    (``browser``: the browser's address, given to the member as ``proxied_for``; ``tls``:
    this member's certificate, which a ``tls://`` member must show too when it is
    self-signed, or else one the system trusts)."""
    where = split_address(address)
    try:
        if where is None:
            raise OSError(f"not an address: {address!r}")
        reader, writer = await asyncio.wait_for(open_member(where, tls), CONNECT_TIMEOUT)
    except (OSError, asyncio.TimeoutError) as exc:
        log.info("web: cannot reach the member at %s: %s", address, exc)
        await ws.close(code=1014, message=b"the table's server cannot be reached")
        return
    to_member = asyncio.create_task(_to_member(ws, writer, identity(browser)), name="web-relay-out")
    to_browser = asyncio.create_task(_to_browser(reader, ws), name="web-relay-in")
    try:
        await asyncio.wait((to_member, to_browser), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (to_member, to_browser):
            task.cancel()
        await asyncio.gather(to_member, to_browser, return_exceptions=True)
        writer.close()
        try:
            await writer.wait_closed()
        except OSError:
            pass
        if not ws.closed:
            await ws.close()


async def _to_member(ws: web.WebSocketResponse, writer: asyncio.StreamWriter, who: str) -> None:
    """The browser's messages as frames to the member (a text message ends the relay)."""
    first = True
    async for message in ws:
        if message.type is not WSMsgType.BINARY:
            return
        data: bytes = with_identity(message.data, who) if first else message.data
        first = False
        writer.write(frame_prefix(len(data)) + data)
        await writer.drain()


async def _to_browser(reader: asyncio.StreamReader, ws: web.WebSocketResponse) -> None:
    """The member's frames as messages to the browser (a frame too large ends the relay)."""
    try:
        while True:
            size = int.from_bytes(await reader.readexactly(PREFIX_SIZE), "big")
            if size > MAX_FRAME_SIZE:
                return
            await ws.send_bytes(await reader.readexactly(size))
    except (asyncio.IncompleteReadError, ConnectionError, RuntimeError):
        return
