"""`scopa play` and `scopa watch` as a Textual app: the lobby, games at a table through
:class:`~scopa.client.net.session.ClientSession`, watching, what happens to the other seats,
a reconnecting banner and a return to an unfinished game after a restart."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from rich.text import Text

from scopa.engine import Event, GameEnded, GameStarted, Played, RoundEnded, RoundStarted, RuleSet
from scopa.protocol import ChatMessage, Command, Joined, Snapshot, TableInfo, TableUpdate
from scopa.protocol.commands import TournamentNoTable, TournamentTable
from scopa.protocol.convert import rules_from_wire

from ...game import SeatNotice, notice_from_wire
from ...text import error_text, gave_up_text, no_table_text, word_text, BoardState
from ...text import tr, DeckStyle, invite_string, leave_question, link_text, lost_text, refusal_text, renamed_text, rules_line, seated_text
from ...net import ClientSession, ConnectionLost, ServerRefused, SavedSeat, TokenStore, CertificateRefused, give_up_seat
from ...net import share_host
from ..app import ScopaApp
from .away import AwaySeats
from ..board import BoardScreen
from .comeback import Comeback
from ..dialogs import ConfirmScreen, NameScreen, RoundEndScreen, keys_help
from .invitepanel import Invite, ShareInviteScreen
from .rematch import Rematches, game_over, play_rematch
from .lobby import CreateTableScreen, LobbyScreen, NewTable, QuickWait
from .players import NetPlayer
from .snapshot import board_from_map, bots_from_map, seat_waiting, table_now, watched_snapshot
from .tournaments import browse_tournaments
from .watching import leave_watching, watch_game
from ..tablefacts import TableFacts
from ..text import result_line


class NetApp(ScopaApp):
    """The lobby and network games (``scopa play``), or one watched table (``scopa watch``)."""

    def __init__(self, host: str, port: int, name: str, store: TokenStore, defaults: RuleSet | None = None,
                 style: DeckStyle = DeckStyle.ITALIAN, autoplay: bool = True, watch: str | None = None,
                 pace: float = 0.0, invite: tuple[str, str] | None = None) -> None:
        super().__init__()
        self.host, self.port, self.player_name = host, port, name
        self.server = f"{host}:{port}"
        self.store = store
        self.defaults = defaults or RuleSet()
        self.deck = style
        self.autoplay = autoplay
        self.pace = pace  # seconds to leave each play by someone else on screen
        self.watch_only = watch
        self.leaving = False  # the person asked to leave the game being played
        self.invite = invite  # (table, code): join that private table (or watch it, with ``watch``) at once
        self.session: ClientSession | None = None
        self.lobby: LobbyScreen | None = None
        self.board_screen: BoardScreen | None = None
        self.watching: str | None = None
        self.playing = False
        self.bot_takeover: bool | None = None  # a bot plays a seat left empty at this table (None: not known)
        self.lobby_pushes = False  # the server pushes table changes to the lobby
        self.messages: list[str] = []  # what the app told the person, in order (also for tests)
        self.away = AwaySeats(lambda text: self.tell(text))  # the other seats that are away, counting their time down
        self.comeback = Comeback(lambda text: self.tell(text), lambda: self.session.table_id if self.session else None,
                                 style)  # what was missed while away, and a move to send again
        self.comeback.on_caught_up = lambda screen: bots_from_map(screen.board, self.table_info, self.session)
        self.proxied_for: str | None = None  # a web host's: whom the connection is for
        self.link_options: dict[str, Any] = {}  # connect's tls, trust, fingerprint (TLS) and others (a cluster)
        self.ask_before_resuming = True  # False: back to a saved seat without asking
        self.ask_name = False  # True: the name is asked first (scopa play without --name), player_name offered
        self.table_info: TableInfo | None = None  # the listing of the table this client sits at, when it saw one
        self.rematches = Rematches()  # the rematches offered, for the game-over box
        self.quick = QuickWait()  # a quick game waited for

    # ------------------------------------------------------------------ frame

    def current_facts(self) -> TableFacts | None:
        """The table in play (its listing when this client saw one), else the one chosen in the lobby."""
        if self.lobby is not None and self.screen is self.lobby:  # the table chosen in the list
            info = self.lobby.tables.get(self.lobby.selected_id() or "")
        elif self.board_screen is not None and self.board_screen.board.rules is not None:
            info = self.table_info
            if info is None:
                table = self.session.table_id if self.session else None
                return TableFacts(self.board_screen.board.rules, known_timer=False, table=table)
        else:
            return TableFacts(self.defaults, known_timer=False)
        if info is None:
            return None
        return TableFacts(rules_from_wire(info.rules), timer=info.turn_timeout, private=info.private, table=info.id,
                          reading=self.session.reading_time if self.session is not None else None, watching=self.watching is not None)

    def current_keys(self) -> str | None:
        """In the lobby, the lobby's keys; else a table's (a watched one's: a spectator's)."""
        return keys_help(lobby=True) if self.lobby is not None and self.screen is self.lobby else super().current_keys()

    def tell(self, text: str | Text) -> None:
        self.messages.append(str(text))
        board = self.board_screen  # at a game, also under a box (help, a round's): "bruno is back" replaces "gone"
        if board is not None and (self.screen is board or self.playing and board in self.screen_stack):
            board.say(text)
        elif self.lobby is not None:
            self.lobby.say(text)

    def in_game(self) -> bool:
        """At a game's board, or seated at a table whose board is not open yet."""
        seated = self.session is not None and self.session.table_id is not None and self.watching is None
        return self.playing or seated

    async def _leave(self) -> None:
        if not self.in_game():
            await leave_watching(self)  # asked first while a table is watched; otherwise the app ends
            return
        board = self.board_screen.board if self.board_screen is not None else None
        others: list[str | None] = [None if i in board.bot_plays else n for i, n in enumerate(board.names)
                                    if i != board.viewer] if board is not None else []
        if await self.show_and_wait(ConfirmScreen(leave_question(others, self.bot_takeover))):
            if self.session is not None and not self.playing:  # seated, the board not open: the seat is given up
                self.store.forget(self.server, self.player_name)
                with contextlib.suppress(ConnectionLost):
                    self.session.leave_game()
            if self.session is None or self.watching is not None or self.lobby is None or not self.playing:
                self.exit(0)
                return
            # Back to the lobby: the game's end and ``left`` take the board away.
            self.store.forget(self.server, self.player_name)
            self.leaving = True
            try:
                self.session.leave_game()
            except ConnectionLost:
                self.exit(0)

    # ------------------------------------------------------------------ start

    def on_mount(self) -> None:
        self.run_worker(self.main(), name="main", exclusive=True, group="main")

    async def main(self) -> None:
        try:
            await self._main()
        except ServerRefused as exc:
            self.exit(1, message=refusal_text(exc.code, exc.message, self.watch_only, self.invite is not None))
        except ConnectionLost as exc:
            self.exit(1, message=lost_text(exc.unreachable))
        except CertificateRefused as exc:
            self.exit(1, message=f"{exc}")

    async def _main(self) -> None:
        if self.ask_name:  # the name first (Esc there leaves the app)
            self.player_name = await self.show_and_wait(NameScreen(self.player_name, self.watch_only is not None))
        saved = self.store.load(self.server, self.player_name) if self.watch_only is None else None
        session: ClientSession | None = None
        if self.watch_only is None:
            self.lobby = LobbyScreen(tr("{name} on {server}", name=self.player_name, server=self.server))
            await self.push_screen(self.lobby)
        if saved is not None and (not self.ask_before_resuming or await self.offer_return(saved)):
            try:
                session = await ClientSession.resume_seat(self.host, self.port, saved.name, saved.token,
                                                          proxied_for=self.proxied_for, **self.link_options)
            except ServerRefused as exc:
                self.tell(tr("That game is over or gone ({reason}).", reason=error_text(exc.code, exc.message)))
                self.store.forget(self.server, self.player_name)
        if session is None:
            session = await ClientSession.connect(self.host, self.port, self.player_name,
                                                  proxied_for=self.proxied_for, **self.link_options)
        self.session = session
        if (renamed := renamed_text(self.player_name, session.name)) is not None and self.lobby is not None:
            self.lobby.rename(tr("{name} on {server}", name=session.name, server=self.server))
            self.tell(renamed)
        session.observers.append(lambda c: self.call_later(self.on_server_command, c))
        session.link_observers.append(self._link_changed)
        session.link_observers.append(lambda up, why: self.call_later(self.on_link, up, why))
        if self.watch_only is not None:
            line = await watch_game(self, self.watch_only, self.invite[1] if self.invite else None)
            self.exit(0, message=line)
            return
        if session.table_id is not None:  # resumed: straight back to the game
            await self.play_at_table()
        elif self.invite is not None:  # scopa play --invite: straight to the friend's table
            await self.lobby_action("join", " ".join(self.invite))
        await self.subscribe_lobby()

    async def offer_return(self, saved: SavedSeat) -> bool:
        """Ask on the lobby screen (y/n) whether to go back to a saved seat (before any connection: the
        tables are listed once it is answered, by the one connection that names this person)."""
        assert self.lobby is not None
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        # No table list behind it: asked on a connection of its own, it would be a second
        # player of this name to the server ("ada2"); the lobby's connection lists them next.
        self.lobby.ask(Text.assemble(
            (tr("You have an unfinished game at table {table} on {server} (seat {seat}, as {name}).",
                table=saved.table, server=self.server, seat=saved.seat + 1, name=saved.name) + " ", "bold"),
            (tr("y: go back to it · n: leave it"), "bold green")), answer)
        yes = await answer
        if not yes:
            # given up for real: the server lets a bot play on or ends the game, and tells the others
            said = gave_up_text(saved.table, await give_up_seat(self.host, self.port, saved.name, saved.token,
                                                                proxied_for=self.proxied_for, **self.link_options))
            if said is not None:
                self.tell(said)
            self.store.forget(self.server, self.player_name)
        return yes

    async def subscribe_lobby(self) -> None:
        """Have the server push every table change to the lobby (``watch_lobby``), and list
        the tables it answers with; again after a lost connection (a new one watches nothing)."""
        if self.session is None or self.lobby is None:
            return
        try:
            self.lobby.show_tables(await self.session.watch_lobby())
        except (ConnectionLost, ServerRefused):
            return  # lost again (or the member is stopping): the next reconnection asks again
        self.lobby_pushes = True

    # ------------------------------------------------------------------ the lobby

    async def refresh_tables(self) -> None:
        if self.session is None or self.lobby is None:
            return
        tables = await self.session.list_tables()
        self.lobby.show_tables(tables)

    def on_lobby_screen_action(self, message: LobbyScreen.Action) -> None:
        if message.kind in ("quick", "stop_quick") and self.quick.stop(self, self.session):
            self.workers.cancel_group(self, "lobby")  # p again, or Esc: the wait is given up
            return
        if message.kind != "stop_quick":  # Esc with nothing waited for: nothing to do
            self.run_worker(self.lobby_action(message.kind, message.arg), group="lobby", exclusive=True)

    async def lobby_action(self, kind: str, arg: str) -> None:
        session = self.session
        if session is None or self.lobby is None:
            return
        try:
            if kind == "refresh":
                await self.refresh_tables()
            elif kind == "say":
                await session.send_chat(arg)
            elif kind == "create":  # the form again as it was, with the reason, when the server refuses
                last: NewTable | None = None
                problem = ""
                while True:
                    new = await self.show_and_wait(CreateTableScreen(self.defaults, session.turn_timeout, last, problem,
                                                                          session.reading_time))
                    if new is None:
                        return
                    try:
                        info = await session.create_table(new.rules, fill_with_bots=new.bots, private=new.private,
                                                          turn_timeout=new.turn_timeout,
                                                          no_turn_timer=new.no_turn_timer,
                                                          bot_takeover=new.bot_takeover)
                    except ServerRefused as exc:
                        last, problem = new, refusal_text(exc.code, exc.message)
                        continue
                    break
                self.table_info, self.bot_takeover = info, new.bot_takeover
                self.tell(tr("Table {table} is open: {rules}.", table=info.id,
                             rules=rules_line(rules_from_wire(info.rules))))
                await self.play_at_table(invite_string(info.id, session.invite) if new.private and session.invite
                                         else None)
            elif kind == "quick":  # the defaults' game, with whoever else asks for it
                joined = await self.quick.wait(self, session)
                self.tell(tr("You sit at table {table}, seat {seat}.", table=joined.table, seat=joined.seat + 1))
                await self.play_at_table()
            elif kind == "tournaments":
                await browse_tournaments(self, session)
            elif kind == "tournament":
                seat = await session.next_tournament_seat(arg)
                if isinstance(seat, Joined):
                    self.tell(tr("Tournament {tournament}: you sit at table {table}, seat {seat}.", tournament=arg,
                                 table=seat.table, seat=seat.seat + 1))
                    await self.play_at_table()
            elif kind == "join":
                table_id, _, invite = arg.partition(" ")
                joined = await session.join_table(table_id, invite=invite or None)
                self.table_info = self.lobby.tables.get(joined.table)
                self.bot_takeover = None if self.table_info is None else self.table_info.bot_takeover
                self.tell(seated_text(table_id, joined.table, joined.seat))  # or, the game over, at its rematch
                await self.play_at_table()
            elif kind == "watch":
                self.table_info = self.lobby.tables.get(arg)
                await watch_game(self, arg)
            await self.refresh_tables()
        except ServerRefused as exc:
            invited, full = kind == "join" and " " in arg, arg if kind == "join" and " " not in arg else None
            self.tell(Text(refusal_text(exc.code, exc.message, arg if kind == "watch" else None, invited, full), style="yellow"))
        except ConnectionLost:
            await self.reconnect_lobby()

    async def reconnect_lobby(self) -> None:
        if self.session is None:
            return
        self.on_link(False, "connection lost")
        try:
            await self.session.reconnect()
            await self.refresh_tables()
        except ConnectionLost as exc:  # the session gave up: said as when the app cannot connect
            self.exit(1, message=lost_text(exc.unreachable))
        except ServerRefused as exc:
            self.exit(1, message=refusal_text(exc.code, exc.message))

    # ------------------------------------------------------------------ a game

    def save_seat(self) -> None:
        s = self.session
        if s is not None and s.token is not None and s.table_id is not None and s.seat is not None:
            self.store.save(SavedSeat(server=self.server, name=self.player_name, table=s.table_id, seat=s.seat,
                                      token=s.token))

    async def play_at_table(self, invite: str | None = None) -> None:
        """Play the game at the table this session sits at (``invite``: a private table's
        number and code, to show while its seats fill)."""
        session = self.session
        assert session is not None
        self.save_seat()
        board = BoardState(viewer=session.seat)
        info = await table_now(session, self.table_info)  # who sits there before the game starts
        if info is not None:
            self.table_info, self.bot_takeover = info, info.bot_takeover
        board_from_map(board, info)
        screen = BoardScreen(board, self.deck, title=tr("table {table}", table=session.table_id))
        screen.question.hold_on_cancel = True
        screen.chat = self.say_at_table
        screen.turn_clock, screen.now = session.turn_clock, session.clock.now
        self.board_screen = screen
        self.playing = True
        if session.joined is not None and session.joined.resumed:
            self.comeback.catch_up(screen)
        self.comeback.chat_back(screen, session.joined)  # a rematch's chat goes on from the finished game's
        await self.push_screen(screen)
        if not await session.wait_for_game_start(0):
            if invite is not None:
                host, local_only = share_host(self.host, session.lan_hosts)
                self.push_screen(ShareInviteScreen(Invite(host, self.port, invite, session.web_port,
                                                          bool(self.link_options.get("tls", False)), local_only)))
            screen.say(tr("Waiting for the other seats to fill…") if invite is None else Text.assemble(
                tr("Waiting for the other seats to fill. A private table: pass on its invite,") + " ", (invite, "bold"),
                ". " + tr("Your friends run scopa play --invite with it (or press i in the lobby and paste it).")))
        token = session.token  # a private table's record is given to a holder of one of its seat tokens
        try:
            result = await session.play_game(NetPlayer(session.name, self, screen), on_notice=self._notice_in_turn,
                                             on_snapshot=lambda snap: self.comeback.snapshot_in_turn(screen, snap),
                                             on_turn_over=screen.turn_taken,
                                             on_idle=lambda: self.comeback.caught_up(screen))
        finally:
            self.playing = False
            self.comeback.caught_up(screen)
        # Only a game that is over forgets its seat: an app closed mid-game (Ctrl+C, a
        # reloaded web page) finds it again when it starts.
        self.store.forget(self.server, self.player_name)
        left, again = gave_up_text(result.table, result.reason) if self.leaving else None, False  # and what became of it
        if not self.leaving:
            line = result_line(board) if board.over else tr("The game ended without a winner ({reason}).",
                                                            reason=word_text(result.reason))
            again = await game_over(self, session, board, line, result.table, token)  # n: a rematch
        self.leaving, self.board_screen = False, None
        while self.screen is not self.lobby and len(self.screen_stack) > 1:
            self.pop_screen()
        if left is not None:
            self.tell(left)  # said in the lobby, where the person is now
        if again:
            await play_rematch(self, session, result.table, board.viewer)

    def _link_changed(self, up: bool, why: str) -> None:
        """Told at once (before the table's first command on the new connection)."""
        self.comeback.just_reconnected = up
        if up and self.playing and self.watching is None and self.board_screen is not None:
            self.comeback.catch_up(self.board_screen)
            self.comeback.chat_back(self.board_screen, self.session.joined if self.session else None)

    def _notice_in_turn(self, notice: SeatNotice) -> None:
        """A seat notice in its place among the table's events: our own seat's are the comeback's."""
        screen, session = self.board_screen, self.session
        if screen is not None and session is not None and notice.seat == session.seat:
            self.comeback.own_notice(screen, notice, session.history_ahead(), self.away.held_back())

    async def show_event(self, event: Event) -> None:
        self.comeback.last_move = None  # the table has moved on: nothing to send again
        screen = self.board_screen
        if screen is None:
            return
        if screen.held and not isinstance(event, GameEnded):  # history: onto the board, not drawn
            screen.board.apply(event)
            if isinstance(event, RoundStarted):
                self.comeback.new_round()
            elif isinstance(event, Played):
                self.comeback.missed(screen, event)
            return
        self.comeback.caught_up(screen)
        if isinstance(event, GameStarted) and isinstance(self.screen, ShareInviteScreen):
            self.screen.close()  # everyone is seated: the game is what to look at now
        screen.board.apply(event)
        autoplayed = screen.autoplayed
        screen.tell_event(event)
        screen.refresh_board()
        if isinstance(event, Played) and self.pace and (event.seat != screen.board.viewer or autoplayed):
            await asyncio.sleep(self.pace)  # the next commands wait in the session's queue
        if isinstance(event, RoundEnded) and screen.board.last_round is not None:
            if self.session is None or self.session.replaying():
                return  # a round that ended before this client came back: nothing to wait for
            box = RoundEndScreen(screen.board.last_round, screen.board, self.deck, None, self.session.turn_clock,
                                 self.session.clock.now)  # the clock runs on meanwhile
            box.pause = 4.0 if self.watching and not box.last_round() else None  # the game's last: until a key
            if self.watching is None and not box.last_round():  # the next round is dealt behind it, the box shows it
                self.push_screen(box, lambda card: None if card is None else screen.play_when_asked(card))
            else:
                await self.show_and_wait(box)  # a game's last round (or a watched one): the rest waits for it

    # ------------------------------------------------------------------ watching

    def action_stop_watching(self) -> None:
        """Ask the server to let the table go; the watch under way reads its answer (and
        a link lost meanwhile is reconnected by it, to the lobby)."""
        if self.session is not None and self.watching is not None:
            try:
                self.session.stop_watching(self.watching)
            except ConnectionLost:
                pass  # the watch hears of it too, and reconnects

    # ------------------------------------------------------------------ what the server says

    def table_party(self) -> str | None:
        """Who speaks for the table this app sits at or watches (``table:<id>``)."""
        table = self.watching if self.watching is not None else self.session.table_id if self.session else None
        return None if table is None else f"table:{table}"

    def say_at_table(self, text: str) -> None:
        """Send a chat line to the people at this table (the board's chat box)."""
        session, table = self.session, self.table_party()
        if session is None or table is None or self.watching is not None:
            return

        async def send() -> None:
            try:
                await session.send_chat(text, to=table)
            except ConnectionLost:
                self.tell(Text(tr("Not sent while reconnecting: {text}", text=text), style="yellow"))

        self.run_worker(send(), group="chat")

    def on_server_command(self, command: Command) -> None:
        body = command.body
        screen = self.board_screen
        if isinstance(body, ChatMessage):
            author = body.author.split(":", 1)[-1]
            if screen is not None and command.sender == self.table_party():
                screen.chat_line(author, body.text)
                return
            if self.lobby is not None:
                self.lobby.chat(author, body.text)
            if not self.lobby_pushes and self.screen is self.lobby:
                self.run_worker(self.lobby_action("refresh", ""), group="refresh", exclusive=True)
        elif isinstance(body, TableUpdate):
            self.rematches.heard(body.table)
            if self.lobby is not None and (self.lobby_pushes or command.sender == "lobby"):
                self.lobby.update_table(body.table)
            at_table = screen is not None and command.sender == f"table:{body.table.id}"
            if command.sender == f"table:{body.table.id}" and (self.session and self.session.table_id) == body.table.id:
                self.table_info, self.bot_takeover = body.table, body.table.bot_takeover  # our table as it is now
            if at_table and screen is not None:  # who is away: the table map is the truth
                seat_waiting(screen.board, body.table)
                if not screen.held:  # and whose person a bot plays for (caught up with: from the map then)
                    bots_from_map(screen.board, body.table)
                self.away.from_update(screen, body.table.away)
                if screen.board.spectators != body.table.spectators:
                    screen.board.spectators = body.table.spectators
                    screen.refresh_board()
        elif isinstance(body, TournamentTable) and screen is None and self.watching is None:
            # a tournament's round: the server seats us at our table (in the lobby, so free)
            self.run_worker(self.lobby_action("tournament", body.tournament), group="lobby", exclusive=True)
        elif isinstance(body, TournamentNoTable):  # out, a bye, or over: said on whatever screen is up
            self.tell(no_table_text(body))
            self.notify(no_table_text(body), timeout=30)
        elif isinstance(body, Snapshot) and screen is not None:
            if self.watching is not None:  # a seat's snapshot is set in its place among the events
                watched_snapshot(screen, body)
            self.away.from_update(screen, body.table.away)  # who is away: the table map is the truth
        elif (notice := notice_from_wire(body)) is not None and screen is not None:
            if command.sender == self.table_party() and self.watching is None:  # a spectator's: in order, by its watch
                self.away.notice(screen, notice)

    def on_link(self, up: bool, why: str) -> None:
        screen = self.board_screen
        if up:
            text = None
            self.messages.append("reconnected")
            if self.lobby_pushes:
                self.run_worker(self.subscribe_lobby(), group="watch-lobby", exclusive=True)
        else:
            text = link_text(back=False) + " " + tr("Your moves are kept until it is back.")
            self.messages.append(text)
            idle = not any(w.group in ("lobby", "main") and w.is_running for w in self.workers)
            if idle and not self.playing and self.watching is None and self.lobby is not None:
                self.run_worker(self.reconnect_lobby(), group="lobby")  # nothing else reads the link: won back here
        if screen is not None:
            screen.banner(text)
        elif self.lobby is not None:
            self.lobby.say(text or link_text(back=True))

