"""The game master (R7): the non-playing authority of one table.

It shuffles (seeded), deals, asks the seat to move for an action, checks the answer with
the engine, applies it and says who may see what.  It is a state machine with no I/O:
:meth:`GameMaster.start`, :meth:`GameMaster.receive` and :meth:`GameMaster.timeout`
return the :mod:`~scopa.engine.effects` their driver carries out, in order (a local game:
:class:`~scopa.engine.local.LocalGame`; a network table: the server's).  A player is
handed a view of the game, never its state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Sequence

from .actions import Action, Deal, Declare, Play
from .cards import CARDS, Card, cards_of
from .effects import Announce, Ask, Effect, GameOver, GameRecord, Journal, Refused, SeatView
from .events import (
    DealVoid,
    Declared,
    Forced,
    GameEnded,
    GameStarted,
    HandDealt,
    Played,
    RoundEnded,
    RoundStarted,
)
from .rules import RuleSet
from .sensible import sensible_play
from .state import GameState, Phase, replay

# How many refused answers a seat gets in one turn before the game master plays for it.
MAX_REFUSALS = 3

# The phases read on every move, as plain names: an enum member read from its class goes
# through the enum's metaclass (``EnumType.__getattr__``), ten times slower.
_DEAL, _PLAY, _OVER = Phase.DEAL, Phase.PLAY, Phase.OVER


@dataclass(slots=True)
class GameMaster:
    """One game from a seed: the authority that every driver of a table runs."""

    rules: RuleSet
    seed: int
    names: Sequence[str] = ()  # per seat, for GameStarted (default: "seat N")
    deals: Callable[[int], Sequence[int]] | None = None
    """The card order of the n-th deal (0: the first), and the first dealer is ``dealer``;
    None: both drawn from the seed (R8).  The arena deals the same orders to both sides."""
    dealer: int | None = None
    state: GameState = field(init=False)
    actions: list[Action] = field(init=False, default_factory=list)
    first_dealer: int = field(init=False)
    _shuffles: int = field(init=False, default=0, repr=False)  # deals shuffled so far
    _started: bool = field(init=False, default=False, repr=False)
    _ask: Ask | None = field(init=False, default=None, repr=False)  # the turn waiting for an answer
    _refusals: int = field(init=False, default=0, repr=False)  # answers of that turn refused so far
    _past: tuple[int, GameState] | None = field(init=False, default=None, repr=False)  # state_after's last

    def __post_init__(self) -> None:
        if self.names and len(self.names) != self.rules.players:
            raise ValueError(f"{self.rules.players} players needed, {len(self.names)} given")
        drawn = self._generator().randrange(self.rules.players)  # R8
        self.first_dealer = drawn if self.dealer is None else self.dealer
        self.state = GameState.new(self.rules, self.first_dealer)

    def _generator(self) -> random.Random:
        """The seeded generator, from its start: the first dealer, then one shuffle per deal."""
        return random.Random(self.seed)

    def _next_order(self) -> list[int]:
        """The next deal's shuffle.  No generator is kept between deals (its state is
        2.5 kB, for every table of a server): it is drawn again from the seed, and gives
        the same orders as one generator drawn in turn."""
        if self.deals is not None:
            self._shuffles += 1
            return list(self.deals(self._shuffles - 1))
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
        if self.actions or self._started:
            raise ValueError("restore() is for a game master that has not started")
        rng = self._generator()
        rng.randrange(self.rules.players)
        for action in actions:
            if isinstance(action, Deal):
                if self.deals is not None:
                    order = list(self.deals(self._shuffles))
                else:
                    order = list(range(40))
                    rng.shuffle(order)
                if tuple(order) != tuple(action.order):
                    raise ValueError("the journal's deal does not follow from the seed")
                self._shuffles += 1
            self.state.apply(action, None if isinstance(action, Deal) else self.state.to_move)
            self.actions.append(action)

    # ------------------------------------------------------------------ the three inputs

    def start(self) -> list[Effect]:
        """Begin the game (from its start, or from where :meth:`restore` left it): its
        announcements and deals up to the first question (or the end)."""
        if self._started:
            raise ValueError("the game master has started already")
        self._started = True
        effects: list[Effect] = []
        if not self.actions:
            names = tuple(self.names) or tuple(f"seat {i}" for i in range(self.rules.players))
            effects.append(Announce(GameStarted(self.rules, names, self.first_dealer)))
        self._advance(effects)
        return effects

    @property
    def asking(self) -> Ask | None:
        """The question waiting for its answer (None: the game is over or not started)."""
        return self._ask

    def receive(self, seat: int, answer: Play | Declare | None) -> list[Effect]:
        """``seat``'s answer to the waiting :class:`Ask` (None: an answer that was not an
        action at all).  A legal one is applied; any other is refused and the same
        question asked again, but the :data:`MAX_REFUSALS`-th refusal of a turn makes the
        game master play the default move instead.  ``ValueError`` if no question of
        ``seat`` waits."""
        ask = self._ask
        if ask is None or ask.seat != seat:
            ask = self._waiting(seat)  # raises
        legal = ask.legal
        if answer is not None and answer in legal:
            return self._play(legal[legal.index(answer)], seat)  # the engine's own value
        self._refusals += 1
        error = None if answer is None else self.state.explain(answer, seat)
        effects: list[Effect] = [Refused(seat, answer, error, self._refusals)]
        if self._refusals >= MAX_REFUSALS:
            effects += self._play(self.default_play(), seat, Forced.REFUSED)
        else:
            effects.append(ask)
        return effects

    def timeout(self, seat: int) -> list[Effect]:
        """``seat``'s time to answer is up: the game master plays its default move.  No
        effect if no question of ``seat`` waits (it was answered meanwhile)."""
        if self._ask is None or self._ask.seat != seat:
            return []
        return self._play(self.default_play(), seat, Forced.TIMEOUT)

    def default_play(self) -> Play:
        """The move the game master makes for the seat asked when it does not answer in
        time or keeps answering wrongly: the sensible play (:mod:`.sensible`) among its
        legal plays, chosen from that seat's own view (never a declaration, which is a
        choice).  ``ValueError`` if no question waits."""
        ask = self._ask
        if ask is None:
            raise ValueError("no question waits for an answer")
        return sensible_play(ask.view, [a for a in ask.legal if isinstance(a, Play)])

    def state_after(self, count: int) -> GameState:
        """The game as it stood after its first ``count`` actions (the state itself when
        that is all of them).  A driver telling of an action sees the game as it was
        then, though the game master may be a deal further on."""
        if count >= len(self.actions):
            return self.state
        if self._past is None or self._past[0] != count:
            self._past = (count, replay(self.rules, self.first_dealer, self.actions[:count]))
        return self._past[1]

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

    def _waiting(self, seat: int) -> Ask:
        if self._ask is None or self._ask.seat != seat:
            raise ValueError(f"no question of seat {seat} waits for an answer")
        return self._ask

    def _advance(self, effects: list[Effect]) -> None:
        """Deal as needed, then ask the seat to move (or end the game)."""
        s = self.state
        while s.phase is _DEAL:
            self._deal(effects)
        if s.phase is _OVER:
            self._ask = None
            effects.append(GameOver(self.record()))
            return
        self._refusals = 0
        self._ask = Ask(s.to_move, tuple(s.legal_actions()), SeatView(s, s.to_move), len(self.actions))
        effects.append(self._ask)

    def _apply(self, action: Action, effects: list[Effect], seat: int | None = None, forced: Forced | None = None) -> None:
        """Apply a deal, or an action taken from ``legal_actions()`` (a play from that list
        needs no second check, so it goes straight to ``push``), and journal it: the
        journal effect comes before any announcement of the action."""
        if isinstance(action, Play):
            self.state.push(action)
        else:
            self.state.apply(action, seat)
        self.actions.append(action)
        scopa = isinstance(action, Play) and self.state.last_scopa
        effects.append(Journal(len(self.actions) - 1, action, seat, forced, scopa))

    def _deal(self, effects: list[Effect]) -> None:
        s = self.state
        order = self._next_order()
        self._apply(Deal(tuple(order)), effects)
        if s.phase is Phase.DEAL:
            table = order[s.rules.players * s.rules.hand_size :][: s.rules.table_cards]
            effects.append(Announce(DealVoid(s.dealer, tuple(CARDS[c] for c in table))))
            return
        bonus_cards: tuple[Card, ...] = ()
        if s.dealer_bonus:
            bonus_cards = cards_of(s.piles[s.side[s.dealer]])
        effects.append(Announce(
            RoundStarted(s.round_no, s.dealer, cards_of(s.table), s.dealer_bonus, bonus_cards, len(s.stock))
        ))
        self._tell_hands(range(s.n), effects)

    def _tell_hands(self, seats: Sequence[int], effects: list[Effect]) -> None:
        s = self.state
        for seat in seats:
            effects.append(Announce(HandDealt(seat, cards_of(s.hands[seat]), len(s.stock)), seat))

    def _play(self, action: Play | Declare, seat: int, forced: Forced | None = None) -> list[Effect]:
        """Apply an action taken from ``legal_actions()`` for ``seat``: its journal, what
        everyone may see of it, and what follows up to the next question."""
        s = self.state
        if self._ask is not None:
            self._ask.seat_view.close()
        self._ask = None
        effects: list[Effect] = []
        rounds_before = len(s.history)
        stock_before = len(s.stock)
        table_before = s.table
        self._apply(action, effects, seat, forced)
        if isinstance(action, Declare):
            effects.append(Announce(Declared(seat, action, cards_of(s.declared_hands[seat]))))
            self._advance(effects)
            return effects
        table_after = table_before ^ action.capture if action.capture else table_before | (1 << action.card)
        effects.append(Announce(Played(seat, CARDS[action.card], cards_of(action.capture), s.last_scopa,
                                       cards_of(table_after), forced is not None, forced)))
        if len(s.history) > rounds_before:
            left = cards_of(s.leftovers)
            effects.append(Announce(RoundEnded(
                len(s.history), s.history[-1], left, s.last_capturer if left else None, tuple(s.totals),
                tuple(s.piles), tuple(s.scope), tuple(s.declared),
            )))
        elif s.phase is _PLAY and len(s.stock) < stock_before:
            self._tell_hands([seat] if s.rules.refill_each_turn else range(s.n), effects)
        if s.phase is _OVER:
            assert s.end_reason is not None
            effects.append(Announce(GameEnded(s.winner, tuple(s.totals), s.end_reason)))
        self._advance(effects)
        return effects
