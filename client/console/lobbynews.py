"""What changes in the lobby, said in the plain terminal client while its ``Lobby>``
prompt waits: a new table waiting for players, someone sitting down at a waiting table,
a table filling up and its game starting.  The server pushes each change (``watch_lobby``);
the person need not type ``r`` to learn of it."""

from __future__ import annotations

from rich.text import Text

from scopa.protocol import ChatMessage, Command, TableInfo, TableState, TableUpdate
from scopa.protocol.convert import rules_from_wire

from ..net import ClientSession
from ..text import player_name, rules_line, tr
from .prompt import LineReader


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
                return Text(tr("Table {table}: {who} sits down ({n}/{seats}).", table=now.id,
                               who=", ".join(player_name(n) for n in came), n=seated, seats=len(now.seats)),
                            style="green")
        return None
