"""News said in the plain terminal client as it arrives, above a prompt that waits.

At the person's table (:class:`TableNews`): someone sitting down at (or leaving) a table that waits for its players, and, while a
prompt waits for the person's move, another seat going away, coming back or taken over
by a bot, and what someone says to the table.  The game itself comes in its own order (the session's :meth:`play_game`);
a seat's news said early here is not said again there (:meth:`TableNews.said`).  News that comes while the game is
still being shown waits for its place in that order, unless the person's prompt goes up first (the news came
behind their turn): then it is said above the prompt, not after the move.

In the lobby (:class:`LobbyNews`), while its ``Lobby>`` prompt waits: a new table waiting for players, someone sitting
down at a waiting table, a table filling up and its game starting.  The server pushes each change (``watch_lobby``);
the person need not type ``r`` to learn of it."""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text

from scopa.protocol import ChatMessage, Command, TableInfo, TableState, TableUpdate
from scopa.protocol.convert import rules_from_wire

from ..game import SeatCameBack, SeatNotice, SeatTakenByBot, SeatWentAway, notice_from_wire
from ..net import ClientSession
from ..text import notice_line, player_name, rules_line, tr
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


class LobbyNews:
    """A session observer (:meth:`heard`) of the lobby's table changes, said while the
    person is in the lobby (not at a table)."""

    def __init__(self, session: ClientSession, reader: LineReader) -> None:
        self.session = session
        self.reader = reader
        self._known: dict[str, TableInfo] = {}  # each table as last seen

    def listed(self, tables: list[TableInfo]) -> None:
        """The tables as a listing shows them: only what changes after it is news."""
        self._known.update((t.id, t) for t in tables)

    def heard(self, command: Command) -> None:
        body = command.body
        if isinstance(body, ChatMessage) and not command.sender.startswith("table:"):  # said to the lobby
            if self.session.table_id is None and self.reader.waiting:
                self.reader.say(Text.assemble((player_name(body.author.split(":", 1)[-1]), "bold"), ": ", body.text))
            return
        if not isinstance(body, TableUpdate) or command.sender != "lobby":
            return
        table, before = body.table, self._known.get(body.table.id)
        self._known[table.id] = table
        if self.session.table_id is not None or not self.reader.waiting:
            return  # at a table, or busy with a question: the next listing shows it
        line = self._news(before, table)
        if line is not None:
            self.reader.say(line)

    def _news(self, before: TableInfo | None, now: TableInfo) -> Text | None:
        seated = sum(name is not None for name in now.seats)
        if before is None:
            if now.state is not TableState.WAITING:
                return None
            who = ", ".join(player_name(n) for n in now.seats if n is not None) or tr("nobody yet")
            return Text(tr("New table {table}: {rules}; seated {n}/{seats}: {who}. Join it with j {table}.",
                           table=now.id, rules=rules_line(rules_from_wire(now.rules)), n=seated,
                           seats=len(now.seats), who=who), style="green")
        if before.state is TableState.WAITING and now.state is TableState.PLAYING:
            return Text(tr("Table {table} is full: its game starts.", table=now.id), style="dim")
        if now.state is TableState.WAITING and before.state is TableState.WAITING:
            came = [n for n in now.seats if n is not None and n not in before.seats]
            if came:
                said = "Table {table}: {who} sits down ({n}/{seats})." if len(came) == 1 else \
                    "Table {table}: {who} sit down ({n}/{seats})."
                return Text(tr(said, table=now.id, who=", ".join(player_name(n) for n in came), n=seated,
                               seats=len(now.seats)), style="green")
        return None
