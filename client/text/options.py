"""A table option's value typed as text (``NAME=VALUE``), as the engine's RuleSet takes it,
and the table's own turn timer: the choices offered, and a time typed as text, as both
terminal clients offer them."""

from __future__ import annotations

from ..game import seconds_text
from .i18n import tr


def coerce(value: str) -> object:
    """``true``/``false`` → bool, digits → int, anything else stays a string."""
    low = value.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if value.isdigit():
        return int(value)
    return value


SERVER_TIMER, NO_TIMER = "server", "none"
"""The timer choices that are not a time: the server's own, and none at all."""
TIMERS: list[tuple[str, float]] = [(seconds_text(s), float(s)) for s in (15, 30, 60, 120, 300)]
LONGEST = 3600.0
"""The longest turn timer a table may ask for (the protocol's bound)."""
NONE_WORDS = frozenset({"none", "no", "nessuno", "nessuna", "0"})


def timer_choices(server: float | None) -> list[tuple[str, str | float]]:
    """The turn timers offered: the server's own, the shorter ones (a table may not ask
    for more than the server's, which ``welcome`` tells; None: not told, every one), and
    none at a private table."""
    own = tr("the server's own") if server is None else \
        tr("the server's own ({time})", time=seconds_text(round(server)))
    shorter = [(name, s) for name, s in TIMERS if server is None or s < server]
    return [(own, SERVER_TIMER), *shorter, (tr("none (a private table only)"), NO_TIMER)]


def timer_range(server: float | None) -> str:
    """The times a table may ask for, as a person reads them (``0:01 to 1:00``)."""
    return tr("{low} to {high}", low=seconds_text(1), high=seconds_text(round(server or LONGEST)))


def parse_timer(text: str, server: float | None, private: bool) -> str | float | tuple[str]:
    """A turn timer typed as text: Enter → the server's own (``SERVER_TIMER``), ``none`` →
    ``NO_TIMER`` (a private table only), ``0:15`` or ``15`` → seconds (up to the server's
    own); a one-item tuple holding the hint when the text is none of these."""
    text = text.strip().lower()
    if not text:
        return SERVER_TIMER
    if text in NONE_WORDS:
        return NO_TIMER if private else (tr("only a private table may play without a turn timer"),)
    minutes, colon, seconds = text.partition(":")
    try:
        value = float(int(minutes) * 60 + int(seconds)) if colon else float(text.replace(",", "."))
    except ValueError:
        value = -1.0
    if not 0 < value <= (server or LONGEST):
        return (tr("a turn timer is a time from {range}, e.g. 0:30; {text} is not", range=timer_range(server),
                   text=repr(text)),)
    return value
