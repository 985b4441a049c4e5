"""Terminal rendering with rich: cards in Italian or French style (RULES.md §7), the
table, a hand with what each card captures, events and the round breakdown; a server's
tournaments and their standings."""

from __future__ import annotations

from typing import Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from scopa.engine import (
    DealVoid,
    Declare,
    Declared,
    Forced,
    Event,
    GameEnded,
    GameStarted,
    HandDealt,
    Play,
    Played,
    RoundEnded,
    RoundScore,
    RoundStarted,
    View,
    cards_in,
)
from scopa.engine.actions import DECLARATION_POINTS
from scopa.engine.cards import SETTE_COPPE, SETTEBELLO
from scopa.engine.scoring import Category

from . import i18n
from .catalog import level_text, player_name
from .i18n import tr
from .notation import SUIT_COLOURS, DeckStyle, label
from scopa.protocol import commands as wire

from ..game import SeatCameBack, SeatNotice, SeatTakenByBot, SeatWentAway, seconds_text
from .games import end_reason_text, rules_line, winner_first
from .rulebook import category_names

__all__ = ["DeckStyle", "action_text", "card_text", "cards_text", "event_line", "render_moves", "render_round", "render_view"]


def card_text(card: int, style: DeckStyle = DeckStyle.ITALIAN) -> Text:
    """A coloured card label, e.g. ``7 Den`` or ``7♦`` (what the player may type back)."""
    bold = " bold" if card == SETTEBELLO else ""
    return Text(label(card, style), style=SUIT_COLOURS[card & 3] + bold)


def cards_text(cards: Sequence[int] | int, style: DeckStyle = DeckStyle.ITALIAN) -> Text:
    seq = cards_in(cards) if isinstance(cards, int) else cards
    if not seq:
        return Text("—", style="dim")
    return Text("  ").join(card_text(c, style) for c in seq)


def action_text(action: Play | Declare, style: DeckStyle = DeckStyle.ITALIAN) -> Text:
    if isinstance(action, Declare):
        return Text(str(action), style="magenta")
    t = Text(tr("play") + " ") + card_text(action.card, style)
    if action.capture:
        t += Text(" → " + tr("takes") + " ") + cards_text(action.capture, style)
    else:
        t += Text(" → " + tr("on the table"), style="dim")
    return t


def side_name(side: int, names: Sequence[str], teams: bool) -> str:
    if teams:
        return " & ".join(n for i, n in enumerate(names) if i % 2 == side)
    return names[side]


class Flow:
    """Short pieces of text in a row, ``sep`` between them, laid out in lines as wide as
    there is room for: a line breaks between two pieces, never inside one."""

    def __init__(self, items: Sequence[Text], sep: str = "  ") -> None:
        self.items, self.sep = list(items), sep

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((item.cell_len for item in self.items), default=0)
        whole = sum(item.cell_len for item in self.items) + len(self.sep) * max(0, len(self.items) - 1)
        return Measurement(min(widest, options.max_width), min(whole, options.max_width))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line = Text()
        for item in self.items:
            if line and line.cell_len + len(self.sep) + item.cell_len > options.max_width:
                yield line
                line = Text()
            line.append_text(Text(self.sep) + item if line else item)
        yield line


def render_view(view: View, names: Sequence[str], style: DeckStyle) -> RenderableType:
    """The table, piles, scores and (for a seat) the hand with what each card takes."""
    teams = view.rules.has_teams
    head = Flow([
        Text(tr("Round {n}", n=view.round_no), style="bold"),
        Text(tr("dealer: {name}", name=names[view.dealer])),
        Text(tr("stock: {n}", n=view.stock_left)),
        Text(tr("rules: {rules}", rules=rules_line(view.rules)), style="dim"),
    ])
    sides = Table(box=None, padding=(0, 2))
    sides.add_column(tr("side"))
    sides.add_column(tr("score"), justify="right")
    sides.add_column(tr("pile"), justify="right")
    sides.add_column(tr("scope"), justify="right")
    for side in range(len(view.totals)):
        label = side_name(side, names, teams)
        if view.side == side and tr("You") not in label.split(" & "):  # not "You (you)"
            label += " " + tr("(you)")
        sides.add_row(label, str(view.totals[side]), str(len(view.captured[side])), str(view.scope[side]))
    parts: list[RenderableType] = [head, sides, Text(tr("Table:") + " ") + cards_text(view.table, style)]
    others = [
        f"{names[s]}: {n}" for s, n in enumerate(view.hand_sizes) if s != view.seat
    ]
    parts.append(Text(tr("Cards in hand —") + " " + ", ".join(others), style="dim"))
    if view.seat is not None:
        parts.append(Text(tr("Your hand:") + " ") + cards_text(view.hand, style))
    return Panel(Group(*parts), title="Scopa", expand=False)


