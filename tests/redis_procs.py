"""Redis servers a test starts and stops itself, on free loopback ports: a master with no
persistence (what many installs run), a replica of it, and Sentinels watching it
(``redis-sentinel``, or ``redis-server --sentinel`` where that is absent).  The tests
that restart, flush or fail Redis over use these, never the shared server."""

from __future__ import annotations

import asyncio
import shutil
import signal
import subprocess
from collections.abc import Sequence
from pathlib import Path

from redis.asyncio import Redis
from redis.exceptions import RedisError
from ports import free_port

READY_WITHIN = 20.0  # seconds a server has to answer PING once started (a safety net)


def redis_server() -> str:
    found = shutil.which("redis-server")
    assert found is not None, "these tests need redis-server (Debian: apt-get install redis-server)"
    return found


class RedisProcess:
    """One redis-server (or Sentinel) on 127.0.0.1:``port``, its files in ``folder``."""

    def __init__(self, folder: Path, port: int | None = None, args: Sequence[str] = (), sentinel: str = "") -> None:
        """``args``: more options (``--replicaof HOST PORT``); ``sentinel``: the lines of a
        Sentinel's configuration (then this is a Sentinel)."""
        self.port = port if port is not None else free_port()
        self.folder = folder / f"redis-{self.port}"
        self.args = list(args)
        self.sentinel = sentinel
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> Redis:
        return Redis(host="127.0.0.1", port=self.port, socket_timeout=5, socket_connect_timeout=5)

    async def start(self) -> None:
        """Start it (again, empty: nothing is saved) and wait until it answers."""
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.sentinel:
            conf = self.folder / "sentinel.conf"
            conf.write_text(f"port {self.port}\nbind 127.0.0.1\ndir {self.folder}\n{self.sentinel}\n")
            own = shutil.which("redis-sentinel")
            command = [own, str(conf)] if own is not None else [redis_server(), str(conf), "--sentinel"]
        else:
            command = [redis_server(), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                       "--appendonly", "no", "--dir", str(self.folder), *self.args]
        self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = self.client()
        try:
            async with asyncio.timeout(READY_WITHIN):
                while True:
                    if self.proc.poll() is not None:
                        raise AssertionError(f"{command} exited with {self.proc.returncode}")
                    try:
                        if await client.ping():
                            return
                    except (RedisError, OSError):
                        await asyncio.sleep(0.02)
        finally:
            await client.aclose()

    def kill(self) -> None:
        """kill -9: it is gone at once, with everything it held."""
        self._end(signal.SIGKILL)

    def stop(self) -> None:
        self._end(signal.SIGTERM)

    def _end(self, how: signal.Signals) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(how)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def sentinel_lines(master: str, port: int, quorum: int = 2) -> str:
    """A Sentinel's configuration watching ``master`` at 127.0.0.1:``port``, quick to fail it over."""
    return (f"sentinel monitor {master} 127.0.0.1 {port} {quorum}\n"
            f"sentinel down-after-milliseconds {master} 1000\n"
            f"sentinel failover-timeout {master} 4000\n"
            f"sentinel parallel-syncs {master} 1\n")
