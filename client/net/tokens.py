"""Where a client keeps its seat tokens, so that a restarted ``scopa play`` can return to
an unfinished game.  :class:`TokenStore` is the interface (a browser keeps its tokens
elsewhere); :class:`FileTokenStore` is the default: one JSON file, readable by its owner
only (0600), in the user's state directory, keyed by server and name."""

from __future__ import annotations

import json
import os
import tempfile
from abc import ABC, abstractmethod
from pathlib import Path

import platformdirs
from pydantic import BaseModel, ConfigDict, ValidationError

STATE_DIR_ENV = "SCOPA_STATE_DIR"


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


class MemoryTokenStore(TokenStore):
    """Kept for the life of the process only."""

    def __init__(self) -> None:
        self.seats: dict[tuple[str, str], SavedSeat] = {}

    def load(self, server: str, name: str) -> SavedSeat | None:
        return self.seats.get((server, name))

    def save(self, seat: SavedSeat) -> None:
        self.seats[(seat.server, seat.name)] = seat

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
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".seats-", suffix=".json")
        try:
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({k: v.model_dump() for k, v in seats.items()}, f, indent=1)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @staticmethod
    def _key(server: str, name: str) -> str:
        return f"{name}@{server}"

    def load(self, server: str, name: str) -> SavedSeat | None:
        return self._read().get(self._key(server, name))

    def save(self, seat: SavedSeat) -> None:
        seats = self._read()
        seats[self._key(seat.server, seat.name)] = seat
        self._write(seats)

    def forget(self, server: str, name: str) -> None:
        seats = self._read()
        if seats.pop(self._key(server, name), None) is not None:
            self._write(seats)
