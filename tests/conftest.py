"""Shared helpers for the engine and variant tests (RULES.md ids are cited in the tests).

``position`` builds a GameState in a chosen mid-round position; ``deal_order`` builds a
Deal action that gives chosen hands and table; ``snapshot`` captures every field of a
state so that "the state is unchanged" can be checked; ``drive`` plays a whole game with
bots synchronously, calling a hook after every action.
"""

from __future__ import annotations

import random
import signal
import sys
from collections.abc import AsyncIterator, Iterator
from typing import Callable, Iterable, Sequence

import pytest

from scopa.bots import GreedyBot, RandomBot
from scopa.engine import (
    Deal,
    GameState,
    Phase,
    RuleSet,
    mask_of,
    parse_cards,
    view,
)
from scopa.engine.cards import cards_in
from scopa.server.core.clock import FakeClock

import paths

pytest_plugins = ["tiers", "slowfirst"]  # every test gets a kind (unit, integration, ...): see tiers.py;
# the longest files start first: see slowfirst.py

# the test files live in folders mirroring the code (tests/engine/, tests/server/journal/,
# ...); a test imports the helpers here and the other test modules by name from any folder
for _folder in map(str, paths.folders_with_tests()):
    if _folder not in sys.path:
        sys.path.append(_folder)


def pytest_configure(config: pytest.Config) -> None:
    """Tests press Ctrl-C in the commands they start, as a person does.  A run started
    as a background job of a script has Ctrl-C ignored, and every child would inherit
    that: give them the usual Ctrl-C back."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def m(text: str) -> int:
    """A card mask from notation: ``m("7d Rc")``."""
    return mask_of(parse_cards(text))


def c(text: str) -> int:
    """One card id from notation."""
    (card,) = parse_cards(text)
    return int(card)


def masks(sets: Iterable[int]) -> set[frozenset[str]]:
    """Capture masks as sets of card names, for readable comparisons."""
    return {frozenset(str(x) for x in cards_in(s)) for s in sets}


def cs(*groups: str) -> set[frozenset[str]]:
    """Expected capture sets: ``cs("6d", "2s 4c")``."""
    return {frozenset(str(x) for x in parse_cards(g)) for g in groups}


def position(
    rules: RuleSet,
    hands: Sequence[str],
    table: str = "",
    stock: str = "",
    dealer: int | None = None,
    to_move: int | None = None,
    plays: int = 1,
    piles: Sequence[str] | None = None,
    scope: Sequence[int] | None = None,
    totals: Sequence[int] | None = None,
    fresh: bool = False,
    last_capturer: int = -1,
) -> GameState:
    """A GameState in PLAY with the given hands/table; ``stock`` is listed in draw order
    (first card drawn first).  ``plays`` > 0 by default so the position is not the
    round's first play (V10)."""
    n = rules.players
    assert len(hands) == n
    if dealer is None:
        dealer = n - 1
    s = GameState.new(rules, dealer)
    s.phase = Phase.PLAY
    s.round_no = 1
    s.hands = [m(h) for h in hands]
    s.table = m(table)
    s.stock = [int(x) for x in parse_cards(stock)][::-1]
    s.in_hands = sum(h.bit_count() for h in s.hands)
    s.dealer = dealer
    s.to_move = (dealer + 1) % n if to_move is None else to_move
    s.plays = plays
    s.fresh = [fresh] * n
    s.last_capturer = last_capturer
    if piles is not None:
        s.piles = [m(p) for p in piles]
    if scope is not None:
        s.scope = list(scope)
    if totals is not None:
        s.totals = list(totals)
    all_masks = [*s.hands, s.table, *s.piles, mask_of(s.stock)]
    used = 0
    for x in all_masks:
        assert not used & x, "a card appears twice in the position"
        used |= x
    return s


def minimax(s: GameState, side: int) -> float:
    """The exact value of a two-side position for ``side``: every hand and the stock in
    sight, both sides playing their best to the round's end (R21)."""
    if s.phase is not Phase.PLAY:
        p = s.history[-1].points
        return p[side] - p[1 - side]
    values = []
    for play in s.legal_plays():
        c = s.copy()
        c.push(play)
        values.append(minimax(c, side))
    return max(values) if s.side[s.to_move] == side else min(values)


