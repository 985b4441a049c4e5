"""A connection's earliest deadline (server/conn/session.py ``next_deadline``): the hello until
one came, an unfinished frame, our ping after a silence, the pong to that ping."""

from __future__ import annotations

import pytest

from scopa.server import Limits
from scopa.server.conn.session import next_deadline

pytestmark = pytest.mark.unit

LIMITS = Limits(hello_timeout=10.0, frame_timeout=20.0, ping_interval=5.0, ping_timeout=3.0)


def test_a_new_connection_is_pinged_before_its_hello_is_late() -> None:
    assert next_deadline(LIMITS, False, 100.0, None, 100.0, None) == (105.0, "ping")
    slow_pings = Limits(hello_timeout=10.0, ping_interval=30.0)
    assert next_deadline(slow_pings, False, 100.0, None, 100.0, None) == (110.0, "hello")


def test_once_the_hello_came_only_the_silence_counts() -> None:
    assert next_deadline(LIMITS, True, 100.0, None, 140.0, None) == (145.0, "ping")


def test_an_unanswered_ping_waits_for_its_pong_not_for_another_ping() -> None:
    assert next_deadline(LIMITS, True, 100.0, None, 140.0, 145.0) == (148.0, "pong")


def test_an_unfinished_frame_is_due_when_it_comes_first() -> None:
    no_pings = Limits(frame_timeout=20.0, ping_interval=None)
    assert next_deadline(no_pings, True, 100.0, 130.0, 130.0, None) == (150.0, "frame")
    assert next_deadline(LIMITS, True, 100.0, 130.0, 140.0, 145.0) == (148.0, "pong")


def test_without_limits_there_is_no_deadline() -> None:
    none = Limits(hello_timeout=None, frame_timeout=None, ping_interval=None, ping_timeout=None)
    assert next_deadline(none, False, 100.0, 130.0, 130.0, None) is None
    pong_unbounded = Limits(hello_timeout=None, frame_timeout=None, ping_interval=5.0, ping_timeout=None)
    assert next_deadline(pong_unbounded, True, 100.0, None, 140.0, 145.0) is None
