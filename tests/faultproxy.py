"""A fault-injecting TCP proxy for tests (asyncio, standard library only).

Clients connect to the proxy (127.0.0.1, or ``listen_host``; a free port); each
connection is relayed to the target server, through faults chosen by a :class:`Faults`
value and a seed:

- ``latency`` + up to ``jitter`` seconds added to every chunk, each direction keeping
  its order (a chunk is never delivered before the one read before it);
- ``slice_bytes``: chunks written in pieces of that many bytes (1: byte by byte), so
  frames arrive cut anywhere;
- resets at random moments: each connection gets a byte budget drawn from the seed
  (``reset_budget``); when that many bytes have crossed it (either way, in any phase:
  hello, the lobby, a game, after it) it is reset on both sides, possibly mid-frame.
  ``max_resets`` bounds how many connections die that way; later ones are spared;
- :meth:`FaultProxy.blackhole`: the open connections go silent (bytes held for ever,
  nothing closed), as a dead route or a frozen peer does;
- :meth:`FaultProxy.reset_all`, :meth:`FaultProxy.retarget`: for a server that dies
  and comes back (elsewhere);
- :meth:`FaultProxy.reset_before`: reset the connection that is about to carry the
  n-th server command of a given name (``game_end``, ``joined``…), that command and
  everything after it unsent: a fault placed at an exact phase, with no timing;
- :meth:`FaultProxy.hold` and :meth:`FaultProxy.release`: what the server sends is kept
  back (until :meth:`FaultProxy.held` has seen a given command in it) and then
  delivered in one write, as a client that was busy finds it all waiting at once.

Delays are real time (they model the network, not the code under test); what is
checked never depends on them.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import struct
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Faults:
    latency: float = 0.0
    """Seconds added to every chunk."""
    jitter: float = 0.0
    """Up to this many more seconds, drawn per chunk."""
    slice_bytes: int | None = None
    """Write chunks in pieces of this size (1: one byte at a time); None: whole."""
    reset_budget: tuple[int, int] | None = None
    """Reset a connection after a random number of bytes in [low, high]; None: never."""
    max_resets: int = 0
    """How many connections at most are reset by their budget."""


@dataclass
class Stats:
    connections: int = 0
    resets: int = 0  # by a reset budget
    rule_resets: int = 0  # by reset_before
    blackholed: int = 0
    bytes_up: int = 0
    bytes_down: int = 0
    held: int = 0  # bytes swallowed by a blackhole


@dataclass(eq=False)
class _Link:
    client: asyncio.StreamWriter
    server: asyncio.StreamWriter
    budget: int | None
    crossed: int = 0
    silent: bool = False
    cut: bool = False  # its reset budget ran out
    frames: bytearray = field(default_factory=bytearray)  # server bytes not yet a whole frame
    kept: bytearray = field(default_factory=bytearray)  # server bytes kept back by hold()
    down: asyncio.Queue[tuple[float, bytes] | None] | None = None  # what goes on to the client
    dead: bool = False
    tasks: list[asyncio.Task[None]] = field(default_factory=list)


def _abort_with_reset(writer: asyncio.StreamWriter) -> None:
    """Close so that the peer gets a TCP reset (SO_LINGER 0), not an orderly FIN."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