def render_moves(legal: Sequence[Play | Declare], style: DeckStyle) -> RenderableType:
    """Numbered legal moves: a capture choice is one line per set of cards."""
    t = Table(box=None, show_header=False, padding=(0, 1))
    for i, a in enumerate(legal, 1):
        t.add_row(Text(f"{i:>2}.", style="bold"), action_text(a, style))
    return t


def render_round(score: RoundScore, names: Sequence[str], teams: bool) -> RenderableType:
    """The round breakdown: one column per side, one row per category that scored."""
    t = Table(title=tr("Round score"), expand=False)
    t.add_column("")
    sides = len(score.breakdown)
    for side in range(sides):
        t.add_column(side_name(side, names, teams), justify="right")
    t.add_row(tr("cards captured"), *[str(n) for n in score.cards])
    t.add_row(tr("primiera sum"), *[str(p) if p else tr("— (suit missing)") for p in score.primiera])
    cats: list[Category] = []
    for b in score.breakdown:
        for c in b:
            if c not in cats:
                cats.append(c)
    for c in cats:
        t.add_row(Text(category_names().get(c, str(c)), style="bold"), *[str(b.get(c, 0)) for b in score.breakdown])
    t.add_row(Text(tr("points"), style="bold green"), *[str(p) for p in score.points])
    return t


def event_line(event: Event, names: Sequence[str], style: DeckStyle, me: int | None = None,
               bot_for_me: bool = False) -> RenderableType | None:
    """One event as a line (or a table for a round end); ``None`` if nothing to show.
    ``bot_for_me``: a bot plays ``me``'s seat while its person is away ("the bot played for you")."""

    def who(seat: int) -> str:
        return tr("You") if seat == me else names[seat]

    if isinstance(event, GameStarted):
        return Text(tr("Game starts: {rules}. Seats: {names}", rules=rules_line(event.rules),
                       names=", ".join(player_name(n) for n in event.names)), style="bold")
    if isinstance(event, DealVoid):
        return Text(tr("The table showed") + " ") + cards_text(event.table, style) + Text(
            " " + tr("— void deal, dealing again."))
    if isinstance(event, RoundStarted):
        deals = tr("Round {n}: you deal. Table: ", n=event.round_no) if event.dealer == me else \
            tr("Round {n}: {name} deals. Table: ", n=event.round_no, name=names[event.dealer])
        t = Text(deals, style="bold") + cards_text(event.table, style)
        if event.dealer_bonus:
            t += Text("  " + tr("Dealer's bonus: {n} scopa(e)!", n=event.dealer_bonus), style="magenta")
        return t
    if isinstance(event, HandDealt):
        return None
    if isinstance(event, Declared):
        d = event.declaration
        t = Text(tr("You declared {what} ({n} points", what=d.kind.value, n=DECLARATION_POINTS[d.kind])
                 if event.seat == me else
                 tr("{who} declared {what} ({n} points", who=who(event.seat), what=d.kind.value,
                    n=DECLARATION_POINTS[d.kind]))
        if d.wild is not None:
            t += Text(", ") + card_text(SETTE_COPPE, style) + Text(" " + tr("as {n}", n=d.wild))
        return t + Text("): ") + cards_text(event.hand, style)
    if isinstance(event, Played) and event.forced_by is Forced.TIMEOUT and event.seat == me:
        t = Text(tr("Your time ran out: the server played") + " ", style="bold yellow") + card_text(event.card, style)
        if event.captured:
            t += Text(" " + tr("and took") + " ", style="bold yellow") + cards_text(event.captured, style)
        return t + Text(" " + tr("for you."), style="bold yellow")
    if isinstance(event, Played):
        head = tr("{who} played", who=who(event.seat)) if event.seat != me else \
            tr("The bot played for you") if bot_for_me else tr("You played")
        t = Text(head + " ") + card_text(event.card, style)
        if event.captured:  # ", taking": the same for you and for the others, in either language
            t += Text(tr(", taking") + " ") + cards_text(event.captured, style)
        if event.scopa:
            t += Text("  SCOPA!", style="bold magenta")
        if event.forced_by is Forced.TIMEOUT:
            t += Text(" " + tr("(time ran out: the server played for them)"), style="yellow")
        elif event.forced:
            t += Text(" " + tr("(played by the game master)"), style="dim")
        return t
    if isinstance(event, RoundEnded):
        teams = len(event.totals) == 2 and len(names) > 2
        parts: list[RenderableType] = []
        if event.leftovers and event.leftovers_to is not None:
            parts.append(Text(leftovers_words(event.leftovers_to, names, teams, me)) + cards_text(event.leftovers, style))
        parts.append(render_round(event.score, names, teams))
        parts.append(Text(tr("Totals:") + " " + ", ".join(
            f"{side_name(i, names, teams)} {p}" for i, p in enumerate(event.totals)), style="bold"))
        return Group(*parts)
    if isinstance(event, GameEnded):
        teams = len(event.totals) == 2 and len(names) > 2
        reason = end_reason_text(event.reason)
        mine = me is not None and event.winner is not None and (me % 2 if teams else me) == event.winner
        return Text(end_words(event.winner, event.totals, reason, names, teams, mine), style="bold green")
    return None



