"""A client connection to a Scopa server: lobby calls and games driven by a local Player.

:class:`ClientSession` speaks the protocol of docs/PROTOCOL.md over an asyncio TCP
stream, through the sans-I/O :class:`~scopa.protocol.Connection`.  A background task
reads the stream, answers ``ping`` at once (even while a person is thinking at a
prompt) and queues every other command.  Lobby calls send one command and wait for the
reply that names it in ``re``; anything else that arrives meanwhile (a ``game_start``,
a ``table_update``) is kept, in order, for :meth:`ClientSession.play_game`, which
turns the table's commands into engine events for any :class:`~scopa.engine.Player`
(a bot, the terminal player), so the same Player runs locally and over TCP::

    async with await ClientSession.connect("127.0.0.1", 7015, "ada") as session:
        await session.create_table(preset="scopa", fill_with_bots=["greedy"])
        result = await session.play_game(GreedyBot())

A lost connection is won back by the session itself in every phase (docs/PROTOCOL.md
§7): a lobby call is asked again on a new connection; a seat (at a waiting table, in a
game, just after one) is resumed with its token, which the session chooses itself when
it joins or creates a table, so even a connection lost before ``joined`` arrived ends
with the seat or with certainty that there was none.  A silent link is noticed by a
:class:`~scopa.client.net.liveness.Watchdog`; :meth:`ClientSession.add_listener` hears
of every loss and return at once (for a user interface).
"""

from __future__ import annotations

import asyncio
from typing import Any
import contextlib
from collections.abc import Awaitable, Callable

from scopa.engine import Player
from scopa.protocol import (
    DEFAULT_PORT,
    LOBBY,
    CardPlayed,
    Command,
    Error,
    ErrorCode,
    GameEnd,
    Left,
    LeftReason,
    SeatBack,
    Snapshot,
    UnwatchTable,
    WatchTable,
    YourTurn,
)

from scopa.protocol.commands import Redirect, event_number

from .channel import MAX_REDIRECTS, ConnectionLost, ServerRefused, SessionError
from ..game import GameResult, GameTranslator, Reply
from .link import CLIENT_SOFTWARE, name_variants, new_token, parse_address, parse_servers
from .club_calls import ClubCalls
from ..game import SeatNotice

__all__ = ["CLIENT_SOFTWARE", "DEFAULT_PORT", "ClientSession", "ConnectionLost", "ServerRefused",
           "SessionError", "name_variants", "new_token", "parse_address", "parse_servers"]


