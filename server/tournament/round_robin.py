"""Round-robin by the circle method: the first entrant stays, the others turn one place
a round, so everyone meets everyone once in n - 1 rounds (n rounds with an odd count,
each entrant sitting out one of them: the bye)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class RoundRobinRound:
    pairs: tuple[tuple[str, str], ...]
    bye: str | None


def round_robin(entrants: Sequence[str]) -> tuple[RoundRobinRound, ...]:
    """Every round of a round-robin between these entrants (seed order)."""
    ring: list[str | None] = list(entrants)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds = []
    for r in range(n - 1):
        pairs: list[tuple[str, str]] = []
        bye: str | None = None
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                bye = a if b is None else b
                continue
            pairs.append((b, a) if i == 0 and r % 2 else (a, b))  # the fixed entrant alternates seats
        rounds.append(RoundRobinRound(tuple(pairs), bye))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return tuple(rounds)
