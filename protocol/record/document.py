"""The game record: one JSON document that holds a whole finished game (docs/RECORDS.md).

A record names the rules, the seed, the players and, round by round, the shuffled deck
that was dealt, every play and declaration in card notation, and the round's score; then
the result.  It is an interchange format like the wire commands (cards are notation
strings, models are strict), so it lives beside them; :mod:`.replay` checks a
record by replaying it through the engine.

``docs/record.schema.json`` is generated from :class:`Record`::

    python -m scopa.cli.schema --record > docs/record.schema.json

Text in, records out, and back (:func:`parse_record`, :func:`dumps_record`); reading
and writing record files is the client's (:mod:`scopa.client.console.recordfile`).
"""

from __future__ import annotations

import json
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from scopa.engine import (
    CARDS,
    Action,
    Card,
    Deal,
    DeclarationKind,
    Declare,
    EndReason,
    Forced,
    GameState,
    Phase,
    Play,
    PlayMark,
    RuleSet,
    cards_in,
    mask_of,
)

from ..fields import build_models
from ..fields import Cards, CardStr, Points, PointsList, Seat, Side, Word
from ..rules import WireRules, rules_from_wire, rules_to_wire

RECORD_FORMAT: Literal[1] = 1
"""The version of the record format; a change that alters a field's meaning raises it."""

Deck = Annotated[list[CardStr], Field(min_length=40, max_length=40)]
"""A shuffled deck, top card first (the first cards dealt are the top cards)."""
DisplayName = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[^\x00-\x1f\x7f]+$")]
Strategy = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:\-]{1,64}$")]
Seed = Annotated[int, Field(ge=0, lt=2**63)]


class RecordModel(BaseModel):
    """Base of the record's models: strict, closed, immutable; built on first use
    (:func:`build_record_models`)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, defer_build=True)


def build_record_models() -> None:
    """Build now every record model, otherwise built on first use (a server, before it
    listens: its first game's end does not wait for them).  Idempotent."""
    build_models(RecordModel)


class PlayerKind(StrEnum):
    PERSON = "person"
    BOT = "bot"


class RecordPlayer(RecordModel):
    """Who sat at a seat."""

    seat: Seat
    name: DisplayName
    side: Side = Field(description="R5: the side (a player or a team) the seat played for")
    kind: PlayerKind
    strategy: Strategy | None = Field(default=None, description="a bot's strategy, e.g. greedy")
    taken_over: bool = Field(default=False, description="a bot played this person's seat from some point on")


class RecordPlay(RecordModel):
    """A play: ``card`` from the seat's hand, taking ``capture`` (empty: laid on the table)."""

    seat: Seat
    card: CardStr
    capture: Cards = []
    forced: Forced | None = Field(default=None, exclude_if=lambda v: v is None,
                                  description="the server made this play for the seat: `timeout` (its time ran out) "
                                              "or `refused` (its answers were refused too often)")
    bot: bool = Field(default=False, exclude_if=lambda v: not v,
                      description="a built-in bot made this play for the seat's person (away, or gone)")


class RecordDeclaration(RecordModel):
    """V13: a Cirulla hand bonus; ``wild`` is the value given to the 7 of Coppe."""

    seat: Seat
    declare: DeclarationKind
    wild: Annotated[int, Field(ge=1, le=10)] | None = None


RecordAction = RecordPlay | RecordDeclaration


class RecordRound(RecordModel):
    """One round: its deal, every action in order, and its score."""

    number: Annotated[int, Field(ge=1, le=10_000)]
    dealer: Seat
    void_deals: Annotated[list[Deck], Field(max_length=100)] = Field(
        default=[], description="R10/V13: decks dealt before this one whose table was void (dealt again)"
    )
    deck: Deck = Field(description="the shuffled deck of this round, top card first")
    actions: Annotated[list[RecordAction], Field(max_length=1000)]
    leftover: Cards = Field(default=[], description="R20: table cards left at the end")
    leftover_to: Side | None = Field(default=None, description="the side that took the leftover")
    breakdown: Annotated[list[dict[Word, Points]], Field(max_length=6)] | None = Field(
        default=None, description="points per side by category; null when the game ended inside the round"
    )
    points: PointsList | None = None
    totals: PointsList = Field(description="each side's game total after this round")


class RecordResult(RecordModel):
    totals: PointsList
    winner: Side | None = Field(description="the winning side; null for an abandoned game")
    reason: EndReason


class Record(RecordModel):
    """A whole game (docs/RECORDS.md)."""

    format: Literal[1] = 1
    game: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_\-]{1,16}$")] | None = Field(
        default=None, description="the server's game (table) id, when the game was played on a server"
    )
    played_at: datetime | None = Field(default=None, description="when the game ended (ISO 8601)")
    rules: WireRules
    seed: Seed
    first_dealer: Seat
    players: Annotated[list[RecordPlayer], Field(min_length=2, max_length=6)]
    rounds: Annotated[list[RecordRound], Field(max_length=10_000)]
    result: RecordResult

    @property
    def engine_rules(self) -> RuleSet:
        """The rules as the engine plays them."""
        return rules_from_wire(self.rules)

    @model_validator(mode="after")
    def _seats_match_rules(self) -> Record:
        n = self.rules.players
        rules = self.engine_rules
        if [p.seat for p in self.players] != list(range(n)):
            raise ValueError(f"players must list seats 0..{n - 1} in order, once each")
        for p in self.players:
            if p.side != rules.side_of(p.seat):
                raise ValueError(f"seat {p.seat} plays for side {rules.side_of(p.seat)}, not {p.side}")
        if not 0 <= self.first_dealer < n:
            raise ValueError(f"first_dealer must be a seat 0..{n - 1}")
        return self

    def names(self) -> list[str]:
        return [p.name for p in self.players]


