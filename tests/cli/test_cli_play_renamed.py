"""A name already in use on the server: the server gives the second "Giulia" the name
"Giulia2", and `scopa play --plain` tells the person so, once, in Italian; a person who
has the name asked for is told nothing of the kind."""

from __future__ import annotations

import pytest

from serverthread import ServerThread
from scopa.client.text import i18n, renamed_text
from test_cli_play import clients, quit_from_the_lobby, server  # noqa: F401 - the server fixture

TOLD = "Il nome Giulia è già in uso: qui sei Giulia2."


@pytest.mark.process
def test_the_second_giulia_is_told_her_name_on_this_server(server: ServerThread) -> None:  # noqa: F811
    with clients(server) as start:
        first = start("--name", "Giulia", "--lang", "it")
        first.expect("Sala> ")
        assert "già in uso" not in first.before
        second = start("--name", "Giulia", "--lang", "it")
        second.expect("In linea con .* come Giulia2\\.")
        second.expect("Sala> ")
        assert second.before.count(TOLD) == 1, second.before
        quit_from_the_lobby(second, lobby=None, word="esci")
        quit_from_the_lobby(first, lobby=None, word="esci")


@pytest.mark.unit
def test_a_name_given_as_asked_is_no_news(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    assert renamed_text("Giulia", "Giulia") is None
    assert renamed_text(None, "player2") is None
    assert renamed_text("Giulia", "Giulia2") == TOLD
