"""The board's words as an Italian player reads them at 80×24: a seat's notes stand apart
("2 carte · di turno · mazziere", never "mazziere di turno" or "carte di turno"), a card
laid down is "Cali in tavola: A Bas" and the
cards taken are listed with commas ("prende 3 Spa, 4 Bas", not "3 Spa 4 Bas")."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from scopa.client.text import i18n, parse_cards
from scopa.engine import Played

from test_tui_board_words import status
from test_tui_local import BoardHarness, position, text_of

pytestmark = pytest.mark.unit


def seat_rows(app: BoardHarness) -> list[str]:
    return text_of(app.board_screen.query_one("#seats", Static).content).splitlines()


async def test_the_seat_rows_and_the_plays_read_as_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    board = position("7c 3s 4b Fd", "7d Ab 2b")  # the bot deals, the person plays first
    app = BoardHarness(board)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        you, bot = seat_rows(app)[:2]
        assert "▮▮▮ 3 carte · di turno" in you and "▮▮▮ 3 carte · mazziere" in bot, (you, bot)

        ab, s7, s3, b4 = parse_cards("Ab 7s 3s 4b")
        for event in (Played(0, ab, (), False, ()), Played(1, s7, (s3, b4), False, ())):
            board.apply(event)
            app.board_screen.tell_event(event)
            app.board_screen.refresh_board()
            await pilot.pause()
            if event.seat == 0:
                assert status(app.board_screen).startswith("Cali in tavola: A Bas"), status(app.board_screen)
                rows = "\n".join(seat_rows(app))
                assert "· di turno · mazziere" in rows and "mazziere di turno" not in rows \
                    and "carte di turno" not in rows, rows
        assert "Bot gioca 7 Spa e prende 3 Spa, 4 Bas" in status(app.board_screen), status(app.board_screen)


async def test_the_replays_dealer_reads_as_the_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """"Bot 2 (medio) · mazziere", as the board's seat rows, not "Bot 2 (medio) (mazziere)"."""
    from scopa.client.tui import ReplayApp
    from scopa.protocol.record import replay_steps

    from test_replay_app import game

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    record = await game(3)
    app = ReplayApp(record, list(replay_steps(record)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.board_text().plain
    dealer = record.players[list(replay_steps(record))[0].state.dealer].name
    assert f"{dealer} · mazziere" in board and "(mazziere)" not in board, board
