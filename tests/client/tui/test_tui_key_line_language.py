"""The key line (the footer) speaks the language in effect when the app is built, not
the one of the moment its modules were imported: ``--lang it`` (or a test) chooses the
language after the client's classes exist."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey, FooterLabel

from scopa.client.text import i18n
from scopa.client.tui import ReplayApp
from scopa.client.tui.app import LocalGameApp
from scopa.engine import RuleSet
from scopa.protocol.record import replay_steps

from test_replay_app import game

pytestmark = pytest.mark.unit


def key_line(app: LocalGameApp | ReplayApp) -> str:
    """The keys and their words, and the words of the groups of keys ("→ ← step")."""
    keys = [f"{k.key_display} {k.description}" for k in app.screen.query(FooterKey)]
    return " ".join(keys + [str(label.render()) for label in app.screen.query(FooterLabel)])


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_key_line_follows_the_language_chosen_after_import(monkeypatch: pytest.MonkeyPatch,
                                                                       lang: str) -> None:
    other = "en" if lang == "it" else "it"
    monkeypatch.setattr(i18n, "LANGUAGE", other)
    record = await game(3)
    ReplayApp(record, list(replay_steps(record)))  # an app built in the other language first
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    replay = ReplayApp(record, list(replay_steps(record)))
    async with replay.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        keys = key_line(replay)
    words = {"it": ("passo", "smazzata", "q esci"), "en": ("step", "round", "q quit")}
    assert all(w in keys for w in words[lang]) and not any(w in keys for w in words[other]), keys
    local = LocalGameApp(RuleSet(), ["human", "greedy"], seed=3, pace=0)
    async with local.run_test(size=(100, 30)) as pilot:
        while not local.board_screen.asking:
            await pilot.pause()
        keys = key_line(local)
    words = {"it": ("aiuto", "esci", "scrivi una carta"), "en": ("help", "leave", "type a card")}
    assert all(w in keys for w in words[lang]) and not any(w in keys for w in words[other]), keys
