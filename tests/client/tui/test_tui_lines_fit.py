"""The board's top line (scores, round, stock, the game) and its status line (what
happened, whose turn, the turn clock) each fit the terminal's width at 80 and 100
columns, in English and in Italian: neither wraps (a local game's long seed, "mescolata
numero 1234567890", used to push the top line onto a second row).  Watching a table of
bots with long names (`scopa bot` names them "chitarellabot-bot"), every name is shown
whole in the seats, the piles and the round's plays."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

import pytest
from rich.text import Text
from textual.widgets import Static

from scopa.client.net import MemoryTokenStore
from scopa.client.text import i18n
from scopa.client.tui import NetApp
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.board import BoardScreen
from scopa.client.net import ClientSession
from scopa.engine import Declare, Play, Player, RuleSet, View
from scopa.server import Limits, NetworkEngine
from scopa.server.core.clock import FakeClock

from test_tui_network import sit_at_a_new_table, until

pytestmark = pytest.mark.integration

SIZES = [(80, 24), (100, 30)]
SAFETY = 60


def rows(screen: BoardScreen, panel: str) -> list[str]:
    content = screen.query_one(panel, Static).content
    assert isinstance(content, Text)
    return content.plain.split("\n")


def fits(screen: BoardScreen, width: int) -> None:
    top, status = rows(screen, "#top"), rows(screen, "#status")
    room = width - 2  # each has a column of padding on either side
    assert len(top) == 1 and Text(top[0]).cell_len <= room, top
    assert all(Text(line).cell_len <= room for line in status), status


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "100x30"])
async def test_a_local_games_lines_fit(lang: i18n.Lang, size: tuple[int, int],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    app = LocalGameApp(RuleSet(), ["human", "greedy"], seed=2**31 - 1, pace=0)  # the longest seed
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: app.board_screen.asking)
        fits(app.board_screen, size[0])
        assert "⏱" not in " ".join(rows(app.board_screen, "#status"))  # no clock in a local game


@pytest.fixture
async def engine() -> AsyncIterator[NetworkEngine]:
    e = NetworkEngine("127.0.0.1", 0, seed=31, clock=FakeClock(), limits=Limits(ping_interval=None),
                      turn_timeout=30)
    await e.start()
    try:
        yield e
    finally:
        await e.stop()


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "100x30"])
async def test_a_network_games_lines_fit_with_the_turn_clock(engine: NetworkEngine, lang: i18n.Lang,
                                                             size: tuple[int, int],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    async with asyncio.timeout(SAFETY):
        app = NetApp("127.0.0.1", engine.port, "ada", MemoryTokenStore(), pace=0)
        async with app.run_test(size=size) as pilot:
            await sit_at_a_new_table(app, pilot)
            screen = app.board_screen
            assert screen is not None
            await until(pilot, lambda: "⏱" in " ".join(rows(screen, "#status")))
            fits(screen, size[0])


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_the_replays_title_keeps_to_two_rows_at_80_columns(lang: i18n.Lang,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A game dealt from a long seed ("mescolata n. 6530418535009518933"): the rules go
    whole on a second row when the first cannot hold them."""
    from scopa.client.tui import ReplayApp

    from test_replay_app import game, steps_of

    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    record = await game(seed=6530418535009518933)
    app = ReplayApp(record, steps_of(record))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        title = app.screen.query_one("#title", Static)
        assert title.size.height <= 2 and title.region.width <= 80


class Rationed(Player):
    """Plays its first legal move while the shared ``moves`` allow one more play."""

    def __init__(self, moves: asyncio.Semaphore) -> None:
        self.moves = moves

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        await self.moves.acquire()
        return legal[0]


def shown_rows(screen: BoardScreen, panel: str) -> list[str]:
    """The rows of ``panel`` as the screen draws them (cut to the panel's width)."""
    widget = screen.query_one(panel, Static)
    return ["".join(seg.text for seg in strip).rstrip() for strip in widget.render_lines(widget.region.reset_offset)]


BOTS = ["chitarellabot-bot", "carefulgreedybot-bot"]


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "100x30"])
async def test_a_watched_bots_names_are_whole(engine: NetworkEngine, lang: i18n.Lang, size: tuple[int, int],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    async with asyncio.timeout(SAFETY):
        moves = asyncio.Semaphore(3)  # three plays, then the table waits
        bots = [await ClientSession.connect("127.0.0.1", engine.port, name) for name in BOTS]
        table = await bots[0].create_table(RuleSet.build("scopa"))
        await bots[1].join_table(table.id)
        games = [asyncio.create_task(bot.play_game(Rationed(moves))) for bot in bots]
        app = NetApp("127.0.0.1", engine.port, "cleo", MemoryTokenStore(), watch=table.id)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: app.board_screen is not None and len(app.board_screen.board.plays) == 3)
            screen = app.board_screen
            assert screen is not None
            await pilot.pause()
            fits(screen, size[0])
            seats, plays = shown_rows(screen, "#seats"), shown_rows(screen, "#plays")
            for name in BOTS:
                assert sum(name in row for row in seats) == 2, seats  # its seat's row and its pile's
                assert any(row.startswith(f"{name}:") for row in plays), plays  # who made a play of the round
            await pilot.press("b")  # back: the watching ends, and with it `scopa watch`
            await until(pilot, lambda: app.return_value is not None)
        for game in games:
            game.cancel()
        for bot in bots:
            await bot.close()


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_a_local_games_seed_is_in_the_replays_help_not_in_a_headline(
        lang: i18n.Lang, monkeypatch: pytest.MonkeyPatch) -> None:
    """After ``scopa local`` (r at the game's end) the replay's title says no seed (nor do
    the board's top line and help: test_tui_help_table.py); the replay's help does, among
    the game's details; the key line is test_footer_fits.py's."""
    from scopa.client.tui.dialogs import GameOverScreen, HelpScreen
    from scopa.client.tui.replay import ReplayScreen

    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    app = LocalGameApp(RuleSet.build("scopa", target=21), ["greedy", "random"], 1360852028, pace=0, round_pause=0.01)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.pause()
        title = str(app.screen.query_one("#title", Static).render())
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        replay_help = str(app.screen.source)
    assert "1360852028" not in title, title
    assert i18n.tr("Dealt from seed {seed}.", seed=1360852028) in replay_help, replay_help


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_a_server_games_replay_title_keeps_the_games_name_whole_at_80_columns(
        lang: i18n.Lang, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server's game (its name as long as a game's name may be) dealt from a long seed:
    at 80 columns the title's rows show the game's name whole (a second row when one cannot
    hold it and the rules), and no seed (the help's details say it)."""
    from scopa.client.tui import ReplayApp

    from test_replay_app import game, steps_of

    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    record = (await game(seed=6530418535009518933)).model_copy(update={"game": "t12-20261206-ada"})
    app = ReplayApp(record, steps_of(record))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        title = app.screen.query_one("#title", Static)
        rows = ["".join(seg.text for seg in strip).rstrip() for strip in title.render_lines(title.region.reset_offset)]
    assert all(len(row) <= 80 for row in rows)
    assert any(i18n.tr("game {game}", game="t12-20261206-ada") in row for row in rows), rows
    assert not any("6530418535009518933" in row for row in rows), rows  # the seed: the help's details
