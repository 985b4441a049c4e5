"""A real server in a background thread, for testing bots and clients.

    with ServerThread() as server:          # 127.0.0.1, a free port
        subprocess.run(["scopa", "bot", "--server", server.address])
"""

from __future__ import annotations

import asyncio
import threading
from types import TracebackType
from typing import Any

from scopa.server import NetworkEngine


class ServerThread:
    """Runs ``scopa.server.NetworkEngine`` on its own event loop in a daemon thread."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, seed: int | None = None, timeout: float = 10.0,
                 **engine_options: Any) -> None:
        """``engine_options``: more keyword arguments of ``NetworkEngine`` (e.g. ``db``)."""
        self.engine_options = engine_options
        self.host = host
        self.port = port
        self.seed = seed
        self.timeout = timeout
        self.engine: NetworkEngine | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="scopa-server", daemon=True)

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def start(self) -> ServerThread:
        self._thread.start()
        if not self._ready.wait(self.timeout):
            raise TimeoutError("the server did not start")
        if self._error is not None:
            raise self._error
        return self

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(self.timeout)

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # noqa: BLE001 - reported to the starting thread
            self._error = exc
            self._ready.set()

    async def _main(self) -> None:
        kwargs: dict[str, Any] = {"host": self.host, "port": self.port, **self.engine_options}
        if self.seed is not None:
            kwargs["seed"] = self.seed
        engine = self.engine = NetworkEngine(**kwargs)
        await engine.start()
        self.port = engine.port
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            await engine.stop()
