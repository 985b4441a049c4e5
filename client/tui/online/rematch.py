"""A rematch from the game-over box of a network game: ``n`` makes one (a new table with
the finished one's settings, ``create_table`` with ``rematch_of``, which the server offers
to the game's other players) and sits there; when another player made it first, the box
says so and ``n`` takes a seat at it.  With only the server's bots left at the table, ``n``
is a new game against the same bots.  Who watched the game to its end is told of its
rematch as the players are: ``n`` on their game-over box watches it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from rich.text import Text
from textual.screen import Screen

from scopa.protocol import TableInfo, TableState
from scopa.protocol.convert import rules_from_wire

from ...net import ClientSession
from ...text import BoardState, DeckStyle, is_server_bot, player_name, tr
from ..app import ScopaApp
from ..dialogs import AGAIN, REPLAY, GameOverScreen
from .lastgame import replay_screen

T = TypeVar("T")

MEDIUM = "greedy"  # the strategy a bot playing on for a person who left plays as (the server's medium)


def strategy(name: str | None) -> str | None:
    """A server's bot's strategy by its name (``greedy-bot-1``: greedy); None for a person."""
    return name.rsplit("-bot-", 1)[0] if name is not None and is_server_bot(name) else None


def bots_only(info: TableInfo, seat: int | None) -> list[str] | None:
    """The other seats of the finished table as bots' strategies when no other person
    plays there any more; None while another person does."""
    others = [strategy(name) or (MEDIUM if i in info.bots else None)
              for i, name in enumerate(info.seats) if i != seat]
    return [s for s in others if s is not None] if others and all(others) else None


class Rematches:
    """The rematches the server offered, by the finished table each follows."""

    def __init__(self) -> None:
        self.offers: dict[str, TableInfo] = {}
        self.made: dict[str, TableInfo] = {}  # the last rematch of each finished table, waiting or under way
        self.box: GameOverScreen | None = None  # the game-over box up, with its finished table
        self.finished: str | None = None
        self.watched = False  # the box up is a spectator's

    def heard(self, info: TableInfo) -> None:
        """A table the server told of: a rematch still waiting for its players is kept."""
        if info.rematch_of is None:
            return
        if info.state is TableState.WAITING:
            self.offers[info.rematch_of] = self.made[info.rematch_of] = info
        elif self.offers.get(info.rematch_of, info).id == info.id:
            self.offers.pop(info.rematch_of, None)  # under way or gone: no longer on offer
        if self.box is not None and info.rematch_of == self.finished:
            self.box.offer_again(self.watch_words() if self.watched else self.words(None, None))

    def watch_words(self) -> str | None:
        """What ``n`` does on a spectator's box of the finished table: watch its rematch
        (None: no rematch made yet)."""
        rematch = self.made.get(self.finished or "")
        return None if rematch is None else tr("watch the rematch, at table {table}", table=rematch.id)

    def words(self, info: TableInfo | None, seat: int | None, left: Sequence[str] = ()) -> str:
        """What ``n`` does on the box of the game at the finished table (``left``: the
        people who left it, a bot playing on for them: no "same bots" then)."""
        offer = self.offers.get(self.finished or "")
        if offer is not None:
            name = next((n for n in offer.seats if n is not None and strategy(n) is None), "")
            return tr("{name} proposes a rematch: play it", name=player_name(name))
        if info is not None and bots_only(info, seat) is not None:
            if left:
                return tr("play again against bots ({names} left the game)", names=", ".join(left))
            return tr("play again against the same bots")
        return tr("rematch: a new table for the same players")


class NetApp(Protocol):
    """What a rematch needs of the network app: the offers, the finished table's listing,
    its screens, and a game to play at the table it sits at."""

    rematches: Rematches
    table_info: TableInfo | None
    bot_takeover: bool | None
    deck: DeckStyle

    def tell(self, text: str | Text) -> None: ...

    async def show_and_wait(self, screen: Screen[T]) -> T: ...

    async def play_at_table(self, invite: str | None = None) -> None: ...


async def game_over(app: NetApp, session: ClientSession, board: BoardState, line: str, table: str,
                    token: str | None) -> bool:
    """The game's result until it is left (``r``: the replay); whether ``n`` asked for a rematch."""
    rematches = app.rematches
    rematches.finished, info = table, app.table_info if app.table_info and app.table_info.id == table else None
    gone = [board.names[s] for s in sorted(board.left) if s < len(board.names)]  # people who left: bots now
    rematches.box = box = GameOverScreen(line, tr("Enter to go back to the lobby"), replay=True, board=board,
                                         again=rematches.words(info, board.viewer, gone))
    try:
        while (done := await app.show_and_wait(box)) == REPLAY:
            assert isinstance(app, ScopaApp)
            replay = await replay_screen(app, session, table, token, app.deck)
            if replay is not None:
                await app.show_and_wait(replay)
            box = rematches.box = GameOverScreen(line, tr("Enter to go back to the lobby"), replay=True, board=board,
                                                 again=rematches.words(info, board.viewer, gone))
    finally:
        rematches.box = None
    return done == AGAIN


async def play_rematch(app: NetApp, session: ClientSession, finished: str, seat: int | None) -> None:
    """Sit at the rematch of ``finished`` another player made, or make it (against the
    same bots, when only they were left), and play it."""
    offer = app.rematches.offers.pop(finished, None)
    if offer is not None:
        joined = await session.join_table(offer.id)
        app.table_info, app.bot_takeover = offer, offer.bot_takeover
        app.tell(tr("You sit at table {table}, seat {seat}.", table=joined.table, seat=joined.seat + 1))
        await app.play_at_table()
        return
    info = app.table_info
    if info is None or info.id != finished:
        return
    bots = bots_only(info, seat)
    made = await session.create_table(
        rules_from_wire(info.rules), fill_with_bots=bots if bots is not None else [s for s in map(strategy, info.seats) if s],
        private=info.private, turn_timeout=info.turn_timeout, no_turn_timer=info.private and info.turn_timeout is None,
        bot_takeover=info.bot_takeover, rematch_of=None if bots is not None else finished)
    app.table_info, app.bot_takeover = made, made.bot_takeover
    app.tell(tr("Table {table} is open: a rematch of table {old}.", table=made.id, old=finished))
    await app.play_at_table()


class Spectator(Protocol):
    """What a spectator's game-over box needs of the network app."""

    rematches: Rematches

    async def show_and_wait(self, screen: Screen[T]) -> T: ...


async def watched_game_over(app: Spectator, table: str, line: str, then: str,
                            board: BoardState | None) -> TableInfo | None:
    """A watched game's result until it is left (``board``: its points by category, unless
    None); the rematch to watch when ``n`` asked for it (offered on the box once the finished
    game's players make it)."""
    rematches = app.rematches
    rematches.finished, rematches.watched = table, True
    rematches.box = box = GameOverScreen(line, then, board=board, again=rematches.watch_words())
    try:
        done = await app.show_and_wait(box)
    finally:
        rematches.box, rematches.watched = None, False
    return rematches.made.get(table) if done == AGAIN else None
