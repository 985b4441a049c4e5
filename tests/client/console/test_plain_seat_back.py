"""The plain client back at its seat after a bot played it: told in the second person
("you were away … a bot played in your place"), the bot's plays for it named as the
bot's, and then that the person plays again.  In Italian, as a family reads it."""

from __future__ import annotations

import io

import pytest

from rich.console import Console

from scopa.client.console.human import TerminalPlayer
from scopa.client.game import SeatCameBack, SeatTakenByBot
from scopa.client.text import i18n
from scopa.engine import GameStarted, Played, RuleSet, parse_cards

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
