"""`scopa play`: the lobby in the terminal (list, create, join), then games at a table.

Every prompt takes plain text and answers bad input with a hint, never a traceback.
The game itself is shown and played by :class:`~scopa.client.console.human.TerminalPlayer`,
the same as in ``scopa local``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from scopa.engine import Player, Preset, RuleSet
from scopa.protocol import Command, ErrorCode, TableInfo, TableState
from scopa.protocol import commands as wire
from scopa.protocol.convert import rules_from_wire

from ..game import seconds_text, GameResult, SeatCameBack, SeatNotice, SeatTakenByBot, SeatWentAway
from ..text import Flow, tr, notice_line, rules_line, word_text, leaderboard_lines
from ..text import error_text, leave_question, no_table_text, refusal_text, render_standings
from ..text import Invite, link_text, seated_name, invite_string
from ..net import LinkEvent, LinkStatus, ClientSession, ConnectionLost, ServerRefused, share_host
from .human import TerminalPlayer
from .tablewords import Leaving
from .tablewords import LOBBY, command_of
from .club import tournament_command
from .prompt import InputFn, LineReader
from .seatfile import SeatKeeper, said_before
from .news import LobbyNews, TableNews
from .watching import describe, watch_table
from .tableform import TableForm, levels_listed, parse_bots, parse_options

__all__ = ["Lobby", "menu", "describe", "invite_lines", "levels_listed", "parse_bots", "parse_options", "render_tables",
           "watch_table"]

def menu() -> Flow:
    """The lobby's commands, each a key and what it does, in lines as wide as the
    terminal: a line breaks between two commands, never inside one."""
    pairs = (("p", tr("play now")), ("c", tr("create a table")), ("j ID", tr("join a table")),
             ("w ID", tr("watch a table")), ("t", tr("tournaments")), ("b", tr("leaderboard")),
             ("r", tr("refresh")), ("q", tr("quit")),
             ("p scopone:", tr("play scopone now")), ("b scopone:", tr("scopone's leaderboard")))
    return Flow([Text.assemble((key, "bold"), " " + words) for key, words in pairs], " · ")




class NarrowTable(Table):
    """A table as wide as what it holds.  In a terminal too narrow for that, the columns
    with a ratio share what the others leave them: each gets its ``min_width``, then
    the room left by their ratios."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        flexible = [column for column in self.columns if column.ratio]
        for column in flexible:
            column.width = None
        wide = options.update_width(10_000)
        natural = self.__rich_measure__(console, wide).maximum
        if natural > options.max_width:
            needs = [self._measure_column(console, wide, column) for column in flexible]
            padding = sum(self._get_padding_width(column._index) for column in flexible)
            room = options.max_width - (natural - sum(need.maximum for need in needs)) - padding
            least = [column.min_width or 1 for column in flexible]
            spare, ratios = max(0, room - sum(least)), sum(column.ratio or 0 for column in flexible)
            for column, low in zip(flexible, least):
                column.width = low + spare * (column.ratio or 0) // ratios
        yield from super().__rich_console__(console, options)


