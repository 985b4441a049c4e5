"""The lobby of `scopa play` (the Textual app) in Italian, at 80×24, 60×20 and 50×20: every
column heading of the list of tables is whole ("spettatori", not "spettator"); at 60
columns every column shows, each game by its name and target ("Scopone a 21"); a column
that does not fit is left out and a line says which, and a long cell ends in "…"; a key
that does nothing there says so, and which keys do."""

from __future__ import annotations

import pytest
from textual.app import App

from scopa.client.text import i18n
from scopa.client.tui.online import LobbyScreen
from scopa.engine import RuleSet
from scopa.protocol import TableInfo, TableState
from scopa.protocol.convert import rules_to_wire

pytestmark = pytest.mark.integration

HEADINGS = ["tavolo", "regole", "posti", "stato", "spettatori"]


class LobbyHarness(App[None]):
    """The lobby screen alone, listing four tables (no server: the list is given to it)."""

    def on_mount(self) -> None:
        self.lobby = LobbyScreen("ada su 127.0.0.1:7000")
        self.push_screen(self.lobby)


def tables() -> list[TableInfo]:
    games = [("scopa", ["ada", None], TableState.WAITING), ("cirulla", ["bea", "greedy-bot-1"], TableState.PLAYING),
             ("scopone", ["ada", None, "cleo", None], TableState.WAITING)]
    return [TableInfo(id=str(n), rules=rules_to_wire(RuleSet.build(preset)), description="", seats=seats, state=state,
                      bots=[i for i, s in enumerate(seats) if s and s.endswith("-bot-1")])
            for n, (preset, seats, state) in enumerate(games, 1)]


def screen_rows(app: App[None]) -> list[str]:
    return ["".join(seg.text for seg in strip).rstrip() for strip in app.screen._compositor.render_strips()]


async def listed(app: LobbyHarness, pilot) -> list[str]:  # type: ignore[no-untyped-def]
    await pilot.pause()
    app.lobby.show_tables(tables())
    await pilot.pause()
    return screen_rows(app)


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
async def test_every_heading_of_the_list_is_whole(size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LobbyHarness()
    async with app.run_test(size=size) as pilot:
        rows = await listed(app, pilot)
        heading = next(row for row in rows if "tavolo" in row)
        assert heading.split() == HEADINGS, "\n".join(rows)
        assert all(len(row) <= size[0] for row in rows)
        scopone = next(row for row in rows if row.lstrip().startswith("3 "))
        assert "Scopone" in scopone and ("…" in scopone or "a 21" in scopone), scopone  # cut short, said so


@pytest.mark.parametrize("lang, game", [("it", "{} a {}"), ("en", "{} to {}")])
async def test_at_60_columns_every_column_shows_each_game_and_target_whole(lang: i18n.Lang, game: str,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    app = LobbyHarness()
    async with app.run_test(size=(60, 20)) as pilot:
        rows = await listed(app, pilot)
        heading = next(row for row in rows if row.split()[:1] == [i18n.tr("table")])
        assert heading.split() == [i18n.tr(h) for h in ("table", "rules", "seats", "state", "watching")], "\n".join(rows)
        assert all(len(row) <= 60 for row in rows)
        for n, (name, target) in enumerate([("Scopa", 11), ("Cirulla", 51), ("Scopone", 21)], 1):
            row = next(row for row in rows if row.lstrip().startswith(f"{n} "))
            assert game.format(name, target) in row, "\n".join(rows)  # the game and its target, never cut


async def test_a_narrow_lobby_says_which_columns_it_leaves_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    app = LobbyHarness()
    async with app.run_test(size=(50, 20)) as pilot:
        rows = await listed(app, pilot)
        heading = next(row for row in rows if "tavolo" in row)
        shown = heading.split()
        assert set(shown) <= set(HEADINGS) and "spettatori" in shown, heading
        left_out = [h for h in HEADINGS if h not in shown]
        assert left_out == ["regole"], heading
        note = " ".join(" ".join(rows[:rows.index(heading)]).split())  # as read, however it wraps
        assert "colonne nascoste: regole" in note and "? per le regole" in note, "\n".join(rows)


@pytest.mark.parametrize("lang, said", [("it", "x: tasto sconosciuto — ? per l'aiuto"),
                                        ("en", "x: unknown key — ? for help")])
async def test_a_key_that_does_nothing_in_the_lobby_says_so(lang: i18n.Lang, said: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", lang)
    app = LobbyHarness()
    async with app.run_test(size=(80, 24)) as pilot:
        await listed(app, pilot)
        await pilot.press("x")
        await pilot.pause()
        rows = screen_rows(app)
        status = " ".join(" ".join(rows[-5:-1]).split())
        assert said in status, "\n".join(rows)
        assert ("p: gioca subito" if lang == "it" else "p: play now") in status, "\n".join(rows)  # the keys that work
