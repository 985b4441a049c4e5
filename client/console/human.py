"""A person at the terminal as a :class:`~scopa.engine.Player` (local or network game)."""

from __future__ import annotations

import asyncio
from typing import Callable, Sequence

from rich.console import Console
from rich.text import Text

from rich.console import Group

from scopa.engine import Declare, Event, GameEnded, GameStarted, IllegalMoveError, Play, RoundEnded, View
from scopa.engine.player import Player

from ..game import SeatCameBack, SeatNotice, SeatTakenByBot, seconds_text
from ..text import BoardState, player_name, reason_text, round_parts
from ..text import tr, parse_choice, DeckStyle, label, labels, parse_cards, event_line, render_moves, render_view
from .prompt import InputFn, LineReader
from .tablewords import Chat, Leaving, example_whole, is_yes, prompt_help, table_line


WARN_AT = 10
"""Seconds left on the turn clock when the prompt says so once more."""


class TerminalPlayer(Player):
    """Shows the game with rich and reads moves from the keyboard."""

    def __init__(
        self,
        name: str = "you",
        console: Console | None = None,
        style: DeckStyle = DeckStyle.ITALIAN,
        autoplay: bool = True,
        delay: float = 0.0,
        input_fn: InputFn | None = None,
        time_left: Callable[[], int | None] | None = None,
        reader: LineReader | None = None,
        chat: Chat | None = None,
        leaving: Leaving | None = None,
    ) -> None:
        self.name = name
        self.time_left = time_left
        """Seconds left on this seat's turn clock (a network game); None: no clock runs."""
        self.console = console or Console()
        self.reader = reader or LineReader(self.console, input_fn)
        """The keyboard (shared with the lobby in a network game): a read still under way when
        a turn the server ended is over answers the next prompt."""
        self.style = style
        self.autoplay = autoplay
        self.delay = delay
        self.names: tuple[str, ...] = ()
        self.seat: int | None = None
        self.bot_seats: set[int] = set()  # seats a bot plays since their person left
        self.bot_for_me = False  # a bot played this seat while we were away (what a resume replays)
        self.resumed = False  # back at a game under way: its start is not told again
        self.chat = chat
        """Says a line to the table (a network game); None: nobody to talk to."""
        self.leaving = leaving
        self.board = BoardState()
        """The game as the full-screen client keeps it: a round's end is shown as its round box is."""
        self.hinted = False  # "? lists …" said once, at the first prompt
        self.listening: asyncio.Task[None] | None = None  # chat typed while the others move, sent as typed
        self.warned = False  # this turn's "10 s left" said
        """How the game is left from the prompt (a network game); None: Ctrl+C only."""

    async def notify(self, event: Event) -> None:
        if self.chat is not None and self.listening is None and not isinstance(event, GameEnded):
            self.listening = asyncio.ensure_future(self._chat_off_turn())
        elif isinstance(event, GameEnded):
            self.stop_listening()
        if isinstance(event, GameStarted):
            self.names, self.bot_seats = tuple(player_name(n) for n in event.names), set()  # "Bot 1 (medium)"
            if self.name in event.names:  # this seat, before its first turn: "you deal", not "Tu deals"
                self.seat = event.names.index(self.name)
        self.board.viewer = self.seat
        self.board.apply(event)
        line = event_line(event, self.names, self.style, self.seat, self.bot_for_me)
        if isinstance(event, GameStarted) and self.resumed:
            line = None  # the game began before this client came back to it
        if isinstance(event, RoundEnded) and self.board.last_round is not None:  # the full-screen client's round box
            line = Group(*round_parts(self.board.last_round, self.board, self.style))
        if line is not None:
            self.reader.say(line)
            if self.delay:
                await asyncio.sleep(self.delay)

    def bot_plays(self, seat: int) -> None:
        """A bot plays ``seat`` now, its person gone: "bruno (bot)" from now on."""
        if seat < len(self.names) and seat != self.seat and seat not in self.bot_seats:
            self.bot_seats.add(seat)
            self.board.bot_plays.add(seat)
            self.names = (*self.names[:seat], tr("{name} (bot)", name=self.names[seat]), *self.names[seat + 1:])

    def own_seat(self, notice: SeatNotice) -> bool:
        """Whether ``notice`` was about this seat (told again by a resume), said here: a bot
        played it while we were away ("the bot played for you", not "you played"), and
        then it is ours again."""
        if self.seat is None or notice.seat != self.seat:
            return False
        if isinstance(notice, SeatTakenByBot):
            self.bot_for_me = True
            self.reader.say(Text(tr("You were away too long: a bot played in your place."), style="yellow"))
        elif isinstance(notice, SeatCameBack) and self.bot_for_me:
            self.bot_for_me = False
            self.reader.say(Text(tr("You are back at your seat: now you play again."), style="green"))
        return True

    async def rejected(self, error: IllegalMoveError) -> None:
        self.reader.say(Text(tr("Not allowed: {error}", error=reason_text(error)), style="red"))

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.seat = view.seat
        names = self.names or tuple(tr("seat {n}", n=i + 1) for i in range(len(view.hand_sizes)))
        # §7: the last card in hand with only one possible move is played by itself.
        if self.autoplay and len(legal) == 1 and len(view.hand) == 1:
            self.reader.say(Text(tr("(your last card is played for you)"), style="dim"))
            return legal[0]
        self.reader.say(render_view(view, names, self.style))
        self.reader.say(render_moves(legal, self.style))
        if not self.hinted:
            self.hinted = True
            self._hint()
        left = self._clock()
        if left is not None:  # once a turn: a chat or help line does not say it again
            self.reader.say(Text(tr("You have {time}, then the server plays for you.", time=seconds_text(left)),
                                 style="bold"))
        self.warned = left is not None and left <= WARN_AT
        while True:
            line = await self._read_move()
            if await self._table_line(line):
                continue
            choice = parse_choice(line, legal, self.style)
            if isinstance(choice, str):  # what was wrong, then what can be typed, as at the first prompt
                self.reader.say(Text(example_whole(choice, self.reader.console.width), style="yellow"))
                self._hint()
                continue
            return choice

    def _hint(self) -> None:
        """The move prompt's hint line: how to learn what can be typed there."""
        self.reader.say(Text(tr("? lists what you can type here."), style="dim"))

    async def _table_line(self, line: str) -> bool:
        """Whether ``line`` was one of the prompt's commands (help, chat, leave), done now."""
        said = table_line(line)
        if said is None:
            return False
        if said.kind == "help" or (said.kind == "chat" and self.chat is None) or \
                (said.kind == "leave" and self.leaving is None):  # what this game has, listed
            self.reader.say(prompt_help(self.chat is not None, self.leaving is not None))
        elif said.kind == "chat" and self.chat is not None:
            if said.text:
                await self.chat(said.text)
            else:
                self.reader.say(Text(tr("Type the words after the !, e.g. !ciao a tutti"), style="yellow"))
        elif said.kind == "leave" and self.leaving is not None:
            self.reader.say(Text(self.leaving.question(), style="bold yellow"))
            answer = await self.reader.ask(tr("(y/n) [n]: "))
            if is_yes(answer):
                self.leaving.leave()
                self.reader.say(Text(tr("Leaving the table…"), style="yellow"))
                await asyncio.Event().wait()  # the game's end (or ``left``) ends this turn
            self.reader.say(Text(tr("You stay at the table."), style="dim"))
        return True

    async def _send_typed(self) -> None:
        if not self.reader.waiting:
            for typed in self.reader.typed_ahead():
                said = table_line(typed)
                if said is not None and said.kind == "chat" and said.text and self.chat is not None:
                    await self.chat(said.text)

    async def _chat_off_turn(self) -> None:
        """While no prompt is up (the others move), a chat line typed goes to the table at once."""
        while True:
            await asyncio.sleep(0.2)  # a look at the keyboard: a line is there once Enter is pressed
            await self._send_typed()

    def stop_listening(self) -> None:
        """The game is over (or left): the keyboard is the lobby's again."""
        if self.listening is not None:
            self.listening.cancel()
            self.listening = None

    def _clock(self) -> int | None:
        return self.time_left() if self.time_left is not None else None

    async def _read_move(self) -> str:
        """A line for the move: the time left is said once more at :data:`WARN_AT`
        seconds (once a turn).  A read still waiting when the turn ends (the server
        played for this seat) is kept for the next prompt (:class:`LineReader`)."""
        prompt = tr("Your move: ")
        await self._send_typed()  # chat typed while the others moved is said now; moves typed ahead are not answers
        reading = self.reader.reading(prompt, fresh_only=True)
        line = asyncio.wrap_future(reading)
        try:
            while not line.done():
                left = self._clock()
                wait = None if left is None or self.warned else max(left - WARN_AT, 0.05)
                await asyncio.wait((line,), timeout=wait)
                left = self._clock()
                if not line.done() and not self.warned and left is not None and left <= WARN_AT:
                    self.warned = True  # once a turn, above the prompt and what is typed at it
                    warning = tr("{time} left, then the server plays for you.", time=seconds_text(left))
                    self.reader.say_above(Text(warning[:1].upper() + warning[1:], style="bold yellow"))  # a line's start
        finally:
            self.reader.done_with(reading, prompt)
        return line.result()
