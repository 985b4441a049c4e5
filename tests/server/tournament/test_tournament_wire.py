"""The tournament core and the wire agree: the same formats, tie-breaks, phases and
standings keys, and every refusal a client's command can meet is an error code that
command may get."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scopa.engine.rules import Preset
from scopa.protocol import ErrorCode
from scopa.protocol.commands import KnockoutTie, StandingsKey, TournamentFormat, TournamentPhase
from scopa.protocol.spec import COMMAND_ERRORS
from scopa.server.tournament import (
    Director, Entrant, Format, Phase, QuickEntry, QuickPool, RankKey, Settings, TieBreak, TournamentError,
)  # fmt: skip

pytestmark = pytest.mark.unit


def test_the_wire_names_the_same_formats_tie_breaks_and_phases() -> None:
    assert [f.value for f in Format] == [f.value for f in TournamentFormat]
    assert [t.value for t in TieBreak] == [t.value for t in KnockoutTie]
    assert [p.value for p in Phase] == [p.value for p in TournamentPhase]
    assert [k.value for k in RankKey] == [k.value for k in StandingsKey]


def _code(command: Callable[[], object]) -> ErrorCode:
    with pytest.raises(TournamentError) as refused:
        command()
    return ErrorCode(refused.value.code)


def test_every_refusal_is_a_code_its_command_may_get() -> None:
    settings = Settings("Coppa", Preset.SCOPA, Format.SWISS, cap=2, rounds=1)
    director, _ = Director.create("t1", settings, "ada", seed=1, now=0.0)
    pool = QuickPool()
    pool.join(QuickEntry("ada", Preset.SCOPA, 1500.0, 0.0))
    got: list[tuple[str, ErrorCode]] = [
        ("tournament_create", _code(lambda: Settings("Coppa", Preset.SCOPA, Format.SWISS, cap=4, rounds=4))),
        ("tournament_leave", _code(lambda: director.unregister("ada", 1.0))),
        ("tournament_join", _code(lambda: director.register(Entrant.team("Sud", "ada", "bea"), 1500.0, 1.0))),
        ("tournament_start", _code(lambda: director.start("ada", 1.0))),
        ("quick_play", _code(lambda: pool.join(QuickEntry("ada", Preset.SCOPA, 1500.0, 1.0)))),
        ("quick_leave", _code(lambda: pool.leave("bea"))),
    ]
    director.register(Entrant.player("ada"), 1500.0, 1.0)
    got.append(("tournament_join", _code(lambda: director.register(Entrant.player("ada"), 1500.0, 1.0))))
    director.register(Entrant.player("bea"), 1500.0, 1.0)
    got.append(("tournament_join", _code(lambda: director.register(Entrant.player("cal"), 1500.0, 1.0))))
    got.append(("tournament_start", _code(lambda: director.start("bea", 1.0))))
    director.start("ada", 2.0)
    got += [("tournament_join", _code(lambda: director.register(Entrant.player("dan"), 1500.0, 3.0))),
            ("tournament_leave", _code(lambda: director.unregister("bea", 3.0))),
            ("tournament_start", _code(lambda: director.start("ada", 3.0)))]  # fmt: skip
    assert [(name, code) for name, code in got if code not in COMMAND_ERRORS[name]] == []
    assert {code for _, code in got} == {
        ErrorCode.BAD_SETTINGS, ErrorCode.NOT_REGISTERED, ErrorCode.BAD_ENTRANT, ErrorCode.TOO_FEW_ENTRANTS,
        ErrorCode.ALREADY_WAITING, ErrorCode.NOT_WAITING, ErrorCode.ALREADY_REGISTERED, ErrorCode.TOURNAMENT_FULL,
        ErrorCode.NOT_ALLOWED, ErrorCode.TOURNAMENT_STARTED}
