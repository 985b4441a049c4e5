"""Types of the C twins (``_speedups.c``) of :mod:`scopa.engine.plays` and :mod:`scopa.engine.selections`."""

from typing import Any

from .actions import Play

# selections.Template and selections.BySum, spelled out (selections imports this module)
_Template = tuple[int, tuple[tuple[int, int], ...]]
_BySum = tuple[tuple[tuple[_Template, ...], ...], tuple[tuple[int, ...], ...]]

def expand_plays(
    hand: int, table: int, by_value: tuple[tuple[_Template, ...], ...], wild: int, sette_coppe: int,
    play_type: type[Play], laid: tuple[Play, ...], /,
) -> list[Play]: ...
def templates_by_sum(counts: int, max_cards: int, max_sum: int, shared: dict[Any, Any], /) -> _BySum: ...
