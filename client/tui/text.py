"""Words the screens show: event lines, the game result (the round breakdown is
``client/text``'s ``round_parts``, the plain client's too)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from scopa.engine import (
    EndReason,
    DealVoid,
    Declared,
    Event,
    Forced,
    GameEnded,
    Played,
    RoundEnded,
    RoundStarted,
)

from ..text import SUIT_COLOURS, DeckStyle, label, tr, declaration_names
from ..text import abandoned_words, end_reason_text
from ..game import SeatCameBack, SeatNotice, SeatTakenByBot, SeatWentAway
from ..text import BoardState


def clock(seconds: float) -> str:
    """Seconds as M:SS (e.g. 1:52)."""
    s = max(0, int(seconds))
    return f"{s // 60}:{s % 60:02d}"


def notice_text(notice: SeatNotice) -> str:
    """What a person at the table is told when another seat drops, returns or goes to a bot."""
    match notice:
        case SeatWentAway(name=name, grace_seconds=grace):
            if not grace:
                return tr("{name} disconnected; the table waits for them.", name=name)
            return tr("{name} disconnected: unless {name} returns, a bot takes the seat when the time on its row "
                      "runs out.", name=name)  # the row counts down: a time said here would soon be stale
        case SeatCameBack(name=name):
            return tr("{name} is back.", name=name)
        case SeatTakenByBot(name=name, left=True):
            return tr("{name} left: a bot plays the seat for the rest of the game.", name=name)
        case SeatTakenByBot(name=name):
            return tr("{name} did not come back: a bot plays the seat for the rest of the game.", name=name)
    raise TypeError(f"not a seat notice: {notice!r}")


def card_span(card: int, style: DeckStyle) -> Text:
    return Text(label(card, style), style=SUIT_COLOURS[card & 3])


def cards_span(cards: Sequence[int], style: DeckStyle, joiner: str = ", ") -> Text:
    """Cards in a sentence, a comma between two ("3 Cop, 4 Bas": "3 Cop 4 Bas" runs them together)."""
    if not cards:
        return Text(tr("nothing"), style="dim")
    return Text(joiner).join(card_span(c, style) for c in cards)


def _said(board: BoardState, seat: int, you: str, other: str, **values: object) -> str:
    """``you`` (said to the person whose seat it is) or ``other`` (with ``who``: the seat's name)."""
    if seat == board.viewer and board.you_label:
        return tr(you, **values)
    return tr(other, who=board.seat_name(seat), **values)


def event_text(event: Event, board: BoardState, style: DeckStyle) -> Text | None:
    """One line about an event, for the status bar (``None``: nothing worth saying)."""
    if isinstance(event, RoundStarted):
        t = Text(tr("Round {n}: ", n=event.round_no) + _said(board, event.dealer, "You deal.", "{who} deals."),
                 style="bold")
        if event.dealer_bonus:
            t.append(" " + tr("The table adds up to {total}: {n} scopa(e) for the dealer.",
                              total=15 * event.dealer_bonus, n=event.dealer_bonus), style="magenta")
        return t
    if isinstance(event, DealVoid):
        return Text(tr("Three or more kings on the table: the deal is void and dealt again."))
    if isinstance(event, Played) and event.forced_by is Forced.TIMEOUT and event.seat == board.viewer:
        t = Text(tr("Your time ran out: the server played") + " ", style="bold yellow") + card_span(event.card, style)
        if event.captured:
            t += Text(" " + tr("and took") + " ", style="bold yellow") + cards_span(event.captured, style)
        return t + Text(" " + tr("for you."), style="bold yellow")
    if isinstance(event, Played):
        if event.captured:
            t = Text(_said(board, event.seat, "You play", "{who} plays") + " ") + card_span(event.card, style)
            t += Text(" " + _said(board, event.seat, "and take", "and takes") + " ") + cards_span(event.captured, style)
        else:  # a card laid down ("Cali in tavola: F Spa"), the card in its suit's colour
            before, _, after = _said(board, event.seat, "You lay {card} on the table", "{who} lays {card} on the table",
                                     card="\0").partition("\0")
            t = Text(before) + card_span(event.card, style) + Text(after)
        if event.scopa:
            t += Text("  SCOPA!", style="bold magenta")
        if event.forced_by is Forced.TIMEOUT:
            t += Text(" " + tr("(time ran out: the server played for them)"), style="yellow")
        elif event.forced:
            t += Text(" " + tr("(played for them)"), style="dim")
        return t
    if isinstance(event, Declared):
        name = declaration_names()[event.declaration.kind]
        return Text(_said(board, event.seat, "You declare {what}: ", "{who} declares {what}: ", what=name)) + \
            cards_span(event.hand, style)
    if isinstance(event, RoundEnded):
        return Text(tr("Round {n} is over.", n=event.round_no), style="bold")
    if isinstance(event, GameEnded):
        return Text(result_line(board), style="bold green")
    return None


def result_line(board: BoardState) -> str:
    """The game's result: to a person at the table, from their side ("You win, 11–7.",
    "You lose 4–12 to Gino.", "Your team wins …" in a game of teams: their points
    first); to a spectator (or a hot seat), who won ("Gino wins, 12–4.": the winner's
    points first); or why nobody won."""
    score = "–".join(map(str, board.totals))
    if board.winner is None and board.viewer is None and board.end_reason == EndReason.ABANDONED.value:
        return abandoned_words(board.names, board.ended_by, board.totals)  # a spectator's: who ended it
    if board.winner is None:
        reason = EndReason(board.end_reason) if board.end_reason in set(EndReason) else EndReason.ABANDONED
        return tr("The game ended without a winner ({reason}); {score}.", reason=end_reason_text(reason),
                  score=score)
    how = {"trentino": " " + tr("with the Asso, 2 and 3 of Denari"),
           "all_denari": " " + tr("with all ten Denari")}.get(board.end_reason, "")
    if board.viewer is not None and board.you_label:  # said to the person at this screen
        mine = board.side_of(board.viewer)
        team = len(board.side_seats(mine)) > 1
        others = [t for side, t in enumerate(board.totals) if side not in (mine, board.winner)]
        if mine == board.winner:
            score = "–".join(map(str, [board.totals[mine], *others]))
            return tr("Your team wins{how}, {score}.", how=how, score=score) if team else \
                tr("You win{how}, {score}.", how=how, score=score)
        score = "–".join(map(str, [board.totals[mine], board.totals[board.winner], *others]))
        who = board.side_name(board.winner)
        return tr("Your team loses {score} to {who}{how}.", score=score, who=who, how=how) if team else \
            tr("You lose {score} to {who}{how}.", score=score, who=who, how=how)
    others = [t for side, t in enumerate(board.totals) if side != board.winner]
    score = "–".join(map(str, [board.totals[board.winner], *others]))
    name = board.side_name(board.winner)
    if " & " in name:
        return tr("{who} win{how}, {score}.", who=name, how=how, score=score)
    return tr("{who} wins{how}, {score}.", who=name, how=how, score=score)
