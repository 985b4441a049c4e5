"""The game master (R7): the non-playing authority of one table.

It shuffles (seeded), deals, asks the seat to move for an action through the
:class:`~scopa.engine.player.Player` interface, checks it with the engine, applies it
and tells every seat what it may see.  The same class runs local games and, behind the
server, network games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Awaitable, Callable, Sequence

from .actions import Action, Deal, Declare, Play
from .cards import CARDS, Card, cards_of
from .errors import IllegalMoveError
from .events import (
    DealVoid,
    Declared,
    Event,
    GameEnded,
    GameStarted,
    HandDealt,
    Played,
    RoundEnded,
    RoundStarted,
)
from .player import Player
from .rules import RuleSet
from .state import EndReason, GameState, Phase

# How many refused answers a seat gets in one turn before the game master plays for it.
MAX_REFUSALS = 3


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game: enough to replay it (rules, first dealer, actions)."""

    rules: RuleSet
    seed: int
    first_dealer: int
    actions: tuple[Action, ...]
    winner: int | None
    totals: tuple[int, ...]
    reason: EndReason | None
    rounds: int


Observer = Callable[[Event], Awaitable[None]]


@dataclass(slots=True)
class GameMaster:
    """Runs one game between ``players`` (one per seat) from a seed."""

    rules: RuleSet
    players: Sequence[Player]
    seed: int
    observers: list[Observer] = field(default_factory=list)  # e.g. spectators, logs
    journal: Callable[[Action], Awaitable[None] | None] | None = None
    """Called with each action once it is applied and before anyone is told of it, so a
    server can make it durable before acknowledging it; if it returns an awaitable, that
    is awaited before the action is announced."""
    state: GameState = field(init=False)
    actions: list[Action] = field(init=False, default_factory=list)
    first_dealer: int = field(init=False)
    _shuffles: int = field(init=False, default=0, repr=False)  # deals shuffled so far

    def __post_init__(self) -> None:
        if len(self.players) != self.rules.players:
            raise ValueError(f"{self.rules.players} players needed, {len(self.players)} given")
        self.first_dealer = self._generator().randrange(self.rules.players)  # R8
        self.state = GameState.new(self.rules, self.first_dealer)

    def _generator(self) -> random.Random:
        """The seeded generator, from its start: the first dealer, then one shuffle per deal."""
        return random.Random(self.seed)

    def _next_order(self) -> list[int]:
        """The next deal's shuffle.  No generator is kept between deals (its state is
        2.5 kB, for every table of a server): it is drawn again from the seed, and gives
        the same orders as one generator drawn in turn."""
        rng = self._generator()
        rng.randrange(self.rules.players)
        for _ in range(self._shuffles + 1):
            order = list(range(40))
            rng.shuffle(order)
        self._shuffles += 1
        return order

    def restore(self, actions: Sequence[Action]) -> None:
        """Bring a new game master to where a journaled game stood: replay ``actions``.

        The seeded shuffles are drawn again and must match the journaled deals, so a
        journal that does not belong to this seed is refused (``ValueError``).
        """
        if self.actions:
            raise ValueError("restore() is for a game master that has not started")
        rng = self._generator()
        rng.randrange(self.rules.players)
        for action in actions:
            if isinstance(action, Deal):
                order = list(range(40))
                rng.shuffle(order)
                if tuple(order) != tuple(action.order):
                    raise ValueError("the journal's deal does not follow from the seed")
                self._shuffles += 1
            self.state.apply(action, None if isinstance(action, Deal) else self.state.to_move)
            self.actions.append(action)

    async def run(self) -> GameRecord:
        """Play the game (from its start, or from where :meth:`restore` left it) to its end."""
        state = self.state
        if not self.actions:
            names = tuple(getattr(p, "name", f"seat {i}") for i, p in enumerate(self.players))
            await self._public(GameStarted(self.rules, names, self.first_dealer))
        while state.phase is not Phase.OVER:
            if state.phase is Phase.DEAL:
                await self._deal()
            else:
                await self._turn()
        return self.record()

    def record(self) -> GameRecord:
        s = self.state
        return GameRecord(
            rules=self.rules,
            seed=self.seed,
            first_dealer=self.first_dealer,
            actions=tuple(self.actions),
            winner=s.winner,
            totals=tuple(s.totals),
            reason=s.end_reason,
            rounds=len(s.history),
        )

    # ------------------------------------------------------------------ internals

    async def _public(self, event: Event) -> None:
        for p in self.players:
            await p.notify(event)
        for obs in self.observers:
            await obs(event)

    async def _tell_hands(self, seats: Sequence[int]) -> None:
        s = self.state
        for seat in seats:
            await self.players[seat].notify(
                HandDealt(seat, cards_of(s.hands[seat]), len(s.stock))
            )

    def _apply(self, action: Action, seat: int | None = None) -> Awaitable[None] | None:
        """Apply a deal, or an action taken from ``legal_actions()``: a play from that list
        needs no second check, so it goes straight to ``push``.  Returns what the journal
        returned: the caller awaits it before announcing the action."""
        if isinstance(action, Play):
            self.state.push(action)
        else:
            self.state.apply(action, seat)
        self.actions.append(action)
        if self.journal is not None:
            return self.journal(action)
        return None

    async def _deal(self) -> None:
        s = self.state
        order = self._next_order()
        durable = self._apply(Deal(tuple(order)))
        if durable is not None:
            await durable
        if s.phase is Phase.DEAL:
            table = order[s.rules.players * s.rules.hand_size :][: s.rules.table_cards]
            await self._public(DealVoid(s.dealer, tuple(CARDS[c] for c in table)))
            return
        bonus_cards: tuple[Card, ...] = ()
        if s.dealer_bonus:
            bonus_cards = cards_of(s.piles[s.side[s.dealer]])
        await self._public(
            RoundStarted(s.round_no, s.dealer, cards_of(s.table), s.dealer_bonus, bonus_cards)
        )
        await self._tell_hands(range(s.n))

    async def _turn(self) -> None:
        s = self.state
        seat = s.to_move
        player = self.players[seat]
        legal = s.legal_actions()
        action: Play | Declare | None = None
        forced = False
        for _ in range(MAX_REFUSALS):
            answer = await player.take_turn(s, seat, legal)
            if answer in legal:
                action = legal[legal.index(answer)]  # the engine's own value (a plain tuple may be equal)
                break
            # Not in the list: the engine says precisely why.
            error = s.explain(answer, seat) or IllegalMoveError(f"{answer!r} is not among the legal moves")
            await player.rejected(error)
        if action is None:
            action = s.default_action()
            forced = True
        await self._apply_and_announce(action, seat, forced)

    async def _apply_and_announce(self, action: Play | Declare, seat: int, forced: bool = False) -> None:
        """Apply an action taken from ``legal_actions()`` for ``seat`` and tell everyone
        what they may see."""
        s = self.state
        rounds_before = len(s.history)
        stock_before = len(s.stock)
        table_before = s.table
        durable = self._apply(action, seat)
        if durable is not None:
            await durable
        if isinstance(action, Declare):
            await self._public(Declared(seat, action, cards_of(s.declared_hands[seat])))
            return
        table_after = table_before ^ action.capture if action.capture else table_before | (1 << action.card)
        await self._public(
            Played(seat, CARDS[action.card], cards_of(action.capture), s.last_scopa,
                   cards_of(table_after), forced)
        )
        if len(s.history) > rounds_before:
            left = cards_of(s.leftovers)
            await self._public(
                RoundEnded(len(s.history), s.history[-1], left, s.last_capturer if left else None, tuple(s.totals))
            )
        elif s.phase is Phase.PLAY and len(s.stock) < stock_before:
            if s.rules.refill_each_turn:
                await self._tell_hands([seat])
            else:
                await self._tell_hands(range(s.n))
        if s.phase is Phase.OVER:
            assert s.end_reason is not None
            await self._public(GameEnded(s.winner, tuple(s.totals), s.end_reason))


async def play_local(rules: RuleSet, players: Sequence[Player], seed: int) -> GameRecord:
    """LocalGame: a GameMaster with in-process players, run to the end."""
    return await GameMaster(rules, players, seed).run()
