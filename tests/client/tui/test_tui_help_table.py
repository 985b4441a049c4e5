"""The help screen's "This table": the rules in effect at the table being played — the
game, the players, the target (R22), the turn timer, a private table, a local game's seed —
for a local game and a network game, in English and Italian."""

from __future__ import annotations

import re

import pytest

from scopa.client.text import i18n
from scopa.client.net import MemoryTokenStore
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.dialogs import HelpScreen
from scopa.client.tui import NetApp
from scopa.engine import RuleSet
from scopa.server import NetworkEngine
from test_tui_network import engine, sit_at_a_new_table, until  # noqa: F401 - the fixture

pytestmark = pytest.mark.integration


async def help_text(app: object, pilot) -> str:  # type: ignore[no-untyped-def]
    await pilot.press("question_mark")
    await until(pilot, lambda: isinstance(app.screen, HelpScreen))  # type: ignore[attr-defined]
    return str(app.screen.source)  # type: ignore[attr-defined]


async def test_a_local_games_help_says_its_game_target_and_timer_not_its_seed() -> None:
    app = LocalGameApp(RuleSet.build("scopa", target=16), ["human", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        top = str(app.board_screen.query_one("#top").render())
        text = await help_text(app, pilot)
    assert "5" not in top.split("·")[-1] and i18n.tr("local game") in top, top  # the headline: no seed
    head = text.split("\n## ")[0]
    assert "Game: custom (Scopa changed)\n" in head and head.count("2 players, each alone") == 1
    assert head.count("16 points") == 1  # said once, by the rules' lines
    assert "Turn timer: none." in head and "A local game" in head and "seed" not in text


async def test_an_italian_local_games_help_is_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LocalGameApp(RuleSet.build("scopone", capture_mode="fewest"), ["human", "greedy", "greedy", "greedy"], seed=5, pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        text = await help_text(app, pilot)
    assert "Gioco: a piacere (Scopone cambiato), presa: la più piccola" in text
    assert "Questo tavolo" in text and "4 giocatori, due squadre" in text
    assert "Tempo per mossa: nessuno." in text
    head = text.split("\n## ")[0]  # the table's rules in Italian, as the English help says them (R5, R22, R13-R15)
    assert "vince la parte che a fine smazzata ha 21 punti o più" in head and head.count("4 giocatori") == 1, head
    assert "- Si danno 9 carte a testa e 4 in tavola." in head, head
    assert "- Quando si può prendere in più modi (la più piccola): devi fare la presa con meno carte" in head, head


async def test_a_network_games_help_says_its_timer_and_table(engine: NetworkEngine) -> None:  # noqa: F811
    app = NetApp("127.0.0.1", engine.port, "ada", MemoryTokenStore())
    async with app.run_test(size=(100, 30)) as pilot:
        await sit_at_a_new_table(app, pilot)
        text = await help_text(app, pilot)
    table = app.session.table_id if app.session else None
    assert table is not None and f"Table number: {table}" in text
    assert "A table listed in the lobby." in text
    assert "Turn timer: " in text and "Turn timer: none." not in text
    assert re.search(r"\d:\d\d for each player's first move of a round", text)  # the reading time, from the server's welcome


def test_the_turn_timer_is_said_in_minutes_and_seconds_as_everywhere_else(monkeypatch: pytest.MonkeyPatch) -> None:
    """"0:30", as the lobby, the create form, the board and the round's box say it; and each
    player's first move of a round's reading time more, as the server's welcome says it (no
    copy of its own: a server that does not say it gets no such figure)."""
    from scopa.client.tui.tablefacts import TableFacts, facts_lines

    facts = TableFacts(RuleSet.build("scopa"), timer=30.0, reading=15.0)
    assert "- Turn timer: 0:30 for each move, 0:45 for each player's first move of a round; " \
        "then the server plays for you." in facts_lines(facts)
    slower = TableFacts(RuleSet.build("scopa"), timer=30.0, reading=20.0)
    assert "- Turn timer: 0:30 for each move, 0:50 for each player's first move of a round; " \
        "then the server plays for you." in facts_lines(slower)
    untold = TableFacts(RuleSet.build("scopa"), timer=30.0)
    assert "- Turn timer: 0:30 for each move; then the server plays for you." in facts_lines(untold)
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    assert "- Tempo per mossa: 0:30, 0:45 per la prima mossa di ciascuno in ogni smazzata; poi gioca il server per " \
        "te." in facts_lines(facts)
    assert "- Tempo per mossa: 0:30; poi gioca il server per te." in facts_lines(untold)


async def test_question_mark_in_the_lobby_lists_the_lobbys_keys(engine: NetworkEngine,  # noqa: F811
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``?`` in the full-screen lobby (Italian, 80×24) lists the lobby's keys (play now,
    create, join, watch, invite, tournaments, chat), not the keys for playing a card."""
    from scopa.client.tui.online import LobbyScreen
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = NetApp("127.0.0.1", engine.port, "ada", MemoryTokenStore())
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.session is not None)
        text = await help_text(app, pilot)
    assert "Tasti nella sala" in text and "gioca subito" in text and "apri un tavolo" in text
    assert "`w`: guarda il tavolo scelto" in text and "`i`: entra in un tavolo privato" in text
    assert "gioca quella carta della mano" not in text and "`/` e poi una carta" not in text
