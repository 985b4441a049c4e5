"""The game state and its transitions: deal (R8-R12), turns (R13-R19), round end
(R20-R21), game end (R22) and the variants' instant wins (V8, V13).

A :class:`GameState` is mutable for speed and cheap to :meth:`~GameState.copy`.  It
changes only through :meth:`~GameState.apply` with an action; the list of actions from
:meth:`GameState.new` is the game's replayable log.
"""

from __future__ import annotations

from enum import StrEnum

from .actions import DECLARATION_POINTS, LAID, Action, Deal, DeclarationKind, Declare, Play
from .captures import CaptureRules, value_counts
from .cards import (
    BIT,
    CARDS,
    DENARI_MASK,
    SETTE_COPPE,
    VALUE,
    VALUE_MASK,
    Card,
    Suit,
    cards_in,
)
from .errors import (
    BadDeclarationError,
    CardNotInHandError,
    IllegalCaptureError,
    IllegalMoveError,
    NotYourTurnError,
    WrongPhaseError,
)
from .rules import RuleSet
from .scoring import RoundScore, score_round, winning_side
from .speedups import expand_plays


class Phase(StrEnum):
    DEAL = "deal"  # a shuffled deck (a Deal action) is due
    PLAY = "play"  # ``to_move`` must play (or, in Cirulla, may first declare)
    OVER = "over"  # the game has ended


class EndReason(StrEnum):
    TARGET = "target"  # R22
    TRENTINO = "trentino"  # V8: A, 2 and 3 of Denari captured by one side
    ALL_DENARI = "all_denari"  # V13: all ten Denari captured by one side
    ABANDONED = "abandoned"  # a server ended the game without a winner (a player left)


_TRENTINO_MASK = BIT[Card.from_parts(1, Suit.DENARI)] | BIT[Card.from_parts(2, Suit.DENARI)] | BIT[
    Card.from_parts(3, Suit.DENARI)
]
_KING_MASK = VALUE_MASK[10]
_ACE_MASK = VALUE_MASK[1]
_SETTE_COPPE_BIT = BIT[SETTE_COPPE]
_DECK = frozenset(range(40))

_PLAY = Phase.PLAY