def dealt(rules: RuleSet, rng: random.Random, dealer: int = 0) -> GameState:
    """A round just dealt from ``rng``'s shuffles (a void deal is shuffled again, R10)."""
    s = GameState.new(rules, dealer)
    while s.phase is Phase.DEAL:
        order = list(range(40))
        rng.shuffle(order)
        s.apply(Deal(tuple(order)))
    return s


def deal_order(
    rules: RuleSet,
    dealer: int,
    hands: dict[int, str] | None = None,
    table: str = "",
    stock: str = "",
) -> Deal:
    """A Deal giving seat ``s`` the cards ``hands[s]`` and the table ``table``; the stock
    starts with ``stock`` (draw order); every other card fills in, in id order."""
    hands = hands or {}
    n, k, t = rules.players, rules.hand_size, rules.table_cards
    wanted = set()
    for text in [*hands.values(), table, stock]:
        for x in parse_cards(text):
            assert int(x) not in wanted
            wanted.add(int(x))
    spare = [x for x in range(40) if x not in wanted]
    order: list[int] = []

    def take(text: str, size: int) -> None:
        chosen = [int(x) for x in parse_cards(text)]
        assert len(chosen) <= size
        order.extend(chosen)
        for _ in range(size - len(chosen)):
            order.append(spare.pop(0))

    for j in range(n):
        take(hands.get((dealer + 1 + j) % n, ""), k)
    take(table, t)
    chosen = [int(x) for x in parse_cards(stock)]
    order.extend(chosen)
    order.extend(spare)
    assert sorted(order) == list(range(40))
    return Deal(tuple(order))


def snapshot(s: GameState) -> dict[str, object]:
    """Every field of a state, deep enough to detect any change."""
    out: dict[str, object] = {}
    for name in GameState.__slots__:
        if name == "caps":
            continue
        v = getattr(s, name)
        if isinstance(v, list):
            v = [list(x) if isinstance(x, list) else x for x in v]
        elif isinstance(v, dict):
            v = dict(v)
        out[name] = v
    return out


def make_players(rules: RuleSet, kinds: Sequence[str], seed: int) -> list:
    out = []
    for i in range(rules.players):
        kind = kinds[i % len(kinds)]
        out.append(RandomBot(seed=seed * 101 + i) if kind == "random" else GreedyBot())
    return out


def drive(
    rules: RuleSet,
    seed: int,
    kinds: Sequence[str] = ("random",),
    hook: Callable[[GameState, object], None] | None = None,
    max_actions: int = 20000,
) -> tuple[GameState, int, list]:
    """Play a whole game synchronously with bots; returns (state, first dealer, log)."""
    rng = random.Random(seed)
    first = rng.randrange(rules.players)
    s = GameState.new(rules, first)
    players = make_players(rules, kinds, seed)
    log: list = []
    while s.phase is not Phase.OVER:
        assert len(log) < max_actions, "game does not terminate"
        if s.phase is Phase.DEAL:
            order = list(range(40))
            rng.shuffle(order)
            action = Deal(tuple(order))
            s.apply(action)
        else:
            seat = s.to_move
            legal = s.legal_actions()
            action = players[seat].pick(view(s, seat), legal)
            assert action in legal
            s.apply(action, seat)
        log.append(action)
        if hook is not None:
            hook(s, action)
    return s, first, log



# ---------------------------------------------------------------- an independent scorer

_HONOUR_RANKS = {1, 8, 9, 10}