def render_tables(tables: Sequence[TableInfo]) -> Table | Text:
    """The lobby's tables: id, rules (with the turn timer, and "private" at a private table
    its players see), who sits where, state (a finished game abandoned says so).  The
    seats' column is as wide as its longest name at least: a narrow terminal wraps the
    rules before it breaks a name."""
    if not tables:
        return Text(tr("No tables yet: create one with c."), style="dim")
    seated = [[Text(seated_name(name, i in info.bots) + ",") if name is not None else
               Text(tr("free") + ",", style="green") for i, name in enumerate(info.seats)] for info in tables]
    t = NarrowTable(title=tr("Tables"))
    t.add_column(tr("table"), no_wrap=True)
    t.add_column(tr("rules"), ratio=1, min_width=8)
    t.add_column(tr("seats"), ratio=1, min_width=max(name.cell_len for names in seated for name in names))
    t.add_column(tr("state"), no_wrap=True)
    t.add_column(tr("watching"), no_wrap=True)
    for info, names in zip(tables, seated):
        names[-1].right_crop(1)  # no comma after the last seat
        seats = Text(" ").join(names)
        style = {TableState.WAITING: "green", TableState.PLAYING: "yellow"}.get(info.state, "dim")
        away = tr("(1 away)") if len(info.away) == 1 else tr("({n} away)", n=len(info.away))
        said = tr("abandoned") if info.abandoned else word_text(info.state.value)
        state = said + (" " + away if info.away else "")
        clock = " · ⏱ " + seconds_text(round(info.turn_timeout)) if info.turn_timeout else ""  # the table's turn clock
        private = " · " + tr("private") if info.private else ""
        t.add_row(info.id, rules_line(rules_from_wire(info.rules)) + clock + private, seats, Text(state, style=style),
                  str(info.spectators))
    return t


def invite_lines(session: ClientSession, invite: str) -> Text:
    """A private table's invite, as the person who opened it passes it on: the string, the
    command a friend at a terminal runs, the link for a browser (a server with a web page)."""
    host, local_only = share_host(session.host, session.lan_hosts)
    where = Invite(host, session.port, invite, session.web_port, session.tls, local_only)
    said = Text.assemble(tr("A private table: pass on its invite,") + " ", (invite, "bold"), "\n",
                         tr("Your friends run:") + " ", (where.command, "bold"))
    if where.link is not None and not local_only:
        said.append_text(Text.assemble("\n" + tr("or open in a browser:") + " ", (where.link, "bold")))
    if local_only:
        said.append("\n" + tr("This invite only works on this computer: the server listens on loopback only. For "
                               "friends on other machines, start it with --host 0.0.0.0."), style="yellow")
    return said


