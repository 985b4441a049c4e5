"""Back at the table after the client was away: the line that says what was missed
never says "nothing was played" when something was: neither when the other person's
time ran out and the server played for them and that ended the round (a new round
started among what was caught up with), nor for a client started again, which cannot
know what its earlier run saw.  The events go through the network app as the server's
replay does."""

from __future__ import annotations

from typing import Any

import pytest

from scopa.client.game import SeatCameBack
from scopa.client.net import MemoryTokenStore
from scopa.client.text import i18n
from scopa.client.text.board.state import BoardState
from scopa.client.tui import NetApp
from scopa.engine import Event, Forced, GameStarted, Played, RoundStarted, RuleSet, parse_cards

pytestmark = pytest.mark.unit


class Screen:
    """What the app asks of its board screen while it catches up."""

    def __init__(self, board: BoardState) -> None:
        self.board, self.held = board, False

    def refresh_board(self) -> None:
        pass

    def say(self, text: object) -> None:
        pass

    def keep_saying(self, text: str | None) -> None:
        pass


class Session:
    table_id, seat = "3", 0

    def history_ahead(self) -> bool:
        return False

    def replaying(self) -> bool:
        return True


def played(seat: int, card: str, forced: Forced | None = None) -> Played:
    return Played(seat, parse_cards(card)[0], (), False, (), forced_by=forced)  # type: ignore[call-arg]


def round_start(n: int) -> RoundStarted:
    return RoundStarted(n, 1, tuple(parse_cards("3d 5c 6b 7s")), 0, ())  # type: ignore[call-arg]


def app_at_table(board: BoardState, monkeypatch: pytest.MonkeyPatch) -> tuple[NetApp, Screen, list[str]]:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = NetApp("127.0.0.1", 1, "ada", MemoryTokenStore(), pace=0)
    screen = Screen(board)
    app.board_screen = screen  # type: ignore[assignment]
    app.session = Session()  # type: ignore[assignment]
    said: list[str] = []
    app.comeback.tell = lambda text: said.append(str(text))
    return app, screen, said


async def replay(app: NetApp, events: list[Any]) -> None:
    for event in events:
        if isinstance(event, SeatCameBack):
            app._notice_in_turn(event)
        else:
            await app.show_event(event)


async def test_a_timed_out_play_that_ended_the_round_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    board = BoardState(viewer=0)
    board.apply(GameStarted(RuleSet(), ("ada", "bea"), 1))
    board.apply(round_start(1))
    app, screen, said = app_at_table(board, monkeypatch)
    app.comeback.catch_up(screen)  # type: ignore[arg-type]  # the connection is back
    events: list[Event | SeatCameBack] = [played(1, "Kc", Forced.TIMEOUT), round_start(2), SeatCameBack(0, "ada")]
    await replay(app, events)
    assert said and "non si è giocato niente" not in said[0], said
    assert "c'è stata una giocata, e ha chiuso la smazzata" in said[0], said


async def test_plays_missed_over_a_round_end_are_counted_in_the_plural(monkeypatch: pytest.MonkeyPatch) -> None:
    board = BoardState(viewer=0)
    board.apply(GameStarted(RuleSet(), ("ada", "bea"), 1))
    board.apply(round_start(1))
    app, screen, said = app_at_table(board, monkeypatch)
    app.comeback.catch_up(screen)  # type: ignore[arg-type]
    await replay(app, [played(1, "Kc", Forced.TIMEOUT), round_start(2), played(1, "2s"), SeatCameBack(0, "ada")])
    assert said and "ci sono state 2 giocate ed è finita una smazzata" in said[0], said


async def test_a_restarted_client_never_says_nothing_was_played(monkeypatch: pytest.MonkeyPatch) -> None:
    board = BoardState(viewer=0)
    app, screen, said = app_at_table(board, monkeypatch)
    app.comeback.catch_up(screen)  # type: ignore[arg-type]  # a new process: the whole game replayed
    await replay(app, [GameStarted(RuleSet(), ("ada", "bea"), 1), round_start(1), played(0, "Kc"),
                       played(1, "2s", Forced.TIMEOUT), round_start(2), SeatCameBack(0, "ada")])
    assert said and "non si è giocato niente" not in said[0], said
