"""Types of the C twins (``_playread.c``) of :func:`scopa.protocol.playread.read_play_python`
and :func:`scopa.protocol.playread.model_of_python`."""

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

_Model = TypeVar("_Model", bound=BaseModel)

def init(cards: Sequence[str], version: int, name: str, /) -> None: ...
def read_play(payload: bytes, /) -> tuple[dict[str, Any], dict[str, Any], int, int] | None: ...
def model_of(cls: type[_Model], values: dict[str, Any], names: Iterable[str], /) -> _Model: ...
