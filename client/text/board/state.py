"""What the board shows, kept up to date from the game's events (and, when one comes, a
seat's :class:`~scopa.engine.View`).  No Textual here: the same state serves a local
game, a network game and a watched one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scopa.engine import (
    Card,
    Category,
    DealVoid,
    Declared,
    Event,
    Forced,
    GameEnded,
    GameStarted,
    HandDealt,
    Phase,
    Played,
    RoundEnded,
    RoundPlay,
    RoundStarted,
    RuleSet,
    SidePile,
    View,
    mask_of,
)
from scopa.engine.cards import DENARI_MASK, SETTEBELLO
from scopa.engine.scoring import primiera_sum

from ..catalog import is_server_bot, player_name
from ..i18n import tr


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round, as the round-end screen shows it."""

    event: RoundEnded
    piles: tuple[SidePile, ...]  # each side's pile with the leftovers added
    totals_before: tuple[int, ...]


@dataclass
class BoardState:
    """The public picture of one game, plus the hand of the seat being shown."""

    rules: RuleSet | None = None
    names: tuple[str, ...] = ()
    viewer: int | None = None  # the seat whose hand is shown; None: a spectator
    round_no: int = 0
    dealer: int = 0
    to_move: int | None = None
    table: tuple[Card, ...] = ()
    hand: tuple[Card, ...] = ()
    hand_sizes: list[int] = field(default_factory=list)
    stock_left: int = 0
    captured: list[int] = field(default_factory=list)  # per side: a card mask
    scope: list[int] = field(default_factory=list)
    totals: tuple[int, ...] = ()
    plays: list[RoundPlay] = field(default_factory=list)
    declared: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    last_capture_side: int | None = None
    last_round: RoundResult | None = None
    winner: int | None = None
    over: bool = False
    end_reason: str = ""
    ended_by: int | None = None  # an abandoned game's: the seat whose person left it (or did not come back)
    away: dict[int, str] = field(default_factory=dict)  # seat -> what the table said about it
    timed_out: set[Card] = field(default_factory=set)  # this round's cards the server played when time ran out
    scopas: set[Card] = field(default_factory=set)  # this round's cards that swept the table (R16)
    bot_cards: set[Card] = field(default_factory=set)  # this round's cards a bot played for a seat's person
    you_label: str = field(default_factory=lambda: tr("You"))  # how the shown seat is named ("": by its name, as in hot seat)
    waiting: bool = False  # seated at a table whose game has not started: its seats are filling
    spectators: int = 0  # how many watch the table (its table map says)
    bot_plays: set[int] = field(default_factory=set)  # seats a bot took over from their person
    left: set[int] = field(default_factory=set)  # seats whose person left the game (a bot plays on)
    notes: list[tuple[int, str]] = field(default_factory=list)  # this round's lines among its plays: (plays before, text)
    short_names: dict[int, str] = field(default_factory=dict)  # a seat's name where room is short ("Bot 1")
    game_points: list[dict[Category, int]] = field(default_factory=list)  # per side: the points of the rounds seen, by category

    # ------------------------------------------------------------------ derived

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def num_sides(self) -> int:
        return self.rules.num_sides if self.rules else max(1, len(self.names))

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat) if self.rules else seat

    def side_seats(self, side: int) -> list[int]:
        return [s for s in range(self.players) if self.side_of(s) == side]

    def side_name(self, side: int, short: bool = False) -> str:
        """The side's players' names (``short``: a server's bot as "Bot 1")."""
        names = [self.short_name(s) if short else self.seat_name(s) for s in self.side_seats(side)]
        return " & ".join(names) if names else tr("side {n}", n=side + 1)

    def seat_table(self, rules: RuleSet, seats: Sequence[str | None]) -> None:
        """Before the game starts: the table's rules and who sits at it so far (None: a
        free seat).  Once the game has started its own names hold."""
        if self.rules is not None and not self.waiting:
            return
        self.rules, self.names, self.waiting = rules, tuple(name or "" for name in seats), True

    def seat_name(self, seat: int) -> str:
        if seat == self.viewer and self.you_label:
            return self.you_label
        if seat < len(self.names) and not self.names[seat]:
            return tr("(free seat)")
        if seat in self.bot_plays and seat < len(self.names) and not is_server_bot(self.names[seat]):
            return tr("{name} (bot)", name=self.names[seat])  # a bot plays the seat its person left
        # a server's bot ("greedy-bot-1") as the browser names it: "Bot 1 (medium)"
        return player_name(self.names[seat]) if seat < len(self.names) else tr("seat {n}", n=seat + 1)

    def short_name(self, seat: int) -> str:
        """``seat_name``, a server's bot as "Bot 1" (for the narrow list of plays)."""
        if seat in self.short_names and not (seat == self.viewer and self.you_label):
            return self.short_names[seat]
        if seat == self.viewer and self.you_label or seat >= len(self.names) or seat in self.bot_plays:
            return self.seat_name(seat)
        return player_name(self.names[seat], short=True)

    def player_of(self, play: RoundPlay) -> str:
        """Who made ``play`` of this round, for the list of plays: a bot's play for a
        person says so ("ada (bot)"), the person's own plays are theirs."""
        seat = play.seat
        if play.card in self.bot_cards and seat < len(self.names):
            person = self.you_label if seat == self.viewer and self.you_label else player_name(self.names[seat])
            return tr("{name} (bot)", name=person)
        if seat in self.bot_plays and seat < len(self.names) and not (seat == self.viewer and self.you_label):
            return player_name(self.names[seat], short=True)  # played before the bot took the seat over
        return self.short_name(seat)

    def mark_plays(self, scopas: Sequence[Card], timed_out: Sequence[Card], bot: Sequence[Card]) -> None:
        """This round's marks as a snapshot lists them, in place of those kept so far."""
        self.scopas, self.timed_out, self.bot_cards = set(scopas), set(timed_out), set(bot)

    def pile(self, side: int) -> SidePile:
        mask = self.captured[side] if side < len(self.captured) else 0
        return SidePile(
            cards=mask.bit_count(),
            denari=(mask & DENARI_MASK).bit_count(),
            settebello=bool(mask >> SETTEBELLO & 1),
            primiera=primiera_sum(mask),
            scope=self.scope[side] if side < len(self.scope) else 0,
        )

    # ------------------------------------------------------------------ updates

    def _reset_round(self) -> None:
        n = self.num_sides
        self.captured = [0] * n
        self.scope = [0] * n
        self.plays, self.notes = [], []
        self.timed_out, self.scopas, self.bot_cards = set(), set(), set()
        self.declared = {}
        self.last_capture_side = None

    def apply(self, event: Event) -> None:
        """Follow one event (public, or the shown seat's own deal)."""
        if isinstance(event, GameStarted):
            self.rules, self.names, self.waiting = event.rules, event.names, False
            self.dealer, self.totals = event.first_dealer, (0,) * event.rules.num_sides
            self.hand_sizes = [0] * len(event.names)
            self.over, self.winner, self.last_round = False, None, None
            self.game_points = [{} for _ in range(event.rules.num_sides)]
            self._reset_round()
        elif isinstance(event, DealVoid):
            self.dealer, self.table = event.dealer, event.table
        elif isinstance(event, RoundStarted):
            self.round_no, self.dealer, self.table = event.round_no, event.dealer, event.table
            self._reset_round()
            if event.bonus_cards:
                side = self.side_of(event.dealer)
                self.captured[side] |= mask_of(event.bonus_cards)
                self.scope[side] += event.dealer_bonus
            if self.rules is not None:
                n = self.players
                self.hand_sizes = [self.rules.hand_size] * n
                self.stock_left = 40 - n * self.rules.hand_size - self.rules.table_cards
                self.to_move = (event.dealer + 1) % n
        elif isinstance(event, HandDealt):
            if event.seat == self.viewer:
                self.hand = event.hand
            self.stock_left = event.stock_left
            if self.hand_sizes and not any(self.hand_sizes):  # a new deal: everyone gets as many
                self.hand_sizes = [len(event.hand)] * len(self.hand_sizes)
            elif event.seat < len(self.hand_sizes):
                self.hand_sizes[event.seat] = len(event.hand)
        elif isinstance(event, Declared):
            self.declared[event.seat] = event.hand
        elif isinstance(event, Played):
            self._played(event)
        elif isinstance(event, RoundEnded):
            if event.leftovers and event.leftovers_to is not None:
                self.captured[event.leftovers_to] |= mask_of(event.leftovers)
            piles = tuple(self.pile(s) for s in range(len(event.totals)))
            # The totals before the round, from the event itself: a view taken as the last
            # card fell may already count the round's points.
            before = tuple(total - points for total, points in zip(event.totals, event.score.points))
            self.last_round = RoundResult(event, piles, before)
            if len(self.game_points) != len(event.totals):  # back mid-game: count from this round on
                self.game_points = [{} for _ in event.totals]
            for points, won in zip(self.game_points, event.score.breakdown):
                for category, n in won.items():
                    points[category] = points.get(category, 0) + n
            self.totals = event.totals
            self.table = ()
            self.to_move = None
        elif isinstance(event, GameEnded):
            self.over, self.winner, self.totals = True, event.winner, event.totals
            self.end_reason = str(event.reason)
            self.to_move = None

    def _played(self, event: Played) -> None:
        side = self.side_of(event.seat)
        if event.seat < len(self.hand_sizes):
            self.hand_sizes[event.seat] = max(0, self.hand_sizes[event.seat] - 1)
        if event.seat == self.viewer:
            self.hand = tuple(c for c in self.hand if c != event.card)
        if self.rules is not None and self.rules.refill_each_turn and self.stock_left > 0:
            self.stock_left -= 1
            self.hand_sizes[event.seat] += 1
        elif self.rules is not None and self.hand_sizes and not any(self.hand_sizes) \
                and self.stock_left >= self.players * self.rules.hand_size > 0:
            # R11: every hand is empty and the stock deals again; a spectator is told of no deal
            self.hand_sizes = [self.rules.hand_size] * self.players
            self.stock_left -= self.players * self.rules.hand_size
        if event.captured:
            self.captured[side] |= mask_of((event.card, *event.captured))
            self.last_capture_side = side
        if event.scopa:
            self.scope[side] += 1
            self.scopas.add(event.card)
        if event.seat in self.bot_plays and event.seat < len(self.names) and not is_server_bot(self.names[event.seat]):
            self.bot_cards.add(event.card)  # a bot plays the seat its person left
        self.table = event.table
        self.plays.append(RoundPlay(event.seat, event.card, event.captured))
        if event.forced_by is Forced.TIMEOUT:
            self.timed_out.add(event.card)
        if self.players:
            self.to_move = (event.seat + 1) % self.players

    def sync(self, view: View) -> None:
        """Take the exact figures of a seat's (or a spectator's) view."""
        self.rules = view.rules
        if view.round_no != self.round_no:  # a round this board did not follow: nothing of the last one stays
            self._reset_round()
        self.round_no, self.dealer, self.table = view.round_no, view.dealer, view.table
        self.hand_sizes = list(view.hand_sizes)
        self.stock_left = view.stock_left
        self.totals = view.totals
        if view.seat is not None and view.seat == self.viewer:
            self.hand = view.hand
        if view.round_plays or not self.plays:
            self.plays = list(view.round_plays)
            self.captured = [mask_of(p) for p in view.captured]
            self.scope = list(view.scope)
            self.last_capture_side = view.last_capture_side
        self.to_move = view.to_move if view.phase is Phase.PLAY else None