class ClientSession(ClubCalls):
    """One connection to a server, after the welcome, with a table to play or watch.  Use
    :meth:`connect` to make one."""

    def replaying(self) -> bool:
        """Whether what is being handled now is history: the commands received but not
        handled yet include this seat's own ``seat_back``, which the server sends right
        after the events a returning seat missed (PROTOCOL.md §7, Reconnecting)."""
        if self.seat is None:
            return False
        return any(isinstance(c, Command) and isinstance(c.body, SeatBack) and c.body.seat == self.seat
                   for c in [*self._backlog, *self._inbox.waiting()])

    def history_ahead(self) -> bool:
        """Whether table events (numbered ones: plays, deals, seats away and back) are
        received but not handled yet: what is handled now is not the last of what a
        returning seat missed."""
        return any(isinstance(c, Command) and c.sender.startswith("table:") and event_number(c.body) is not None
                   for c in [*self._backlog, *self._inbox.waiting()])

    async def watch(self, table_id: str, show: Callable[[Command], Awaitable[None] | None]) -> Left:
        """Pass each public command of the watched table to ``show`` until ``left``.  A
        lost connection is reconnected (unless ``reconnect_for`` is 0) and the table
        watched again from the last event seen: the events missed meanwhile come first,
        then the table's snapshot; none is lost and none comes twice."""
        while True:
            try:
                command = await self._next()
            except ConnectionLost:
                if self._unwatching == table_id:  # being let go: back in the lobby is where it ends
                    await self._reconnect_or_raise()
                    return self._unwatched(Left(table=table_id, reason=LeftReason.UNWATCHED))
                await self._watch_back(table_id)
                if self._unwatching == table_id:  # asked while the link was down: asked again
                    with contextlib.suppress(ConnectionLost):  # lost again: the next read ends the watch
                        self._send(UnwatchTable(table=table_id), str(LOBBY))
                continue
            ours = command.sender == f"table:{table_id}"
            if not ours and not (isinstance(command.body, Left) and command.body.table == table_id):
                continue
            shown = show(command)
            if shown is not None:
                await shown
            if isinstance(command.body, Left):
                return self._unwatched(command.body)

    def stop_watching(self, table_id: str) -> None:
        """Ask to stop watching ``table_id`` without waiting: the :meth:`watch` under way
        reads the server's ``left`` (so no second reader waits for it and takes what a later
        call is answered with) and returns it; a connection lost meanwhile ends the watch too.
        Raises ConnectionLost when the link is down (the watch reconnects to the lobby)."""
        self._unwatching = table_id
        self._send(UnwatchTable(table=table_id), str(LOBBY))

    def _unwatched(self, left: Left) -> Left:
        self.watching = self._unwatching = None
        return left

    async def _watch_back(self, table_id: str) -> None:
        """After a lost connection: reconnect and watch ``table_id`` again, both retried
        with the reconnect's backoff (in a cluster the table may be between two members,
        or sent on to one that is gone)."""
        if self.reconnect_for <= 0:
            raise ConnectionLost(f"connection closed: {self._closed_reason}")

        async def greet() -> None:
            await self._greet()
            try:
                await self._watch_again(table_id)
            except ServerRefused as exc:
                if exc.code is not ErrorCode.UNAVAILABLE:
                    raise
                raise ConnectionLost(f"{exc.message} ({exc.code.value})") from None  # moving: try again

        await self._reconnecting(greet, f"could not watch table {table_id} again")

    async def _watch_again(self, table_id: str) -> None:
        """``watch_table`` with ``last_event``: the missed events, then the snapshot,
        are left queued for :meth:`watch` (in a cluster, on the member a ``redirect``
        names)."""
        for _ in range(MAX_REDIRECTS + 1):
            seq = self._send(WatchTable(table=table_id, invite=self._watch_invite, last_event=self.last_event),
                             str(LOBBY))
            reply = await self._peek(lambda c: c.re == seq)
            assert reply is not None
            if isinstance(reply.body, Redirect):
                self._backlog.remove(reply)
                await self._follow(reply.body)
                continue
            if isinstance(reply.body, Error):
                self._backlog.remove(reply)
                raise ServerRefused.of(reply.body)
            return
        raise SessionError(f"sent on from server to server more than {MAX_REDIRECTS} times")

    async def wait_for_game_start(self, timeout: float | None = None) -> bool:
        """Whether the table's ``game_start`` has arrived (waiting up to ``timeout`` s).
        A lost connection is resumed meanwhile; False if the seat was lost with it, or
        if the server closed the table (``left``: e.g. nobody came for too long)."""
        while True:
            try:
                table = self.table_id
                found = await self._peek(lambda c: c.name == "game_start" or (
                    isinstance(c.body, Left) and c.body.table == table), timeout)
                if found is not None and isinstance(found.body, Left):
                    self._unseated()
                    return False
                return found is not None
            except ConnectionLost:
                if self.token is None:
                    raise
                await self._reconnect_or_raise()
                if self.token is None:
                    return False

    async def play_game(
        self, player: Player, on_notice: Callable[[SeatNotice], Awaitable[None] | None] | None = None,
        on_snapshot: Callable[[Snapshot], Awaitable[None] | None] | None = None,
        on_turn_over: Callable[[], None] | None = None,
        on_idle: Callable[[], None] | None = None,
    ) -> GameResult:
        """Play one game at the current table with ``player`` choosing the moves.

        Waits for the game to start (the table's last seat to fill), then turns every
        command into engine events for ``player.notify``, ``your_turn`` into
        ``player.choose`` and a refused move into ``player.rejected``.  Returns when the
        game ends, after the server has sent us back to the lobby.  ``on_notice`` is
        told when a seat goes away, comes back or is taken over by a bot; ``on_snapshot``
        of a snapshot that stands for the events missed while away (after a restart).
        A turn the server ends while ``player`` still thinks (its clock ran out: the
        ``played`` for this seat is already here) is not waited for: ``player.choose``
        is cancelled, ``on_turn_over`` told, and the game goes on at once.  ``on_idle``
        is told each time a command was handled and no other is waiting (what the server
        sent a returning seat is all handled, whether or not a ``seat_back`` ends it).
        """
        if self.table_id is None or self.seat is None:
            raise SessionError("not seated at a table: create_table or join_table first")
        game = GameTranslator(player, self.seat, self.table_id, on_notice, on_snapshot)
        while not game.over:
            command: Command | None = None
            try:
                command = await self._next()
                if isinstance(command.body, YourTurn):
                    reply = await self._unless_lost(self._until_turn_over(game, command, on_turn_over))
                else:
                    reply = await self._unless_lost(game.handle(command))
                if reply is not None:
                    body, recipient, re = reply
                    self._send(body, recipient, re=re)
                elif isinstance(command.body, Left) and command.body.table == self.table_id:
                    self._unseated()
                    return game.result(command.body.reason)
                if on_idle is not None and not self._backlog and not self._inbox.waiting():
                    on_idle()
            except ConnectionLost:
                if self.token is None or self.reconnect_for <= 0:
                    raise
                if command is not None and not isinstance(command.body, YourTurn):
                    self._backlog.appendleft(command)  # not handled yet: after the reconnect
                await self.resume()
        # After game_end the server sends `left` (game_over): wait for it so that the
        # next lobby call does not race with the table letting us go.
        left = await self._left_after_the_end(self.table_id)
        if left is not None:
            self._backlog.remove(left)
        self._unseated()
        reason = left.body.reason if left is not None and isinstance(left.body, Left) else None
        return game.result(reason)

    def _ends_turn(self, command: object) -> bool:
        """Whether ``command`` (received, not handled yet) ends this seat's turn: the
        table played for it, the game ended, or the table let it go."""
        if not isinstance(command, Command):
            return False
        body = command.body
        if isinstance(body, Left):
            return body.table == self.table_id
        if command.sender != f"table:{self.table_id}":
            return False
        return (isinstance(body, CardPlayed) and body.seat == self.seat) or isinstance(body, GameEnd)

    async def _until_turn_over(self, game: GameTranslator, turn: Command,
                               on_turn_over: Callable[[], None] | None) -> Reply | None:
        """``game.handle(turn)`` (the player choosing), unless a command that ends the
        turn is here already or comes first: then None, with no move sent."""
        over = asyncio.Event()

        def watch(command: Command) -> None:
            if self._ends_turn(command):
                over.set()

        if any(self._ends_turn(c) for c in [*self._backlog, *self._inbox.waiting()]):
            over.set()
        self.observers.append(watch)
        task = asyncio.ensure_future(game.handle(turn)) if not over.is_set() else None
        waiter = asyncio.ensure_future(over.wait())
        try:
            if task is not None:
                await asyncio.wait((task, waiter), return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.observers.remove(watch)
            waiter.cancel()
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if task is not None and task.done() and not task.cancelled():
            if not over.is_set():
                return task.result()
            task.exception()  # the move came too late: never sent (the table played for this seat)
        if on_turn_over is not None:
            on_turn_over()
        return None

    async def _left_after_the_end(self, table: str | None) -> Command | None:
        """The table's ``left`` after its ``game_end`` (a lost connection resumes for it)."""
        while True:
            try:
                return await self._peek(lambda c: isinstance(c.body, Left) and c.body.table == table, timeout=10.0)
            except ConnectionLost:
                await self._reconnect_or_raise()
                if self.token is None:
                    return None  # the seat's time is up: nothing more to hear from the table


async def give_up_seat(host: str, port: int, name: str, token: str, **link: Any) -> str | None:
    """Give a saved seat up for real: back at it with its ``token``, then ``leave_table``
    (a bot plays on, or the game is abandoned, as the table's rules say; the others are
    told), then close.  ``left`` (a bot plays on), ``abandoned`` (the game ended there) or
    another word for why the seat is no more; None: nothing held the seat (gone already,
    or its table had nothing to leave).  ``link``: resume_seat's options."""
    try:
        session = await ClientSession.resume_seat(host, port, name, token, **link)
    except ServerRefused:
        return None
    ended: list[str] = []  # the game's end, when leaving ended it (the leaver's ``left`` says only "left")
    session.observers.append(lambda c: ended.append(c.body.reason) if isinstance(c.body, GameEnd) else None)
    try:
        left = await session.leave_table()
    except ServerRefused:
        return None
    finally:
        await session.close()
    return None if left is None else (ended[-1] if ended else left.reason)
