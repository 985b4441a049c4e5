"""``scopa games`` in words (client/text/games.py): each finished game's result names the
winner with their points first, as the end of a game reads at the table (R5/R23: a team's
seats sit opposite), and a person who left a game, whose seat a bot finished or whose
leaving ended it, is said to have left ("you left" to the one reading), never credited
with the bot's win."""

from __future__ import annotations

import pytest

from scopa.client.text import game_lines, i18n
from scopa.protocol.commands import GameSummary

pytestmark = pytest.mark.unit


def summary(players: list[str], winner: int | None, totals: list[int], reason: str = "target",
            taken_over: list[int] | None = None, leaver: int | None = None) -> GameSummary:
    return GameSummary(id="7", ended="2026-12-05T10:00:00Z", preset="scopa", description="scopa, 2p, to 11",
                       players=players, winner=winner, totals=totals, reason=reason, taken_over=taken_over or [],
                       leaver=leaver)


def result(game: GameSummary, me: str | None = None) -> str:
    """The result column of ``game``'s line."""
    lines = game_lines([game]) if me is None else game_lines([game], me)
    return lines[0].split("scopa  ", 1)[1]


@pytest.fixture
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "en")


@pytest.fixture
def italian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")


def test_the_winner_comes_first_with_their_points(english: None) -> None:
    assert result(summary(["ada", "bea"], 1, [7, 11])) == "bea won 11–7 (target reached)"
    assert result(summary(["ada", "bea", "cloe"], 2, [5, 8, 11])) == "cloe won 11–5–8 (target reached)"
    # R5: four players in two teams, partners opposite (seats 1 and 3)
    assert result(summary(["ada", "bea", "cloe", "dora"], 1, [6, 11])) == "bea & dora won 11–6 (target reached)"
    # four players each on their own
    assert result(summary(["ada", "bea", "cloe", "dora"], 3, [2, 5, 8, 11])) == "dora won 11–2–5–8 (target reached)"
    assert result(summary(["ada", "bea"], None, [3, 2], "abandoned")) == "abandoned 3–2"


def test_the_winner_comes_first_in_italian_too(italian: None) -> None:
    assert result(summary(["ada", "bea"], 1, [7, 11])) == "vince bea 11–7 (traguardo raggiunto)"


def test_a_person_who_left_is_not_credited_with_the_bots_win(english: None) -> None:
    game = summary(["zio", "bea"], 0, [11, 7], taken_over=[0])
    assert result(game) == "zio left the game; a bot for zio won 11–7 (target reached)"
    assert result(game, me="Zio") == "you left the game; a bot for zio won 11–7 (target reached)"
    lost = summary(["zio", "bea"], 1, [7, 11], taken_over=[0])
    assert result(lost, me="zio") == "you left the game; bea won 11–7 (target reached)"
    assert result(lost, me="bea") == "zio left the game; bea won 11–7 (target reached)"


def test_a_game_ended_by_who_left_says_so(english: None) -> None:
    game = summary(["zio", "bea"], None, [3, 2], "abandoned", leaver=0)
    assert result(game) == "zio left the game; abandoned 3–2"
    assert result(game, me="zio") == "you left the game; abandoned 3–2"


def test_who_left_in_italian(italian: None) -> None:
    game = summary(["zio", "bea"], 0, [11, 7], taken_over=[0])
    assert result(game, me="zio") == "hai lasciato la partita; vince un bot al posto di zio 11–7 (traguardo raggiunto)"
    assert result(game, me="bea") == "zio ha lasciato la partita; vince un bot al posto di zio 11–7 (traguardo raggiunto)"


def test_a_game_ended_by_one_leaving_names_that_one_only(italian: None) -> None:
    """The game was abandoned when ada left (bruno's seat had been a bot's for a while):
    "ada ha lasciato la partita", not "ada & bruno ha lasciato"."""
    game = summary(["ada", "bruno"], None, [0, 0], reason="abandoned", taken_over=[1], leaver=0)
    said = result(game)
    assert said.startswith("ada ha lasciato la partita; "), said
    assert "bruno" not in said, said


def test_a_servers_bot_is_listed_as_the_board_names_it(italian: None) -> None:
    line = game_lines([summary(["ada", "easy-bot-1"], 1, [4, 11])])[0]
    assert "ada, Bot 1 (facile)" in line and "easy-bot-1" not in line, line
    assert "vince Bot 1 (facile) 11–4" in line, line