class FaultProxy:
    """``async with FaultProxy(port, Faults(...), seed=1) as proxy: ... proxy.port``."""

    def __init__(self, target_port: int, faults: Faults = Faults(), seed: int = 0,
                 target_host: str = "127.0.0.1", listen_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self.listen_host = listen_host
        self.faults = faults
        self.rng = random.Random(seed)
        self.stats = Stats()
        self.port = 0
        self._server: asyncio.Server | None = None
        self._links: set[_Link] = set()
        self._handlers: set[asyncio.Task[None]] = set()
        self._rules: list[tuple[bytes, int]] = []  # (msgpack of a command name, how many to let by)
        self.fired = asyncio.Event()
        """Set when the :meth:`reset_before` rule has reset its connection."""
        self._holding = False
        self._kept_more = asyncio.Event()

    async def __aenter__(self) -> FaultProxy:
        self._server = await asyncio.start_server(self._accept, self.listen_host, 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        self.reset_all()  # every relay then ends by itself
        await asyncio.gather(*self._handlers, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    # ------------------------------------------------------------------ faults on demand

    def retarget(self, port: int, host: str = "127.0.0.1") -> None:
        """New connections go to another server (one restarted elsewhere)."""
        self.target = (host, port)

    def reset_all(self) -> None:
        """Reset every open connection, both sides."""
        for link in list(self._links):
            self._reset(link)

    def blackhole(self) -> int:
        """Every open connection goes silent both ways (nothing closed); new ones do not.
        Returns how many went silent."""
        count = 0
        for link in self._links:
            if not link.silent and not link.dead:
                link.silent = True
                count += 1
        self.stats.blackholed += count
        return count

    def reset_before(self, command: str, skip: int = 0) -> None:
        """Reset whichever connection is about to deliver the server's ``skip``+1-th
        ``command`` (counting over all connections); it and what follows are not sent.
        Called again before that happened, the next rule is armed once this one fired
        (counting from then on)."""
        import msgpack

        self._rules.append((msgpack.packb("name") + msgpack.packb(command), skip))
        self.fired.clear()

    def hold(self) -> None:
        """From now on, what the server sends on any connection is kept back."""
        self._holding = True

    async def held(self, command: str) -> None:
        """Return once a connection has kept back a server command named ``command``."""
        import msgpack

        marker = msgpack.packb("name") + msgpack.packb(command)
        while not any(marker in link.kept for link in self._links):
            self._kept_more.clear()
            await self._kept_more.wait()

    def release(self) -> None:
        """What was kept back goes on, each connection's in a single write; no more is held."""
        self._holding = False
        for link in self._links:
            if link.kept and link.down is not None:
                link.down.put_nowait((0.0, bytes(link.kept)))
                link.kept.clear()

    @property
    def _rule(self) -> tuple[bytes, int] | None:
        return self._rules[0] if self._rules else None

    def _frames_pass(self, link: _Link, data: bytes) -> tuple[bytes, bool]:
        """Under a reset_before rule: the whole frames of ``data`` that may pass, and
        whether the link is to be reset after them."""
        link.frames += data
        out = bytearray()
        while len(link.frames) >= 4 and self._rule is not None:
            size = struct.unpack(">I", link.frames[:4])[0]
            if len(link.frames) < 4 + size:
                break
            frame = bytes(link.frames[:4 + size])
            marker, skip = self._rules[0]
            if marker in frame:
                if skip == 0:
                    self._rules.pop(0)
                    return bytes(out), True
                self._rules[0] = (marker, skip - 1)
            del link.frames[:4 + size]
            out += frame
        if self._rule is None:  # no rule any more: the rest goes as it is
            out += link.frames
            link.frames.clear()
        return bytes(out), False

    @property
    def open_links(self) -> int:
        return sum(1 for link in self._links if not link.dead)

    # ------------------------------------------------------------------ relaying

    async def _accept(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        try:
            await self._relay(client_reader, client_writer)
        finally:
            self._handlers.discard(task)

    async def _relay(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        self.stats.connections += 1
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.target)
        except OSError:  # the server is down: the client sees a reset, as it would
            _abort_with_reset(client_writer)
            return
        budget = None
        f = self.faults
        if f.reset_budget is not None and self.stats.resets + self._budgeted() < f.max_resets:
            budget = self.rng.randint(*f.reset_budget)
        link = _Link(client_writer, server_writer, budget)
        self._links.add(link)
        up: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()
        down: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()
        link.down = down
        link.tasks = [
            asyncio.create_task(self._read(link, client_reader, up, "up")),
            asyncio.create_task(self._read(link, server_reader, down, "down")),
            asyncio.create_task(self._write(link, server_writer, up)),
            asyncio.create_task(self._write(link, client_writer, down)),
        ]
        try:
            await asyncio.gather(*link.tasks, return_exceptions=True)
        finally:
            self._reset(link)
            self._links.discard(link)

    def _budgeted(self) -> int:
        """Open connections that still carry a reset budget."""
        return sum(1 for link in self._links if link.budget is not None and not link.dead and not link.cut)

    async def _read(self, link: _Link, reader: asyncio.StreamReader,
                    queue: asyncio.Queue[tuple[float, bytes] | None], way: str) -> None:
        loop = asyncio.get_running_loop()
        due = 0.0
        try:
            while not link.dead:
                data = await reader.read(65536)
                if not data:
                    break
                if link.cut:
                    return  # the other direction ran out of budget: the reset is on its way
                if link.silent:
                    self.stats.held += len(data)
                    continue
                if way == "down" and self._holding:
                    link.kept += data
                    self._kept_more.set()
                    continue
                ruled = budgeted = False
                if way == "down" and (self._rule is not None or link.frames):
                    data, ruled = self._frames_pass(link, data)
                if link.budget is not None and not ruled:
                    room = link.budget - link.crossed
                    if len(data) >= room:
                        data, budgeted = data[:room], True
                link.crossed += len(data)
                if way == "up":
                    self.stats.bytes_up += len(data)
                else:
                    self.stats.bytes_down += len(data)
                delay = self.faults.latency + (self.rng.uniform(0, self.faults.jitter) if self.faults.jitter else 0.0)
                due = max(due, loop.time() + delay)
                if data:
                    queue.put_nowait((due, data))
                if ruled or budgeted:
                    # What was let through is written first, then the reset.
                    link.cut = True
                    if ruled:
                        self.stats.rule_resets += 1
                        self.fired.set()
                    else:
                        self.stats.resets += 1
                    queue.put_nowait(None)
                    return
        except (ConnectionError, OSError):
            pass
        if link.silent:
            return  # a blackhole passes on no close either
        queue.put_nowait(None)

    async def _write(self, link: _Link, writer: asyncio.StreamWriter,
                     queue: asyncio.Queue[tuple[float, bytes] | None]) -> None:
        loop = asyncio.get_running_loop()
        step = self.faults.slice_bytes
        try:
            while True:
                item = await queue.get()
                if item is None:
                    break
                due, data = item
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                if link.silent or link.dead:
                    continue
                if step is None:
                    writer.write(data)
                    await writer.drain()
                else:
                    for i in range(0, len(data), step):
                        writer.write(data[i:i + step])
                        await writer.drain()
            if link.cut:
                self._reset(link)
            else:  # the other end closed: pass the close on
                writer.close()
        except (ConnectionError, OSError):
            self._reset(link)

    def _reset(self, link: _Link) -> None:
        if link.dead:
            return
        link.dead = True
        for writer in (link.client, link.server):
            _abort_with_reset(writer)
        for task in link.tasks:
            if task is not asyncio.current_task():
                task.cancel()
