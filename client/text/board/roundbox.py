"""A finished round in a table both terminal clients show (the full-screen client's
round-end box, the plain client after a round): each category with its raw numbers
(cards, denari, settebello, primiera, scope) and who takes its point, who took the cards
left on the table, the round's points and the game's running total; at a tie over the
target, why another round is played."""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from scopa.engine import Category, winning_side
from scopa.engine.cards import SETTEBELLO

from ..i18n import tr
from ..notation import SUIT_COLOURS, DeckStyle, label
from ..rulebook import category_names
from .state import BoardState, RoundResult


def round_table(result: RoundResult, board: BoardState, style: DeckStyle) -> Table:
    """Each category in a fixed order with the raw numbers, then the points and totals."""
    ev = result.event
    sides = len(ev.totals)
    t = Table(title=tr("Round {n}", n=ev.round_no), expand=False, padding=(0, 1))
    t.add_column("")
    for side in range(sides):
        t.add_column(board.side_name(side), justify="right")
    breakdown = ev.score.breakdown

    def pts(cat: Category, side: int) -> str:
        p = breakdown[side].get(cat, 0)
        return f" +{p}" if p else ""

    def row(cat: Category, raw: list[str]) -> None:
        t.add_row(category_names()[cat], *[Text(raw[s] + pts(cat, s), style="bold" if breakdown[s].get(cat) else "")
                                         for s in range(sides)])

    frac = board.rules is not None and board.rules.frac
    if not frac:
        row(Category.CARTE, [str(n) for n in ev.score.cards])
        row(Category.DENARI, [str(p.denari) for p in result.piles])
        row(Category.SETTEBELLO, [label(SETTEBELLO, style) if p.settebello else "-" for p in result.piles])
        row(Category.PRIMIERA, [str(p) if p else tr("no suit") for p in ev.score.primiera])
        row(Category.SCOPE, [str(p.scope) for p in result.piles])
    for cat in category_names():
        if cat in (Category.CARTE, Category.DENARI, Category.SETTEBELLO, Category.PRIMIERA, Category.SCOPE) and not frac:
            continue
        if any(cat in b for b in breakdown):
            row(cat, ["" for _ in range(sides)])
    t.add_row(Text(tr("Round points"), style="bold"), *[Text(str(p), style="bold") for p in ev.score.points])
    game = tr("Game (to {target})", target=board.rules.target) if board.rules else tr("Game")
    t.add_row(Text(game, style="bold green"),
              *[Text(f"{b} → {a}", style="bold green") for b, a in zip(result.totals_before, ev.totals)])
    return t


def leftovers_line(board: BoardState, side: int) -> str:
    """Who took the cards left on the table at a round's end, said as a sentence: "to you"
    (and your partner) for the side of the person at this screen, else the side's names."""
    seats = board.side_seats(side)
    if board.viewer in seats and board.you_label:
        partners = [board.seat_name(s) for s in seats if s != board.viewer]
        if partners:
            return tr("Left on the table, to you and {partner}: ", partner=" & ".join(partners))
        return tr("Left on the table, to you: ")
    return tr("Left on the table, to {who}: ", who=board.side_name(side))


def tie_note(board: BoardState) -> str | None:
    """At 11–11 (the highest totals level at or over the target): why the game goes on."""
    if board.rules is None or board.over or not board.totals:
        return None
    if max(board.totals) >= board.rules.target and winning_side(board.rules, board.totals) is None:
        return tr("{score}: the highest totals are level at or over {target}, so nobody has won yet and another "
                  "round is played.", score="–".join(map(str, board.totals)), target=board.rules.target)
    return None


def round_parts(result: RoundResult, board: BoardState, style: DeckStyle) -> list[RenderableType]:
    """The round's table, then who took the cards left on the table and, at a tie over the
    target, why the game goes on."""
    parts: list[RenderableType] = [round_table(result, board, style)]
    ev = result.event
    if ev.leftovers and ev.leftovers_to is not None:
        cards = Text(" ").join(Text(label(c, style), style=SUIT_COLOURS[c & 3]) for c in ev.leftovers)
        parts.append(Text(leftovers_line(board, ev.leftovers_to)) + cards)
    note = tie_note(board)
    if note:
        parts.append(Text(note, style="yellow"))
    return parts
