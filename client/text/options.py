"""A table option's value typed as text (``NAME=VALUE``), as the engine's RuleSet takes it."""

from __future__ import annotations


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
