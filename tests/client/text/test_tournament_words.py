"""What the tournaments' list says when none is open: the plain lobby points to its
``t done``; the full-screen client's screen shows the finished ones under it and says so."""

from __future__ import annotations

import pytest
from rich.console import Console

from scopa.client.text import i18n, render_tournaments

pytestmark = pytest.mark.unit


def said(renderable: object) -> str:
    console = Console(width=100, record=True)
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize(("lang", "plain", "below"), [
    ("it", "quelli finiti con t done", "quelli finiti sono qui sotto"),
    ("en", "see the finished ones with t done", "the finished ones are below")])
def test_no_open_tournament_says_where_the_finished_ones_are(lang: i18n.Lang, plain: str, below: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    assert plain in said(render_tournaments([]))
    shown = said(render_tournaments([], finished_below=True))
    assert below in shown and "t done" not in shown
