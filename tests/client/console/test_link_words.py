"""The connection to the server lost and back, in the words both terminal clients use:
plain, natural English and Italian, the same sentence in the plain lobby and on the
full-screen client's banner."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from scopa.bots import GreedyBot
from scopa.client.console.lobby import Lobby
from scopa.client.net import LinkEvent, LinkStatus
from scopa.client.text import i18n, link_text

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("lang", "lost", "back"), [
    ("it", "Connessione al server persa: riprovo…", "Di nuovo connesso."),
    ("en", "Connection to the server lost: retrying…", "Connected again."),
])
def test_the_plain_lobby_says_the_connection_lost_and_back(monkeypatch: pytest.MonkeyPatch, lang: i18n.Lang,
                                                          lost: str, back: str) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    assert (link_text(back=False), link_text(back=True)) == (lost, back)
    out = io.StringIO()

    class Session:
        name = "ada"
        observers: list[object] = []

        def add_listener(self, listener: object) -> None:
            pass

    lobby = Lobby(Session(), Console(file=out, width=100), GreedyBot)  # type: ignore[arg-type]
    lobby.show_link(LinkEvent(LinkStatus.LOST, "test"))
    lobby.show_link(LinkEvent(LinkStatus.RECONNECTED, ""))
    assert out.getvalue().splitlines() == [lost, back]
