"""A pool of worker processes for bots that think.

A search bot in pure Python holds the GIL for its whole move, so a thread would stall
the event loop as surely as running it inline: the server sends such bots' decisions to
a process pool instead (size configurable; 1 on a 2-core machine leaves a core for the
loop).  A pooled bot decides from its view alone: the view carries every public fact of
the round, so nothing else needs to cross the process boundary.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Sequence

from scopa.bots import Bot, make_bot
from scopa.engine import Declare, Play, Player, View

from .children import ctrl_c_held

# Bots already made in this worker process, by (strategy, name, seed): a bot that builds
# tables once (say, an opening book) builds them once per worker.
_WORKER_BOTS: dict[tuple[str, str, int | None], Bot] = {}


def _make(strategy: str, name: str, seed: int | None) -> Bot:
    """A built-in strategy by name, or ``module:Class`` (a Bot subclass importable in
    the worker)."""
    if ":" in strategy:
        module_name, _, class_name = strategy.partition(":")
        cls = getattr(importlib.import_module(module_name), class_name)
        if not (isinstance(cls, type) and issubclass(cls, Bot)):
            raise TypeError(f"{strategy!r} is not a Bot")
        return cls(name)
    return make_bot(strategy, name, seed=seed)


WORKER_NICENESS = 10
"""How much lower the workers' CPU priority is than the server's: a search waits for the
event loop, never the other way round."""


def _lower_priority() -> None:
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)


def _pick(strategy: str, name: str, seed: int | None, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
    key = (strategy, name, seed)
    bot = _WORKER_BOTS.get(key)
    if bot is None:
        bot = _WORKER_BOTS[key] = _make(strategy, name, seed)
    return bot.pick(view, legal)


class BotPool:
    """Worker processes that run :meth:`Bot.pick` for the server's thinking bots."""

    def __init__(self, size: int = 1) -> None:
        if size < 1:
            raise ValueError("a bot pool needs at least one worker")
        self.size = size
        # "spawn": a fork of a running event loop (sockets, tasks) is not a safe child.
        self._executor = ProcessPoolExecutor(size, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_lower_priority)

    def player(self, strategy: str, name: str, seed: int | None = None) -> Player:
        """A seat's Player whose every decision is made in the pool."""
        _make(strategy, name, seed)  # refuse an unknown strategy here, not in a worker
        return PooledBot(self, strategy, name, seed)

    async def pick(
        self, strategy: str, name: str, seed: int | None, view: View, legal: Sequence[Play | Declare]
    ) -> Play | Declare:
        with ctrl_c_held():  # a worker process the pool starts for it never gets the terminal's Ctrl-C
            future = self._executor.submit(_pick, strategy, name, seed, view, tuple(legal))
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


class PooledBot(Player):
    """A built-in bot seated at a table whose thinking happens in a :class:`BotPool`."""

    def __init__(self, pool: BotPool, strategy: str, name: str, seed: int | None) -> None:
        self.pool = pool
        self.strategy = strategy
        self.name = name
        self.seed = seed

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        return await self.pool.pick(self.strategy, self.name, self.seed, view, legal)
