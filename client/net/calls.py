"""The lobby's calls: tables listed, created, joined and left, the lobby watched, chat.

Each call survives a lost connection (the :class:`~scopa.client.net.link.Link` below it
reconnects): a list is asked again; a create or a join made with our own seat token
ends with the seat or with certainty that there was none.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping

from pydantic import ValidationError

from scopa.engine import RuleSet
from scopa.protocol import (
    LOBBY,
    Chat,
    Command,
    CreateTable,
    Error,
    GameStart,
    JoinTable,
    Joined,
    LeaveTable,
    Left,
    ListTables,
    Snapshot,
    TableCreated,
    TableInfo,
    Tables,
    TableState,
    TableUpdate,
    UnwatchLobby,
    UnwatchTable,
    WatchLobby,
    WatchTable,
)
from scopa.protocol.convert import rules_from_wire, rules_to_wire

from .channel import ConnectionLost, ServerRefused, SessionError
from .link import Link, new_token


def _lobby_update(command: Command) -> bool:
    return isinstance(command.body, TableUpdate) and command.sender == str(LOBBY)


class LobbyCalls(Link):
    """A :class:`Link` with the lobby's requests."""

    async def send_chat(self, text: str, to: str = str(LOBBY)) -> None:
        """Say ``text`` to the lobby (or to a table: ``table:<id>``)."""
        self._send(Chat(text=text[:500]), to)

    async def list_tables(self, state: TableState | None = None) -> list[TableInfo]:
        """The server's public tables, the first page (``list_tables`` → ``tables``);
        ``state``: only the tables in that state."""
        return list((await self.tables_page(state)).tables)

    async def tables_page(self, state: TableState | None = None, players: int | None = None,
                          after: str | None = None) -> Tables:
        """One page of the public tables (``after``: the ``next`` of the page before)."""
        while True:
            try:
                reply = await self._request(ListTables(state=state, players=players, after=after), str(LOBBY))
            except ConnectionLost:
                await self._reconnect_or_raise()
                continue
            assert isinstance(reply.body, Tables)
            return reply.body

    async def create_table(
        self,
        rules: RuleSet | None = None,
        *,
        preset: str | None = None,
        options: Mapping[str, bool | int | str | None] | None = None,
        fill_with_bots: Iterable[str] = (),
        sit: bool = True,
        private: bool = False,
        turn_timeout: float | None = None,
        no_turn_timer: bool = False,
        bot_takeover: bool = True,
        rematch_of: str | None = None,
    ) -> TableInfo:
        """Open a table (full ``rules``, or ``preset`` + ``options``); seated at once if ``sit``.

        If the connection is lost meanwhile, the session reconnects: seated (``sit``), it
        resumes the seat if the table was made, or asks again if it was not; without a
        seat it raises :class:`ConnectionLost` once reconnected (asking again might open
        a second table).  A ``private`` table's invite code (for :meth:`join_table` and
        :meth:`watch_table` of the people invited) is kept in :attr:`invite`.  The turn
        clock: ``turn_timeout`` seconds (None: the server's), or none at all at a private
        table (``no_turn_timer``); ``bot_takeover``: a bot plays a seat left empty past
        the grace period (else the game is abandoned); ``rematch_of``: the finished table
        (where this session sat) whose other players are offered the new one."""
        token = new_token() if sit and self.table_id is None else None
        wire_rules = rules_to_wire(rules) if rules is not None else None
        fields = {"rules": wire_rules, "preset": preset, "options": dict(options or {}),
                  "fill_with_bots": list(fill_with_bots), "sit": sit, "token": token,
                  "private": private, "turn_timeout": turn_timeout, "no_turn_timer": no_turn_timer,
                  "bot_takeover": bot_takeover, "rematch_of": rematch_of}
        try:
            body = CreateTable.model_validate(fields, strict=False)
        except ValidationError as exc:
            raise ValueError(f"cannot ask for that table: {exc.errors()[0]['msg']}") from None
        if self.table_id is not None:  # seated already: the server says so
            return await self._create(body, sit)
        while True:
            if self.table_id is None:
                self._pending_seat(token)
                try:
                    return await self._create(body, sit)
                except ConnectionLost:
                    await self._reconnect_or_raise()
                    if not sit:
                        raise
                    if self.table_id is None:
                        continue  # the table was not made: ask again
                except ServerRefused:
                    self._pending_seat(None)
                    raise
            try:  # the table was made and we are back at our seat: which table is it?
                return await self._table_info_after_resume()
            except ConnectionLost:
                await self._reconnect_or_raise()

    async def _create(self, body: CreateTable, sit: bool) -> TableInfo:
        seq = self._send(body, str(LOBBY))
        created: TableInfo | None = None
        joined = not sit
        while created is None or not joined:
            reply = await self._reply_to(seq)
            if isinstance(reply.body, Error):
                raise ServerRefused.of(reply.body)
            if isinstance(reply.body, TableCreated):
                created = reply.body.table
                self.invite = reply.body.invite
            elif isinstance(reply.body, Joined):
                self._seated(reply.body)
                joined = True
        return created

    async def join_table(self, table_id: str, invite: str | None = None) -> Joined:
        """Take the lowest free seat at ``table_id`` (a private table: with its ``invite``;
        after a lost connection: the seat resumed if the server gave it, else asked for
        again)."""
        if self.table_id is not None:  # seated already: the server says so
            reply = await self._request(JoinTable(table=table_id, invite=invite), str(LOBBY))
            raise SessionError(f"the server seated us twice ({reply.name})")
        token = new_token()
        while True:
            self._pending_seat(token)
            try:
                reply = await self._request(JoinTable(table=table_id, token=token, invite=invite), str(LOBBY))
            except ConnectionLost:
                await self._reconnect_or_raise()
                if self.table_id is not None and self.joined is not None:
                    return self.joined  # the join had been made: resumed
                continue
            except ServerRefused:
                self._pending_seat(None)
                raise
            assert isinstance(reply.body, Joined)
            self._seated(reply.body)
            return reply.body

    def leave_game(self) -> None:
        """Ask to leave the table of the game being played (it is abandoned), without
        waiting: :meth:`~scopa.client.net.session.ClientSession.play_game` reads the end and
        the ``left`` (reason ``left``) as it reads every other command of the table."""
        if self.table_id is not None:
            self._send(LeaveTable(table=self.table_id), str(LOBBY))

    async def leave_table(self) -> Left | None:
        """Leave the current table (a game in progress: a bot plays the seat, or the game is
        abandoned, as the table's ``bot_takeover`` says)."""
        while self.table_id is not None:
            table = self.table_id
            try:
                reply = await self._request(LeaveTable(table=table), str(LOBBY))
            except ConnectionLost:
                await self._reconnect_or_raise()
                continue  # resumed: leave again; the seat gone: left already
            assert isinstance(reply.body, Left)
            self._unseated()
            return reply.body
        return None

    async def _table_info_after_resume(self) -> TableInfo:
        """The table we are back at after a create whose answer was lost: from the
        snapshot the server sends after ``joined`` (the table still waiting), or from
        the ``game_start`` among the missed events (its game began meanwhile)."""
        mine = f"table:{self.table_id}"
        found = await self._peek(lambda c: c.sender == mine and isinstance(c.body, (Snapshot, GameStart)))
        assert found is not None and self.table_id is not None
        if isinstance(found.body, Snapshot):
            self._backlog.remove(found)
            return found.body.table
        assert isinstance(found.body, GameStart)
        seats: list[str | None] = [None] * found.body.rules.players
        for s in found.body.seats:
            seats[s.seat] = s.name
        description = rules_from_wire(found.body.rules).describe()[:200]
        return TableInfo(id=self.table_id, rules=found.body.rules, description=description,
                         seats=seats, state=TableState.PLAYING, bots=[s.seat for s in found.body.seats if s.bot])
    # ------------------------------------------------------------------ watching
    async def watch_table(self, table_id: str, invite: str | None = None) -> Snapshot:
        """Watch a table: its public snapshot (then public events, see :meth:`watch`); a
        private table: with its ``invite``."""
        reply = await self._request(WatchTable(table=table_id, invite=invite), str(LOBBY))
        assert isinstance(reply.body, Snapshot)
        self._watch_invite, self.watching = invite, table_id
        return reply.body

    async def unwatch_table(self, table_id: str) -> Left:
        reply = await self._request(UnwatchTable(table=table_id), str(LOBBY))
        assert isinstance(reply.body, Left)
        self.watching = None
        return reply.body

    async def watch_lobby(self) -> list[TableInfo]:
        """Subscribe to the lobby: the tables now; then every change to a listed table
        arrives as a ``table_update`` (see :meth:`next_lobby_update`)."""
        reply = await self._request(WatchLobby(), str(LOBBY))
        assert isinstance(reply.body, Tables)
        return list(reply.body.tables)

    async def unwatch_lobby(self) -> list[TableInfo]:
        """No more lobby updates; the tables as they are now."""
        reply = await self._request(UnwatchLobby(), str(LOBBY))
        assert isinstance(reply.body, Tables)
        self._backlog = deque(c for c in self._backlog if not _lobby_update(c))
        return list(reply.body.tables)

    async def next_lobby_update(self, timeout: float | None = None) -> TableInfo | None:
        """The next table change the lobby told us of (state ``closed``: the table is
        gone); None if none came within ``timeout`` seconds."""
        found = await self._peek(_lobby_update, timeout)
        if found is None:
            return None
        self._backlog.remove(found)
        assert isinstance(found.body, TableUpdate)
        return found.body.table

    def drop_lobby_updates(self) -> None:
        """Forget the table changes the lobby told us of and nobody read (their news
        was said as they came)."""
        self._backlog = deque(c for c in self._backlog if not _lobby_update(c))
