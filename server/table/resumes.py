"""How often each seat was resumed lately (``Limits.resumes_per_seat`` within
``Limits.resume_window``).

Two connections holding one seat token would otherwise take the seat from each other as
fast as they can reconnect, and every time the other seats would hear of it.  A seat
resumed ``resumes_per_seat`` times within the window is not resumed again until the
oldest of those resumes leaves the window: the ``hello`` gets ``rate_limited`` with
``retry_after``, and the connection holding the seat keeps it.
"""

from __future__ import annotations

from collections import deque

from ..core import Clock, Limits

SWEEP_FLOOR = 256
"""Seats remembered before the first sweep of those with no resume in the window."""


class ResumeGate:
    """The recent resumes of every seat, by (table id, seat)."""

    def __init__(self, limits: Limits, clock: Clock) -> None:
        self.limits = limits
        self.clock = clock
        self._resumes: dict[tuple[str, int], deque[float]] = {}
        self._sweep_at = SWEEP_FLOOR

    def wait(self, table_id: str, seat: int) -> float | None:
        """Seconds before seat ``seat`` of ``table_id`` may be resumed again, or None:
        it may be now, and this resume is counted."""
        most = self.limits.resumes_per_seat
        if most is None:
            return None
        now, window = self.clock.now(), self.limits.resume_window
        times = self._resumes.setdefault((table_id, seat), deque())
        while times and times[0] <= now - window:
            times.popleft()
        if len(times) >= most:
            return max(0.0, times[0] + window - now)
        times.append(now)
        if len(self._resumes) > self._sweep_at:
            self._sweep(now - window)
        return None

    def _sweep(self, before: float) -> None:
        """Forget the seats with no resume since ``before`` (so the map stays as small as
        the seats resumed within one window)."""
        for key in [k for k, times in self._resumes.items() if not times or times[-1] <= before]:
            del self._resumes[key]
        self._sweep_at = max(SWEEP_FLOOR, 2 * len(self._resumes))

    def __len__(self) -> int:
        return len(self._resumes)