class GameState:
    """Everything about one game; secrets (hands, stock order) are hidden by :func:`view`."""

    __slots__ = (
        "rules", "caps", "n", "side", "num_sides", "dealer", "to_move", "phase",
        "hands", "table", "stock", "in_hands", "piles", "scope", "scopa_cards",
        "declared", "fresh", "wild", "last_capturer", "plays", "round_no",
        "totals", "history", "winner", "end_reason", "last_scopa", "dealer_bonus",
        "declared_hands", "leftovers", "cirulla", "refill", "instant", "special",
        "round_plays",
    )  # fmt: skip

    rules: RuleSet
    caps: CaptureRules
    n: int
    side: tuple[int, ...]
    num_sides: int
    dealer: int
    to_move: int
    phase: Phase
    hands: list[int]
    table: int
    stock: list[int]
    in_hands: int
    piles: list[int]
    scope: list[int]
    scopa_cards: list[list[int]]
    declared: list[int]
    fresh: list[bool]
    wild: list[int]
    last_capturer: int
    plays: int
    round_no: int
    totals: list[int]
    history: list[RoundScore]
    winner: int | None
    end_reason: EndReason | None
    last_scopa: bool
    dealer_bonus: int
    declared_hands: dict[int, int]
    leftovers: int
    cirulla: bool  # flags copied from the rules for the hot path
    refill: bool
    instant: bool
    special: bool
    round_plays: list[tuple[int, int, int]]  # (seat, card, capture mask) this round, in order

    @classmethod
    def new(cls, rules: RuleSet, first_dealer: int) -> GameState:
        """A game before its first deal; R8: ``first_dealer`` is chosen by the game master."""
        if not 0 <= first_dealer < rules.players:
            raise ValueError(f"dealer must be a seat 0..{rules.players - 1}")
        s = cls.__new__(cls)
        s.rules = rules
        s.caps = CaptureRules(rules)
        s.cirulla = rules.cirulla
        s.refill = rules.refill_each_turn
        s.instant = rules.trentino or rules.cirulla
        s.special = s.cirulla or s.refill
        s.n = rules.players
        s.side = tuple(rules.side_of(i) for i in range(rules.players))
        s.num_sides = rules.num_sides
        s.dealer = first_dealer
        s.totals = [0] * s.num_sides
        s.history = []
        s.round_no = 0
        s.winner = None
        s.end_reason = None
        s._clear_round()
        s.phase = Phase.DEAL
        return s

    def _clear_round(self) -> None:
        n, k = self.n, self.num_sides
        self.to_move = (self.dealer + 1) % n
        self.hands = [0] * n
        self.table = 0
        self.stock = []
        self.in_hands = 0
        self.piles = [0] * k
        self.scope = [0] * k
        self.scopa_cards = [[] for _ in range(k)]
        self.declared = [0] * k
        self.fresh = [False] * n
        self.wild = [0] * n
        self.last_capturer = -1
        self.plays = 0
        self.last_scopa = False
        self.dealer_bonus = 0
        self.declared_hands = {}
        self.leftovers = 0
        self.round_plays = []

    def copy(self) -> GameState:
        """An independent copy (cheap: a few list copies), e.g. for a bot's search."""
        c = GameState.__new__(GameState)
        c.rules = self.rules
        c.caps = self.caps
        c.n = self.n
        c.side = self.side
        c.num_sides = self.num_sides
        c.dealer = self.dealer
        c.to_move = self.to_move
        c.phase = self.phase
        c.table = self.table
        c.in_hands = self.in_hands
        c.last_capturer = self.last_capturer
        c.plays = self.plays
        c.round_no = self.round_no
        c.winner = self.winner
        c.end_reason = self.end_reason
        c.last_scopa = self.last_scopa
        c.dealer_bonus = self.dealer_bonus
        c.leftovers = self.leftovers
        c.cirulla = self.cirulla
        c.refill = self.refill
        c.instant = self.instant
        c.special = self.special
        c.hands = self.hands[:]
        c.stock = self.stock[:]
        c.piles = self.piles[:]
        c.scope = self.scope[:]
        c.scopa_cards = [x[:] for x in self.scopa_cards]
        c.declared = self.declared[:]
        c.fresh = self.fresh[:]
        c.wild = self.wild[:]
        c.totals = self.totals[:]
        c.history = self.history[:]
        c.declared_hands = dict(self.declared_hands)
        c.round_plays = self.round_plays[:]
        return c

    # ------------------------------------------------------------------ queries

    @property
    def game_over(self) -> bool:
        return self.phase is Phase.OVER

    def hand(self, seat: int) -> list[Card]:
        return cards_in(self.hands[seat])

    def card_value(self, seat: int, card: int) -> int:
        """Capture value of a card in a seat's hand (a declared wild 7 keeps its value, V13)."""
        if card == SETTE_COPPE and self.wild[seat]:
            return self.wild[seat]
        return VALUE[card]

    def capture_options(self, seat: int, card: int) -> list[int]:
        """The capture masks ``card`` may take now (empty: it is laid on the table)."""
        return self.caps.options(self.table, self.card_value(seat, card), self.plays == 0)

    def legal_plays(self) -> list[Play]:
        """Every legal play for the seat to move, one per capture choice (R13-R17)."""
        if self.phase is not _PLAY:
            return []
        seat = self.to_move
        caps = self.caps
        key = value_counts(self.table) << 1 | (self.plays == 0)
        by_value = caps.cache.get(key) or caps.by_value(key)
        return expand_plays(self.hands[seat], self.table, by_value, self.wild[seat], SETTE_COPPE, Play, LAID)

    def legal_declarations(self) -> list[Declare]:
        """V13: the hand bonuses the seat to move may declare now (the larger only)."""
        if not self.rules.cirulla or self.phase is not Phase.PLAY:
            return []
        seat = self.to_move
        if not self.fresh[seat] or self.declared_hands.get(seat) is not None:
            return []
        return declarations_for(self.hands[seat])

    def legal_actions(self) -> list[Play | Declare]:
        """All legal actions for the seat to move (declarations first in Cirulla)."""
        if self.rules.cirulla:
            return [*self.legal_declarations(), *self.legal_plays()]
        return self.legal_plays()  # type: ignore[return-value]

    # ------------------------------------------------------------------ transitions

    def explain(self, action: object, seat: int | None = None) -> IllegalMoveError | None:
        """Why ``action`` by ``seat`` (if given) is not allowed now, or ``None`` if it is.

        The one place that decides legality: :meth:`apply` raises what this returns, and
        the game master and the server ask it instead of copying the state to find out.
        """
        if isinstance(action, Deal):
            if self.phase is not Phase.DEAL:
                return WrongPhaseError(f"no deal is due (phase {self.phase.value})")
            return None
        if self.phase is not Phase.PLAY:
            return WrongPhaseError(f"no play is due (phase {self.phase.value})")
        if seat is not None and seat != self.to_move:
            return NotYourTurnError(f"it is seat {self.to_move}'s turn, not seat {seat}'s")
        if isinstance(action, Declare):
            if action not in self.legal_declarations():
                return BadDeclarationError(f"cannot {action} with this hand now")
            return None
        if not isinstance(action, Play):
            return WrongPhaseError(f"not an action: {action!r}")
        card, capture = action
        if not isinstance(card, int) or not isinstance(capture, int):
            return WrongPhaseError(f"not an action: {action!r}")
        if not (0 <= card < 40) or not self.hands[self.to_move] >> card & 1:
            name = str(CARDS[card]) if 0 <= card < 40 else repr(card)
            return CardNotInHandError(f"{name} is not in seat {self.to_move}'s hand")
        options = self.capture_options(self.to_move, card)
        if options:
            if capture not in options:
                shown = ", ".join("{" + " ".join(map(str, cards_in(m))) + "}" for m in options)
                return IllegalCaptureError(
                    f"{CARDS[card]} cannot take {{{' '.join(map(str, cards_in(capture)))}}}; "
                    f"it must take one of: {shown}"
                )
        elif capture:
            return IllegalCaptureError(f"{CARDS[card]} cannot capture anything; it is laid on the table")
        return None

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Check and apply one action; ``seat`` (if given) must be the seat to move.

        Raises the :class:`~scopa.engine.errors.IllegalMoveError` that :meth:`explain`
        gives and leaves the state unchanged if the action is not allowed.
        """
        error = self.explain(action, seat)
        if error is not None:
            raise error
        if isinstance(action, Deal):
            self._deal(action.order)
        elif isinstance(action, Declare):
            self._declare(action)
        else:
            self.push(action)

    def _deal(self, order: tuple[int, ...]) -> None:
        if len(order) != 40 or set(order) != _DECK:
            raise WrongPhaseError("a deal needs a permutation of the 40 cards")
        r = self.rules
        n = self.n
        size = r.hand_size
        bits = BIT.__getitem__
        start = n * size
        table = sum(map(bits, order[start : start + r.table_cards]))
        # R10 (three or four kings) / V13 (two or more aces): the deal is void, redeal.
        if r.cirulla:
            if (table & _ACE_MASK).bit_count() >= 2:
                return
        elif (table & _KING_MASK).bit_count() >= 3:
            return
        hands = [0] * n
        seat = self.dealer
        for pos in range(0, start, size):  # R9: hands first, from the seat after the dealer
            seat = seat + 1 if seat + 1 < n else 0
            hands[seat] = sum(map(bits, order[pos : pos + size]))
        self._clear_round()
        self.round_no += 1
        self.hands = hands
        self.table = table
        stock = list(order[start + r.table_cards :])
        stock.reverse()  # the next card to draw is stock[-1]
        self.stock = stock
        self.in_hands = start
        self.fresh = [True] * n
        self.phase = _PLAY
        if r.cirulla:
            self._cirulla_dealer_bonus()

    def _cirulla_dealer_bonus(self) -> None:
        # V13: table totalling 15 (1 scopa) or 30 (2 scope) goes to the dealer's side;
        # the 7 of Coppe counts as any value 1..10 for this.
        table = self.table
        total = sum(VALUE[c] for c in cards_in(table))
        if table & _SETTE_COPPE_BIT:
            rest = total - 7
            reach = {rest + x for x in range(1, 11)}
        else:
            reach = {total}
        bonus = 2 if 30 in reach else 1 if 15 in reach else 0
        if bonus:
            side = self.side[self.dealer]
            self.piles[side] |= table
            self.scope[side] += bonus
            self.dealer_bonus = bonus
            self.last_capturer = side
            self.table = 0

    def _declare(self, d: Declare) -> None:
        seat = self.to_move
        self.declared_hands[seat] = self.hands[seat]
        self.declared[self.side[seat]] += DECLARATION_POINTS[d.kind]
        if d.wild is not None:
            self.wild[seat] = d.wild

    def push(self, play: Play) -> None:
        """Apply a play taken from :meth:`legal_plays` without checking it again (the hot
        path, for bots that search); anything else must go through :meth:`apply`."""
        self.round_plays.append((self.to_move, play[0], play[1]))
        card, capture = play
        seat = self.to_move
        bit = 1 << card
        self.hands[seat] ^= bit
        in_hands = self.in_hands - 1
        self.in_hands = in_hands
        self.plays += 1
        if capture:
            side = self.side[seat]
            table = self.table ^ capture
            self.table = table
            self.piles[side] |= capture | bit
            self.last_capturer = side
            # R18: a sweep is a scopa, except on the round's last play; in Cirulla the
            # ace's take-all is not a scopa (Ligurian rule).
            if table or not (in_hands or self.stock):
                self.last_scopa = False
            elif self.cirulla and self.card_value(seat, card) == 1 and not self._is_value_capture(seat, card, capture):
                self.last_scopa = False
            else:
                self.last_scopa = True
                self.scope[side] += 1
                self.scopa_cards[side].append(card)
            if self.instant and self._instant_win(side):
                return
        else:
            self.table |= bit
            self.last_scopa = False
        if self.special:  # V13 fresh hands, R12 refill
            if self.cirulla:
                self.fresh[seat] = False
            if self.refill and self.stock:
                self.hands[seat] |= BIT[self.stock.pop()]
                self.in_hands = in_hands = in_hands + 1
        if in_hands:
            self.to_move = seat + 1 if seat + 1 < self.n else 0
        elif self.stock:
            self._redeal()
        else:
            self._end_round()

    def _is_value_capture(self, seat: int, card: int, capture: int) -> bool:
        """Whether a capture is also allowed by value or by fifteen (not only by ace)."""
        v = self.card_value(seat, card)
        total = sum(VALUE[c] for c in cards_in(capture))
        return total == v or total + v == 15

    def _redeal(self) -> None:
        # R11: hand_size more cards each, starting with the seat after the dealer.
        size = self.rules.hand_size
        n = self.n
        stock = self.stock
        hands = self.hands
        bits = BIT.__getitem__
        seat = self.dealer
        for _ in range(n):
            seat = seat + 1 if seat + 1 < n else 0
            hands[seat] = sum(map(bits, stock[-size:]))
            del stock[-size:]
        self.in_hands = size * n
        self.to_move = (self.dealer + 1) % n
        if self.cirulla:
            self.fresh = [True] * n
            self.wild = [0] * n
            self.declared_hands = {}

    def _instant_win(self, side: int) -> bool:
        pile = self.piles[side]
        r = self.rules
        if r.trentino and pile & _TRENTINO_MASK == _TRENTINO_MASK:
            self._finish(side, EndReason.TRENTINO)
            return True
        if r.cirulla and pile & DENARI_MASK == DENARI_MASK:
            self._finish(side, EndReason.ALL_DENARI)
            return True
        return False

    def _finish(self, winner: int | None, reason: EndReason) -> None:
        self.winner = winner
        self.end_reason = reason
        self.phase = Phase.OVER

    def _end_round(self) -> None:
        # R20: leftovers go to the side that captured last (never a scopa).
        if self.table and self.last_capturer >= 0:
            self.leftovers = self.table
            self.piles[self.last_capturer] |= self.table
            self.table = 0
            if self._instant_win(self.last_capturer):
                return
        score = score_round(self.rules, self.piles, self.scope, self.declared)
        self.history.append(score)
        for i, p in enumerate(score.points):
            self.totals[i] += p
        # R22: the game ends when a side reaches the target; highest total wins; a tie
        # at the top means another round.
        side = winning_side(self.rules, self.totals)
        if side is not None:
            self._finish(side, EndReason.TARGET)
            return
        self.dealer = (self.dealer + 1) % self.n
        self.phase = Phase.DEAL


def declarations_for(hand: int) -> list[Declare]:
    """V13 hand bonuses a 3-card hand supports, the 7 of Coppe wild; only the larger kind."""
    cards = cards_in(hand)
    if len(cards) != 3:
        return []
    has_wild = SETTE_COPPE in cards
    others = [VALUE[c] for c in cards if c != SETTE_COPPE]
    values = [VALUE[c] for c in cards]
    if len(set(values)) == 1:
        return [Declare(DeclarationKind.TRIS)]
    if has_wild and len(others) == 2 and others[0] == others[1]:
        return [Declare(DeclarationKind.TRIS, others[0])]
    if sum(values) < 10:
        return [Declare(DeclarationKind.UNDER_TEN)]
    if has_wild:
        room = 9 - sum(others)
        return [Declare(DeclarationKind.UNDER_TEN, w) for w in range(1, room + 1)]
    return []


def replay(rules: RuleSet, first_dealer: int, actions: list[Action]) -> GameState:
    """Rebuild a game from its log; the result equals the original state."""
    s = GameState.new(rules, first_dealer)
    for a in actions:
        s.apply(a)
    return s
