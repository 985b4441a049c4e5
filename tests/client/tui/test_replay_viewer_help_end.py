"""The replay viewer as a person at an 80×24 terminal uses it, in Italian and in English:
``?`` lists the viewer's own keys (not the keys for playing a hand), the last step says
who won, and the title shows the rules' name whole."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from scopa.client.text import i18n
from scopa.client.text.replaywords import result_text
from scopa.client.tui import ReplayApp
from scopa.client.tui.app import LocalGameApp
from scopa.client.tui.dialogs import GameOverScreen, HelpScreen
from scopa.client.tui.replay import ReplayScreen
from scopa.bots import make_bot
from scopa.engine import LocalGame, RuleSet
from scopa.protocol.record import PlayerKind, RecordPlayer, build_record, replay_steps

from test_replay_app import game, text_of
from test_tui_network import until

pytestmark = pytest.mark.unit

VIEWER_KEYS = {"it": "Tasti della partita rivista", "en": "Keys of the replay"}
PLAYING_KEYS = {"it": "gioca quella carta della mano", "en": "play that card of your hand"}


def shown_help(app: ReplayApp | LocalGameApp) -> str:
    assert isinstance(app.screen, HelpScreen), app.screen
    return app.screen.source


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_question_mark_lists_the_viewers_keys(lang: i18n.Lang, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    record = await game(3)
    app = ReplayApp(record, list(replay_steps(record)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right", "question_mark")
        await pilot.pause()
        assert VIEWER_KEYS[lang] in shown_help(app) and PLAYING_KEYS[lang] not in shown_help(app)
        await pilot.press("question_mark")  # closes the help, back where the viewer stood
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.index == 1
    local = LocalGameApp(RuleSet(), ["greedy", "random"], 3, pace=0, round_pause=0.01)
    async with local.run_test(size=(80, 24)) as pilot:  # the replay of a game just played (r at its end)
        await until(pilot, lambda: isinstance(local.screen, GameOverScreen), limit=3000)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(local.screen, ReplayScreen))
        await pilot.press("question_mark")
        await pilot.pause()
        assert VIEWER_KEYS[lang] in shown_help(local) and PLAYING_KEYS[lang] not in shown_help(local)


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_help_speaks_of_the_game_replayed_not_of_a_table(lang: i18n.Lang,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The help over the replay heads its facts as the game replayed, says it is a game
    already played that the keys step through, never "This table" of a game being played."""
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    record = await game(3)
    app = ReplayApp(record, list(replay_steps(record)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        help_text = shown_help(app)
        body = "\n".join("".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips())
    table = {"it": "Questo tavolo", "en": "This table"}[lang]
    replayed = {"it": "La partita rivista", "en": "The game replayed"}[lang]
    already = {"it": "Una partita già giocata", "en": "A game already played"}[lang]
    assert table not in help_text and f"## {replayed}" in help_text and already in help_text, help_text
    assert replayed in body and table not in body, body  # as the person sees it, at the top


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_last_step_says_who_won(lang: i18n.Lang, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stepping past the last play (or pressing End) reaches the game's end: the step line
    at the top, always in sight, says who won ("vince G1 11-…")."""
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    record = await game(10)  # G1 wins
    steps = list(replay_steps(record))
    app = ReplayApp(record, steps)
    won = result_text(record)
    assert ("vince G1" if lang == "it" else "G1 won") in won
    async with app.run_test(size=(80, 24)) as pilot:
        app.index = len(steps) - 1  # the last play
        await pilot.pause()
        assert won not in text_of(app, "#position")
        await pilot.press("right")
        await pilot.pause()
        last = text_of(app, "#position")
        assert won in last and f"{len(steps) + 1}/{len(steps) + 1}" in last, last
        await pilot.press("right")  # nothing after the end
        await pilot.press("home", "end")
        await pilot.pause()
        assert text_of(app, "#position") == last
        await pilot.press("left")
        await pilot.pause()
        assert won not in text_of(app, "#position")


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_title_shows_the_rules_whole_at_80_columns(lang: i18n.Lang,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A Scopone scientifico with options, from a server (a game's name) and a long seed."""
    from scopa.client.text import rules_line

    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    rules_set = RuleSet.build("scopone-scientifico", re_bello=True, napola=True)
    bots = [make_bot("greedy", f"G{i}", seed=i) for i in range(rules_set.players)]
    master = LocalGame(rules_set, bots, 6530418535009518933)
    await master.run()
    players = [RecordPlayer(seat=i, name=b.name, side=rules_set.side_of(i), kind=PlayerKind.BOT, strategy="greedy")
               for i, b in enumerate(bots)]
    record = build_record(rules_set, 6530418535009518933, master.first_dealer, master.actions, players)
    record = record.model_copy(update={"game": "t12-20261206-ada"})
    rules = rules_line(record.engine_rules)
    assert len(rules) > 70, rules
    app = ReplayApp(record, list(replay_steps(record)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        title = app.screen.query_one("#title", Static)
        rows = ["".join(seg.text for seg in strip).rstrip() for strip in title.render_lines(title.region.reset_offset)]
    assert all(len(row) <= 80 for row in rows) and "…" not in "".join(rows), rows
    assert " ".join(rules.split()) in " ".join(" ".join(rows).split()), rows
