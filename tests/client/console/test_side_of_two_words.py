"""A side of two is named with a plural verb in Italian ("vincono Anna & Luca", "hanno
lasciato", "si siedono"), one person with the singular, in the plain client's lines: a
game's end, a finished game's result, the lobby's news of people sitting down."""

from __future__ import annotations

import pytest

from scopa.client.console.news import LobbyNews
from scopa.client.text import i18n
from scopa.client.text.games import game_result
from scopa.client.text.render import end_words
from scopa.engine import RuleSet
from scopa.protocol import TableInfo, TableState
from scopa.protocol.commands import GameSummary
from scopa.protocol.convert import rules_to_wire

pytestmark = pytest.mark.unit

FOUR = ["Anna", "Bea", "Luca", "Dino"]


@pytest.fixture(autouse=True)
def italian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")


def test_a_games_end_says_vincono_for_a_pair_and_vince_for_one() -> None:
    assert end_words(0, [11, 6], "traguardo", FOUR, True, False) == \
        "Partita finita (traguardo): vincono Anna & Luca 11 – Bea & Dino 6"
    assert end_words(1, [4, 11], "traguardo", ["Anna", "Bea"], False, False) == \
        "Partita finita (traguardo): vince Bea 11 – Anna 4"


def test_a_finished_games_result_agrees_with_its_side() -> None:
    pair = GameSummary(id="3", ended="2026-01-01T00:00:00Z", preset="scopone", description="scopone",
                       players=FOUR, winner=0, totals=[11, 7], reason="target")
    assert game_result(pair) == "vincono Anna & Luca 11–7 (traguardo raggiunto)"
    left = GameSummary(id="4", ended="2026-01-01T00:00:00Z", preset="scopone", description="scopone",
                       players=FOUR, winner=None, totals=[3, 2], reason="abandoned", taken_over=[1, 3])
    assert game_result(left).startswith("Bea & Dino hanno lasciato la partita; ")
    one = GameSummary(id="5", ended="2026-01-01T00:00:00Z", preset="scopa", description="scopa",
                      players=["Anna", "Bea"], winner=1, totals=[5, 11], reason="target")
    assert game_result(one) == "vince Bea 11–5 (traguardo raggiunto)"


def test_the_lobby_says_si_siedono_when_two_sit_down() -> None:
    def table(*seats: str | None) -> TableInfo:
        return TableInfo(id="9", rules=rules_to_wire(RuleSet.build("scopone")), description="scopone",
                         seats=list(seats), state=TableState.WAITING)

    news = LobbyNews.__new__(LobbyNews)
    two = news._news(table("Anna", None, None, None), table("Anna", "Bea", "Luca", None))
    one = news._news(table("Anna", None, None, None), table("Anna", "Bea", None, None))
    assert two is not None and two.plain == "Tavolo 9: si siedono Bea, Luca (3/4)."
    assert one is not None and one.plain == "Tavolo 9: si siede Bea (2/4)."


@pytest.mark.integration
async def test_a_game_left_with_no_winner_is_not_said_lost() -> None:
    """Leaving a game against a bot ends it with no winner: the plain lobby says nobody
    won, and not "Hai perso." after it."""
    import asyncio
    import io

    from rich.console import Console

    from scopa.client.console.human import TerminalPlayer
    from scopa.client.console.lobby import Lobby
    from scopa.client.net import ClientSession
    from scopa.server import NetworkEngine

    engine = NetworkEngine("127.0.0.1", 0, seed=11)
    await engine.start()
    try:
        async with asyncio.timeout(60):  # a safety net only
            session = await ClientSession.connect("127.0.0.1", engine.port, "Luca")
            answers = iter(["c", *[""] * 7, "medio", "esci", "s", "esci"])
            out = io.StringIO()
            console = Console(file=out, width=100)
            lobby = Lobby(session, console, lambda: TerminalPlayer("Luca", console, reader=lobby.reader),
                          input_fn=lambda prompt: next(answers))
            await lobby.run()
            said = out.getvalue()
            assert "non vince nessuno" in said and "Hai perso" not in said, said
            await session.close()
    finally:
        await engine.stop()