class RecordError(ValueError):
    """A file that is not a readable record (not JSON, or not the record format)."""


# ---------------------------------------------------------------------- engine <-> record


def deck_strs(order: Sequence[int]) -> list[str]:
    return [str(CARDS[c]) for c in order]


def deck_order(deck: Sequence[str]) -> tuple[int, ...]:
    return tuple(int(Card.parse(c)) for c in deck)


def action_to_record(action: Play | Declare, seat: int, mark: PlayMark | None = None) -> RecordAction:
    """An action of the game as the record writes it (``mark``: how a play came about)."""
    if isinstance(action, Declare):
        return RecordDeclaration(seat=seat, declare=action.kind, wild=action.wild)
    return RecordPlay(seat=seat, card=str(CARDS[action.card]), capture=[str(c) for c in cards_in(action.capture)],
                      forced=mark.forced if mark is not None else None, bot=mark is not None and mark.bot)


def action_from_record(action: RecordAction) -> Play | Declare:
    if isinstance(action, RecordDeclaration):
        return Declare(action.declare, action.wild)
    return Play(int(Card.parse(action.card)), mask_of(Card.parse(c) for c in action.capture))


def build_record(
    rules: RuleSet,
    seed: int,
    first_dealer: int,
    actions: Sequence[Action],
    players: Sequence[RecordPlayer],
    *,
    game: str | None = None,
    played_at: datetime | None = None,
    marks: Mapping[int, PlayMark] | None = None,
) -> Record:
    """The record of a game from the engine's action log (as ``GameMaster.actions`` or a
    server journal holds it).  A log that stops before the game is over is an abandoned
    game.  The log is replayed to split it into rounds and score them.  ``marks``: how
    plays came about, by their index in ``actions``."""
    state = GameState.new(rules, first_dealer)
    rounds: list[dict[str, Any]] = []
    voids: list[list[str]] = []
    for index, action in enumerate(actions):
        if isinstance(action, Deal):
            dealer = state.dealer
            state.apply(action)
            if state.phase is Phase.DEAL:  # R10/V13: void, the same dealer deals again
                voids.append(deck_strs(action.order))
                continue
            rounds.append(dict(number=state.round_no, dealer=dealer, void_deals=voids,
                               deck=deck_strs(action.order), actions=[], totals=list(state.totals)))
            voids = []
            continue
        seat = state.to_move
        scored = len(state.history)
        state.apply(action, seat)
        current = rounds[-1]
        current["actions"].append(action_to_record(action, seat, marks.get(index) if marks else None))
        current["totals"] = list(state.totals)
        if len(state.history) > scored:
            score = state.history[-1]
            current["breakdown"] = [{str(k): v for k, v in side.items()} for side in score.breakdown]
            current["points"] = list(score.points)
            current["leftover"] = [str(c) for c in cards_in(state.leftovers)]
            current["leftover_to"] = state.last_capturer if state.leftovers else None
        elif state.phase is Phase.OVER and state.leftovers:  # an instant win on the leftover (R20)
            current["leftover"] = [str(c) for c in cards_in(state.leftovers)]
            current["leftover_to"] = state.last_capturer
    if state.phase is Phase.OVER:
        assert state.end_reason is not None
        result = RecordResult(totals=list(state.totals), winner=state.winner, reason=state.end_reason)
    else:
        result = RecordResult(totals=list(state.totals), winner=None, reason=EndReason.ABANDONED)
    return Record(game=game, played_at=played_at, rules=rules_to_wire(rules), seed=seed, first_dealer=first_dealer,
                  players=list(players), rounds=[RecordRound(**r) for r in rounds], result=result)


