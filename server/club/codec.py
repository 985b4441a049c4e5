"""A tournament's journal records as ``(kind, JSON)``: the director's events, and the
club's own notes beside them (which table plays which game, the results kept at the
end).  A tournament's director is rebuilt from its events alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter

from scopa.server.tournament import (
    Arrived, Created, Event, Finished, Forfeited, GameFinished, GameKey, Registered, Replayed, RoundPaired,
    StandingRow, Started, Unregistered,
)  # fmt: skip


@dataclass(frozen=True)
class TableOpened:
    """The table this server opened for a game (a game opened again after a restart: the later one)."""

    game: GameKey
    table: str


@dataclass(frozen=True)
class ResultsKept:
    """The tournament's final standings, kept with the records."""

    rows: tuple[StandingRow, ...]
    cancelled: bool = False


Record = Event | TableOpened | ResultsKept

_KINDS: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (Created, Registered, Unregistered, Started, RoundPaired, Replayed, Arrived, GameFinished, Forfeited,
                Finished, TableOpened, ResultsKept)
}  # fmt: skip


_ADAPTERS: dict[str, TypeAdapter[Any]] = {}


def _adapter(cls: type[Any]) -> TypeAdapter[Any]:
    name = cls.__name__
    if name not in _ADAPTERS:
        _ADAPTERS[name] = TypeAdapter(cls)
    return _ADAPTERS[name]


def encode(record: Record) -> tuple[str, str]:
    """The record's kind and its JSON."""
    cls = type(record)
    return cls.__name__, _adapter(cls).dump_json(record).decode()


def decode(kind: str, data: str) -> Record:
    """The record a journal row holds (ValueError: a kind or JSON this server does not read)."""
    cls = _KINDS.get(kind)
    if cls is None:
        raise ValueError(f"no tournament record of kind {kind!r}")
    record: Record = _adapter(cls).validate_json(data)
    return record


def is_event(record: Record) -> bool:
    """Whether the record is one of the director's events (not a note of the club's)."""
    return not isinstance(record, (TableOpened, ResultsKept))
