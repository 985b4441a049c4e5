"""What the board's panels say, drawn from a :class:`BoardState`: the top line (scores,
round, stock, rules), the seats and piles, what each card of the hand would take, and
the round's plays.  Plain functions of the state: no Textual here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rich.console import Group
from rich.table import Table
from rich.text import Text

from scopa.engine import Card, Declare, Play, mask_of
from scopa.engine.captures import CaptureRules
from scopa.engine.cards import SETTEBELLO, VALUE

from ..text import DeckStyle, label, tr, declaration_names
from ..game import seconds_text
from ..text import BoardState
from ..text import rules_line
from .text import card_span, cards_span

NAME_WIDTH = 24  # the longest name a player may have (the protocol's): a seat's row shows it whole
PLAYS_WIDTH = 22  # the plays list's lines at most (its panel is 28 wide, with its border and padding)


def top_line(b: BoardState, title: str, width: int | None = None) -> Text:
    """Each side's points, the round, who watches, the stock, the rules and the screen's
    title (the table's number); within ``width`` columns the rules give way to the target
    alone ("to 21"), then the stock goes, then the title, then the target, and names too
    long for what is left end in "…": the line never wraps.  What gives way is weighed with
    each side's longer name, the person's own ("You") or the one the table knows, so every
    seat of a table (and who watches it, with the same title) is told the same parts."""
    first = [tr("round {n}", n=b.round_no)] if b.round_no else []  # the round is never left out
    if b.spectators:  # the players are told someone watches
        first.append(tr("1 spectator") if b.spectators == 1 else tr("{n} spectators", n=b.spectators))
    stock = [tr("stock {n}", n=b.stock_left)] if b.round_no else []
    rules = [rules_line(b.rules)] if b.rules is not None else []  # its target among its settings
    target = [tr("to {n}", n=b.rules.target)] if b.rules is not None else []
    names = [b.side_name(side, short=True) for side in range(len(b.totals))]
    known = replace(b, you_label="") if b.you_label and b.viewer is not None else b  # as the table names the seat
    longest = [max(len(name), len(known.side_name(side, short=True))) for side, name in enumerate(names)]
    if width is not None:  # long names (a team's two) shortened alike, never onto a second row
        room = max(2, (width - len(" · ".join(first)) - sum(len(f":  {p}    ") for p in b.totals)) // max(1, len(names)))
        names = [n if len(n) <= room else n[:room - 1] + "…" for n in names]
        longest = [min(n, room) for n in longest]
    t = Text()
    for name, points in zip(names, b.totals):
        t.append(f"{name}: ")  # a name may end in a digit ("Bot 2"): the colon keeps it apart
        t.append(f" {points} ", style="bold reverse")
        t.append("  ")
    weighed = t.cell_len + sum(longest) - sum(len(name) for name in names)
    tries = [first + stock + rules + [title], first + stock + target + [title], first + target + [title],
             first + target, first + [title], first]
    parts = next((p for p in tries if width is None or weighed + len(" · ".join(p)) <= width), first)
    t.append(" · ".join(parts), style="dim")
    return t


def seats_panel(b: BoardState, deck: DeckStyle, left: int | None = None, compact: bool = False,
                piles_shown: bool = True) -> Group:
    """A row per seat (cards in hand, dealer, away, whose turn and, with a turn clock,
    the seconds it has ``left``) and a row per side's pile (``compact``, a small window:
    the stock as the piles' last row, and the clock as ``⏱ 42 s``, never split; not
    ``piles_shown``: no piles)."""
    seats = Table.grid(padding=(0, 1))
    seats.add_column(no_wrap=True)
    seats.add_column(no_wrap=True, overflow="ellipsis", max_width=NAME_WIDTH)  # a name never wraps
    seats.add_column(no_wrap=True)
    seats.add_column()  # the notes wrap instead
    if b.waiting:  # the seats filling: who sits, who is still awaited; no cards, no piles yet
        for seat in range(b.players):
            free = not b.names[seat]
            seats.add_row(Text(" "), Text(b.seat_name(seat), style="dim" if free else "bold"),
                          Text(tr("someone awaited") if free else tr("here"), style="dim" if free else "green"), Text(""))
        return Group(seats)
    dealt = any(b.hand_sizes)  # every hand played out: the round is over, nobody is on turn
    for seat in range(b.players):
        turn = seat == b.to_move and not b.over and dealt
        size = b.hand_sizes[seat] if seat < len(b.hand_sizes) else 0
        parts = []  # each after a dot: "3 cards · to play · dealer", never read as one phrase
        if turn:
            parts.append(Text(tr("to play"), style="green"))
        if seat == b.dealer:
            parts.append(Text(tr("dealer"), style="dim"))
        if seat in b.away:
            parts.append(Text(b.away[seat], style="bold yellow"))
        notes = Text("· ") + Text(" · ").join(parts) if parts else Text("")
        if turn and left is not None:  # a row of its own under the notes: never broken in two at 80 columns
            clock = seconds_text(left) if compact else tr("{time} left", time=seconds_text(left))
            notes += Text("\n" if parts else "") + Text("⏱ " + clock, style="bold red" if left <= 10 else "bold",
                                                        no_wrap=True)
        seats.add_row(Text("▶" if turn else " ", style="bold green"),
                      Text(b.seat_name(seat), style="bold" if turn else ""),
                      Text("▮" * size + " " + (tr("1 card") if size == 1 else tr("{n} cards", n=size)), style="blue"),
                      notes)
    if not piles_shown:
        return Group(seats)
    piles = Table(box=None, padding=(0, 1), collapse_padding=True, show_edge=False, pad_edge=False)
    piles.add_column("", style="dim")  # the sides' names, no heading: the one column that gives way ("…")
    for head in (tr("pile"), tr("den"), tr("prim"), tr("scope")):  # each heading over its numbers
        piles.add_column(head, justify="right", header_style="dim", no_wrap=True)  # the numbers always show
    piles.add_column(label(SETTEBELLO, deck), header_style="dim", no_wrap=True)  # the settebello: who has it
    for side in range(b.num_sides):
        p = b.pile(side)
        piles.add_row(Text(b.side_name(side, short=True), no_wrap=True, overflow="ellipsis"), str(p.cards), str(p.denari), str(p.primiera or "-"), str(p.scope),
                      Text(label(SETTEBELLO, deck), style="bold yellow") if p.settebello else "")
    if compact and b.round_no:  # the top line may have no room left for the stock
        piles.add_row(Text(tr("stock"), style="dim"), Text(str(b.stock_left), style="dim"))
    return Group(seats, piles)


def moves_text(b: BoardState, hand: Sequence[Card], options: dict[Card, list[Play]],
               legal: Sequence[Play | Declare], deck: DeckStyle, width: int | None = None) -> Text:
    """What each card would take (always shown, so a person can think ahead), then the
    declarations that may be made, numbered after the hand's cards (``1. 7 Den takes 7
    Cop``: the key apart from the card).  Within ``width``
    columns a line goes on (indented) between two cards, never inside a card's name."""
    if b.viewer is None or not hand:
        return Text("")
    t = Text()
    compact = len(hand) > 5
    for i, card in enumerate(hand):
        key = str(i + 1) if i < 9 else "0"
        pieces = [[Text(f"{key}. ", style="bold") + card_span(card, deck)]]  # "1. 7 Den": the key apart from the card
        # (each piece a capture's cards, joined by +)
        plays = options.get(card)
        if plays is None:
            plays = preview(card, b)
        takes = [p for p in plays if p.captured]
        if takes:
            pieces.append([Text(tr("takes"))])
            for n, play in enumerate(takes):
                if n:
                    pieces.append([Text(tr("or"))])
                pieces.append([card_span(taken, deck) for taken in play.captured])
        else:
            pieces.append([Text(tr("lays down"), style="dim")])
        entry = _wrapped(pieces, width)
        entry.stylize_before("bold")
        t.append_text(entry)
        t.append("   " if compact and i % 2 == 0 else "\n")
    for j, a in enumerate((a for a in legal if isinstance(a, Declare)), len(hand) + 1):
        t.append(f"{j}. ", style="bold")
        t.append(tr("declare {what}", what=declaration_names()[a.kind]), style="magenta")
        if a.wild is not None:
            t.append(" " + tr("(7 of Coppe as {n})", n=a.wild))
        t.append("\n")
    t.rstrip()
    return t


