"""The server's text log in Italian with no English left in the lines a game writes (who a
connection is, a seat taken back, a game's start and end), people by their names, and
seats and sides counted from 1 as the clients count them; the JSON log keeps the server's
own numbers (its formatter is not this one)."""

from __future__ import annotations

import logging

import pytest

from scopa.cli.serverlog import SpokenFormatter
from scopa.client.text import i18n

pytestmark = pytest.mark.unit


def said(template: str, *args: object) -> str:
    record = logging.LogRecord("scopa.server", logging.INFO, __file__, 1, template, args, None)
    return SpokenFormatter().format(record).split(" ", 1)[1]  # after the time


@pytest.fixture
def italian():  # type: ignore[no-untyped-def]
    i18n.set_language("it")
    yield
    i18n.set_language("en")


def test_a_games_lines_are_italian_and_count_from_one(italian: None) -> None:
    assert said("connection %s is %s (client %r)", 3, "player:ada", "scopa-client 0.1") == \
        "la connessione 3 è di ada (client 'scopa-client 0.1')"
    assert said("connection %s resumes seat %s of table %s as %s", 3, 0, "2", "player:ada") == \
        "la connessione 3 riprende il posto 1 del tavolo 2 come ada"
    assert said("table %s: %s sits at seat %s", "1", "player:carla", 1) == "tavolo 1: carla si siede al posto 2"
    assert said("table %s: game started (%s) with %s", "1", "scopa, 2p, to 11", "bruno, carla") == \
        "tavolo 1: partita iniziata (scopa, 2 giocatori, a 11) con bruno, carla"
    assert said("table %s created by %s: %s", "2", "player:ada", "scopa, 2p, to 11") == \
        "tavolo 2 aperto da ada: scopa, 2 giocatori, a 11"
    assert said("table %s opened by the server: %s", "3", "scopone, 4p teams, to 11") == \
        "tavolo 3 aperto dal server: scopone, 4 giocatori a squadre, a 11"
    assert said("table %s: game finished, winner side %s, totals %s (%s)", "1", 0, [13, 2], "target") == \
        "tavolo 1: partita finita, vince la parte 1, totali [13, 2] (traguardo raggiunto)"
    assert said("table %s: seat %s (%s) is away; waiting %ss", "1", 0, "ada", 30) == \
        "tavolo 1: il posto 1 (ada) è assente; si aspetta 30 s"


def test_the_english_text_log_counts_seats_from_one_too() -> None:
    assert said("table %s: seat %s (%s) is back", "1", 1, "bea") == "table 1: seat 2 (bea) is back"


@pytest.mark.integration
async def test_a_game_left_is_logged_abandoned_in_italian(italian: None, caplog: pytest.LogCaptureFixture) -> None:
    """The server's own line for a game its person left, and the reasons it gives itself,
    in Italian in the text log: no "(Luca left)" left in English."""
    import asyncio

    from scopa.client.net import ClientSession
    from scopa.server import NetworkEngine

    engine = NetworkEngine("127.0.0.1", 0, seed=5)
    await engine.start()
    try:
        async with asyncio.timeout(60):  # a safety net only
            luca = await ClientSession.connect("127.0.0.1", engine.port, "Luca")
            with caplog.at_level(logging.INFO, logger="scopa.server"):
                table = await luca.create_table(fill_with_bots=["greedy"])
                assert await luca.wait_for_game_start(30)
                await luca.leave_table()
            await luca.close()
    finally:
        await engine.stop()
    lines = [SpokenFormatter().format(r).split(" ", 1)[1] for r in caplog.records if "abandon" in str(r.msg)]
    assert lines == [f"tavolo {table.id}: partita interrotta (l'ha lasciata Luca)"], lines
    assert said("table %s: game abandoned (seat %s did not come back)", "4", 1) == \
        "tavolo 4: partita interrotta (il posto 2 non è tornato)"
    assert said("table %s: game abandoned (%s)", "5", "closed by the operator") == \
        "tavolo 5: partita interrotta (chiusa dall'operatore)"
