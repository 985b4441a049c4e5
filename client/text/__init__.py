"""Everything the client says in words, and reads back from words: no I/O, no network.

Owns the language (``language``, ``LANGUAGE``, ``LANGS``, ``Lang``, ``current_language``, ``set_language``, ``tr`` and the Italian catalog ``ITALIAN``),
card notation (``DeckStyle``, ``label``, ``labels``, ``rank_label``, ``suit_label``,
``parse_cards``, ``IT_RANKS``, ``FR_RANKS``, ``SUIT_COLOURS``) and a move typed as text
(``parse_choice``, with hints naming the nearest allowed moves), the Italian catalog both
clients share (``error_text``, ``rules_problem_text``, ``player_name``, ``level_text``, ``level_named``, ``local_bot_name``, ``person_name``, ``is_server_bot``, ``seated_name``, ``reason_text``, ``setting_text``, ``word_text``,
``catalog_value``, ``log_text``: the server's text log lines), a QR code as text (``qr_text``), a table's game in words
(``PRESET_NAMES``, ``matching_preset``, ``rules_name``, ``rules_line``, ``end_reason_text``),
a server's finished games and leaderboard as lines (``game_lines``, ``leaderboard_lines``; a finished table's ``game_over_text``), a recorded game's steps in words
(``step_text``, ``deal_text``, ``plain_lines``, ``position_text``, ``scope_text``, ``score_lines``, ``viewer_seat``, ``shown_names``,
``result_text``), rich rendering of a game (``render_view``, ``render_moves``,
``event_line``, ``notice_line``, ``cards_text``, a side's names ``side_name``, a game a person's leaving ended as a spectator is told
it: ``abandoned_words``) and of tournaments (``render_tournaments``,
``render_standings``, and what a round without a table means for us: ``no_table_text``), short items in a row
that wraps between them (``Flow``),
a game's public picture kept from its events or set from a snapshot (``apply_public``) and a finished round in a table (``BoardState``,
``RoundResult``, ``round_parts``, ``round_table``, ``leftovers_line``, ``tie_note``) and game (``game_table``), a table option typed as text
(``coerce``) and the table's turn timer (``timer_choices``, ``timer_range``, ``parse_timer``, ``SERVER_TIMER``,
``NO_TIMER``, and the words for none, ``NONE_WORDS``), the invite string (``invite_string``, where it is passed on: ``Invite``, ``parse_invite``, ``refusal_text``, where a join seated the person: ``seated_text``), a connection not made in words (``lost_text``), or lost and back (``link_text``), a saved seat given up (``gave_up_text``), what leaving a game does (``leave_question``), a name a person types
(``name_problem``, ``name_forms``) and one the server gave in its place (``renamed_text``), and
the rulebook: ``book``, ``preset_rules``, ``table_rules``, ``options_text``,
``option_lines``, ``category_names``, ``declaration_names``, ``BASICS``, ``PRESET_TEXT``,
``CAPTURE_MODE_TEXT``, ``CAPTURE_MODE_NAMES``, ``ASSO_TEXT``, ``CATEGORY_NAMES``, and the
Italian book as a module, ``rulebook_it``.

Must never: read the keyboard, open a file or a connection, or import the client's net/,
console/ or tui/; of the client it stands only on game/ (the notices it renders).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .i18n import LANGS, LANGUAGE, Lang, current_language, language, set_language, tr
from .italian import ITALIAN
from .notation import (
    DeckStyle,
    FR_RANKS,
    IT_RANKS,
    SUIT_COLOURS,
    label,
    labels,
    parse_cards,
    rank_label,
    suit_label,
)
from .movehints import parse_choice
from .catalog import catalog_value, error_text, is_server_bot, level_named, level_text, local_bot_name, log_text, person_name, player_name, rules_problem_text, seated_name, reason_text, setting_text, word_text
from .qr import qr_text
from .games import PRESET_NAMES, end_reason_text, game_lines, game_over_text, leaderboard_lines, matching_preset, rules_line, rules_name
from .replaywords import deal_text, plain_lines, position_text, result_text, scope_text, score_lines, shown_names, step_text, viewer_seat
from .options import NONE_WORDS, NO_TIMER, SERVER_TIMER, coerce, parse_timer, timer_choices, timer_range
from .invite import Invite, gave_up_text, invite_string, leave_question, link_text, lost_text, name_forms, name_problem, parse_invite, refusal_text, renamed_text, seated_text
from .board import BoardState, RoundResult, apply_public, game_table, leftovers_line, round_parts, round_table, tie_note
from .rulebook import (
    ASSO_TEXT,
    BASICS,
    CAPTURE_MODE_NAMES,
    CAPTURE_MODE_TEXT,
    CATEGORY_NAMES,
    PRESET_TEXT,
    book,
    category_names,
    declaration_names,
    option_lines,
    options_text,
    preset_rules,
    table_rules,
)
from .rulebook import it as rulebook_it

if TYPE_CHECKING:
    from .render import (
        Flow, abandoned_words, cards_text, event_line, no_table_text, notice_line, render_moves, render_standings,
        render_tournaments, render_view, side_name,
    )  # fmt: skip

_RENDER = frozenset({"Flow", "abandoned_words", "cards_text", "event_line", "no_table_text", "notice_line", "render_moves",
                     "render_standings", "render_tournaments", "render_view", "side_name"})
"""The names of :mod:`.render`, imported on first use: the rendering (rich, the client's
game/) is not loaded by a program that only needs words (`scopa bot`, `scopa serve`)."""


def __getattr__(name: str) -> object:
    if name in _RENDER:
        from . import render

        return getattr(render, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "BoardState",
    "Flow",
    "apply_public",
    "game_table",
    "RoundResult",
    "leftovers_line",
    "round_parts",
    "round_table",
    "tie_note",
    "ASSO_TEXT",
    "BASICS",
    "CAPTURE_MODE_NAMES",
    "CAPTURE_MODE_TEXT",
    "CATEGORY_NAMES",
    "DeckStyle",
    "FR_RANKS",
    "ITALIAN",
    "IT_RANKS",
    "LANGUAGE",
    "LANGS",
    "Lang",
    "PRESET_TEXT",
    "SUIT_COLOURS",
    "book",
    "cards_text",
    "category_names",
    "coerce",
    "Invite",
    "NONE_WORDS",
    "NO_TIMER",
    "SERVER_TIMER",
    "parse_timer",
    "timer_choices",
    "timer_range",
    "declaration_names",
    "event_line",
    "game_over_text",
    "invite_string",
    "name_forms",
    "name_problem",
    "renamed_text",
    "link_text",
    "label",
    "labels",
    "language",
    "current_language",
    "set_language",
    "no_table_text",
    "notice_line",
    "option_lines",
    "options_text",
    "parse_cards",
    "parse_choice",
    "error_text",
    "reason_text",
    "word_text",
    "log_text",
    "is_server_bot",
    "player_name",
    "seated_name",
    "level_text",
    "level_named",
    "local_bot_name",
    "person_name",
    "rules_problem_text",
    "catalog_value",
    "setting_text",
    "qr_text",
    "PRESET_NAMES",
    "matching_preset",
    "rules_line",
    "rules_name",
    "end_reason_text",
    "game_lines",
    "leaderboard_lines",
    "deal_text",
    "position_text",
    "plain_lines",
    "result_text",
    "scope_text",
    "score_lines",
    "step_text",
    "viewer_seat",
    "shown_names",
    "parse_invite",
    "preset_rules",
    "rank_label",
    "refusal_text",
    "seated_text",
    "abandoned_words",
    "lost_text",
    "gave_up_text",
    "leave_question",
    "render_moves",
    "render_standings",
    "render_tournaments",
    "render_view",
    "side_name",
    "rulebook_it",
    "suit_label",
    "table_rules",
    "tr",
]
