"""The page speaks the shared catalog's Italian (client/text/catalog_it.json): the engine's
reason for a refused move (R13, R14) comes out in Italian as in the terminal, and a name
after "a" takes "ad" before a vowel ("vanno ad Ada") — run by node over i18n.ts."""

from __future__ import annotations

import random
import re

import pytest

from scopa.client.text import catalog, i18n
from scopa.engine import Deal, GameState, Play, RuleSet
from web_words import page_eval

pytestmark = pytest.mark.process


def test_the_page_and_the_terminal_say_a_refusal_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    for shuffle in range(100):  # the first deal (a fixed shuffle) where the seat to play can capture
        state = GameState.new(RuleSet.build("scopa"), 0)
        state.apply(Deal(tuple(random.Random(shuffle).sample(range(40), 40))))
        seat = state.to_move
        takers = [c for c in range(40) if state.hands[seat] >> c & 1 and state.capture_options(seat, c)]
        if takers:
            break
    absent = next(c for c in range(40) if not state.hands[seat] >> c & 1)
    refusals = [str(state.explain(Play(absent, 0), seat)), str(state.explain(Play(takers[0], 0), seat))]
    assert "must take one of" in refusals[1]
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    terminal = [catalog.error_text("illegal_capture", r) for r in refusals]
    page = page_eval("[%s].map((r) => m.speech('it').error('illegal_capture', r))" % ", ".join(f"{r!r}" for r in refusals))
    assert page == terminal and "non è nella mano del posto" in page[0] and "deve prendere una tra" in page[1]
    assert page_eval("m.speech('it').error('table_full', 'the table is full')") == "il tavolo è pieno"


def test_a_name_after_a_takes_ad_before_a_vowel_on_the_page() -> None:
    said = page_eval("[m.fill(m.speech('it').w.leftoverTo, {name: 'Ada'}), m.fill(m.speech('it').w.leftoverTo, {name: 'Bea'})]")
    assert said == ["Le carte rimaste in tavola vanno ad Ada.", "Le carte rimaste in tavola vanno a Bea."]


def test_no_participle_follows_a_players_name_on_the_page() -> None:
    """A player's name comes with no gender: "carla è tornato" is wrong for carla, so the
    page's Italian says it without a participle ("carla è di nuovo al tavolo.")."""
    words: dict[str, str] = page_eval("m.speech('it').w")
    gendered = {k: v for k, v in words.items() if re.search(r"(?<!di )\{name\} (si )?è \w+(at|ut|it)[oa]\b", v)}  # "il tempo di {name} è scaduto": the time's
    assert gendered == {}
    said = page_eval("[m.fill(m.speech('it').w.away, {name: 'carla', left: '1:52'}), m.fill(m.speech('it').w.back, {name: 'carla'})]")
    assert said == ["carla non è al tavolo: il posto resta suo ancora 1:52, poi gioca un bot.", "carla è di nuovo al tavolo."]


def test_the_pages_notices_are_sentences_in_both_languages() -> None:
    """A refusal shown on the page (the shared catalog's words) is a sentence; a play's
    notices say whose it was, and the French cards' suit is the deck's."""
    assert page_eval("[m.sentence(m.speech('it').error('table_full', 'the table is full')), m.sentence('x.')]") == \
        ["Il tavolo è pieno.", "X."]
    said = page_eval("""[m.fill(m.speech('it').w.timedOutOf, {name: 'Zio_Gino', card: 'Fante Coppe'}),
        m.speech('it').w.scopaYou, m.fill(m.speech('it').w.scopaOf, {name: 'Nonna_Rosa'}),
        m.fill(m.speech('it').w.botLeft, {name: 'Zio_Gino'}), m.speech('it', 'french').w.denari, m.speech('en', 'french').w.denari]""")
    assert said == ["Il tempo di Zio_Gino è scaduto: il server ha giocato Fante Coppe al suo posto.", "Hai fatto scopa!",
                    "Nonna_Rosa ha fatto scopa!", "Zio_Gino ha lasciato la partita: da ora un bot gioca al suo posto.",
                    "Quadri", "Diamonds"]
