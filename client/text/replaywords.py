"""A replayed game in words, in the terminal's language: what each step of a record did
(a deal, a play, a declaration), where the viewer stands in the game, the round's score
and the result.  The steps are facts (:class:`scopa.protocol.record.Step`); the words are
the client's."""

from __future__ import annotations

from collections.abc import Sequence

from scopa.engine import Declare, GameState, RoundScore, cards_in
from scopa.protocol.record import Record, Step
from scopa.protocol.record.document import action_from_record

from .games import end_reason_text
from .i18n import tr
from .notation import DeckStyle, label
from .rulebook import category_names, declaration_names

def step_text(step: Step, record: Record, style: DeckStyle = DeckStyle.ITALIAN) -> str:
    """What ``step`` did: the deal of its round, or its action."""
    names = record.names()
    if step.action is None:
        return deal_text(step.state, record.rounds[step.round_index].number, names, style)
    who = names[step.action.seat]
    move = action_from_record(step.action)
    if isinstance(move, Declare):
        what = declaration_names()[move.kind]
        wild = " " + tr("(7 of Coppe as {n})", n=move.wild) if move.wild is not None else ""
        return tr("{who} declares {what}", who=who, what=what) + wild
    card = label(move.card, style)
    if not move.capture:
        return tr("{who} lays {card} on the table", who=who, card=card)
    text = tr("{who} plays {card}, takes {cards}", who=who, card=card, cards=_cards(move.capture, style))
    return text + (" — " + tr("scopa!") if step.scopa else "")


def deal_text(state: GameState, number: int, names: Sequence[str], style: DeckStyle = DeckStyle.ITALIAN) -> str:
    """What a deal put on the table; with Cirulla's dealer's bonus (V13), the cards the
    dealer's side took and its scope."""
    dealer = names[state.dealer]
    if state.dealer_bonus:
        taken = _cards(state.piles[state.side[state.dealer]], style)
        scope = scope_text(state.dealer_bonus)
        return tr("Round {n}: {dealer} deals {cards} on the table, which add up to {total}: the dealer's side "
                  "takes them, {scope} (V13)", n=number, dealer=dealer, cards=taken,
                  total=15 * state.dealer_bonus, scope=scope)
    table = _cards(state.table, style) if state.table else tr("nothing")
    return tr("Round {n}: {dealer} deals; on the table {cards}", n=number, dealer=dealer, cards=table)


def scope_text(n: int) -> str:
    """``1 scopa``, ``2 scope``."""
    return tr("1 scopa") if n == 1 else tr("{n} scope", n=n)


def _cards(mask: int, style: DeckStyle) -> str:
    """Cards in the deck's notation, a comma between two (``4 Bas, 5 Spa``)."""
    return ", ".join(label(c, style) for c in cards_in(mask))


def position_text(steps: Sequence[Step], index: int, record: Record, style: DeckStyle = DeckStyle.ITALIAN) -> str:
    """Where the viewer stands: "Round 2/5 · action 3/36 · step 40/180 — what it did"."""
    step = steps[index]
    rnd = record.rounds[step.round_index]
    move = tr("deal") if step.action_index is None else tr(
        "action {i}/{n}", i=step.action_index + 1, n=len(rnd.actions))
    return tr("Round {n}/{rounds} · {move} · step {i}/{steps} — {text}", n=rnd.number,
              rounds=steps[-1].round_index + 1, move=move, i=index + 1, steps=len(steps),
              text=step_text(step, record, style))


def score_lines(score: RoundScore, record: Record) -> list[str]:
    """A round's score: each side's points and where they came from."""
    names = record.names()
    lines = []
    for side, seats in enumerate(record.engine_rules.seats_by_side()):
        bd = score.breakdown[side]
        detail = ", ".join(f"{category_names().get(k, str(k))} {v}" for k, v in bd.items()) or tr("nothing")
        lines.append(f"{' & '.join(names[i] for i in seats)}: {sum(bd.values())} ({detail})")
    return lines


def result_text(record: Record) -> str:
    """How the recorded game ended: who won, the totals and why."""
    result = record.result
    totals = "-".join(str(t) for t in result.totals)
    reason = end_reason_text(result.reason)
    if result.winner is None:
        return tr("Game over: {reason}, {totals}", reason=reason, totals=totals)
    names = record.names()
    who = " & ".join(names[i] for i in record.engine_rules.seats_by_side()[result.winner])
    others = [t for side, t in enumerate(result.totals) if side != result.winner]
    totals = "-".join(map(str, [result.totals[result.winner], *others]))  # the winner's points first
    return tr("Game over: {who} won {totals} ({reason})", who=who, totals=totals, reason=reason)
