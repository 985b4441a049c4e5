"""Coming back to a network game after a time away: the missed plays go onto the board
without being drawn one by one, and a move lost with the old connection is sent again."""

from __future__ import annotations

from ...text import tr

from collections.abc import Callable, Sequence

from rich.text import Text

from scopa.engine import Declare, Play, Played
from scopa.protocol import Snapshot

from ...game import SeatCameBack, SeatNotice, SeatTakenByBot
from ...text import DeckStyle, label
from ..board import BoardScreen
from .snapshot import apply_public


class Comeback:
    """What a seat missed while away, shown at once when it is back; and the move to play
    again when the server repeats the question it was answering."""

    def __init__(self, tell: Callable[[str | Text], None], table_id: Callable[[], str | None],
                 deck: DeckStyle) -> None:
        self.tell, self.table_id, self.deck = tell, table_id, deck
        self.last_move: tuple[list[Play | Declare], Play | Declare] | None = None
        """The move sent last, with the choice it answered, until the table shows an event."""
        self.just_reconnected = False
        self.missed_plays = 0  # plays of the current round caught up with after a time away
        self.played_for_us: list[str] = []  # the cards played for our seat meanwhile (by the bot), as said
        self.bot_has_seat = False  # a bot plays our seat: from its seat_replaced until our seat_back
        self._snapshot: Snapshot | None = None  # one that stands for the missed events, shown at the end

    def catch_up(self, screen: BoardScreen) -> None:
        """What comes next happened while this client was away (up to the seat's own
        ``seat_back``): it goes onto the board and into the round's list without being
        drawn play by play; the board is drawn once, as it stands, at the end."""
        if not screen.held:
            self.played_for_us = []
        screen.held = True
        self.missed_plays = 0

    def our_notice(self, notice: SeatNotice) -> None:
        """Our own seat's notice, in its place among the events: the plays made for us are
        those between a bot taking the seat and our coming back; our own are not."""
        if isinstance(notice, SeatTakenByBot):
            self.bot_has_seat = True
        elif isinstance(notice, SeatCameBack):
            self.bot_has_seat = False

    def missed(self, screen: BoardScreen, event: Played) -> None:
        """A play caught up with: counted, and told at the end when a bot made it for our seat."""
        self.missed_plays += 1
        if event.seat == screen.board.viewer and self.bot_has_seat:
            card = label(event.card, self.deck)
            self.played_for_us.append(tr("{card} (scopa)", card=card) if event.scopa else card)

    def caught_up(self, screen: BoardScreen) -> None:
        if not screen.held:
            return
        screen.held = False
        snap, self._snapshot = self._snapshot, None
        if snap is not None:
            apply_public(screen.board, snap)
        screen.refresh_board()
        table = self.table_id()
        if screen.board.round_no and table is not None:
            n = self.missed_plays
            if n == 0:
                said = tr("Back at table {table}, as it stands now: nothing was played meanwhile.", table=table)
            elif n == 1:
                said = tr("Back at table {table}, as it stands now: its one play so far is in this round's list, "
                          "the one you missed too.", table=table)
            else:
                said = tr("Back at table {table}, as it stands now: its {n} plays so far are in this round's list, "
                          "those you missed too.", table=table, n=n)
            self.tell(said)
        if self.played_for_us:
            self.tell(tr("While you were away the bot played: {cards}", cards=", ".join(self.played_for_us)))
            self.played_for_us = []

    def snapshot_in_turn(self, screen: BoardScreen, snapshot: Snapshot) -> None:
        """A snapshot that stands for missed events: set at the end of the catching up, or now."""
        if screen.held:
            self._snapshot = snapshot
        else:
            apply_public(screen.board, snapshot)
            screen.refresh_board()

    def move_to_replay(self, legal: Sequence[Play | Declare]) -> Play | Declare | None:
        """The move to send again when, just after a reconnect, the server asks the very
        question it answered: the move left on a connection that was already dead."""
        again, self.just_reconnected = self.just_reconnected, False
        if not again or self.last_move is None or self.last_move[0] != list(legal):
            return None
        action = self.last_move[1]
        what = label(action.card, self.deck) if isinstance(action, Play) else tr("your declaration")
        self.tell(Text(tr("Your move, {what}, is played again: the connection dropped as it was sent.", what=what),
                       style="yellow"))
        return action

