"""The public picture of one game kept from its events, for either terminal client
(``BoardState``, a finished round as ``RoundResult``), and a finished round in words:
``round_parts`` (the table of ``round_table``, ``leftovers_line``, ``tie_note``); a finished
game's points by category (``game_table``); a board set from a snapshot's public picture
(``apply_public``).  No
Textual and no keyboard here."""

from __future__ import annotations

from .gamebox import game_table
from .public import apply_public
from .roundbox import leftovers_line, round_parts, round_table, tie_note
from .state import BoardState, RoundResult

__all__ = ["BoardState", "RoundResult", "apply_public", "game_table", "leftovers_line", "round_parts", "round_table",
           "tie_note"]
