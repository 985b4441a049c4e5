"""Every figure the server exports to Prometheus (``scopa serve --metrics``), named and
labelled here and nowhere else.

Two kinds:

- **Counters and histograms** of what happens (moves, games, refusals, journal batches,
  takeovers ...), module-level objects of :mod:`prometheus_client` in its default
  registry, with the process collector beside them (CPU, memory, open files).  The
  server counts with one call where it happens; each labelled child is bound here once
  (``REFUSED[code]``, ``RATE_LIMITED_COMMANDS``), so no count looks a label up.  In one
  process they add up over every server it runs (tests run several).  The three
  counted on every move (``MOVES``, ``MOVE_SECONDS``, ``TURN_SECONDS``) are plain
  numbers with no lock, exported at scrape time (:class:`MoveFigures`): a
  :mod:`prometheus_client` histogram's observation cost a move about 2% of its work.
- **Gauges of what is** (connections, sessions, tables, the journal's queue, the
  cluster's members and leases, readiness), read from one server at scrape time by
  ``ServerState`` (server/endpoints.py), so nothing is kept up to date between scrapes.

Labels are closed sets (an error code, a table state, a preset, a kind): never a table
id, a name or an address.
"""

from __future__ import annotations

import asyncio
from bisect import bisect_left
from collections.abc import Awaitable, Iterator
from typing import Any, Literal

from prometheus_client import REGISTRY, Counter, Histogram, disable_created_metrics
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

from scopa.protocol.errors import ErrorCode

PREFIX = "scopa"

