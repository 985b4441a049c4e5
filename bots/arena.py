"""The arena: two bots over paired deals, on the engine directly.

A deal is one round's shuffle.  Each deal is played twice with the seats swapped, so
both bots hold the same cards once; with teams (scopone) each side is a team of the same
bot.  The report gives A's mean round-point margin per round with a 95% interval over
deals, win/draw/loss per round, and each bot's mean, median, 95th- and 99th-percentile
CPU time per move.  Asked for the ceiling, the arena also plays ``cheater`` (the expert's
search with every hand in sight, which only the arena can seat) against B on each deal
and reports the share of it A reaches: (A - B) / (cheater - B).
"""

from __future__ import annotations

import asyncio
import math
import random
import statistics
import time
from dataclasses import dataclass, field
from multiprocessing import get_all_start_methods, get_context
from typing import Any, Callable, Mapping, Sequence

from scopa.engine import (
    Announce,
    Ask,
    Deal,
    Declare,
    GameMaster,
    GameOver,
    GameState,
    Phase,
    Play,
    Player,
    Refused,
    RoundEnded,
    RuleSet,
)
from scopa.engine.scoring import RoundScore, score_round

from .base import Bot
from .cheater import CHEATER, CheaterBot
from .loader import build_player, load_bot_class
from .registry import STRATEGIES, make_bot

ARENA_ONLY: dict[str, Callable[[int], CheaterBot]] = {CHEATER: lambda seed: CheaterBot(seed=seed)}
"""Bots the arena measures against but that no table seats (they see every hand)."""

Z95 = 1.959963984540054  # the normal distribution's 97.5th percentile


class ArenaError(ValueError):
    """A bot that cannot be found or built, or that answered with an illegal move."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One round of a deal: A's margin (A's side points minus B's), CPU per move, and
    A's margin in each scoring category either side scored in (name, points)."""

    margin: float
    a_points: int
    b_points: int
    a_ms: tuple[float, ...]
    b_ms: tuple[float, ...]
    categories: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class DealOutcome:
    index: int
    games: tuple[GameOutcome, GameOutcome]  # A on the first seats, then on the others

    @property
    def margin(self) -> float:
        return (self.games[0].margin + self.games[1].margin) / 2


@dataclass(frozen=True, slots=True)
class Interval:
    mean: float
    low: float
    high: float


def mean_interval(values: Sequence[float], z: float = Z95) -> Interval:
    """The mean and its normal-approximation confidence interval (sample sd / sqrt n)."""
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    m = statistics.fmean(values)
    if n == 1:
        return Interval(m, -math.inf, math.inf)
    half = z * statistics.stdev(values) / math.sqrt(n)
    return Interval(m, m - half, m + half)


