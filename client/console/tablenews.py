"""What happens at the person's table, said in the plain terminal client as it arrives:
someone sitting down at (or leaving) a table that waits for its players, and, while a
prompt waits for the person's move, another seat going away, coming back or taken over
by a bot, and what someone says to the table.  The game itself comes in its own order (the session's :meth:`play_game`);
a seat's news said early here is not said again there (:meth:`TableNews.said`).  News that comes while the game is
still being shown waits for its place in that order, unless the person's prompt goes up first (the news came
behind their turn): then it is said above the prompt, not after the move."""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text

from scopa.protocol import ChatMessage, Command, TableInfo, TableState, TableUpdate

from ..game import SeatCameBack, SeatNotice, SeatTakenByBot, SeatWentAway, notice_from_wire
from ..net import ClientSession
from ..text import notice_line, player_name, tr
from .prompt import LineReader


class TableNews:
    """A session observer (:meth:`heard`) for the table the session sits at."""

    def __init__(self, session: ClientSession, reader: LineReader) -> None:
        self.session = session
        self.reader = reader
        self._early: list[SeatNotice] = []  # said while a prompt waited, not yet come in the game's order
        self._held: list[tuple[str, SeatNotice]] = []  # heard with no prompt up, not yet come in the game's order
        self._away: set[int] = set()  # seats told away (a bot taking a seat never away: its person left)
        self._seats: tuple[str, list[str | None]] | None = None  # a table, who sat where when it last waited
        reader.before_prompt.append(self._prompted)

    def sitting(self, info: TableInfo | None = None) -> None:
        """A new table: ``info`` is how it stood when we sat down (None: not known, the
        first update says it)."""
        self._early, self._held, self._away = [], [], set()
        if info is not None and info.state is TableState.WAITING:
            self._seats = info.id, list(info.seats)
        elif self._seats is not None and self._seats[0] != self.session.table_id:
            self._seats = None  # another table's

    def said(self, notice: SeatNotice) -> bool:
        """Whether ``notice``, come now in the game's order, was said already."""
        if notice in self._early:
            self._early.remove(notice)
            return True
        held = next((h for h in self._held if h[1] == notice), None)
        if held is not None:
            self._held.remove(held)  # said now, in its place
        return False

    def _prompted(self) -> None:
        """A prompt goes up: the news of this table heard before it and still behind the
        person's turn is said now, above the prompt; another table's is not news here."""
        held, self._held = self._held, []
        for table, notice in held:
            if table == self.session.table_id:
                self._early.append(notice)
                self.reader.say(notice_line(notice))

    def heard(self, command: Command) -> None:
        table = self.session.table_id
        if table is None or command.sender != f"table:{table}":
            return
        body = command.body
        if isinstance(body, TableUpdate):
            self._seated(body.table)
            return
        if isinstance(body, ChatMessage):  # said to the table: heard at once, even at a prompt
            self.reader.say(Text(body.author.split(":", 1)[-1] + ": ", style="bold cyan") + Text(body.text))
            return
        notice = notice_from_wire(body)
        if notice is None or notice.seat == self.session.seat:
            return  # our own away, return or bot: the lines on the connection and the game say it
        if isinstance(notice, SeatTakenByBot) and notice.seat not in self._away:
            notice = replace(notice, left=True)  # as the game's translator tells it
        if isinstance(notice, SeatWentAway):
            self._away.add(notice.seat)
        else:
            self._away.discard(notice.seat)
        if self.reader.waiting:  # the person thinks at a prompt: told now, not after their line
            self._early.append(notice)
            self.reader.say(notice_line(notice))
        else:  # said in the game's order, or as the next prompt goes up if that comes first
            self._held.append((table, notice))

    def _seated(self, info: TableInfo) -> None:
        """Someone sat down at the waiting table, or left it."""
        before = self._seats[1] if self._seats is not None and self._seats[0] == info.id else None
        now = list(info.seats)
        self._seats = (info.id, now) if info.state is TableState.WAITING else None
        if before is None or len(before) != len(now):
            return
        for seat, (was, is_) in enumerate(zip(before, now)):
            if was == is_ or seat == self.session.seat:
                continue
            if was is not None:
                self.reader.say(Text(tr("{name} left the table.", name=player_name(was)), style="yellow"))
            if is_ is not None:
                self.reader.say(Text(tr("{name} sits down at seat {seat}.", name=player_name(is_), seat=seat + 1),
                                     style="green"))
