"""The search over one determinized (perfect-information) round.

The searching side maximises.  Given a model of how players choose
(:class:`~scopa.bots.opponent.ReplyModel`), another side's move is valued as the
model's expectation over its plays (a play far less likely than the likeliest,
:data:`UNLIKELY`, is not searched); without one, every other side minimises the value
(for two sides plain minimax; for three the cautious "paranoid" assumption).  Leaves
are the round's end (exact) or a depth limit (:func:`~scopa.bots.evaluate.estimate`).
"""

from __future__ import annotations

from typing import Callable

from scopa.engine import GameState, Phase, Play

from .evaluate import estimate, terminal_value
from .opponent import ReplyModel

_PLAY = Phase.PLAY

SWEEP_THREAT = 0.8
"""A sweep the player to move holds at the search horizon, in round points (a scopa is
1, less the chance that something better or worse follows)."""


UNLIKELY = 0.01
"""A reply whose odds against the likeliest reply are below this is left out of the
expectation (with the default sharpness: one worth about a round point less)."""


class Search:
    """One search's settings and its work counter (nodes = plays pushed)."""

    __slots__ = ("side", "nodes", "threat", "evaluate", "replies", "trust")

    def __init__(
        self, side: int, threat: float = SWEEP_THREAT,
        evaluate: Callable[[GameState, int], float] = estimate,
        replies: ReplyModel | None = None, trust: float = 1.0,
    ) -> None:
        self.side = side
        self.nodes = 0
        self.threat = threat
        self.evaluate = evaluate
        self.replies = replies
        self.trust = trust  # the reply model's share of another side's value; the rest is the minimum

    def _sweep_threat(self, state: GameState) -> float:
        """R18 at the horizon: the player to move would take a sweep it holds."""
        table = state.table
        if not table or not self.threat or state.in_hands + len(state.stock) <= 1:
            return 0.0
        for p in state.legal_plays():
            if p[1] == table:
                return self.threat if state.side[state.to_move] == self.side else -self.threat
        return 0.0

    def value(self, state: GameState, play: Play, depth: int, alpha: float, beta: float) -> float:
        """The value of ``play`` in ``state`` (left as it was), searched ``depth`` plies
        deep counting this play."""
        self.nodes += 1
        if state.in_hands < 2 or state.special or state.instant:
            # The play may deal, end the round or change more than a hand and the table.
            child = state.copy()
            child.push(play)
            return self._node(child, depth - 1, alpha, beta)
        # Play and take back on the state itself (no copy): a play within a deal changes
        # only these fields (GameState.push).
        seat = state.to_move
        side = state.side[seat]
        hand = state.hands[seat]
        table = state.table
        pile = state.piles[side]
        scope = state.scope[side]
        last_capturer = state.last_capturer
        last_scopa = state.last_scopa
        state.push(play)
        try:
            return self._node(state, depth - 1, alpha, beta)
        finally:
            state.round_plays.pop()
            state.hands[seat] = hand
            state.table = table
            state.piles[side] = pile
            if state.scope[side] != scope:
                state.scope[side] = scope
                state.scopa_cards[side].pop()
            state.last_capturer = last_capturer
            state.last_scopa = last_scopa
            state.in_hands += 1
            state.plays -= 1
            state.to_move = seat

    def _node(self, state: GameState, depth: int, alpha: float, beta: float) -> float:
        if state.phase is not _PLAY:
            return terminal_value(state, self.side)
        if depth <= 0:
            return self.evaluate(state, self.side) + self._sweep_threat(state)
        plays = ordered(state)
        mine = state.side[state.to_move] == self.side
        if not mine and self.replies is not None:
            return self._expected(state, plays, depth)
        if depth == 1 and state.in_hands > 1 and not (state.special or state.instant):
            return self._last_ply(state, plays, alpha, beta)
        if mine:
            best = -1e9
            for p in plays:
                v = self.value(state, p, depth, alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            return best
        best = 1e9
        for p in plays:
            v = self.value(state, p, depth, alpha, beta)
            if v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best

    def _expected(self, state: GameState, plays: list[Play], depth: int) -> float:
        """Another side's move: the reply model's expectation of the plays' values (each
        searched in full, as an expectation needs exact values); with a ``trust`` below
        1, that share of the expectation plus the rest of the plays' minimum (then every
        play is searched)."""
        assert self.replies is not None
        odds = self.replies.odds(state.table, plays)
        trust = self.trust
        total = weight = 0.0
        low = 1e9
        for p, w in zip(plays, odds):
            if w >= UNLIKELY:
                v = self.value(state, p, depth, -1e9, 1e9)
                total += w * v
                weight += w
            elif trust < 1.0:
                v = self.value(state, p, depth, -1e9, 1e9)
            else:
                continue
            if v < low:
                low = v
        if trust < 1.0:
            return trust * total / weight + (1.0 - trust) * low
        return total / weight

    def _last_ply(self, state: GameState, plays: list[Play], alpha: float, beta: float) -> float:
        """:meth:`_node` one ply from the horizon within a deal: each play made, its
        position valued and the play taken back, in one loop (the search's hot path)."""
        seat = state.to_move
        side = state.side[seat]
        hands, piles, scope_ = state.hands, state.piles, state.scope
        hand, table, pile, scope = hands[seat], state.table, piles[side], scope_[side]
        last_capturer, last_scopa = state.last_capturer, state.last_scopa
        in_hands, count = state.in_hands, state.plays
        evaluate, me, threat = self.evaluate, self.side, self.threat
        undo = state.round_plays.pop
        maximize = side == me
        best = -1e9 if maximize else 1e9
        for p in plays:
            self.nodes += 1
            state.push(p)
            v = evaluate(state, me)
            if threat:
                v += self._sweep_threat(state)
            undo()
            hands[seat] = hand
            state.table = table
            piles[side] = pile
            if scope_[side] != scope:
                scope_[side] = scope
                state.scopa_cards[side].pop()
            state.last_capturer = last_capturer
            state.last_scopa = last_scopa
            state.in_hands = in_hands
            state.plays = count
            state.to_move = seat
            if maximize:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best


def ordered(state: GameState) -> list[Play]:
    """Legal plays, sweeps and bigger captures first (better cut-offs)."""
    plays = state.legal_plays()
    if len(plays) > 1:
        table = state.table
        plays.sort(key=lambda p: -(p[1].bit_count() + (8 if p[1] == table else 0)) if p[1] else 0)
    return plays


def plies_within(state: GameState, leaves: int) -> int:
    """How many plies deep a full-width search of about ``leaves`` leaves reaches (the
    product of hand sizes along the turn order, across redeals, to the round's end)."""
    hands = [h.bit_count() for h in state.hands]
    stock = len(state.stock)
    size = state.rules.hand_size
    n = state.n
    seat = state.to_move
    width = 1
    depth = 0
    left = sum(hands) + stock
    while depth < left:
        if not any(hands):
            hands = [size] * n  # R11: the next deal
            stock -= size * n
            seat = (state.dealer + 1) % n
        if not hands[seat]:
            seat = (seat + 1) % n
            continue
        width *= hands[seat]
        if width > leaves and depth > 0:
            break
        if not (state.refill and stock > 0):
            hands[seat] -= 1
        else:
            stock -= 1
        depth += 1
        seat = (seat + 1) % n
    return max(depth, 1)


def remaining_plies(state: GameState) -> int:
    return sum(h.bit_count() for h in state.hands) + len(state.stock)
