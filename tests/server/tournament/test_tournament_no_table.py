"""What the director says of a round to the entrants it gives no table (``TellNoTable``):
a knockout of five (eight places: three byes, one game in round 1) tells the byes in
round 1, each loser once the next round is paired (who went through, the round, the
place it shares with the others out then), the final's loser its final place, and the
winner its first place."""

from __future__ import annotations

import random

import pytest

from scopa.engine.rules import Preset
from scopa.server.tournament import (
    AnnounceRound, Director, Entrant, Format, Phase, RecordResults, Settings, Step, TellNoTable, no_table,
)  # fmt: skip
from tournament_play import play_open_games

pytestmark = pytest.mark.unit


def told(step: Step) -> list[tuple[str, str, int, str | None, int | None, float | None]]:
    return [(e.entrant, e.kind, e.round, e.by, e.place, e.points) for e in step.effects if isinstance(e, TellNoTable)]


def test_a_knockout_of_five_tells_its_byes_losers_and_winner() -> None:
    settings = Settings("Coppa", Preset.SCOPA, Format.KNOCKOUT, cap=5)
    director, _ = Director.create("t1", settings, "ada", seed=3, now=0.0)
    for name in ("ada", "bea", "cal", "dan", "eva"):
        director.register(Entrant.player(name), 1500.0, now=1.0)
    step = director.start("ada", now=2.0)
    seeds = director.state.seeds
    assert told(step) == [(s, "bye", 1, None, None, 1.0) for s in seeds[:3]]  # the three best seeds
    [game] = director.state.open_games()
    step = director.finish_game(game.key, (11, 4), now=3.0)  # the first side wins
    assert told(step) == [(game.second, "knocked_out", 1, game.first, 5, None)]  # four left: fifth place
    step = Step()
    while not any(t[1] == "finished" for t in told(step)):
        games = director.state.open_games()
        step = Step()
        for g in games:
            done = director.finish_game(g.key, (11, 4), now=4.0)
            step = Step(step.events + done.events, step.effects + done.effects)
        out = [t for t in told(step) if t[1] == "knocked_out"]
        assert sorted(t[0] for t in out) == sorted(g.second for g in games)  # every loser, and only they
        assert all(t[3] == g.first for t in out for g in games if g.second == t[0])
        assert all(t[4] == 3 for t in out if t[2] == 2)  # the semi-finals' losers share third place
    rows = director.standings()
    assert [t for t in told(step) if t[1] == "finished"] == [(rows[0].entrant, "finished", 3, None, 1, None)]
    assert [t[4] for t in told(step) if t[1] == "knocked_out"] == [2]  # the final's loser: second


@pytest.mark.parametrize(("fmt", "count", "rounds"), [
    (Format.KNOCKOUT, 2, 0), (Format.KNOCKOUT, 3, 0), (Format.KNOCKOUT, 5, 0), (Format.KNOCKOUT, 6, 0),
    (Format.KNOCKOUT, 9, 0), (Format.SWISS, 5, 3), (Format.ROUND_ROBIN, 5, 0),
])  # fmt: skip
def test_what_an_entrant_without_a_table_is_told_is_read_again_from_the_state(
    fmt: Format, count: int, rounds: int
) -> None:
    """After every round of games of a whole tournament (drawn knockout games played again included),
    ``no_table`` of each entrant is what the director last told it while the tournament
    runs (a bye only in its own round; out for good), and nothing once it is over: what a
    restarted server, which has only the journaled state, says again to one who comes back."""
    rng = random.Random(count)
    entrants = [Entrant.player(f"e{i}") for i in range(count)]
    start = Director.create("t1", Settings("Coppa", Preset.SCOPA, fmt, cap=count, rounds=rounds), "e0", 5, 0.0)[0]
    for e in entrants:
        start.register(e, 1500.0, now=1.0)
    steps = [start.start("e0", now=2.0)]
    said: dict[str, TellNoTable] = {}
    while True:
        for step in steps:
            for effect in step.effects:
                if isinstance(effect, AnnounceRound):
                    said = {name: t for name, t in said.items() if t.kind != "bye"}
                elif isinstance(effect, TellNoTable):
                    said[effect.entrant] = effect
                elif isinstance(effect, RecordResults):
                    said = {}
        assert {e.name: no_table(start.state, e.name) for e in entrants} == {e.name: said.get(e.name) for e in entrants}
        if start.state.phase is Phase.FINISHED:
            break
        steps = play_open_games(start, lambda g: rng.choice([(11, 4), (4, 11), (7, 7)]), now=3.0)
