"""What the board and the round end look like (SVG snapshots; `--snapshot-update` to accept
an intended change after looking at it)."""

from __future__ import annotations

from scopa.client.text import DeckStyle
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.dialogs import RoundEndScreen
from scopa.engine import RuleSet


def game(style: DeckStyle = DeckStyle.ITALIAN) -> LocalGameApp:
    return LocalGameApp(RuleSet(), ["human", "greedy"], seed=5, style=style, pace=0)


async def your_first_turn(pilot) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    for _ in range(200):
        await pilot.pause()
        if app.board_screen.asking:
            return
    raise AssertionError("no turn came")


async def first_round_end(pilot) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    for _ in range(2000):
        await pilot.pause()
        if isinstance(app.screen, RoundEndScreen):
            return
        if app.board_screen.asking:
            await pilot.press("1")
    raise AssertionError("the round did not end")


def test_the_board_at_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(game(), terminal_size=(80, 24), run_before=your_first_turn)


def test_the_board_at_40_columns_french_deck(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(game(DeckStyle.FRENCH), terminal_size=(40, 24), run_before=your_first_turn)


def test_the_round_end(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(game(), terminal_size=(80, 24), run_before=first_round_end)
