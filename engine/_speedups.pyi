"""Types of the C twin (``_speedups.c``) of :mod:`scopa.engine.plays`."""

from .actions import Play
from .captures import Template

def expand_plays(
    hand: int, table: int, by_value: tuple[tuple[Template, ...], ...], wild: int, sette_coppe: int,
    play_type: type[Play], /,
) -> list[Play]: ...