def reference_breakdown(rules: RuleSet, piles: Sequence[int], scope: Sequence[int],
                        declared: Sequence[int]) -> list[dict]:
    """RULES.md R21 + the variant extras, written independently of engine/scoring.py
    (from Card objects, not masks) so the two can disagree if either is wrong."""
    from scopa.engine import Category, Suit

    sides = [cards_in(p) for p in piles]
    out: list[dict] = [{} for _ in sides]

    def most(cat, counts):
        top = max(counts)
        if top > 0 and counts.count(top) == 1:
            out[counts.index(top)][cat] = 1

    if rules.frac:  # V12
        for i, cards in enumerate(sides):
            n = sum(1 for x in cards if x.value in _HONOUR_RANKS)
            if n:
                out[i][Category.HONOURS] = n
        return out

    def prim(cards):
        best = {}
        for x in cards:
            best[x.suit] = max(best.get(x.suit, 0), x.primiera)
        return sum(best.values()) if len(best) == 4 else 0

    def has(cards, text):
        return any(str(x) == text for x in cards)

    def run_from_ace(cards, top):
        n = 0
        while n < top and has(cards, "A234567FCR"[n] + "d"):
            n += 1
        return n if n >= 3 else 0

    most(Category.CARTE, [len(x) for x in sides])
    most(Category.DENARI, [sum(1 for y in x if y.suit is Suit.DENARI) for x in sides])
    most(Category.PRIMIERA, [prim(x) for x in sides])
    if rules.escoba:
        most(Category.SEVENS, [sum(1 for y in x if y.value == 7) for x in sides])
    for i, cards in enumerate(sides):
        o = out[i]
        if has(cards, "7d"):
            o[Category.SETTEBELLO] = 1
        if scope[i]:
            o[Category.SCOPE] = scope[i]
            if rules.ponino and sum(1 for y in cards if y.value == 9) == 4:
                o[Category.PONINO] = scope[i]
        if rules.re_bello and has(cards, "Rd"):
            o[Category.RE_BELLO] = 1
        if rules.napola and run_from_ace(cards, 10):
            o[Category.NAPOLA] = run_from_ace(cards, 10)
        if rules.trentino:
            pts = sum(v for v, t in ((1, "Ad"), (2, "2d"), (3, "3d")) if has(cards, t))
            if pts:
                o[Category.TRENTINO] = pts
        if rules.escoba and sum(1 for y in cards if y.value == 7) == 4:
            o[Category.ALL_SEVENS] = 1
        if rules.cirulla:
            if run_from_ace(cards, 6):
                o[Category.PICCOLA] = run_from_ace(cards, 6)
            if has(cards, "Fd") and has(cards, "Cd") and has(cards, "Rd"):
                o[Category.GRANDE] = 5
        if declared[i]:
            o[Category.DECLARATIONS] = declared[i]
    return out


# ---------------------------------------------------------------- whole-game invariants

ALL40 = (1 << 40) - 1


def _cards_in_view(obj, found: list) -> None:
    """Every Card anywhere inside a view field (recursively)."""
    from scopa.engine import Card

    if isinstance(obj, Card):
        found.append(int(obj))
    elif isinstance(obj, (tuple, list)):
        for x in obj:
            _cards_in_view(x, found)


def check_step(s: GameState) -> None:
    """Invariants that hold after every action (R1, R19, R7)."""
    from dataclasses import fields

    if s.phase is not Phase.PLAY:
        return
    parts = [*s.hands, s.table, *s.piles, mask_of(s.stock)]
    assert sum(p.bit_count() for p in parts) == 40, "a card is duplicated or lost"
    union = 0
    for p in parts:
        union |= p
    assert union == ALL40
    stock = mask_of(s.stock)
    for seat in range(s.n):
        v = view(s, seat)
        assert mask_of(v.hand) == s.hands[seat]
        declared = 0
        for other, hand in v.declared_hands:
            assert mask_of(hand) == s.declared_hands[other]
            declared |= mask_of(hand)
        secret = stock
        for other in range(s.n):
            if other != seat:
                secret |= s.hands[other]
        seen: list[int] = []
        for f in fields(v):
            if f.name in ("declared_hands", "rules"):
                continue
            _cards_in_view(getattr(v, f.name), seen)
        leaked = mask_of(seen) & secret
        assert not leaked, f"seat {seat} sees {cards_in(leaked)}"
        assert not (mask_of(seen) | declared) & stock  # never the stock
        assert v.stock_left == len(s.stock)
        assert v.hand_sizes == tuple(h.bit_count() for h in s.hands)


