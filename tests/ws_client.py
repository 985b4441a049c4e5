"""The test protocol client (tests/wire_client.py) over a WebSocket to the web front:
one binary message per command body (PROTOCOL.md §1, "WebSocket")."""

from __future__ import annotations

import asyncio
import struct

import aiohttp

from wire_client import WireClient

_PREFIX = struct.Struct(">I")


class _WsReader:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.kinds: list[aiohttp.WSMsgType] = []

    async def read(self, _n: int) -> bytes:
        message = await self.ws.receive()
        self.kinds.append(message.type)
        if message.type is aiohttp.WSMsgType.BINARY:
            return _PREFIX.pack(len(message.data)) + message.data
        return b""


class _WsWriter:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self._last: asyncio.Future[None] | None = None

    def write(self, data: bytes) -> None:
        at = 0
        while at + 4 <= len(data):
            (size,) = _PREFIX.unpack_from(data, at)
            self._send(bytes(data[at + 4: at + 4 + size]))
            at += 4 + size

    def _send(self, body: bytes) -> None:
        before = self._last

        async def send() -> None:
            if before is not None:
                await before
            await self.ws.send_bytes(body)

        self._last = asyncio.ensure_future(send())


class WsClient(WireClient):
    """A WireClient whose bytes travel as WebSocket messages."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        super().__init__(_WsReader(ws), _WsWriter(ws))  # type: ignore[arg-type]
        self.http = http
        self.ws = ws

    @classmethod
    async def open(cls, port: int, name: str | None = None, origin: bool = True) -> WsClient:
        http = aiohttp.ClientSession()
        headers = {"Origin": f"http://127.0.0.1:{port}"} if origin else {}
        try:
            ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", headers=headers)
        except BaseException:
            await http.close()
            raise
        client = cls(http, ws)
        if name is not None:
            await client.hello(name)
        return client

    async def close(self) -> None:
        await self.ws.close()
        await self.http.close()
