"""The table options: one :class:`RuleSet` value holds every rule choice as data.

Presets (RULES.md §6) are named RuleSets; optional extras combine freely where they make
sense and a nonsensical combination is refused with a clear message
(:class:`RuleSetError`, a ``ValueError``).  Rules that play exactly as a preset are that
preset: their ``preset`` field names it however they were built (:func:`preset_of`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator


class CaptureMode(StrEnum):
    """R15: which capture a player may choose when several are possible."""

    TRADITIONAL = "traditional"
    FEWEST = "fewest"
    FREE = "free"


class AssoPigliaTutto(StrEnum):
    """V9/V10: whether an ace sweeps the table."""

    OFF = "off"
    SIMPLE = "simple"
    TRADITIONAL = "traditional"


class Preset(StrEnum):
    """The classic games, by name (usable as ``scopa local --rules NAME``)."""

    SCOPA = "scopa"
    SCOPONE = "scopone"
    SCOPONE_SCIENTIFICO = "scopone-scientifico"
    QUINDICI = "quindici"
    ESCOBA = "escoba"
    CIRULLA = "cirulla"
    FRAC = "frac"
    TRENTINO = "trentino"


class RuleSetError(ValueError):
    """A combination of table options that makes no sense."""


Target = Literal[11, 16, 21, 31, 51]


class RuleSet(BaseModel):
    """Every table option (R5, R9, R12, R15, R22 and V1-V13) as data."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    preset: Preset | None = Field(
        default=None, description="the classic game whose rules the table starts from; change any option and "
                                  "it becomes a game of your own"
    )
    players: Literal[2, 3, 4, 6] = Field(default=2, description="how many people (or bots) sit at the table")
    teams: bool | None = Field(
        default=None,
        description="play in two teams, partners sitting opposite; unset: teams with 4 or 6 players",
    )
    hand_size: int = Field(default=3, ge=1, le=20, description="cards dealt to each player at every deal")
    table_cards: int = Field(default=4, ge=0, le=10, description="cards laid face up on the table at the first deal of a round")
    capture_mode: CaptureMode = Field(
        default=CaptureMode.TRADITIONAL,
        description="which capture you must take when there are several: traditional, fewest or free",
    )
    refill_each_turn: bool = Field(default=False, description="draw a card after each play, so hands stay full while the stock lasts")
    target: Target = Field(default=11, description="points a side needs to win the game")
    max_two: bool = Field(default=False, description="a capture by sum takes at most two table cards")
    ponino: bool = Field(default=False, description="Ponino: a side that takes all four Cavalli doubles its scope of the round")
    napola: bool = Field(default=False, description="Napola: Asso, 2 and 3 of Denari score 3, plus 1 for each next Denaro in an unbroken run")
    quindici: bool = Field(default=False, description="Scopa a quindici: capture when your card and the cards taken add up to 15")
    escoba: bool = Field(default=False, description="Escoba: a point for most sevens and one more for all four")
    trentino: bool = Field(default=False, description="Trentino: Asso, 2 and 3 of Denari are worth 1, 2 and 3 points; all three win the game")
    asso_piglia_tutto: AssoPigliaTutto = Field(
        default=AssoPigliaTutto.OFF,
        description="Asso piglia tutto: an ace sweeps the whole table (off, simple or traditional)",
    )
    re_bello: bool = Field(default=False, description="Re bello: the Re (king) of Denari is worth a point")
    frac: bool = Field(default=False, description="Scopa Frac: only aces and court cards score, a point each; captures are free")
    cirulla: bool = Field(default=False, description="Cirulla: declared hands, the dealer's 15, the 7 of Coppe as a wild card, piccola and grande")

    @property
    def has_teams(self) -> bool:
        if self.teams is None:
            return self.players in (4, 6)
        return self.teams

    @property
    def num_sides(self) -> int:
        return 2 if self.has_teams else self.players

    def side_of(self, seat: int) -> int:
        """R5/R23: the side (a player or a team) a seat plays for."""
        return seat % 2 if self.has_teams else seat

    def seats_by_side(self) -> list[list[int]]:
        """R5: the seats of each side, e.g. ``[[0, 2], [1, 3]]`` for two teams of two."""
        sides: list[list[int]] = [[] for _ in range(self.num_sides)]
        for seat in range(self.players):
            sides[self.side_of(seat)].append(seat)
        return sides

    @model_validator(mode="after")
    def _check_sense(self) -> RuleSet:
        problems = sense_problems(self)
        if problems:
            raise ValueError("; ".join(problems))
        named = preset_of(self)
        if named is not None and named is not self.preset:
            self.__dict__["preset"] = named  # still being validated: not yet seen by anyone
        return self

    def describe(self) -> str:
        """A short human description, e.g. for the table listing."""
        parts = [self.preset.value if self.preset else "custom"]
        parts.append(f"{self.players}p" + (" teams" if self.has_teams and self.players > 2 else ""))
        parts.append(f"to {self.target}")
        if self.capture_mode is not CaptureMode.TRADITIONAL:
            parts.append(f"capture {self.capture_mode.value}")
        for flag in ("refill_each_turn", "max_two", "ponino", "napola", "re_bello"):
            if getattr(self, flag):
                parts.append(flag.replace("_", " "))
        if self.asso_piglia_tutto is not AssoPigliaTutto.OFF:
            parts.append(f"asso piglia tutto ({self.asso_piglia_tutto.value})")
        return ", ".join(parts)

    @classmethod
    def build(cls, preset: Preset | str | None = None, /, **options: object) -> RuleSet:
        """A RuleSet from a preset name plus options; errors as :class:`RuleSetError`."""
        base: dict[str, object] = {}
        if "preset" in options:  # e.g. ``-o preset=cirulla``: the preset with its options
            named = options.pop("preset")
            if preset is not None and named is not None and str(named) != str(preset):
                raise RuleSetError(f"two presets given: {preset} and {named}")
            preset = preset if named is None else str(named)
        if preset is not None:
            try:
                p = Preset(preset)
            except ValueError:
                names = ", ".join(x.value for x in Preset)
                raise RuleSetError(f"unknown preset {preset!r}; choose one of: {names}") from None
            base = dict(PRESETS[p])
            base["preset"] = p
        base.update(options)
        try:
            return cls.model_validate(base, strict=False)
        except ValidationError as exc:
            msgs = []
            for err in exc.errors():
                loc = ".".join(str(x) for x in err["loc"])
                msg = err["msg"].removeprefix("Value error, ")
                msgs.append(f"{loc}: {msg}" if loc else msg)
            raise RuleSetError("; ".join(msgs)) from None


