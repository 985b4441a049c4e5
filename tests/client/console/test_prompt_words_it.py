"""The plain client's prompts take their command words in Italian as in English: the
lobby's ``aiuto``, ``aggiorna``, ``esci``, its tournament commands (``t iscriviti c1``),
the move prompt's ``aiuto`` and ``scrivi``; every command has its words in both languages,
and no word says two commands."""

from __future__ import annotations

import asyncio
import io

import pytest
from rich.console import Console

from scopa.bots import GreedyBot
from scopa.client.console.club import parse_tournament_command
from scopa.client.console.lobby import Lobby
from scopa.client.console.tablewords import TableLine, is_yes, table_line
from scopa.client.console.tablewords import ANSWERS, LOBBY, TABLE, TOURNAMENT
from scopa.client.net import ClientSession
from scopa.client.text import i18n
from scopa.server import NetworkEngine

SAFETY = 60  # seconds: a safety net only


@pytest.mark.unit
@pytest.mark.parametrize("table", [LOBBY, TOURNAMENT, TABLE, ANSWERS])
def test_each_command_has_words_in_both_languages_and_no_word_says_two(table: object) -> None:
    assert isinstance(table, dict)
    assert set(table["en"]) == set(table["it"])
    assert all(table["it"][command] for command in table["it"])
    for lang in i18n.LANGS:
        for other in i18n.LANGS:
            for command, words in table[lang].items():
                for elsewhere, theirs in table[other].items():
                    assert elsewhere == command or not words & theirs, (lang, command, other, elsewhere)


@pytest.mark.unit
def test_the_move_prompt_and_the_tournament_commands_take_italian_words() -> None:
    assert table_line("aiuto") == TableLine("help")
    assert table_line("Scrivi ciao a tutti") == TableLine("chat", "ciao a tutti")
    assert table_line("esci") == TableLine("leave")
    assert is_yes("sì") and is_yes("y") and not is_yes("") and not is_yes("forse")
    assert parse_tournament_command("iscriviti c1") == ("join", "c1")
    assert parse_tournament_command("ritirati c1") == ("leave", "c1")
    assert parse_tournament_command("classifica c2") == ("standings", "c2")
    assert parse_tournament_command("finiti") == ("done", "")


@pytest.mark.integration
async def test_the_plain_lobby_takes_aiuto_and_aggiorna(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    engine = NetworkEngine("127.0.0.1", 0, seed=7)
    await engine.start()
    try:
        async with asyncio.timeout(SAFETY):
            session = await ClientSession.connect("127.0.0.1", engine.port, "giulia")
            answers = iter(["aiuto", "AGGIORNA", "esci"])
            out = io.StringIO()
            lobby = Lobby(session, Console(file=out, width=160), GreedyBot, input_fn=lambda prompt: next(answers))
            await lobby.run()
            said = out.getvalue()
            assert "non è un comando della sala" not in said, said
            assert said.count("p gioca subito") == 3, said  # listed, asked for with aiuto, listed again
            await session.close()
    finally:
        await engine.stop()
