"""The "This table" lines at the top of the help screen: what is in effect at the table
being played (the game, its target, the players, the turn timer, a private table, a local
game; a replayed game's seed), in the terminal's language."""

from __future__ import annotations

from dataclasses import dataclass

from scopa.engine import RuleSet

from ..text import setting_text
from ..text import tr
from ..text import rules_name
from ..game import seconds_text


@dataclass(frozen=True)
class TableFacts:
    """What a person is told about the table at the top of the help screen.  ``timer``
    is the seconds for each move (None: no timer; ``known_timer`` False: not known);
    ``reading``, the seconds more each player's first move of a round gets (the server's
    ``welcome``; None: not told); ``watching``: told to a spectator (the server plays
    for the player whose time ran out, not for the reader)."""

    rules: RuleSet
    timer: float | None = None
    reading: float | None = None
    known_timer: bool = True
    private: bool | None = None
    seed: int | None = None
    table: str | None = None
    local: bool = False
    watching: bool = False


def facts_lines(facts: TableFacts, detailed: bool = False) -> list[str]:
    """The table's lines, one fact each (Markdown list items); ``detailed``: the rules'
    own lines follow (the players and the target are said there)."""
    rules = facts.rules
    settings = [setting_text(part) for part in rules.describe().split(", ")[3:]]  # after preset, players, target
    lines = [tr("Game: {rules}", rules=", ".join([rules_name(rules), *settings]))]
    if facts.table is not None:
        lines.append(tr("Table number: {table}", table=facts.table))
    if not detailed:
        sides = tr("two teams, partners opposite") if rules.has_teams else tr("each alone")
        lines.append(tr("{n} players, {sides}", n=rules.players, sides=sides))
        lines.append(tr("The first side to {target} points wins.", target=rules.target))
    if facts.known_timer and facts.timer is None:
        lines.append(tr("Turn timer: none."))
    elif facts.known_timer and facts.timer is not None:
        time = seconds_text(round(facts.timer))
        first = seconds_text(round(facts.timer + facts.reading)) if facts.reading else None
        if first is not None and facts.watching:
            lines.append(tr("Turn timer: {time} for each move, {first} for each player's first move of a round; "
                            "then the server plays for that player.", time=time, first=first))
        elif first is not None:
            lines.append(tr("Turn timer: {time} for each move, {first} for each player's first move of a round; "
                            "then the server plays for you.", time=time, first=first))
        elif facts.watching:
            lines.append(tr("Turn timer: {time} for each move; then the server plays for that player.", time=time))
        else:
            lines.append(tr("Turn timer: {time} for each move; then the server plays for you.", time=time))
    if facts.private is not None:
        lines.append(tr("A private table: only people with its invite sit here.") if facts.private
                     else tr("A table listed in the lobby."))
    if facts.local:
        lines.append(tr("A local game, played on this computer."))
    if facts.seed is not None:  # a replayed game's details: the same seed deals the same cards
        lines.append(tr("Dealt from seed {seed}.", seed=facts.seed))
    return [f"- {line}" for line in lines]
