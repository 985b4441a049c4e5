"""A tournament's standings show the Buchholz column only when they are ranked by it
(PROTOCOL.md §16, ``ranked_by``): in a Swiss or round-robin tournament, never in a
knockout; in the terminal clients (the board and the plain lobby) and in ``scopa
tournament standings``."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from rich.console import Console

from scopa.cli.tournament import show_standings
from scopa.client.text import render_standings
from scopa.protocol import commands as wire

pytestmark = pytest.mark.unit

BY_POINTS = [wire.StandingsKey.MATCH_POINTS, wire.StandingsKey.BUCHHOLZ, wire.StandingsKey.GAME_POINTS,
             wire.StandingsKey.SEED]
BY_ROUND = [wire.StandingsKey.ROUND_REACHED, wire.StandingsKey.MATCH_POINTS, wire.StandingsKey.GAME_POINTS,
            wire.StandingsKey.SEED]


def standings(ranked_by: list[wire.StandingsKey]) -> wire.TournamentStandings:
    rows = [wire.StandingsRow(rank=1, entrant="ada", match_points=2.0, buchholz=7.25, game_points=22, played=2, wins=2,
                              draws=0, losses=0, byes=0),
            wire.StandingsRow(rank=2, entrant="bea", match_points=0.5, buchholz=9.75, game_points=15, played=2, wins=0,
                              draws=1, losses=1, byes=0)]  # fmt: skip
    return wire.TournamentStandings(tournament="c1", round=2, final=True, ranked_by=ranked_by, rows=rows)


def printed(renderable: object) -> str:
    out = io.StringIO()
    Console(file=out, width=160).print(renderable)
    return out.getvalue()


def shown(ranked_by: list[wire.StandingsKey]) -> str:
    out = io.StringIO()
    show_standings(Console(file=out, width=160), standings(ranked_by))
    return out.getvalue()


def rendered(ranked_by: list[wire.StandingsKey]) -> str:
    return printed(render_standings(standings(ranked_by)))


@pytest.mark.parametrize("render", [rendered, shown])
def test_only_standings_ranked_by_buchholz_show_it(render: Callable[[list[wire.StandingsKey]], str]) -> None:
    swiss, knockout = render(BY_POINTS), render(BY_ROUND)
    assert "Buchholz" in swiss and "7.25" in swiss and "9.75" in swiss
    assert "Buchholz" not in knockout and "7.25" not in knockout and "9.75" not in knockout
    assert all(figure in knockout for figure in ("ada", "bea", "22", "15", "0.5"))