def abandoned_words(names: Sequence[str], leaver: int | None, totals: Sequence[int]) -> str:
    """A spectator's line for a game that ended because a person left it: by whom (when
    the server said: ``leaver``), and the score only when a round had given points."""
    who = names[leaver] if leaver is not None and 0 <= leaver < len(names) else None
    score = "–".join(map(str, totals)) if any(totals) else None
    if who is not None and score is not None:
        return tr("The game was abandoned: {name} left it, with the score at {score}. Nobody wins.", name=who,
                  score=score)
    if who is not None:
        return tr("The game was abandoned: {name} left it. Nobody wins.", name=who)
    if score is not None:
        return tr("The game was abandoned with the score at {score}. Nobody wins.", score=score)
    return tr("The game was abandoned. Nobody wins.")


def end_words(winner: int | None, totals: Sequence[int], reason: str, names: Sequence[str], teams: bool,
              mine: bool) -> str:
    """A game's end in a line: the winner with their points first, then each other side
    named with its points ("Bot 1 wins 11 – ada 10"), so no score reads as another's."""
    def scored(side: int) -> str:
        return f"{side_name(side, names, teams)} {totals[side]}"

    if winner is None:
        return tr("Game over ({reason}): nobody wins — {totals}", reason=reason,
                  totals=", ".join(scored(side) for side in range(len(totals))))
    first, *others = winner_first(winner, len(totals))
    points = " – ".join([str(totals[first]), *(scored(side) for side in others)])
    if mine:
        return tr("Game over ({reason}): your side wins {totals}", reason=reason, totals=points) if teams else \
            tr("Game over ({reason}): you win {totals}", reason=reason, totals=points)
    if teams:  # a side of two: "Anna & Luca win"
        return tr("Game over ({reason}): {who} win {totals}", reason=reason, who=side_name(winner, names, teams),
                  totals=points)
    return tr("Game over ({reason}): {who} wins {totals}", reason=reason, who=side_name(winner, names, teams),
              totals=points)


def leftovers_words(side: int, names: Sequence[str], teams: bool, me: int | None) -> str:
    """Who takes the cards left on the table at a round's end: "to you" (and your partner)
    when it is ``me``'s side, else the side's names."""
    if me is None or (me % 2 if teams else me) != side:
        return tr("Left on the table, to {who}: ", who=side_name(side, names, teams))
    partners = [n for i, n in enumerate(names) if teams and i % 2 == side and i != me]
    if partners:
        return tr("Left on the table, to you and {partner}: ", partner=" & ".join(partners))
    return tr("Left on the table, to you: ")