# ---------------------------------------------------------------------- text


MAX_RECORD_FILE_BYTES = 4 * 1024 * 1024
"""The largest record read (a long game's record is well under 100 KB): a larger text,
or file, is refused before it is parsed (or read)."""


def parse_record(text: str, where: str = "the record") -> Record:
    if len(text) > MAX_RECORD_FILE_BYTES:
        raise RecordError(f"{where} is too large for a record (over {MAX_RECORD_FILE_BYTES // (1024 * 1024)} MiB)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where} is not JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise RecordError(f"{where} is not a record: its JSON is nested far too deeply") from None
    if not isinstance(data, dict):
        raise RecordError(f"{where} is not a record: a JSON object is expected")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"{where} is not a record of format {RECORD_FORMAT} (format: {data.get('format')!r})")
    try:
        return Record.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(x) for x in first["loc"])
        msg = first["msg"].removeprefix("Value error, ")
        more = f" (and {exc.error_count() - 1} more problems)" if exc.error_count() > 1 else ""
        raise RecordError(f"{where} is not a valid record: {loc or 'record'}: {msg}{more}") from None


def dumps_record(record: Record) -> str:
    """The record as JSON text: indented, with short lists and small objects on one line."""
    return _format(record.model_dump(mode="json", exclude_none=False), 0) + "\n"


def _is_flat(value: Any) -> bool:
    scalar = (str, int, float, bool, type(None))
    if isinstance(value, list):
        return all(isinstance(x, scalar) for x in value)
    if isinstance(value, dict):
        return all(isinstance(x, scalar) or (isinstance(x, list) and _is_flat(x)) for x in value.values())
    return True


def _format(value: Any, depth: int) -> str:
    if _is_flat(value) or not isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(inner + _format(x, depth + 1) for x in value) + "\n" + pad + "]"
    items = [f"{inner}{json.dumps(k)}: {_format(v, depth + 1)}" for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + pad + "}"


def record_schema() -> dict[str, Any]:
    """The JSON Schema of the record format (docs/record.schema.json)."""
    schema = Record.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Scopa game record"
    return schema


def schema_text() -> str:
    return json.dumps(record_schema(), indent=2, ensure_ascii=False) + "\n"
