"""The server's timers (turn timers, grace periods, connection deadlines) wait on the
one clock of :mod:`scopa.protocol.clock`, shared with the client; see there."""

from __future__ import annotations

from scopa.protocol.clock import Clock, FakeClock, SystemClock, Timer, start_timer

__all__ = ["Clock", "FakeClock", "SystemClock", "Timer", "start_timer"]