def notice_line(notice: SeatNotice) -> Text:
    """A seat going away, coming back or being taken over by a bot, as one line."""
    if isinstance(notice, SeatWentAway):
        return Text(tr("{name} lost the connection; the table waits up to {time}.", name=notice.name,
                       time=seconds_text(round(notice.grace_seconds))), style="yellow")
    if isinstance(notice, SeatCameBack):
        return Text(tr("{name} is back.", name=notice.name), style="green")
    assert isinstance(notice, SeatTakenByBot)
    if notice.left:
        return Text(tr("{name} left: a bot plays the seat for the rest of the game.", name=notice.name),
                    style="yellow")
    return Text(tr("{name} did not come back: a {strategy} bot plays the seat.", name=notice.name,
                   strategy=level_text(notice.strategy)), style="yellow")


def render_tournaments(tournaments: Sequence[wire.TournamentInfo], finished: bool = False,
                       finished_below: bool = False) -> Table | Text:
    """Each tournament: its id, name, game and format, where it stands, its entrants
    (``finished_below``: the finished ones are shown under these, not asked for by ``t done``)."""
    if not tournaments:
        if finished:
            return Text(tr("No tournament has finished yet."), style="dim")
        return Text(tr("No tournament is open: the finished ones are below.") if finished_below else
                    tr("No tournament is open: see the finished ones with t done."), style="dim")
    t = Table(title=tr("Finished tournaments") if finished else tr("Tournaments"), expand=False)
    for column in (tr("id"), tr("name"), tr("game"), tr("state"), tr("entrants")):
        t.add_column(column)
    for info in tournaments:
        rounds = f"{info.round}/{info.rounds}" if info.rounds else str(info.round)
        state = tr(info.phase.value) + (" " + tr("at round {n}", n=rounds) if info.round else "")
        game = f"{info.format.value.replace('_', ' ')}, {info.preset.value}"
        t.add_row(info.id, info.name, game, state, f"{len(info.entrants)}/{info.cap}: " + ", ".join(info.entrants))
    return t


def render_standings(standings: wire.TournamentStandings) -> Table:
    final = tr("final standings") if standings.final else tr("standings")
    t = Table(title=tr("Tournament {id}: {what} after round {n}", id=standings.tournament, what=final,
                       n=standings.round), expand=False)
    tie = wire.StandingsKey.BUCHHOLZ in standings.ranked_by  # a knockout has no Buchholz: no column
    for column in ("#", tr("entrant"), tr("points"), *(["Buchholz"] if tie else []), tr("game points"), tr("W-D-L"),
                   tr("byes")):
        t.add_column(column, justify="left" if column == tr("entrant") else "right")
    for r in standings.rows:
        t.add_row(str(r.rank), r.entrant, f"{r.match_points:g}", *([f"{r.buchholz:g}"] if tie else []),
                  str(r.game_points), f"{r.wins}-{r.draws}-{r.losses}", str(r.byes))
    return t


def ordinal(n: int) -> str:
    """A place in the terminal's language: 1st, 2nd, 5th; in Italian 1º, 5º."""
    if i18n.LANGUAGE == "it":
        return f"{n}º"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def no_table_text(told: wire.TournamentNoTable) -> str:
    """What a tournament's round means for us when it gives us no table, in words."""
    place = ordinal(told.place) if told.place is not None else "?"
    if told.kind == "knocked_out":
        return tr("You are out: beaten by {by} in round {n} of '{name}'. Final place: {place}.", by=told.by or "?",
                  n=told.round, name=told.name, place=place)
    if told.kind == "bye":
        return tr("A bye in round {n} of '{name}': {points} point(s) without playing. The next round is awaited.",
                  n=told.round, name=told.name, points=f"{told.points or 0:g}")
    if told.place == 1:
        return tr("'{name}' is over: you won it!", name=told.name)
    return tr("'{name}' is over. Final place: {place}.", name=told.name, place=place)
