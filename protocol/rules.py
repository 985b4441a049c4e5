"""The table options as the wire carries them.

:class:`WireRules` is the protocol's own model of a rule set: the engine's
:class:`~scopa.engine.RuleSet` may grow a field, but the wire changes only when this
model does (a test compares the two, so that change is a deliberate one).  Conversion
both ways is :func:`rules_to_wire` and :func:`rules_from_wire` (also offered by
:mod:`scopa.protocol.convert` with the other conversions).
Whether a combination makes sense is the engine's call: a combination the engine refuses
is an invalid body, so every ``WireRules`` value converts.
"""

from __future__ import annotations

import functools

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from scopa.engine.rules import AssoPigliaTutto, CaptureMode, Preset, RuleSet, sense_problems

__all__ = ["WireRules", "rules_from_wire", "rules_to_wire"]


class WireRules(BaseModel):
    """Every table option (R5, R9, R12, R15, R22 and V1-V13), as a command carries it."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)  # as every wire model

    preset: Preset | None = Field(default=None, description="name of the classic game this was built from")
    players: Literal[2, 3, 4, 6] = 2
    teams: bool | None = Field(
        default=None,
        description="R5: play in two teams (seat parity); None = teams for 4 and 6 players",
    )
    hand_size: Annotated[int, Field(ge=1, le=20)] = Field(default=3, description="R9: cards dealt to each player per deal")
    table_cards: Annotated[int, Field(ge=0, le=10)] = Field(
        default=4, description="R9: cards laid on the table at the first deal"
    )
    capture_mode: CaptureMode = CaptureMode.TRADITIONAL
    refill_each_turn: bool = Field(default=False, description="R12: draw one card after each play")
    target: Literal[11, 16, 21, 31, 51] = Field(default=11, description="R22: points that end the game")
    max_two: bool = Field(default=False, description="V1: a sum capture takes at most two cards")
    ponino: bool = Field(default=False, description="V2: all four Cavalli double the side's scope")
    napola: bool = Field(default=False, description="V3: run of Denari from the ace scores 3+")
    quindici: bool = Field(default=False, description="V6: capture when played + captured total 15")
    escoba: bool = Field(default=False, description="V7: extra points for sevens")
    trentino: bool = Field(default=False, description="V8: A/2/3 of Denari worth 1/2/3; all three wins")
    asso_piglia_tutto: AssoPigliaTutto = AssoPigliaTutto.OFF
    re_bello: bool = Field(default=False, description="V11: the king of Denari is worth 1 point")
    frac: bool = Field(default=False, description="V12: only aces and court cards score, 1 each")
    cirulla: bool = Field(default=False, description="V13: Cirulla")

    @model_validator(mode="after")
    def _makes_sense(self) -> WireRules:
        problems = _problems(tuple(self.__dict__.items()))
        if problems:
            raise ValueError("; ".join(problems))
        return self


@functools.lru_cache(maxsize=256)
def _problems(fields: tuple[tuple[str, Any], ...]) -> tuple[str, ...]:
    """What the engine finds wrong with a combination of options, by their values: every
    model holding a ``WireRules`` (a table map, made for each table change) checks it again."""
    return tuple(sense_problems(RuleSet.model_construct(**dict(fields))))


@functools.lru_cache(maxsize=256)
def rules_to_wire(rules: RuleSet) -> WireRules:
    """The engine's rule set as the wire carries it (one frozen model per rule set, shared
    by every table that plays it)."""
    return WireRules.model_validate(rules.model_dump())


def rules_from_wire(rules: WireRules) -> RuleSet:
    """The engine's rule set from the wire's (which the engine has already found sound)."""
    return RuleSet.model_validate(rules.model_dump())
