"""The figures counted on every move (server/core/metrics.py: MoveCounter, MoveHistogram)
read as Prometheus reads a counter and a histogram: a bucket holds every observation at
or under its bound, cumulated, with the count and the sum."""

from __future__ import annotations

import pytest
from prometheus_client import CollectorRegistry, generate_latest

from scopa.server.core.metrics import MoveCounter, MoveFigures, MoveHistogram

pytestmark = pytest.mark.unit


def test_a_move_histogram_and_counter_read_as_prometheus_ones() -> None:
    moves = MoveCounter("t_moves", "moves")
    seconds = MoveHistogram("t_seconds", "seconds", buckets=(0.001, 0.002))
    registry = CollectorRegistry()
    registry.register(MoveFigures(moves, seconds))
    for value in (0.0005, 0.001, 0.0015, 0.002, 0.5):  # a value on a bound is in that bound's bucket
        seconds.observe(value)
    moves.inc()
    moves.inc(2)
    lines = set(generate_latest(registry).decode().splitlines())
    assert {
        't_seconds_bucket{le="0.001"} 2.0', 't_seconds_bucket{le="0.002"} 4.0', 't_seconds_bucket{le="+Inf"} 5.0',
        "t_seconds_count 5.0", "t_moves_total 3.0",
    } <= lines
    assert any(line.startswith("t_seconds_sum 0.505") for line in lines)
    assert "# TYPE t_seconds histogram" in lines and "# TYPE t_moves_total counter" in lines