def _wrapped(pieces: list[list[Text]], width: int | None) -> Text:
    """The pieces, a space apart (the cards of one a "+" apart), on as many lines as
    ``width`` needs: a line goes on, indented, between two pieces, or between two cards
    of a piece too long for a line of its own; never inside a card's name."""
    line, lines = Text(), []
    for words in pieces:
        whole = Text("+").join(words)
        if width is not None and line.cell_len and line.cell_len + 1 + whole.cell_len > width \
                and 2 + whole.cell_len <= width:
            lines.append(line)
            line = Text("  ")
        for m, word in enumerate(words):
            before = ("+" if m else " ") if line.cell_len and line.plain.strip() else ""
            if width is not None and line.plain.strip() and line.cell_len + len(before) + word.cell_len > width:
                lines.append(line + Text(before.strip()))
                line, before = Text("  "), ""
            line += Text(before) + word
    return Text("\n").join([*lines, line])


def plays_text(b: BoardState, deck: DeckStyle) -> Text:
    """This round's plays in order, each with what it took."""
    t = Text(tr("This round") + "\n", style="bold")
    for n, play in enumerate(b.plays):
        for _, note in (note for note in b.notes if note[0] == n):  # what happened at the table before this play
            t.append(note + "\n", style="yellow")
        name, played = b.player_of(play) + ":", card_span(play.card, deck)
        if len(name) + 1 + len(played) <= PLAYS_WIDTH:
            line = Text(name + " ") + played
        else:  # the name whole on a line of its own (one longer than the panel ends in "…")
            t.append(name if len(name) <= PLAYS_WIDTH else name[:PLAYS_WIDTH - 2] + "…:")
            t.append("\n")
            line = Text("  ") + played
        for i, card in enumerate(play.captured):  # a card is never split between two lines
            word = Text(" ×" if i == 0 else " ") + card_span(card, deck)
            if len(line) + len(word) > PLAYS_WIDTH:
                t.append_text(line)
                t.append("\n")
                line, word = Text("  "), word[1:]  # the next line, indented under the name
            line.append_text(word)
        marks = [(tr("scopa!"), "bold magenta")] if play.card in b.scopas else []
        if play.card in b.timed_out:
            marks.append(("⏱ " + tr("time ran out"), "yellow"))
        for mark, style in marks:  # each mark whole: on a line of its own when it does not fit
            fits = len(line) + 1 + len(mark) <= PLAYS_WIDTH
            if not fits:
                t.append_text(line)
                t.append("\n")
                line = Text("  ")
            line.append_text(Text((" " if fits else "") + mark, style=style))
        t.append_text(line)
        t.append("\n")
    for _, note in (note for note in b.notes if note[0] >= len(b.plays)):
        t.append(note + "\n", style="yellow")
    if not b.plays:
        t.append(tr("no plays yet"), style="dim")
    t.rstrip()
    return t


def preview(card: Card, board: BoardState) -> list[Play]:
    """What ``card`` would take from the table now (shown while others think)."""
    if board.rules is None:
        return []
    caps = CaptureRules(board.rules)
    masks = caps.options(mask_of(board.table), VALUE[card], not board.plays)
    return [Play(int(card), m) for m in masks] or [Play(int(card), 0)]