class Lobby:
    """The lobby loop of one connected session; returns when the person quits."""

    def __init__(
        self,
        session: ClientSession,
        console: Console,
        make_player: Callable[[], Player],
        defaults: RuleSet | None = None,
        input_fn: InputFn | None = None,
        reader: LineReader | None = None,
        seats: SeatKeeper | None = None,
    ) -> None:
        self.session = session
        self.console = console
        self.make_player = make_player
        self.defaults = defaults or RuleSet()
        self.reader = reader or LineReader(console, input_fn)
        """The keyboard, shared with the game's player: news is printed above a prompt that waits."""
        self.seats = seats
        """Where the seat is kept while a game is on, for a restarted client to return to it."""
        self.news = TableNews(session, self.reader)
        self.lobby_news = LobbyNews(session, self.reader)
        self._watching_lobby = False  # the server pushes the lobby's table changes (said as they come)
        self._called = asyncio.Event()  # a tournament's round gave us a table
        self._link_down = asyncio.Event()  # the connection is lost and not back yet
        self._told: wire.TournamentTable | None = None
        self._seated_by_server = False  # we were free when told: the server seats us itself
        session.add_listener(self.show_link)
        session.observers.append(self._heard)
        session.observers.append(self.news.heard)
        session.observers.append(self.lobby_news.heard)

    def say(self, *objects: Any, **options: Any) -> None:
        """Print (as ``Console.print``), above a prompt that waits."""
        self.reader.say(*objects, **options)

    def _heard(self, command: Command) -> None:
        """What the server pushes about our tournaments: a round's table (followed at once,
        even at the lobby's prompt), a round paired, a round without a table for us, the
        final standings."""
        body = command.body
        if isinstance(body, wire.TournamentTable):
            self._told, self._seated_by_server = body, self.session.table_id is None
            self._called.set()
        elif isinstance(body, wire.TournamentRound):
            self.say(Text(tr("Tournament {id}: round {n} is paired.", id=body.tournament, n=body.round), style="bold"))
        elif isinstance(body, wire.TournamentNoTable):  # out, a bye, or over: said wherever we are
            self.say(Text(no_table_text(body), style="bold"))
        elif isinstance(body, wire.TournamentStandings) and body.final and command.re is None:
            self.say(render_standings(body))

    def show_link(self, event: LinkEvent) -> None:
        """Say at once that the connection is lost, back, or given up on."""
        if event.status is LinkStatus.LOST:
            self._link_down.set()
            self.say(Text(link_text(back=False), style="yellow"))
        elif event.status is LinkStatus.RECONNECTED:
            self._link_down.clear()
            self.say(Text(link_text(back=True), style="green"))
        else:
            self.say(Text(tr("Could not get back to the server: it does not answer."), style="red"))

    async def ask(self, prompt: str) -> str:
        return (await self.reader.ask(prompt)).strip()

    async def ask_or_called(self, prompt: str) -> str | None:
        """The person's line, or None when a tournament's round gave them a table first
        (the line still being read then answers the game's first prompt).  A connection
        lost meanwhile is ConnectionLost at once (the lobby reconnects, the line still
        read), not when the person next types."""
        reading = self.reader.reading(prompt)
        line = asyncio.wrap_future(reading)
        called = asyncio.ensure_future(self._called.wait())
        down = asyncio.ensure_future(self._link_down.wait())
        try:
            await asyncio.wait((line, called, down), return_when=asyncio.FIRST_COMPLETED)
        finally:
            called.cancel()
            down.cancel()
            self.reader.done_with(reading, prompt)
        if self._called.is_set():
            return None
        if not line.done():
            raise ConnectionLost("the connection was lost while the lobby waited for a line")
        return line.result().strip()

    async def tournament_game(self) -> None:
        """Play at the table a tournament's round gave us: the server seated us if we
        were free when told; else we sit down now (join_table keeps our seat)."""
        told, self._told = self._told, None
        self._called.clear()
        if told is None:
            return
        opponent = told.game.second if told.seat % 2 == 0 else told.game.first  # the first side: seats 0 and 2
        try:
            if self._seated_by_server and self.session.table_id is None:
                seat = await self.session.next_tournament_seat(told.tournament)
                if isinstance(seat, wire.TournamentStandings):
                    return
            elif self.session.table_id != told.table:
                await self.session.join_table(told.table)
        except ServerRefused as exc:
            self.say(Text(tr("Cannot sit at your tournament table {table}: {message}", table=told.table,
                                       message=error_text(exc.code, exc.message)), style="yellow"))
            return
        self.say(Text(tr("Tournament {id}, round {n}: you sit at table {table}, seat {seat}, against "
                                   "{who}.", id=told.tournament, n=told.round, table=told.table,
                                   seat=(self.session.seat or 0) + 1, who=opponent), style="bold green"))
        await self.play()

    async def run(self) -> None:
        """The lobby loop; a lost connection is reopened by the session (at the lobby,
        the table or the game where it was lost) and the loop goes on, until reconnecting
        runs out of time (ConnectionLost)."""
        while True:
            try:
                await self._lobby()
                return
            except ConnectionLost:
                self._watching_lobby = False  # a new connection watches nothing
                await self.session.reconnect()

    async def _lobby(self) -> None:
        tables = await self.show()
        while True:
            line = await self.ask_or_called(tr("Lobby> "))
            self.session.drop_lobby_updates()  # said as they came
            if line is None:
                await self.tournament_game()
                tables = await self.show()
                continue
            word, _, rest = line.partition(" ")
            command = command_of(word, LOBBY)
            if command == "quit":
                return
            if command == "refresh":
                tables = await self.show()
            elif command == "help":  # the lobby's commands, as ? lists the game's at the move prompt
                self.say(menu())
            elif command == "play":
                if await self.play_now(rest.strip()):
                    tables = await self.show()
            elif command == "create":
                if await self.create():
                    tables = await self.show()
            elif command == "join":
                table_id = rest.strip() or await self.ask(tr("Table id: "))
                if await self.join(table_id, tables):
                    tables = await self.show()
            elif command == "watch":
                table_id = rest.strip() or await self.ask(tr("Table id: "))
                if table_id:
                    await watch_table(self.session, self.console, table_id)
                    tables = await self.show()
            elif command == "tournaments":
                await tournament_command(self.session, self.console, rest)
            elif command == "leaderboard":
                await self.leaderboard(rest.strip() or "scopa")
            elif any(t.id == line for t in tables):
                if await self.join(line, tables):
                    tables = await self.show()
            else:
                self.say(Text(tr("{line}: not a lobby command.", line=repr(line)), style="yellow"))
                self.say(menu())

    async def leaderboard(self, preset: str) -> None:
        """The server's ratings of ``preset`` (a server that keeps its games)."""
        from ..net import leaderboard

        try:
            board = await leaderboard(self.session, preset)
        except ServerRefused as exc:
            self.say(f"[yellow]{escape(error_text(exc.code, exc.message))}[/yellow]")
            return
        except ValueError:
            self.say(Text(tr("{name} is not a preset; try one of: {presets}", name=repr(preset),
                                       presets=", ".join(p.value for p in Preset)), style="yellow"))
            return
        for line in leaderboard_lines(board):
            self.say(line, markup=False, highlight=False)

    async def show(self) -> list[TableInfo]:
        # A page of each: the tables waiting for players, the games to watch, the ones just over.
        tables = [t for state in (TableState.WAITING, TableState.PLAYING, TableState.FINISHED)
                  for t in await self.session.list_tables(state)]
        if not self._watching_lobby and self.session.table_id is None:
            self.lobby_news.listed(await self.session.watch_lobby())  # news from now on, at the prompt
            self._watching_lobby = True
        self.lobby_news.listed(tables)
        self.say(render_tables(tables))
        self.say(menu())
        return tables

    async def play_now(self, preset: str) -> bool:
        """A quick game (PROTOCOL.md §16): wait for others asking for the same game, then
        play at the table the server made; False if the server refused."""
        try:
            chosen = Preset(preset or (self.defaults.preset.value if self.defaults.preset else "scopa"))
        except ValueError:
            self.say(Text(tr("{name} is not a preset; try one of: {presets}", name=repr(preset),
                                       presets=", ".join(p.value for p in Preset)), style="yellow"))
            return False

        def waiting(others: int) -> None:
            self.say(Text(tr("Waiting for a game of {preset}: {others} other(s) waiting…",
                                       preset=chosen.value, others=others), style="dim"))

        try:
            joined = await self.session.quick_play(chosen, waiting=waiting)
        except ServerRefused as exc:
            self.say(Text(tr("The server refused: {message}", message=exc.message), style="red"))
            return False
        self.say(Text(tr("You sit at table {table}, seat {seat}.", table=joined.table, seat=joined.seat + 1)))
        for line in said_before(self.session):
            self.say(line)
        await self.play(quick=True)
        return True

    async def create(self) -> bool:
        """Ask for the rules, the table's own settings and bots, open the table and play
        there; False if the server refused."""
        form = TableForm(self.reader, self.defaults, self.session.turn_timeout)
        new = await form.table()
        bots = await form.bots(new.rules.players - 1)
        try:
            table = await self.session.create_table(new.rules, fill_with_bots=bots, private=new.private,
                                                    turn_timeout=new.turn_timeout, no_turn_timer=new.no_turn_timer)
        except ServerRefused as exc:
            self.say(Text(tr("The server refused: {message}", message=error_text(exc.code, exc.message)), style="red"))
            return False
        self.say(Text(tr("Table {table} is open: {rules}.", table=table.id, rules=rules_line(new.rules))))
        if new.private and self.session.invite:
            self.say(invite_lines(self.session, invite_string(table.id, self.session.invite)))
        await self.play(table)
        return True

    async def join(self, table_id: str, tables: Sequence[TableInfo]) -> bool:
        if not table_id:
            return False
        try:
            joined = await self.session.join_table(table_id)
        except ServerRefused as exc:
            if exc.code is ErrorCode.TABLE_FULL:  # the way to watch it instead
                self.say(Text(refusal_text(exc.code, exc.message, joining=table_id, watch_key=f"w {table_id}"),
                              style="yellow"))
                return False
            self.say(Text(tr("Cannot join table {table}: {message}", table=repr(table_id),
                                       message=error_text(exc.code, exc.message)), style="yellow"))
            return False
        self.say(Text(tr("You sit at table {table}, seat {seat}.", table=joined.table, seat=joined.seat + 1)))
        for line in said_before(self.session):
            self.say(line)
        await self.play(next((t for t in tables if t.id == joined.table), None))
        return True

    def _table_words(self, player: TerminalPlayer, table: TableInfo | None, quick: bool | None) -> None:
        """The move prompt's chat (to this table) and its leaving (asked first, as the
        full-screen client asks; ``quick``: a quick game's table, where a bot takes a seat left)."""
        session, at = self.session, self.session.table_id

        async def chat(text: str) -> None:
            await session.send_chat(text, to=f"table:{at}")

        def question() -> str:
            board = player.board  # the seats' own names ("easy-bot-1": a server's bot), as the full-screen client asks
            others = [None if i in board.bot_plays or i in player.bot_seats else n for i, n in enumerate(board.names)
                      if i != player.seat]
            return leave_question(others, table.bot_takeover if table is not None else quick)

        def leave() -> None:
            if self.seats is not None:
                self.seats.forget()
            session.leave_game()

        player.chat, player.leaving = chat, Leaving(question, leave)

    async def play(self, table: TableInfo | None = None, quick: bool = False) -> GameResult:
        """Play the game at the table the session sits at (``table``: how it stood when
        we sat down, if known; ``quick``: a quick game's); its seat is kept until the game is over."""
        if self._watching_lobby:  # at the table, the lobby's news would only pile up
            self._watching_lobby = False
            await self.session.unwatch_lobby()
        if self.seats is not None:
            self.seats.keep(self.session)
        self.news.sitting(table)
        joined = self.session.joined
        resumed = joined is not None and joined.resumed  # a game under way: its seats are full, it has begun
        if not resumed and not await self.session.wait_for_game_start(0):
            self.say(Text(tr("Waiting for the other seats to fill…"), style="dim"))
        player = self.make_player()
        if isinstance(player, TerminalPlayer):
            self._table_words(player, table, True if quick else None)
            player.seat = self.session.seat  # known before a resume's replay names it
            player.resumed = resumed

        def noticed(notice: SeatNotice) -> None:
            if isinstance(player, TerminalPlayer) and player.own_seat(notice):
                return  # our own seat, told again by a resume: the player says what a bot did with it
            if isinstance(notice, (SeatCameBack, SeatWentAway)) and notice.seat == self.session.seat:
                return  # our own time away and return: the lines on the connection said it
            if not self.news.said(notice):
                self.say(notice_line(notice))
            if isinstance(notice, SeatTakenByBot) and isinstance(player, TerminalPlayer):
                player.bot_plays(notice.seat)
        try:
            result = await self.session.play_game(player, on_notice=noticed)
        finally:  # the keyboard is the lobby's again
            player.stop_listening() if isinstance(player, TerminalPlayer) else None
        if self.seats is not None:
            self.seats.forget()
        if result.winner is None:  # nobody won, nor lost: the end said so, or it is said here
            if not (isinstance(player, TerminalPlayer) and player.board.over):
                self.say(Text(tr("The game ended without a winner ({reason}).", reason=word_text(result.reason)),
                              style="bold"))
        else:
            self.say(Text(tr("You won!"), style="bold green") if result.won else Text(tr("You lost."), style="bold"))
        self.say(Text(tr("Back in the lobby."), style="dim"))
        return result
