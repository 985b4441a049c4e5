"""Types of the optional C accelerator (``_speedups.c``); the pure-Python paths in
``state.py`` are the reference for what each function does."""

from collections.abc import Callable

from .actions import Play
from .captures import Template
from .state import GameState

def legal_plays(
    hand: int,
    table: int,
    first_play: bool,
    cache: dict[int, tuple[tuple[Template, ...], ...]],
    by_value: Callable[[int], tuple[tuple[Template, ...], ...]],
    wild: int,
    sette_coppe: int,
    play_type: type[Play],
    expand: Callable[[int, Template], list[int]],
    /,
) -> list[Play]: ...
def push_plain(state: GameState, play: tuple[int, int], /) -> bool: ...
