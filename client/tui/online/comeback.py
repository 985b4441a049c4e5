"""Coming back to a network game after a time away: the missed plays go onto the board
without being drawn one by one, and a move lost with the old connection is sent again."""

from __future__ import annotations

from ...text import tr

from collections.abc import Callable, Sequence

from rich.text import Text

from scopa.engine import Declare, Forced, Play, Played
from scopa.protocol import Joined, Snapshot

from ...game import SeatCameBack, SeatNotice, SeatTakenByBot, SeatWentAway
from ...text import DeckStyle, is_server_bot, label
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
        self.missed_plays = 0  # plays of the current round caught up with after a time away, not our own
        self.missed_before = 0  # those of earlier rounds (a round ended while the seat was away)
        self.played_for_us: list[str] = []  # the cards played for our seat meanwhile (by the bot), as said
        self.timed_out: list[str] = []  # the server's plays for our seat when its time ran out (with what each took)
        self._snapshot: Snapshot | None = None  # one that stands for the missed events, shown at the end
        self.fresh = False  # a process started again: which plays the person saw before is not known
        self.away = False  # among what is caught up with: after this seat's own going away (its plays were not seen)
        self.on_caught_up: Callable[[BoardScreen], None] | None = None  # the board set from the table map too

    def catch_up(self, screen: BoardScreen) -> None:
        """What comes next happened while this client was away (up to the seat's own
        ``seat_back``): it goes onto the board and into the round's list without being
        drawn play by play; the board is drawn once, as it stands, at the end."""
        if not screen.held:
            self.played_for_us, self.timed_out = [], []
            self.fresh = screen.board.round_no == 0  # nothing of the game seen by this process
            if self.fresh:  # said in place of an empty board until the game as it stands is here
                screen.back_line = tr("Reconnecting to table {table}: the game as it stands is on its way…",
                                    table=self.table_id())
        screen.held = True
        self.missed_plays = self.missed_before = 0
        self.away = not self.fresh  # a link lost by this process: all that comes was missed

    def new_round(self) -> None:
        """A round started among what is caught up with: the plays missed so far were the last round's."""
        self.missed_before += self.missed_plays
        self.missed_plays = 0

    def missed(self, screen: BoardScreen, event: Played) -> None:
        """A play caught up with: counted unless the person made it (seen as it was made,
        before a restart), and told at the end when a bot or the server made it for our seat."""
        card = label(event.card, self.deck)
        card = tr("{card} (scopa)", card=card) if event.scopa else card
        if event.seat != screen.board.viewer:
            self.missed_plays += 1
        elif event.forced_by is Forced.TIMEOUT:
            self.missed_plays += 1
            if not self.away:
                return  # before the seat went away: the person saw it then
            taken = ", ".join(label(c, self.deck) for c in event.captured)
            self.timed_out.append(tr("{card} and took {cards}", card=card, cards=taken) if taken else card)
        elif event.card in screen.board.bot_cards:
            self.missed_plays += 1
            self.played_for_us.append(card)

    def caught_up(self, screen: BoardScreen) -> None:
        if not screen.held:
            return
        screen.held = False
        snap, self._snapshot = self._snapshot, None
        if snap is not None:
            apply_public(screen.board, snap)
        if self.on_caught_up is not None:
            self.on_caught_up(screen)
        screen.refresh_board()
        table, back = self.table_id(), []
        if screen.board.round_no and table is not None:
            n, before = self.missed_plays, self.missed_before
            if self.fresh and not screen.board.plays:
                said = tr("Back at table {table}: when you came back, nothing had been played yet in this round.",
                          table=table)
            elif self.fresh:  # the round's plays before the seat went away were seen, by an earlier process
                said = tr("Back at table {table}, as it stands now: this round's plays are in its list.", table=table)
            elif before and n + before == 1:  # the one play missed ended the round
                said = tr("Back at table {table}, as it stands now: one play was made meanwhile, and it ended the "
                          "round.", table=table)
            elif before:  # a round ended meanwhile: its plays are in the round box, not in this round's list
                said = tr("Back at table {table}, as it stands now: {n} plays were made meanwhile, and a round "
                          "ended.", table=table, n=n + before)
            elif n == 0:
                said = tr("Back at table {table}, as it stands now: nothing was played meanwhile.", table=table)
            elif n == 1:
                said = tr("Back at table {table}, as it stands now: the play you did not see is in this round's list.",
                          table=table)
            else:
                said = tr("Back at table {table}, as it stands now: the {n} plays you did not see are in this "
                          "round's list.", table=table, n=n)
            back.append(said)
            bots = [n for s, n in enumerate(screen.board.names) if s in screen.board.bot_plays
                    and s != screen.board.viewer and not is_server_bot(n)]
            if self.fresh and bots:  # the notices that said so came before this process
                back.append(tr("A bot plays for {names}, who left the game or did not come back.",
                               names=", ".join(bots)))
        if self.timed_out:
            plays = self.timed_out[0]
            for later in self.timed_out[1:]:  # each move said apart, in the order played
                plays = tr("{earlier}; then {later}", earlier=plays, later=later)
            back.append(tr("While you were away your time ran out: the server played {cards} for you.", cards=plays))
            self.timed_out = []
        if self.played_for_us:
            back.append(tr("While you were away the bot played: {cards}", cards=", ".join(self.played_for_us)))
            self.played_for_us = []
        for line in back:
            self.tell(line)
        if back:  # kept in sight over the next plays' lines, until the person's move
            screen.keep_saying("\n".join(back))

    def own_notice(self, screen: BoardScreen, notice: SeatNotice, more: bool, held_back: str) -> None:
        """A notice of our own seat in its place among the events: a bot taking it over
        (its plays are the bot's), and a ``seat_back`` ending what was missed unless
        ``more`` events wait behind it (an earlier comeback's, replayed after a restart:
        then the end comes once all is handled); ``held_back``: said when the seat comes
        back from a bot."""
        if isinstance(notice, SeatTakenByBot):
            screen.board.bot_plays.add(notice.seat)
        elif isinstance(notice, SeatWentAway):
            self.away = True
        elif isinstance(notice, SeatCameBack):
            self.away = False  # an earlier time away ended here: what follows, up to the next, was seen
            if not more:
                self.caught_up(screen)  # the board as it stands, and what the bot played for us
            if notice.bot_played:  # the seat a bot played since the grace period ran out is ours again
                screen.board.bot_plays.discard(notice.seat)
                self.tell(held_back)

    def chat_back(self, screen: BoardScreen, joined: Joined | None) -> None:
        """The table's last chat lines as the server kept them (``joined.chat``: on a resume,
        those said while this client was away included; at a rematch, the finished game's):
        in place of the panel's, so none shows twice."""
        if joined is not None and (joined.resumed or joined.chat):
            screen.chat_again([(m.author.split(":", 1)[-1], m.text) for m in joined.chat])

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

