"""The app's common frame (keys every screen shares) and `scopa local` as a Textual app:
people and bots at one table, the game master running inside the app."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from datetime import datetime
from collections.abc import Sequence
from typing import TypeVar

from rich.console import RenderableType
from textual import events
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from scopa.engine import (
    Declare,
    Event,
    LocalGame,
    IllegalMoveError,
    Phase,
    Play,
    Played,
    RoundEnded,
    RuleSet,
    View,
    view,
)
from scopa.engine.player import Player

from ..text import reason_text
from ..text import tr, DeckStyle, local_bot_name, person_name
from scopa.protocol.record import PlayerKind, Record, RecordPlayer, build_record, replay_steps

from ..seats import bot_number, record_strategy, seat_bot
from .board import BoardScreen
from ..text import BoardState
from .dialogs import AGAIN, REPLAY, ConfirmScreen, GameOverScreen, HandOverScreen, HelpScreen, NameScreen, RoundEndScreen
from .keys import keys_help
from .replay import ReplayScreen
from .tablefacts import TableFacts
from .keywords import follow_language, key_word, shown_key
from .text import result_line


T = TypeVar("T")


class ScopaApp(App[int]):
    """Keys every screen shares: help, Ctrl+C (leave at once), q."""

    TITLE = "Scopa"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+c", "leave_now", key_word("leave"), show=False, priority=True),
        Binding("question_mark,f1", "help", key_word("help")),
        Binding("q", "leave", key_word("leave")),
        Binding("b", "stop_watching", key_word("stop watching")),  # in the key line while watching a table
    ]

    def __init__(self) -> None:
        follow_language()  # the key line in the language chosen by now (the keys were made at import)
        super().__init__()
        self.closing = False  # the app is ending: no key reaches a screen any more

    async def on_event(self, event: events.Event) -> None:
        """Keys typed while the app ends reach no screen: none opens a box on the way out."""
        if isinstance(event, events.Key) and self.closing:
            return
        await super().on_event(event)

    def exit(self, result: int | None = None, return_code: int = 0, message: RenderableType | None = None) -> None:
        self.closing = True
        super().exit(result, return_code, message)

    def get_key_display(self, binding: Binding) -> str:
        return shown_key(super().get_key_display(binding))  # "F1 help", as on the keyboard

    ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
    """A ``kill`` or a closed terminal: the app ends as with Ctrl+C, giving the terminal back
    (out of full screen and mouse mode); a seat in a network game is kept, as with a drop."""

    def on_mount(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()
        for sig in self.ENDING_SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.action_leave_now)

    def on_unmount(self) -> None:
        if threading.current_thread() is threading.main_thread():
            loop = asyncio.get_running_loop()
            for sig in self.ENDING_SIGNALS:
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.remove_signal_handler(sig)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``b`` only while a table is watched (then the key line shows it); neither ``b``
        nor ``q`` while a round's or the game's box is in front: it takes those letters
        itself (they close it), so the key line does not offer them."""
        if action in ("stop_watching", "leave") and isinstance(self.screen, (RoundEndScreen, GameOverScreen)):
            return False
        if action == "stop_watching":
            return getattr(self, "watching", None) is not None
        return True

    def current_rules(self) -> RuleSet | None:
        return None

    def current_facts(self) -> TableFacts | None:
        """What the help screen says of the table in play (None: no table)."""
        rules = self.current_rules()
        return None if rules is None else TableFacts(rules, known_timer=False)

    async def show_and_wait(self, screen: Screen[T]) -> T:
        """Push ``screen`` and wait for its answer; call from a worker."""
        return await self.push_screen(screen, wait_for_dismiss=True)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.current_facts(), self.current_keys()))

    def current_keys(self) -> str | None:
        """The keys the help screen lists for the screen in front (None: a table's); at a
        watched table, a spectator's."""
        return keys_help(watching=True) if getattr(self, "watching", None) is not None else None

    def action_leave_now(self) -> None:
        self.exit(0)

    def action_leave(self) -> None:
        if not isinstance(self.screen, ConfirmScreen):  # a second q while asked: the same question
            self.run_worker(self._leave(), group="leave")

    async def _leave(self) -> None:
        if not self.in_game() or await self.show_and_wait(ConfirmScreen(self.leave_question())):
            self.exit(0)

    def leave_question(self) -> str:
        """What ``q`` asks during a game, in the language spoken now."""
        return tr("Leave the game? It ends here: a local game is not kept.")

    def in_game(self) -> bool:
        """Whether leaving now gives up a game (then ``q`` asks first)."""
        return False

    def action_stop_watching(self) -> None:
        """Only a watching app has somewhere to go back to."""


class AppPlayer(Player):
    """A person at this keyboard, playing one seat through the board."""

    def __init__(self, name: str, app: LocalGameApp) -> None:
        self.name = name
        self.game_app = app

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        return await self.game_app.human_turn(view, legal)

    async def rejected(self, error: IllegalMoveError) -> None:
        self.game_app.board_screen.say(tr("Not allowed: {error}", error=reason_text(error)))