def game_key(r: RuleSet) -> tuple[object, ...]:
    """What decides how a game plays: every option but the preset's name, with teams as
    played (unset teams and the count's own default are the same game)."""
    return tuple(r.has_teams if name == "teams" else getattr(r, name) for name in _GAME_FIELDS)


def preset_of(r: RuleSet) -> Preset | None:
    """The classic game these rules are, option for option (None: a custom game)."""
    return _PRESET_OF_GAME.get(game_key(r))


def sense_problems(r: RuleSet) -> list[str]:
    """Why a RuleSet makes no sense (empty list if it does)."""
    out: list[str] = []
    if r.players == 6 and r.teams is False:
        out.append("6 players play in two teams of three")
    if r.teams and r.players in (2, 3):
        out.append(f"{r.players} players cannot form two teams")
    dealt = r.players * r.hand_size + r.table_cards
    if dealt > 40:
        out.append(f"{r.players} players x {r.hand_size} cards + {r.table_cards} on the table is more than 40 cards")
    elif not r.refill_each_turn and (40 - dealt) % (r.players * r.hand_size) != 0:
        out.append(
            f"the stock of {40 - dealt} cards does not divide into deals of "
            f"{r.players} x {r.hand_size}; use another hand size or refill_each_turn"
        )
    if r.refill_each_turn and 40 - dealt < 0:
        out.append("no stock to refill from")
    if r.cirulla:
        if r.quindici or r.escoba or r.frac or r.trentino:
            out.append("cirulla has its own captures and scoring; it does not combine with quindici, escoba, frac or trentino")
        if r.asso_piglia_tutto is not AssoPigliaTutto.OFF:
            out.append("cirulla already has its own ace rule (asso piglia tutto is built in)")
        if r.napola:
            out.append("cirulla already scores the Denari run (the piccola); napola would count it twice")
        if r.table_cards != 4:
            out.append("cirulla deals 4 cards to the table")
        if r.hand_size != 3:
            out.append("cirulla deals 3 cards to each player")
        if r.capture_mode is not CaptureMode.TRADITIONAL:
            out.append("cirulla has its own capture rule (any valid capture may be chosen, V13); "
                       "capture_mode does not apply")
    if r.frac:
        if r.napola or r.re_bello or r.ponino or r.escoba or r.trentino:
            out.append("frac scores only aces and court cards; napola, re bello, ponino, escoba and trentino points make no sense with it")
        if r.capture_mode is not CaptureMode.FREE:
            out.append("frac captures follow the 'free' capture mode (V12)")
    if r.escoba and not r.quindici:
        out.append("escoba captures by fifteens: set quindici too (the preset does)")
    if r.trentino and not r.has_teams:
        out.append("trentino (scopone de trente) is a team game")
    if r.quindici and r.asso_piglia_tutto is not AssoPigliaTutto.OFF:
        out.append("asso piglia tutto does not combine with captures by fifteen")
    return out


PRESETS: dict[Preset, dict[str, object]] = {
    Preset.SCOPA: {},
    Preset.SCOPONE: {"players": 4, "hand_size": 9, "table_cards": 4, "target": 21},  # V4
    Preset.SCOPONE_SCIENTIFICO: {"players": 4, "hand_size": 10, "table_cards": 0, "target": 21},  # V5
    Preset.QUINDICI: {"quindici": True},  # V6
    Preset.ESCOBA: {"quindici": True, "escoba": True, "target": 21},  # V7
    Preset.CIRULLA: {"cirulla": True, "target": 51},  # V13
    Preset.FRAC: {"frac": True, "capture_mode": CaptureMode.FREE},  # V12
    Preset.TRENTINO: {"players": 4, "hand_size": 9, "table_cards": 4, "target": 21, "trentino": True},  # V8
}

_GAME_FIELDS = tuple(name for name in RuleSet.model_fields if name != "preset")
_PRESET_OF_GAME: dict[tuple[object, ...], Preset] = {
    game_key(RuleSet.model_construct(None, **options)): p for p, options in PRESETS.items()
}
