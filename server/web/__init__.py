"""The web front: the browser client's files over HTTP and the protocol over a WebSocket
(:class:`WebFront`, :class:`WebOptions`, :func:`start_front`, :class:`WebSocketTransport`),
and the passes of a browser handed on to another member of a cluster (:class:`Passes`).

It makes sessions through the engine it is given; it must never import a table, the
lobby, the journal or the router."""

from __future__ import annotations

from .front import WebFront, WebOptions, start_front
from .passes import Passes
from .websocket import WebSocketTransport

__all__ = ["Passes", "WebFront", "WebOptions", "WebSocketTransport", "start_front"]
