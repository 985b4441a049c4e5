"""Replaying a record through the engine: the steps of a game, and the check that a
record is consistent (every action legal, every score and the result the same).

:func:`replay_steps` is the one replay: ``scopa replay --check`` runs it to the end,
``--plain`` prints each step and the viewer moves between them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from scopa.engine import (
    Deal,
    EndReason,
    GameState,
    IllegalMoveError,
    Phase,
    RoundScore,
    cards_in,
)
from scopa.engine.cards import format_cards

from .document import Record, RecordAction, RecordDeclaration, action_from_record, deck_order


class RecordMismatch(Exception):
    """The first place where a record and the engine disagree."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


@dataclass(frozen=True)
class Step:
    """The game after one event of the record: a deal (``action`` None) or an action.
    A step holds facts, not words: a client words it in its own language (the deal's
    facts are in ``state``: its dealer, table and dealer's bonus)."""

    round_index: int  # 0-based index into record.rounds
    action_index: int | None  # index into that round's actions; None for the deal
    state: GameState  # a copy: the game right after this step
    score: RoundScore | None = None  # the round's score, on the step that ended it
    action: RecordAction | None = None  # the action this step took; None for the deal
    scopa: bool = False  # the action swept the table (R16)


def describe(action: RecordAction, names: list[str], scopa: bool = False) -> str:
    """An action in English, for ``--plain`` and the place a record stops making sense."""
    who = names[action.seat]
    if isinstance(action, RecordDeclaration):
        wild = f" (7c as {action.wild})" if action.wild is not None else ""
        return f"{who} declares {action.declare.value}{wild}"
    if action.capture:
        return f"{who} plays {action.card}, takes {' '.join(action.capture)}" + (" — scopa!" if scopa else "")
    return f"{who} lays {action.card} on the table"


def replay_steps(record: Record) -> Iterator[Step]:
    """Replay ``record`` step by step; raises :class:`RecordMismatch` at the first
    place the record and the engine disagree (after yielding every step before it)."""
    rules = record.engine_rules
    names = record.names()
    state = GameState.new(rules, record.first_dealer)
    last = len(record.rounds) - 1
    abandoned = record.result.reason is EndReason.ABANDONED
    for r, rnd in enumerate(record.rounds):
        where = f"round {rnd.number}"
        if state.phase is not Phase.DEAL:
            raise RecordMismatch(where, "the game was not waiting for a deal here")
        if rnd.number != state.round_no + 1:
            raise RecordMismatch(where, f"the engine is at round {state.round_no + 1}")
        if rnd.dealer != state.dealer:
            raise RecordMismatch(where, f"the dealer is seat {state.dealer}, not seat {rnd.dealer}")
        for k, deck in enumerate(rnd.void_deals):
            _deal(state, deck_order(deck), f"{where}, void deal {k + 1}")
            if state.phase is not Phase.DEAL:
                raise RecordMismatch(f"{where}, void deal {k + 1}", "this deal is not void (R10)")
        _deal(state, deck_order(rnd.deck), f"{where}, deal")
        if state.phase is Phase.DEAL:
            raise RecordMismatch(f"{where}, deal", "this deal is void (R10) and must be dealt again")
        yield Step(r, None, state.copy())
        for k, action in enumerate(rnd.actions):
            at = f"{where}, action {k + 1} ({describe(action, names)})"
            if state.phase is not Phase.PLAY:
                raise RecordMismatch(at, "the round (or the game) was already over")
            if action.seat != state.to_move:
                raise RecordMismatch(at, f"it is seat {state.to_move}'s turn, not seat {action.seat}'s")
            scored = len(state.history)
            try:
                state.apply(action_from_record(action), action.seat)
            except IllegalMoveError as exc:
                raise RecordMismatch(at, f"illegal: {exc}") from None
            score = state.history[-1] if len(state.history) > scored else None
            yield Step(r, k, state.copy(), score, action, state.last_scopa)
        _check_round_end(state, record, r, abandoned and r == last)
    _check_result(state, record)


def deal_text(state: GameState, number: int, names: list[str]) -> str:
    """What a deal put on the table; with Cirulla's dealer's bonus (V13), the cards the
    dealer's side took and its scope."""
    dealer = names[state.dealer]
    if state.dealer_bonus:
        taken = format_cards(state.piles[state.side[state.dealer]])
        scope = "1 scopa" if state.dealer_bonus == 1 else f"{state.dealer_bonus} scope"
        return (f"Round {number}: {dealer} deals {taken} on the table, which add up to "
                f"{15 * state.dealer_bonus}: the dealer's side takes them, {scope} (V13)")
    return f"Round {number}: {dealer} deals; on the table {format_cards(state.table) or 'nothing'}"


