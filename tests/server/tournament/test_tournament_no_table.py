"""What the director says of a round to the entrants it gives no table (``TellNoTable``):
a knockout of five (eight places: three byes, one game in round 1) tells the byes in
round 1, each loser once the next round is paired (who went through, the round, the
place it shares with the others out then), the final's loser its final place, and the
winner its first place."""

from __future__ import annotations

import pytest

from scopa.engine.rules import Preset
from scopa.server.tournament import Director, Entrant, Format, Settings, Step, TellNoTable

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
