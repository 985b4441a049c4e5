"""Where a client keeps its seat tokens, so that a restarted ``scopa play`` can return to
an unfinished game.  :class:`TokenStore` is the interface (a browser keeps its tokens
elsewhere); :class:`FileTokenStore` is the default: one JSON file, readable by its owner
only (0600), in the user's state directory, keyed by server and name.  The tokens of the
last tables sat at stay once their games are over (:meth:`TokenStore.played`): they show
the games of a private table to its players (``scopa games``), and to nobody else."""

from __future__ import annotations

import json
import os
import tempfile
from abc import ABC, abstractmethod
from pathlib import Path

import platformdirs
from pydantic import BaseModel, ConfigDict, ValidationError

STATE_DIR_ENV = "SCOPA_STATE_DIR"
PLAYED_KEPT = 16
"""Tokens of tables sat at kept per server, the newest (as many as a ``list_games`` takes)."""


class SavedSeat(BaseModel):
    """A seat to come back to."""

    model_config = ConfigDict(frozen=True)

    server: str  # host:port
    name: str
    table: str
    seat: int
    token: str


class TokenStore(ABC):
    """Saved seats, at most one per (server, name)."""

    @abstractmethod
    def load(self, server: str, name: str) -> SavedSeat | None: ...

    @abstractmethod
    def save(self, seat: SavedSeat) -> None: ...

    @abstractmethod
    def forget(self, server: str, name: str) -> None: ...

    def played(self, server: str) -> list[str]:
        """The seat tokens of the last tables sat at on ``server`` (any name), newest first;
        a seat forgotten keeps its token here."""
        return []


def _with_played(tokens: list[str], token: str) -> list[str]:
    """``tokens`` (newest first) with ``token`` first, at most PLAYED_KEPT."""
    return [token, *(t for t in tokens if t != token)][:PLAYED_KEPT]


class MemoryTokenStore(TokenStore):
    """Kept for the life of the process only."""

    def __init__(self) -> None:
        self.seats: dict[tuple[str, str], SavedSeat] = {}
        self.tokens: dict[str, list[str]] = {}

    def load(self, server: str, name: str) -> SavedSeat | None:
        return self.seats.get((server, name))

    def save(self, seat: SavedSeat) -> None:
        self.seats[(seat.server, seat.name)] = seat
        self.tokens[seat.server] = _with_played(self.tokens.get(seat.server, []), seat.token)

    def played(self, server: str) -> list[str]:
        return list(self.tokens.get(server, []))

    def forget(self, server: str, name: str) -> None:
        self.seats.pop((server, name), None)


def default_state_dir() -> Path:
    """``$SCOPA_STATE_DIR``, or the platform's user state directory for scopa."""
    override = os.environ.get(STATE_DIR_ENV)
    return Path(override) if override else Path(platformdirs.user_state_dir("scopa"))


class FileTokenStore(TokenStore):
    """A JSON file (mode 0600) of saved seats; a damaged file counts as empty."""

    def __init__(self, directory: Path | None = None) -> None:
        self.path = (directory or default_state_dir()) / "seats.json"
        self.played_path = self.path.with_name("played.json")  # {server: [token, ...]}, newest first

    def _read(self) -> dict[str, SavedSeat]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        out: dict[str, SavedSeat] = {}
        if isinstance(raw, dict):
            for key, value in raw.items():
                try:
                    out[key] = SavedSeat.model_validate(value)
                except ValidationError:
                    continue
        return out

    def _write(self, seats: dict[str, SavedSeat]) -> None:
        _write_json(self.path, {k: v.model_dump() for k, v in seats.items()})

    def _read_played(self) -> dict[str, list[str]]:
        try:
            raw = json.loads(self.played_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(raw, dict):
            return {}
        return {k: [t for t in v if isinstance(t, str)] for k, v in raw.items() if isinstance(v, list)}

    @staticmethod
    def _key(server: str, name: str) -> str:
        return f"{name}@{server}"

    def load(self, server: str, name: str) -> SavedSeat | None:
        return self._read().get(self._key(server, name))

    def save(self, seat: SavedSeat) -> None:
        seats = self._read()
        seats[self._key(seat.server, seat.name)] = seat
        self._write(seats)
        played = self._read_played()
        played[seat.server] = _with_played(played.get(seat.server, []), seat.token)
        _write_json(self.played_path, played)

    def played(self, server: str) -> list[str]:
        return self._read_played().get(server, [])

    def forget(self, server: str, name: str) -> None:
        seats = self._read()
        if seats.pop(self._key(server, name), None) is not None:
            self._write(seats)


def _write_json(path: Path, data: object) -> None:
    """``data`` as ``path`` (mode 0600), replaced whole."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".json")
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
