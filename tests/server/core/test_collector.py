"""The garbage collector's setting while a server runs: young collections less often
than Python makes them, no full collection on its own, one at a set interval of the server's
clock, and Python's own setting back when the server stops."""

from __future__ import annotations

import gc

import pytest

from scopa.server.core.clock import FakeClock
from scopa.server.core.collector import YOUNG_THRESHOLD, Collector


def test_a_running_server_makes_full_collections_on_its_clock_only(monkeypatch: pytest.MonkeyPatch) -> None:
    before = gc.get_threshold()
    clock = FakeClock()
    full: list[float] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: full.append(clock.now()) or 0)
    collector = Collector(clock, interval=60.0)
    collector.start()
    try:
        young, middle, old = gc.get_threshold()
        assert (young, middle) == (YOUNG_THRESHOLD, before[1]) and young > before[0]
        assert old > 10**9  # never reached: no full collection on its own
        assert gc.get_freeze_count() > 0  # what the server made while starting is left alone
        clock.advance(59.0)
        assert full == []
        clock.advance(1.0)
        clock.advance(60.0)
        assert full == [60.0, 120.0]
    finally:
        collector.stop()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    clock.advance(600.0)
    assert full == [60.0, 120.0]  # stopped: no more


def test_stopping_a_collector_that_never_started_changes_nothing() -> None:
    before = gc.get_threshold()
    Collector(FakeClock()).stop()
    assert gc.get_threshold() == before