def category_means(rounds: Sequence[Mapping[str, int]]) -> dict[str, float]:
    """A's mean margin per round in each category any of ``rounds`` scored (a round
    that did not score a category counts 0 there), by name."""
    names = sorted({k for r in rounds for k in r})
    return {k: statistics.fmean(r.get(k, 0) for r in rounds) for k in names}


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` (0..1) quantile by the nearest-rank method."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def deal_order(seed: int, index: int, rules: RuleSet, dealer: int) -> tuple[int, ...]:
    """The shuffle of deal ``index``: reproducible, and never a void deal (R10, V13)."""
    rng = random.Random(f"arena:{seed}:{index}")
    while True:
        order = list(range(40))
        rng.shuffle(order)
        probe = GameState.new(rules, dealer)
        probe.apply(Deal(tuple(order)))
        if probe.phase is Phase.PLAY:
            return tuple(order)


Contestant = Player | CheaterBot
BotFactory = Callable[[int], Contestant]  # seed -> a fresh bot


def bot_factory(spec: str) -> BotFactory:
    """A built-in strategy name, an arena-only bot (``cheater``), ``module:Class`` or
    ``file.py:Class``."""
    if spec in STRATEGIES:
        return lambda seed: make_bot(spec, seed=seed)
    if spec in ARENA_ONLY:
        return ARENA_ONLY[spec]
    if ":" not in spec:
        raise ArenaError(f"no bot called {spec!r}; built-in: {', '.join([*STRATEGIES, *ARENA_ONLY])}; "
                         f"or MODULE:CLASS, FILE.py:CLASS")
    try:
        cls = load_bot_class(spec)
    except ValueError as exc:
        raise ArenaError(str(exc)) from None
    return lambda seed: build_player(cls, seed=seed)


def _decide(
    bot: Contestant, state: GameState, ask: Ask, loop: asyncio.AbstractEventLoop | None,
) -> Play | Declare:
    legal = list(ask.legal)
    if isinstance(bot, CheaterBot):
        return bot.pick_seeing(state.copy(), legal)
    if isinstance(bot, Bot):
        return bot.pick(ask.view, legal)
    if loop is None:
        raise ArenaError("an asynchronous bot needs an event loop")
    return loop.run_until_complete(bot.choose(ask.view, legal))


def play_round(
    rules: RuleSet, order: tuple[int, ...], dealer: int, bots: Sequence[Contestant], a_side: int,
    clock: Callable[[], float] = time.process_time,
) -> GameOutcome:
    """Play one round from ``order``; ``bots[seat]``; A plays for side ``a_side``.  The
    round is driven by the game master, as every game is; it ends at the round's end (or
    an instant win, V8, V13)."""
    master = GameMaster(rules, 0, deals=lambda n: order, dealer=dealer)
    times: dict[int, list[float]] = {0: [], 1: []}
    loop = None if all(isinstance(b, (Bot, CheaterBot)) for b in bots) else asyncio.new_event_loop()
    score: RoundScore | None = None
    try:
        effects = master.start()
        while score is None:
            ask = None
            for effect in effects:
                if isinstance(effect, Announce) and isinstance(effect.event, RoundEnded):
                    score = effect.event.score
                elif isinstance(effect, Refused):
                    name = getattr(bots[effect.seat], "name", "a bot")
                    raise ArenaError(f"{name} (seat {effect.seat}) answered {effect.answer!r}, "
                                     "which is not a legal move")
                elif isinstance(effect, Ask):
                    ask = effect
                elif isinstance(effect, GameOver) and score is None:
                    state = master.state  # an instant win ended the game mid-round: its piles as they are
                    score = score_round(rules, state.piles, state.scope, state.declared)
            if score is not None or ask is None:
                break
            t0 = clock()
            answer = _decide(bots[ask.seat], master.state, ask, loop)
            times[0 if rules.side_of(ask.seat) == a_side else 1].append((clock() - t0) * 1000.0)
            effects = master.receive(ask.seat, answer)
    finally:
        if loop is not None:
            loop.close()
    if score is None:
        raise ArenaError("the round ended without its points")
    b_side = 1 - a_side
    a_pts, b_pts = score.points[a_side], score.points[b_side]
    mine, theirs = score.breakdown[a_side], score.breakdown[b_side]
    categories = tuple((str(c), mine.get(c, 0) - theirs.get(c, 0)) for c in sorted(set(mine) | set(theirs)))
    return GameOutcome(float(a_pts - b_pts), a_pts, b_pts, tuple(times[0]), tuple(times[1]), categories)


def play_deal(rules: RuleSet, a: BotFactory, b: BotFactory, seed: int, index: int) -> DealOutcome:
    """Deal ``index`` played twice: A's side first on the even seats (side 0), then side 1."""
    if rules.num_sides != 2:
        raise ArenaError("the arena plays two sides: 2 players, or two teams")
    dealer = index % rules.players
    order = deal_order(seed, index, rules, dealer)
    games = []
    for a_side in (0, 1):
        bots = []
        for seat in range(rules.players):
            # seeds by seat and by bot: the same bot on both sides still draws differently
            if rules.side_of(seat) == a_side:
                bots.append(a(hash_seed(seed, index, seat, 0)))
            else:
                bots.append(b(hash_seed(seed, index, seat, 1)))
        games.append(play_round(rules, order, dealer, bots, a_side))
    return DealOutcome(index, (games[0], games[1]))


def hash_seed(*parts: int) -> int:
    """A stable seed from integers (``hash`` of ints is stable across processes)."""
    return random.Random(":".join(map(str, parts))).randrange(2**31)


@dataclass
class Report:
    a: str
    b: str
    rules: str
    seed: int
    deals: list[DealOutcome] = field(default_factory=list)
    planned: int = 0  # deals asked for; more than len(deals) if the run was interrupted
    ceiling: list[DealOutcome] = field(default_factory=list)  # cheater vs B, the same deals

    def summary(self) -> dict[str, Any]:
        margins = [d.margin for d in self.deals]
        games = [g for d in self.deals for g in d.games]
        ci = mean_interval(margins)
        a_ms = [t for g in games for t in g.a_ms]
        b_ms = [t for g in games for t in g.b_ms]
        return {
            "a": self.a,
            "b": self.b,
            "rules": self.rules,
            "seed": self.seed,
            "deals": len(self.deals),
            "planned": max(self.planned, len(self.deals)),
            "rounds": len(games),
            "margin": ci.mean,
            "ci95": [ci.low, ci.high],
            "a_points": statistics.fmean(g.a_points for g in games),
            "b_points": statistics.fmean(g.b_points for g in games),
            "wins": sum(g.margin > 0 for g in games),
            "draws": sum(g.margin == 0 for g in games),
            "losses": sum(g.margin < 0 for g in games),
            "categories": category_means([dict(g.categories) for g in games]),
            "a_ms_mean": statistics.fmean(a_ms) if a_ms else 0.0,
            "a_ms_median": percentile(a_ms, 0.5),
            "a_ms_p95": percentile(a_ms, 0.95),
            "a_ms_p99": percentile(a_ms, 0.99),
            "b_ms_mean": statistics.fmean(b_ms) if b_ms else 0.0,
            "b_ms_median": percentile(b_ms, 0.5),
            "b_ms_p95": percentile(b_ms, 0.95),
            "b_ms_p99": percentile(b_ms, 0.99),
            **({"ceiling": ceiling_share(self)} if self.ceiling else {}),
        }


def format_report(s: dict[str, Any]) -> str:
    """The arena's table as plain text."""
    lo, hi = s["ci95"]
    rows = [
        f"arena: {s['a']} (A) vs {s['b']} (B), rules {s['rules']}, seed {s['seed']}",
        f"deals {s['deals']} (rounds {s['rounds']}, each deal played with seats swapped)"
        + (f", interrupted: {s['deals']} of {s['planned']} deals played" if s["planned"] > s["deals"] else ""),
        f"A margin per round  {s['margin']:+.3f}  95% CI [{lo:+.3f}, {hi:+.3f}]",
        f"points per round    A {s['a_points']:.3f}   B {s['b_points']:.3f}",
        f"A win/draw/loss     {s['wins']} / {s['draws']} / {s['losses']} rounds",
        "A by category       " + "  ".join(f"{k} {v:+.3f}" for k, v in s["categories"].items()),
        f"CPU ms per move     A mean {s['a_ms_mean']:.2f} median {s['a_ms_median']:.2f} "
        f"p95 {s['a_ms_p95']:.2f} p99 {s['a_ms_p99']:.2f}",
        f"                    B mean {s['b_ms_mean']:.2f} median {s['b_ms_median']:.2f} "
        f"p95 {s['b_ms_p95']:.2f} p99 {s['b_ms_p99']:.2f}",
    ]
    ceiling = s.get("ceiling")
    if ceiling:
        lo, hi = ceiling["ci95"]
        clo, chi = ceiling["cheater_ci95"]
        rows.append(f"cheater margin      {ceiling['cheater_margin']:+.3f}  95% CI [{clo:+.3f}, {chi:+.3f}]"
                    f"  (same deals)")
        rows.append(f"share of ceiling    {ceiling['share']:.3f}  95% CI [{lo:.3f}, {hi:.3f}]"
                    f"  (A - B) / (cheater - B)")
    return "\n".join(rows)


def ceiling_share(report: Report) -> dict[str, Any]:
    """How much of the cheater's margin over B the bot A reaches, over the deals both
    played (a ratio of paired means, its interval by the delta method)."""
    cheats = {d.index: d.margin for d in report.ceiling}
    pairs = [(d.margin, cheats[d.index]) for d in report.deals if d.index in cheats]
    if len(pairs) < 2:
        raise ArenaError("the ceiling needs at least two deals played by both")
    xs = [p[0] for p in pairs]
    ys = [p[1] for p in pairs]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    c = mean_interval(ys)
    if my == 0:
        return {"share": math.nan, "ci95": [math.nan, math.nan], "cheater_margin": my,
                "cheater_ci95": [c.low, c.high], "deals": len(pairs)}
    r = mx / my
    # the linearised ratio: x - r*y has mean 0; its spread over sqrt(n) |mean y|
    half = Z95 * statistics.stdev([x - r * y for x, y in pairs]) / (math.sqrt(len(pairs)) * abs(my))
    return {"share": r, "ci95": [r - half, r + half], "cheater_margin": my,
            "cheater_ci95": [c.low, c.high], "deals": len(pairs)}


# ---------------------------------------------------------------- running many deals

_WORKER: dict[str, Any] = {}


Outcomes = tuple[DealOutcome, DealOutcome | None]  # A vs B, and cheater vs B when asked


def _init_worker(rules: RuleSet, a: str, b: str, seed: int, ceiling: bool) -> None:
    _WORKER.update(rules=rules, a=bot_factory(a), b=bot_factory(b), seed=seed,
                   c=bot_factory(CHEATER) if ceiling else None)


def _play_index(rules: RuleSet, a: BotFactory, b: BotFactory, c: BotFactory | None, seed: int, index: int) -> Outcomes:
    return play_deal(rules, a, b, seed, index), None if c is None else play_deal(rules, c, b, seed, index)


def _run_one(index: int) -> Outcomes:
    w = _WORKER
    return _play_index(w["rules"], w["a"], w["b"], w["c"], w["seed"], index)


def run_arena(
    a: str, b: str, rules: RuleSet, deals: int, seed: int = 0, workers: int = 1,
    progress: Callable[[Report], None] | None = None, ceiling: bool = False,
) -> Report:
    """Play ``deals`` paired deals; the result does not depend on ``workers``.  With
    ``ceiling`` the cheater plays B on each deal too.  Stopped by Ctrl-C
    (KeyboardInterrupt) after some deals, it returns the deals played so far."""
    if deals < 1:
        raise ArenaError("deals must be at least 1")
    fa, fb = bot_factory(a), bot_factory(b)  # fail early on a bad name
    fc = bot_factory(CHEATER) if ceiling else None
    report = Report(a, b, rules.describe(), seed, planned=deals)
    try:
        _play_all(report, rules, fa, fb, fc, deals, workers, progress)
    except KeyboardInterrupt:
        if not report.deals:
            raise
    return report


def _play_all(
    report: Report, rules: RuleSet, fa: BotFactory, fb: BotFactory, fc: BotFactory | None, deals: int,
    workers: int, progress: Callable[[Report], None] | None,
) -> None:
    a, b, seed = report.a, report.b, report.seed

    def take(outcomes: Outcomes) -> None:
        deal, cheat = outcomes
        if cheat is not None:
            report.ceiling.append(cheat)
        report.deals.append(deal)
        if progress:
            progress(report)

    if workers <= 1:
        for i in range(deals):
            take(_play_index(rules, fa, fb, fc, seed, i))
        return
    # fork (where there is one) starts workers without re-running the caller's script
    ctx = get_context("fork" if "fork" in get_all_start_methods() else "spawn")
    with ctx.Pool(workers, _init_worker, (rules, a, b, seed, fc is not None)) as pool:
        for outcomes in pool.imap(_run_one, range(deals), chunksize=max(1, min(8, deals // (4 * workers)))):
            take(outcomes)