class LocalGameApp(ScopaApp):
    """``scopa local``: one game at this terminal (you against bots, hot seat, or bots only)."""

    def __init__(
        self,
        rules: RuleSet,
        kinds: Sequence[str],
        seed: int,
        style: DeckStyle = DeckStyle.ITALIAN,
        autoplay: bool = True,
        pace: float | None = None,
        round_pause: float = 2.5,
        names: Sequence[str] = (),
        ask_name: str | None = None,
    ) -> None:
        super().__init__()
        self.rules, self.kinds, self.seed, self.deck, self.autoplay = rules, list(kinds), seed, style, autoplay
        self.names = list(names)  # the people's names, seat by seat (the rest: "You", or "Player N")
        self.ask_name = ask_name  # not None: the one person's name is asked first, this login name offered
        self.humans = [i for i, k in enumerate(kinds) if k == "human"]
        self.pace = pace if pace is not None else (0.6 if self.humans else 0.4)
        self.round_pause = round_pause
        self.board = BoardState(viewer=self.humans[0] if self.humans else None,
                                you_label=tr("You") if len(self.humans) <= 1 else "")
        self.board.short_names = {i: tr("Bot {n}", n=bot_number(self.kinds, i)) for i, kind in enumerate(kinds)
                                  if kind != "human" and ":" not in kind}  # "Bot 1 (medium)" where there is room
        self.board_screen = BoardScreen(self.board, style, title=tr("local game"))  # the seed: the replay's help
        self.board_screen.hide_hand = len(self.humans) > 1
        self.shown_seat: int | None = None if len(self.humans) > 1 else self.board.viewer
        self.master: LocalGame | None = None
        self.result_line = ""

    def current_rules(self) -> RuleSet | None:
        return self.rules

    def current_facts(self) -> TableFacts | None:
        return TableFacts(self.rules, timer=None, local=True)

    def in_game(self) -> bool:
        return self.master is not None and self.master.state.phase is not Phase.OVER

    def players(self) -> list[Player]:
        out: list[Player] = []
        many = len(self.humans) > 1
        for i, kind in enumerate(self.kinds):
            if kind == "human":
                out.append(AppPlayer(person_name(self.names, self.humans.index(i), i, many), self))
            else:
                out.append(seat_bot(kind, i, self.seed, local_bot_name(kind, bot_number(list(self.kinds), i))))
        return out

    def on_mount(self) -> None:
        if not self.asks_name():
            self.push_screen(self.board_screen)
        self.run_worker(self.play_game(), exclusive=True, name="game")

    def asks_name(self) -> bool:
        return self.ask_name is not None and not self.names

    async def play_game(self) -> None:
        if self.ask_name is not None and self.asks_name():  # the name first, on a clean screen (Esc leaves)
            self.names = [await self.show_and_wait(NameScreen(self.ask_name))]
            await self.push_screen(self.board_screen)  # the board only once the name is given
        while True:
            self.result_line = ""
            self.master = LocalGame(self.rules, self.players(), self.seed)
            self.master.observers.append(self.show_event)
            await self.master.run()
            self.result_line = result_line(self.board)
            again = tr("play again against the same bots") if self.humans and len(self.kinds) > len(self.humans) \
                else tr("play again")
            while (done := await self.show_and_wait(GameOverScreen(self.result_line, replay=True, board=self.board,
                                                                   again=again))) == REPLAY:
                await self.show_and_wait(self.replay_screen())
            if done != AGAIN:
                break
            self.seed = (self.seed + 1) % 2**31  # the next game's deal (the replay's help and --seed say it)
            self.shown_seat = None if len(self.humans) > 1 else self.board.viewer
        self.exit(0)

    def finished_record(self, played_at: datetime | None = None) -> Record | None:
        """The record of the game played (docs/RECORDS.md), once it is over; None before."""
        if self.master is None or self.master.state.phase is not Phase.OVER:
            return None
        rules, names = self.rules, [getattr(p, "name", "") for p in self.master.players]
        seats = [RecordPlayer(seat=i, name=names[i] or tr("Player {n}", n=i + 1), side=rules.side_of(i),
                              kind=PlayerKind.PERSON if kind == "human" else PlayerKind.BOT,
                              strategy=None if kind == "human" else record_strategy(kind))
                 for i, kind in enumerate(self.kinds)]
        return build_record(rules, self.seed, self.master.first_dealer, self.master.actions, seats,
                            played_at=played_at)

    def replay_screen(self) -> ReplayScreen:
        """The game just played, step by step (every hand shown: it is over)."""
        record = self.finished_record()
        assert record is not None
        viewer = record.players[self.humans[0]].name if len(self.humans) == 1 else None
        return ReplayScreen(record, list(replay_steps(record)), style=self.deck, viewer=viewer)

    async def show_event(self, event: Event) -> None:
        board = self.board
        board.apply(event)
        if self.master is not None and self.master.state.phase is Phase.PLAY:  # not a round already scored
            board.sync(view(self.master.state, board.viewer))
        autoplayed = self.board_screen.autoplayed
        self.board_screen.tell_event(event)
        self.board_screen.refresh_board()
        if isinstance(event, Played) and self.pace and (event.seat not in self.humans or not self.humans
                                                        or autoplayed):
            await asyncio.sleep(self.pace)  # a play nobody made here stays on screen a moment
        if isinstance(event, RoundEnded) and board.last_round is not None:
            pause = None if self.humans else self.round_pause
            await self.show_and_wait(RoundEndScreen(board.last_round, board, self.deck, pause))

    async def human_turn(self, seat_view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        seat = seat_view.seat
        assert seat is not None
        screen = self.board_screen
        if self.shown_seat != seat:  # hot seat: hide the hands until the next person is there
            screen.hide_hand = True
            self.board.viewer = seat
            screen.refresh_board()
            await self.show_and_wait(HandOverScreen(self.board.names[seat]))
            self.shown_seat = seat
            screen.hide_hand = False
        self.board.viewer = seat
        self.board.sync(seat_view)
        screen.refresh_board()
        if self.autoplay and len(legal) == 1 and len(seat_view.hand) == 1:
            screen.autoplayed = True
            return legal[0]
        return await screen.ask(legal)