# no ``_created`` series beside each counter: Prometheus notices a counter's reset itself
disable_created_metrics()  # type: ignore[no-untyped-call]

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Seconds: a move is answered in about a millisecond; a journal batch within tens."""

# ---------------------------------------------------------------------- games and moves


class MoveCounter:
    """A counter of every move: one addition, no lock (the server counts on its event
    loop's thread), exported as a Prometheus counter by :class:`MoveFigures`."""

    __slots__ = ("name", "documentation", "value")

    def __init__(self, name: str, documentation: str) -> None:
        self.name, self.documentation, self.value = name, documentation, 0.0

    def inc(self, amount: float = 1.0) -> None:
        self.value += amount

    def family(self) -> Metric:
        return CounterMetricFamily(self.name, self.documentation, value=self.value)


class MoveHistogram:
    """A histogram observed on every move: a bucket's count and the sum, no lock,
    exported as a Prometheus histogram by :class:`MoveFigures`."""

    __slots__ = ("name", "documentation", "bounds", "counts", "sum")

    def __init__(self, name: str, documentation: str, buckets: tuple[float, ...]) -> None:
        self.name, self.documentation, self.bounds = name, documentation, buckets
        self.counts = [0] * (len(buckets) + 1)  # by bucket, not cumulated; the last is +Inf's
        self.sum = 0.0

    def observe(self, amount: float) -> None:
        """Count ``amount`` (the one place a bucket is chosen: the move's path calls this)."""
        self.counts[bisect_left(self.bounds, amount)] += 1  # a bucket holds what is <= its bound
        self.sum += amount

    def family(self) -> Metric:
        cumulated, total = [], 0
        for bound, count in zip((*self.bounds, float("inf")), self.counts):
            total += count
            cumulated.append((floatToGoString(bound), total))  # type: ignore[no-untyped-call]
        return HistogramMetricFamily(self.name, self.documentation, buckets=cumulated, sum_value=self.sum)


class MoveFigures(Collector):
    """The figures counted on every move, read at scrape time from the default registry."""

    def __init__(self, *figures: MoveCounter | MoveHistogram) -> None:
        self.figures = figures

    def collect(self) -> Iterator[Metric]:
        for figure in self.figures:
            yield figure.family()


MOVES = MoveCounter(f"{PREFIX}_moves", "Moves taken (journaled) at this server's tables, bots' included")
MOVE_SECONDS = MoveHistogram(f"{PREFIX}_move_seconds",
                             "From a person's move taken at its table to its broadcast (after its journal write)",
                             buckets=LATENCY_BUCKETS)
TURN_BUCKETS = (0.00025, 0.0005, 0.00075, 0.001, 0.0015, 0.002, 0.003, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
"""Seconds, finer under a few milliseconds, where a move's turn is passed on."""
TURN_SECONDS = MoveHistogram(f"{PREFIX}_turn_seconds",
                             "From a person's move taken at its table to the next seat's your_turn written "
                             "to that seat's socket (a move the next seat of which is a person)", buckets=TURN_BUCKETS)
REGISTRY.register(MoveFigures(MOVES, MOVE_SECONDS, TURN_SECONDS))
GAMES_STARTED = Counter(f"{PREFIX}_games_started", "Games started (a game resumed from the journal is not counted)")
_GAMES_ENDED = Counter(f"{PREFIX}_games_ended", "Games ended, by how", ["how"])
GAMES_FINISHED = _GAMES_ENDED.labels(how="finished")
GAMES_ABANDONED = _GAMES_ENDED.labels(how="abandoned")

# ---------------------------------------------------------------------- refusals and limits

_REFUSALS = Counter(f"{PREFIX}_refusals", "Errors sent to clients, by error code", ["code"])
REFUSED: dict[ErrorCode, Any] = {code: _REFUSALS.labels(code=code.value) for code in ErrorCode}
"""Error code -> its bound counter (ServerSession.error counts each error it sends)."""

RateKind = Literal["commands", "connections", "passwords", "name_claims", "tables"]
_RATE_LIMITED = Counter(f"{PREFIX}_rate_limited", "Requests refused by a limit, by kind", ["kind"])
RATE_LIMITED_COMMANDS = _RATE_LIMITED.labels(kind="commands")  # the command rate of a connection
RATE_LIMITED_CONNECTIONS = _RATE_LIMITED.labels(kind="connections")  # caps on open connections
RATE_LIMITED_PASSWORDS = _RATE_LIMITED.labels(kind="passwords")  # wrong passwords
RATE_LIMITED_NAME_CLAIMS = _RATE_LIMITED.labels(kind="name_claims")  # names claimed per address
RATE_LIMITED_TABLES = _RATE_LIMITED.labels(kind="tables")  # waiting and bot-only tables

# ---------------------------------------------------------------------- the journal

JOURNAL_WRITE_SECONDS = Histogram(f"{PREFIX}_journal_write_seconds",
                                  "One batch of journal requests, from sent to answered (one transaction)",
                                  buckets=LATENCY_BUCKETS)
_JOURNAL_FAILURES = Counter(f"{PREFIX}_journal_failures",
                            "Journal requests that failed: unavailable (tried again) or refused", ["kind"])
JOURNAL_UNAVAILABLE = _JOURNAL_FAILURES.labels(kind="unavailable")
JOURNAL_REFUSED = _JOURNAL_FAILURES.labels(kind="refused")
RECORDS_WRITTEN = Counter(f"{PREFIX}_records_written", "Finished games' records stored in the journal")
RATINGS_WRITTEN = Counter(f"{PREFIX}_ratings_written", "Players' ratings stored with a rated game's record")

# ---------------------------------------------------------------------- a cluster

TABLES_TAKEN_OVER = Counter(f"{PREFIX}_cluster_tables_taken_over",
                            "Tables this member took over from a member gone or stopping (failovers)")
TABLES_HANDED_ON = Counter(f"{PREFIX}_cluster_tables_handed_on",
                           "Tables this member gave up for another to take (drained, or its lease lost)")
REDIRECTS = Counter(f"{PREFIX}_cluster_redirects", "Clients sent to the member serving their table")
REDIS_ERRORS = Counter(f"{PREFIX}_cluster_redis_errors", "Redis commands or connections that failed")
REDIS_RECONNECTS = Counter(f"{PREFIX}_cluster_redis_reconnects",
                           "Times this member joined the shared lobby again after Redis could not be reached")


def count_record(written: Awaitable[None], ratings: int) -> asyncio.Future[None]:
    """``written`` (the journal write of a game's record with ``ratings`` new ratings) as a
    future that counts them once stored."""
    def stored(future: asyncio.Future[None]) -> None:
        if not future.cancelled() and future.exception() is None:
            RECORDS_WRITTEN.inc()
            if ratings:
                RATINGS_WRITTEN.inc(ratings)

    future = asyncio.ensure_future(written)
    future.add_done_callback(stored)
    return future


# ---------------------------------------------------------------------- what is, at scrape time
