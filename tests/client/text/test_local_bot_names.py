"""A bot seated with ``scopa local --seats`` is named by the kind the person chose, in
the terminal's language where the kind has a word: never by a level it was not asked as."""

from __future__ import annotations

import pytest

from scopa.client.text import i18n, local_bot_name

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("kind", "english", "italian"), [
    ("greedy", "Bot 1 (greedy)", "Bot 1 (avido)"),
    ("random", "Bot 1 (random)", "Bot 1 (casuale)"),
    ("expert", "Bot 1 (expert)", "Bot 1 (esperto)"),
    ("easy", "Bot 1 (easy)", "Bot 1 (facile)"),
    ("hard", "Bot 1 (hard)", "Bot 1 (difficile)"),
    ("greedy-v1", "Bot 1 (greedy-v1)", "Bot 1 (greedy-v1)"),
    ("chitarella", "Bot 1 (chitarella)", "Bot 1 (chitarella)"),
    ("bots/mine.py:Taker", "Taker 1", "Taker 1"),
])
def test_a_local_bot_is_named_by_the_kind_chosen(kind: str, english: str, italian: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    assert local_bot_name(kind, 1) == english
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    assert local_bot_name(kind, 1) == italian
