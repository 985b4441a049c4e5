"""The plain client's words for a game: back at its seat after a bot played it (told in the
second person, the bot's plays for it named as the bot's, then that the person plays again),
and the end of the game with each side named with its points.  In Italian, as a family reads it."""

from __future__ import annotations

import io

import pytest

from rich.console import Console

from scopa.client.console.human import TerminalPlayer
from scopa.client.game import SeatCameBack, SeatTakenByBot
from scopa.client.text import i18n
from rich.text import Text

from scopa.client.text import DeckStyle, event_line
from scopa.engine import EndReason, GameEnded, GameStarted, Played, RuleSet, parse_cards

pytestmark = pytest.mark.unit


async def test_the_bots_plays_for_a_returning_seat_are_the_bots(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    out = io.StringIO()
    player = TerminalPlayer("nonna", Console(file=out, width=100, color_system=None))
    player.seat = 0
    await player.notify(GameStarted(RuleSet(), ("nonna", "Bot 1 (medium)"), 1))
    assert player.own_seat(SeatTakenByBot(0, "nonna", "greedy", left=True))
    await player.notify(Played(0, parse_cards("4d")[0], (), False, ()))  # type: ignore[call-arg]
    assert player.own_seat(SeatCameBack(0, "nonna", bot_played=True))
    await player.notify(Played(0, parse_cards("5d")[0], (), False, ()))  # type: ignore[call-arg]
    text = out.getvalue()
    assert "ha lasciato la partita" not in text
    assert "Eri via da troppo tempo: un bot ha giocato al tuo posto." in text
    assert "Il bot ha giocato per te 4 Den" in text and "Hai giocato 4 Den" not in text
    assert "ora riprendi tu" in text and "Hai giocato 5 Den" in text
    assert not player.own_seat(SeatTakenByBot(1, "Bot 1 (medium)", "greedy"))  # another seat: the lobby says it


def test_the_end_of_a_game_names_each_side_with_its_points_winner_first(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Seat order put the loser's points first: "vince Bot 1 — 10, 11" read as the winner's 10."""
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    names = ("nonna", "Bot 1 (medio)")
    end = GameEnded(1, (10, 11), EndReason.TARGET)
    line = event_line(end, names, DeckStyle.ITALIAN, 0)
    assert isinstance(line, Text)
    assert line.plain == "Partita finita (traguardo raggiunto): vince Bot 1 (medio) 11 – nonna 10"
    mine = event_line(GameEnded(0, (11, 10), EndReason.TARGET), names, DeckStyle.ITALIAN, 0)
    assert isinstance(mine, Text) and mine.plain.endswith("hai vinto 11 – Bot 1 (medio) 10")
