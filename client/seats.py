"""What sits at a seat of a game on this machine, as a word: ``human``, a built-in bot
(``greedy``…) or a user's bot class (``MODULE:CLASS``, ``FILE.py:CLASS``).  The plain
client (``scopa local``) and the terminal UI read seats the same way and seat the same bots.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from scopa.engine.player import Player

from scopa.bots import STRATEGIES
from scopa.bots.loader import load_bot_class
from scopa.bots.registry import make_player
from scopa.protocol.record import Strategy

SEAT_KINDS = ("human", *STRATEGIES)
_STRATEGY: TypeAdapter[str] = TypeAdapter(Strategy)


class UnknownSeatKind(ValueError):
    """A seat named by a word that is no kind (``kind``); the message says it in English."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"unknown seat kind {kind!r}; use: {', '.join(SEAT_KINDS)}, "
                         f"or your own bot as MODULE:CLASS or FILE.py:CLASS")
        self.kind = kind


def parse_seats(spec: str | None, players: int) -> list[str]:
    """``human,greedy`` → one kind per seat; default: you against greedy bots.  A seat may
    also be your own bot, ``module:Class`` or ``path/to/file.py:Class`` (kept as written)."""
    if not spec:
        return ["human"] + ["greedy"] * (players - 1)
    kinds = [k.strip() if ":" in k else k.strip().lower() for k in spec.split(",") if k.strip()]
    bad = [k for k in kinds if ":" not in k and k not in SEAT_KINDS]
    if bad:
        raise UnknownSeatKind(bad[0])
    for k in kinds:
        if ":" in k:
            load_bot_class(k)  # a clear ValueError now rather than mid-game
    if len(kinds) != players:
        raise ValueError(f"--seats names {len(kinds)} seats but the table has {players} players "
                         f"(set --players or --rules to match)")
    return kinds


def seat_bot(kind: str, seat: int, seed: int, name: str | None = None) -> Player:
    """The bot of a seat: a built-in kind, or a bot class named ``MODULE:CLASS``;
    ``name``: what the table calls it (default: the kind or class and the seat's number)."""
    label = kind.rpartition(":")[2] if ":" in kind else kind.capitalize()
    return make_player(kind, name or f"{label} {seat + 1}", seed=seed * 100 + seat)


def bot_number(kinds: list[str] | tuple[str, ...], seat: int) -> int:
    """Which bot of the table a seat's is, counting from 1 (the server numbers its bots
    so too: "Bot 1" sits beside one person)."""
    return sum(1 for kind in kinds[:seat + 1] if kind != "human")


def record_strategy(kind: str) -> str | None:
    """How a record names a bot seat's strategy (a file's folders left out)."""
    if ":" not in kind:
        return kind
    module, _, cls = kind.rpartition(":")
    try:
        return _STRATEGY.validate_python(f"{Path(module).name}:{cls}")
    except ValidationError:  # a name the record format cannot hold
        return None
