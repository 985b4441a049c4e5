"""The observation: one fixed-size float32 vector in [0, 1], the same layout for every
rule set and player count, built from ``view(state, seat)`` alone (so it holds only what
that seat may see) plus the seat's own unfinished choice.

Seats and sides are relative to the observer: relative seat 0 is the observer, 1 the
next seat in playing order, and so on; relative side 0 is the observer's side.  Blocks
for more seats (6) or sides (4) than the table has stay zero.  ``docs/RL.md`` has the
table; :data:`LAYOUT` is the same table as data.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

import numpy as np

from scopa.engine import AssoPigliaTutto, CaptureMode, RuleSet, View

from .actions import Selection

MAX_SEATS = 6
MAX_SIDES = 4  # four players each alone
PLAYER_COUNTS = (2, 3, 4, 6)
SCOPE_SCALE = 10.0  # scope counts are divided by this and capped at 1
HAND_SCALE = 20.0  # the largest hand a RuleSet allows
MAX_ROUND_PLAYS = 40.0

RULE_FLAGS: tuple[str, ...] = (
    "refill_each_turn", "max_two", "ponino", "napola", "quindici", "escoba",
    "trentino", "re_bello", "frac", "cirulla",
)  # fmt: skip

# (name, size): the blocks in order.
_BLOCKS: tuple[tuple[str, int], ...] = (
    ("hand", 40),  # my cards
    ("table", 40),
    ("captured", 40 * MAX_SIDES),  # per relative side: cards it has captured this round
    ("played_by", 40 * MAX_SEATS),  # per relative seat: cards it played this round
    ("play_order", 40),  # card played k-th this round (k from 1): k / 40
    ("shown", 40 * MAX_SEATS),  # per relative seat: declared (V13) cards still in its hand
    ("pending_card", 40),  # the card I have chosen, while I pick its capture
    ("pending_picked", 40),  # the table cards I have picked so far
    ("scope", MAX_SIDES),  # per relative side: scope this round / 10, capped at 1
    ("totals", MAX_SIDES),  # per relative side: game points before this round / target, capped
    ("hand_sizes", MAX_SEATS),  # per relative seat: cards in hand / 20
    ("stock", 1),  # cards left in the stock / 40
    ("dealer", MAX_SEATS),  # one-hot relative seat of the dealer
    ("last_capture", MAX_SIDES),  # one-hot relative side that captured last (R20)
    ("players", len(PLAYER_COUNTS)),  # one-hot: 2, 3, 4, 6
    ("teams", 1),
    ("capture_mode", 3),  # one-hot: traditional, fewest, free (R15)
    ("asso_piglia_tutto", 2),  # simple, traditional (V9, V10); both 0 = off
    ("rule_flags", len(RULE_FLAGS)),  # RULE_FLAGS in order
)


def _offsets(blocks: tuple[tuple[str, int], ...]) -> dict[str, slice]:
    out: dict[str, slice] = {}
    at = 0
    for name, size in blocks:
        out[name] = slice(at, at + size)
        at += size
    return out


LAYOUT: Mapping[str, slice] = _offsets(_BLOCKS)
OBS_SIZE = sum(size for _, size in _BLOCKS)

# Blocks indexed by card (40 per row): where no other seat's hidden card may ever be set.
CARD_BLOCKS: tuple[str, ...] = (
    "hand", "table", "captured", "played_by", "play_order", "shown", "pending_card", "pending_picked",
)  # fmt: skip

_MODES = (CaptureMode.TRADITIONAL, CaptureMode.FEWEST, CaptureMode.FREE)


def _card_bits(out: np.ndarray, start: int, cards: object) -> None:
    for c in cards:  # type: ignore[attr-defined]
        out[start + int(c)] = 1.0


def _mask_bits(out: np.ndarray, start: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[start + low.bit_length() - 1] = 1.0
        mask ^= low


def rules_features(rules: RuleSet) -> np.ndarray:
    """The rules part of the observation (constant for a table), zero elsewhere."""
    return _rules_features(rules).copy()


@lru_cache(maxsize=64)
def _rules_features(rules: RuleSet) -> np.ndarray:
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    out[LAYOUT["players"].start + PLAYER_COUNTS.index(rules.players)] = 1.0
    out[LAYOUT["teams"].start] = float(rules.has_teams)
    out[LAYOUT["capture_mode"].start + _MODES.index(rules.capture_mode)] = 1.0
    if rules.asso_piglia_tutto is AssoPigliaTutto.SIMPLE:
        out[LAYOUT["asso_piglia_tutto"].start] = 1.0
    elif rules.asso_piglia_tutto is AssoPigliaTutto.TRADITIONAL:
        out[LAYOUT["asso_piglia_tutto"].start + 1] = 1.0
    flags = LAYOUT["rule_flags"].start
    for i, name in enumerate(RULE_FLAGS):
        out[flags + i] = float(getattr(rules, name))
    return out


def observe(view: View, selection: Selection | None = None) -> np.ndarray:
    """The observation vector of ``view``'s seat; ``selection`` is that seat's own
    unfinished choice (pass it only when that seat is choosing)."""
    if view.seat is None or view.side is None:
        raise ValueError("an observation belongs to a seat; a spectator's view has none")
    rules = view.rules
    n = rules.players
    sides = rules.num_sides
    me, my_side = view.seat, view.side
    L = LAYOUT
    out = rules_features(rules)

    _card_bits(out, L["hand"].start, view.hand)
    _card_bits(out, L["table"].start, view.table)
    for side, pile in enumerate(view.captured):
        _card_bits(out, L["captured"].start + 40 * ((side - my_side) % sides), pile)
    played: dict[int, set[int]] = {}
    order = L["play_order"].start
    for k, play in enumerate(view.round_plays, start=1):
        rel = (play.seat - me) % n
        out[L["played_by"].start + 40 * rel + int(play.card)] = 1.0
        out[order + int(play.card)] = min(k / MAX_ROUND_PLAYS, 1.0)
        played.setdefault(play.seat, set()).add(int(play.card))
    for seat, hand in view.declared_hands:
        gone = played.get(seat, set())
        still = [c for c in hand if int(c) not in gone]
        _card_bits(out, L["shown"].start + 40 * ((seat - me) % n), still)
    if selection is not None and selection.card is not None:
        out[L["pending_card"].start + selection.card] = 1.0
        _mask_bits(out, L["pending_picked"].start, selection.picked)
    target = float(rules.target)
    for side in range(sides):
        rel = (side - my_side) % sides
        out[L["scope"].start + rel] = min(view.scope[side] / SCOPE_SCALE, 1.0)
        out[L["totals"].start + rel] = min(view.totals[side] / target, 1.0)
    for seat, size in enumerate(view.hand_sizes):
        out[L["hand_sizes"].start + (seat - me) % n] = size / HAND_SCALE
    out[L["stock"].start] = view.stock_left / 40.0
    out[L["dealer"].start + (view.dealer - me) % n] = 1.0
    if view.last_capture_side is not None:
        out[L["last_capture"].start + (view.last_capture_side - my_side) % sides] = 1.0
    return out