def check_game(rules: RuleSet, seed: int, kinds: Sequence[str]) -> GameState:
    """Play a game checking invariants at every step, scores at every round end, and
    the replay at the end (R1, R19, R21, R22, R23, determinism)."""
    from scopa.engine import replay

    rounds_seen = [0]

    def hook(s: GameState, action) -> None:
        check_step(s)
        if len(s.history) > rounds_seen[0]:
            rounds_seen[0] = len(s.history)
            score = s.history[-1]
            # the piles, table (nobody captured), scope and declarations of that round
            assert sum(p.bit_count() for p in s.piles) + s.table.bit_count() == 40
            ref = reference_breakdown(rules, s.piles, s.scope, s.declared)
            for side in range(s.num_sides):
                assert dict(score.breakdown[side]) == ref[side], (side, score, ref)
                assert score.points[side] == sum(ref[side].values())
            assert s.totals == [sum(r.points[i] for r in s.history) for i in range(s.num_sides)]

    s, first, log = drive(rules, seed, kinds, hook)
    assert s.totals == [sum(r.points[i] for r in s.history) for i in range(s.num_sides)]
    assert s.winner is not None and s.end_reason is not None
    from scopa.engine import EndReason

    if s.end_reason is EndReason.TARGET:
        assert s.totals[s.winner] >= rules.target
        assert all(t < s.totals[s.winner] for i, t in enumerate(s.totals) if i != s.winner)
    r = replay(rules, first, log)
    assert r.totals == s.totals and r.history == s.history and r.piles == s.piles
    assert r.winner == s.winner and r.end_reason == s.end_reason
    assert r.hands == s.hands and r.table == s.table and r.scope == s.scope
    assert r.round_no == s.round_no and r.dealer == s.dealer
    return s


def check_master(rules: RuleSet, seed: int, kinds: Sequence[str]) -> None:
    """GameMaster games terminate, replay from their record, and are deterministic."""
    import asyncio

    from scopa.engine import play_local, replay

    record = asyncio.run(play_local(rules, make_players(rules, kinds, seed), seed))
    assert record.reason is not None and record.winner is not None
    again = asyncio.run(play_local(rules, make_players(rules, kinds, seed), seed))
    assert again == record
    r = replay(rules, record.first_dealer, list(record.actions))
    assert r.phase is Phase.OVER
    assert tuple(r.totals) == record.totals and r.winner == record.winner
    assert len(r.history) == record.rounds and r.end_reason == record.reason
    other = asyncio.run(play_local(rules, make_players(rules, kinds, seed + 1), seed + 1))
    assert other.actions != record.actions


@pytest.fixture
def clock() -> FakeClock:
    """A fake clock the test moves: the servers and clients given it take their time from it."""
    return FakeClock()


@pytest.fixture
async def port() -> AsyncIterator[int]:
    """A real server on 127.0.0.1 (port 0) for the test's duration: its port."""
    from scopa.server import NetworkEngine

    engine = NetworkEngine(host="127.0.0.1", port=0)
    await engine.start()
    try:
        yield engine.port
    finally:
        await engine.stop()


def random_turns(rules: RuleSet, games: int, seed: int) -> Iterator[tuple[GameState, random.Random]]:
    """Seeded random games: each time a seat is to move, the state (and the rng to pick
    with); the caller makes the move."""
    rng = random.Random(seed)
    for _ in range(games):
        s = GameState.new(rules, rng.randrange(rules.players))
        while s.phase is not Phase.OVER:
            if s.phase is Phase.DEAL:
                order = list(range(40))
                rng.shuffle(order)
                s.apply(Deal(tuple(order)))
                continue
            before = s.plays, s.round_no, len(s.declared_hands)
            yield s, rng
            assert (s.plays, s.round_no, len(s.declared_hands)) != before, "the caller must move"