def check_record(record: Record) -> int:
    """Replay the whole record; the number of steps when it is consistent, else
    :class:`RecordMismatch` for the first difference."""
    return sum(1 for _ in replay_steps(record))


def _deal(state: GameState, order: tuple[int, ...], where: str) -> None:
    try:
        state.apply(Deal(order))
    except IllegalMoveError as exc:
        raise RecordMismatch(where, str(exc)) from None


def _check_round_end(state: GameState, record: Record, r: int, may_stop: bool) -> None:
    rnd = record.rounds[r]
    where = f"round {rnd.number}, end"
    if state.phase is Phase.PLAY:
        if may_stop:
            return  # the game was abandoned in this round
        raise RecordMismatch(where, f"the round goes on after its {len(rnd.actions)} actions (seat {state.to_move} to play)")
    scored = len(state.history) == rnd.number
    if scored:
        score = state.history[-1]
        breakdown = [{str(k): v for k, v in side.items()} for side in score.breakdown]
        if rnd.breakdown != breakdown:
            raise RecordMismatch(where, f"the breakdown is {breakdown}, the record says {rnd.breakdown}")
        if rnd.points != list(score.points):
            raise RecordMismatch(where, f"the points are {list(score.points)}, the record says {rnd.points}")
    elif rnd.breakdown is not None or rnd.points is not None:
        raise RecordMismatch(where, "the game ended inside this round: it has no breakdown")
    if rnd.totals != list(state.totals):
        raise RecordMismatch(where, f"the totals are {list(state.totals)}, the record says {rnd.totals}")
    leftover = [str(c) for c in cards_in(state.leftovers)]
    if sorted(rnd.leftover) != sorted(leftover):
        raise RecordMismatch(where, f"the leftover is {leftover or 'nothing'}, the record says {rnd.leftover}")


def _check_result(state: GameState, record: Record) -> None:
    result = record.result
    if result.reason is EndReason.ABANDONED:
        if state.phase is Phase.OVER:
            raise RecordMismatch("result", f"the game ended ({state.end_reason}); it was not abandoned")
        if result.winner is not None:
            raise RecordMismatch("result", "an abandoned game has no winner")
    else:
        if state.phase is not Phase.OVER:
            raise RecordMismatch("result", "the actions end before the game does")
        if state.end_reason is not result.reason:
            raise RecordMismatch("result", f"the game ended by {state.end_reason}, the record says {result.reason}")
        if state.winner != result.winner:
            raise RecordMismatch("result", f"side {state.winner} won, the record says side {result.winner}")
    if result.totals != list(state.totals):
        raise RecordMismatch("result", f"the totals are {list(state.totals)}, the record says {result.totals}")


def plain_log(record: Record) -> Iterator[str]:
    """The record as a readable log, one line at a time; stops with
    :class:`RecordMismatch` where the record stops making sense."""
    names = record.names()
    players = ", ".join(
        f"{p.name} ({p.kind.value}{': ' + p.strategy if p.strategy else ''}{', taken over by a bot' if p.taken_over else ''})"
        for p in record.players
    )
    header = f"Game {record.game}: " if record.game else "Game: "
    yield header + record.engine_rules.describe() + f"; seed {record.seed}"
    if record.played_at is not None:
        yield f"Played: {record.played_at.isoformat(timespec='seconds')}"
    yield f"Players: {players}"
    sides = record.engine_rules.seats_by_side()
    side_names = [" & ".join(names[s] for s in seats) for seats in sides]
    hands_before: list[int] = []
    for step in replay_steps(record):
        s = step.state
        if step.action is None:
            yield ""
            yield deal_text(s, record.rounds[step.round_index].number, names)
        else:
            yield "  " + describe(step.action, names, step.scopa)
        if s.phase is Phase.PLAY and (step.action_index is None or any(
            h & ~old for h, old in zip(s.hands, hands_before)
        )):
            yield "  hands: " + " | ".join(f"{names[i]}: {format_cards(h) or '-'}" for i, h in enumerate(s.hands))
        hands_before = list(s.hands)
        if step.score is not None:
            parts = []
            for side, bd in enumerate(step.score.breakdown):
                detail = ", ".join(f"{k} {v}" for k, v in bd.items()) or "nothing"
                parts.append(f"{side_names[side]} {sum(bd.values())} ({detail})")
            yield "  round score: " + "; ".join(parts)
            yield "  totals: " + ", ".join(f"{side_names[i]} {t}" for i, t in enumerate(s.totals))
    result = record.result
    totals = "-".join(str(t) for t in result.totals)
    if result.winner is None:
        yield f"Result: {result.reason.value}, {totals}"
    else:
        yield f"Result: {side_names[result.winner]} won {totals} ({result.reason.value})"

