"""The game a table plays, in words: its classic name ("Scopa", "Cirulla", or "custom")
and its settings line ("Scopa, 2p, to 11"), in the client's language; a server's finished
games and its leaderboard as lines of text (``scopa games``, ``scopa leaderboard``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime

from scopa.engine import EndReason, Preset, RuleSet, preset_of
from scopa.protocol.commands import GameSummary, Leaderboard

from .catalog import player_name, settings_it, word_text
from .i18n import current_language, tr


_NAMES: dict[Preset, str] = {
    Preset.SCOPA: "Scopa",
    Preset.SCOPONE: "Scopone",
    Preset.SCOPONE_SCIENTIFICO: "Scopone scientifico",
    Preset.QUINDICI: "Scopa a quindici",
    Preset.ESCOBA: "Escoba",
    Preset.CIRULLA: "Cirulla",
    Preset.FRAC: "Scopa Frac",
    Preset.TRENTINO: "Scopone de trente",
}
_NAMES_IT: dict[Preset, str] = {**_NAMES, Preset.TRENTINO: "Scopone trentino"}
"""In Italian the Trentino's scopone is called as the Italian rule book calls it."""


class _PresetNames(Mapping[Preset, str]):
    """The classic games as players call them, in the language spoken now."""

    def __getitem__(self, preset: Preset) -> str:
        return (_NAMES_IT if current_language() == "it" else _NAMES)[preset]

    def __iter__(self) -> Iterator[Preset]:
        return iter(_NAMES)

    def __len__(self) -> int:
        return len(_NAMES)


PRESET_NAMES: Mapping[Preset, str] = _PresetNames()
"""The classic games as players call them (in the language spoken now)."""


def matching_preset(rules: RuleSet) -> Preset | None:
    """The classic game these rules are, option for option (None: a custom game)."""
    return preset_of(rules)


def rules_name(rules: RuleSet) -> str:
    """The game's name for a title: a classic game's own ("Scopa"), else "custom"."""
    preset = matching_preset(rules)
    if preset is not None:
        return PRESET_NAMES[preset]
    if rules.preset is not None:
        return tr("custom ({game} changed)", game=PRESET_NAMES[rules.preset])
    return tr("custom")


def rules_line(rules: RuleSet) -> str:
    """The game's name, then its settings (e.g. "Scopa, 2p, to 11")."""
    settings = rules.describe().split(", ")[1:]  # the first item is the preset's code name
    if current_language() == "it":
        settings = [settings_it(part) for part in settings]
    return ", ".join([rules_name(rules), *settings])


def end_reason_text(reason: EndReason | str) -> str:
    """Why a game ended, in the terminal's language (the shared catalog's words)."""
    return word_text(str(reason))


def game_lines(games: list[GameSummary], me: str | None = None) -> list[str]:
    """One line per finished game: id, date, players, preset, result (columns aligned;
    ``me``: the name of the person reading, told "you left" of a game they left)."""
    rows = []
    for g in games:
        when = datetime.fromisoformat(g.ended.replace("Z", "+00:00")).strftime("%Y-%m-%d %H:%M")
        result = game_result(g, me)
        private = " " + tr("(private)") if g.private else ""
        rows.append((g.id, when, ", ".join(map(player_name, g.players)) + private, g.preset, result))  # as boards say
    widths = [max((len(r[c]) for r in rows), default=0) for c in range(4)]
    return ["  ".join(r[c].ljust(widths[c]) for c in range(4)) + "  " + r[4] for r in rows]


def winner_first(winner: int, sides: int) -> list[int]:
    """The sides in the order a game's end names them: the winner, then every other side
    in seat order (so the first points read are the winner's)."""
    return [winner, *(side for side in range(sides) if side != winner)]


def game_result(g: GameSummary, me: str | None = None) -> str:
    """A finished game's result: ``ada won 11-7 (target_reached)`` in words, the winner's
    points first, or why nobody won.  A person who left (a bot finished their seat, or
    the game ended there) is said to have left, "you left" to ``me``, and is not the one
    who won: the bot that played for them is."""
    left = [seat for seat in range(len(g.players)) if seat in g.taken_over or seat == g.leaver]
    if g.winner is None and g.leaver is not None:  # the game ended when one left: that one is named
        left = [g.leaver]
    names = [player_name(n) for n in g.players]  # a server's bot as the boards name it
    reason = word_text(g.reason)
    if g.winner is None:
        result = f"{reason} {'–'.join(str(t) for t in g.totals)}".strip()
    else:
        rules = RuleSet.build(players=len(g.players), teams=len(g.totals) == 2 and len(g.players) > 2)
        who = [tr("a bot for {name}", name=names[seat]) if seat in left else names[seat]
               for seat in rules.seats_by_side()[g.winner]]
        totals = "–".join(str(g.totals[side]) for side in winner_first(g.winner, len(g.totals)))
        result = tr("{who} won {totals} ({reason})", who=who[0], totals=totals, reason=reason) if len(who) == 1 \
            else tr("{both} won {totals} ({reason})", both=" & ".join(who), totals=totals, reason=reason)
    if not left:
        return result
    if me is not None and any(g.players[seat].casefold() == me.casefold() for seat in left):
        return tr("you left the game; {result}", result=result)
    if len(left) > 1:
        return tr("{both} left the game; {result}", both=" & ".join(names[seat] for seat in left), result=result)
    return tr("{who} left the game; {result}", who=names[left[0]], result=result)


def game_over_text(table: str, summary: GameSummary | None, server: str) -> str:
    """What a spectator is told of a public table whose game is over (its result, when
    the server keeps finished games), and where to see it again (``server``: its address)."""
    over = tr("The game at table {table} is over.", table=table) if summary is None else \
        tr("The game at table {table} is over: {result}.", table=table, result=game_result(summary))
    return over + " " + tr("scopa games lists it, and scopa replay {table} --server {server} shows it again step by step.",
                           table=table, server=server)


def leaderboard_lines(board: Leaderboard) -> list[str]:
    """A server's ratings of one game: rank, name, rating, games, wins."""
    why_not = [tr("1 finished game was not rated: {reason}", reason=word_text(u.reason)) if u.games == 1 else
               tr("{n} finished games were not rated: {reason}", n=u.games, reason=word_text(u.reason))
               for u in board.unrated]  # why games played are not on the board
    if not board.entries:
        return [tr("no rated games of {preset} yet", preset=board.preset.value), *why_not]
    width = max(len(e.name) for e in board.entries)
    head = (tr("rank"), tr("name"), tr("rating"), tr("games"), tr("wins"))
    lines = [f"{head[0]:>4}  {head[1]:<{width}}  {head[2]:>7}  {head[3]:>5}  {head[4]:>5}"]
    for e in board.entries:
        lines.append(f"{e.rank:>4}  {e.name:<{width}}  {e.rating:>7.2f}  {e.games:>5}  {e.wins:>5}")
    return lines + why_not
