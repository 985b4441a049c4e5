"""Which finished games move ratings, with what result, and under which name.

A game is rated only when it was played between people, each a different person as far
as the server can tell:

- every seat was a person's from the start (a server bot at the table, from the start,
  makes the game unrated: bots never move a person's rating);
- no two seats share a name (under :func:`~scopa.server.core.text.name_key`: look-alikes are one name);
- no two seats were ever played from one source: an address, or one identity behind a
  trusted front end (:meth:`~scopa.server.core.proxies.ProxiedClients.origin`).  Every connection that
  sat at or resumed a seat counts; a seat whose source is not known (its game was
  restored after a restart and its player never came back) makes the game unrated.
  ``scopa serve --rate-shared-address ADDRESS`` lets players who all reach the server
  from ADDRESS (a class behind one router) be rated against one another.

A person who leaves a rated game (``leave_table``) or abandons it (drops and does not
come back within the grace period, so a bot takes the seat or the game is abandoned)
loses it: that person's side ranks last, every other side first.  Otherwise a game is
rated when it ends by the rules, the winner first and the others by their totals.

Ratings are kept under the first name a folded name was rated as, so that one name in
two letter cases, or a look-alike of it, is one row of the leaderboard.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scopa.engine import Phase
from scopa.protocol.commands import UnratedReason
from scopa.protocol.record import PlayerKind

from ..journal import GamePlayer, Rating
from ..core import parse_networks, name_key

if TYPE_CHECKING:
    from ..journal import Journal
    from ..table import Table

EVERY_RATING = 1 << 62  # a leaderboard limit that returns every row of a preset


@dataclass(frozen=True)
class Outcome:
    """A rated game's result: the names of each side and its OpenSkill rank (0 best)."""

    sides: list[list[str]]
    ranks: list[int]


class FairRatings:
    """Where each seat was played from, and the outcome of a finished game (or None)."""

    def __init__(self, shared_addresses: Iterable[str] = ()) -> None:
        self.shared = parse_networks(shared_addresses)
        self._origins: dict[str, dict[int, str | tuple[str, ...]]] = {}
        """table id -> seat -> its source, or its sources when it had more than one (most seats have one)."""

    def seen(self, table_id: str, seat: int, origin: str, fresh: bool = False) -> None:
        """A connection from ``origin`` resumed ``seat`` of the table, or (``fresh``)
        sat down in it (whoever sat there before is forgotten)."""
        seats = self._origins.setdefault(table_id, {})
        known = () if fresh else _sources(seats.get(seat, ()))
        if origin not in known:
            seats[seat] = (*known, origin) if known else origin

    def forget(self, table_id: str) -> None:
        self._origins.pop(table_id, None)

    def _shared(self, origin: str) -> bool:
        if not self.shared or "/" in origin:
            return False
        try:
            ip = ipaddress.ip_address(origin.split("%", 1)[0])
        except ValueError:
            return False
        return any(ip in net for net in self.shared)

    def unrated_because(self, table: Table, players: Sequence[GamePlayer]) -> UnratedReason | None:
        """Why the game of ``table`` (its ``players`` at the end) is not rated, or None."""
        if any(p.kind != PlayerKind.PERSON.value for p in players):
            return UnratedReason.SERVER_BOT
        keys = [name_key(p.name) for p in players]
        if len(set(keys)) != len(keys):
            return UnratedReason.ONE_NAME
        origins = self._origins.get(table.id, {})
        seen: list[set[str]] = []
        for p in players:
            mine = _sources(origins.get(p.seat, ()))
            if not mine:
                return UnratedReason.ORIGIN_UNKNOWN
            seen.append({o for o in mine if not self._shared(o)})
        for i, a in enumerate(seen):
            for b in seen[i + 1:]:
                if a & b:
                    return UnratedReason.ONE_ADDRESS
        return None

    def outcome(self, table: Table, players: Sequence[GamePlayer]) -> Outcome | None:
        """The result to rate, or None when the game is not rated (see the module)."""
        if table.master is None or self.unrated_because(table, players) is not None:
            return None
        rules = table.rules
        sides = [[players[s].name for s in seats] for seats in rules.seats_by_side()]
        forfeit = forfeited_seat(table)
        if forfeit is not None:
            losers = rules.side_of(forfeit)
            return Outcome(sides, [1 if side == losers else 0 for side in range(len(sides))])
        state = table.master.state
        if table.finish_reason != "game_over" or state.phase is not Phase.OVER or state.winner is None:
            return None  # abandoned by the server (the operator, a failure): nobody's loss
        return Outcome(sides, side_ranks(state.winner, state.totals))


def _sources(kept: str | tuple[str, ...]) -> tuple[str, ...]:
    """A seat's sources as kept: one as itself, more as a tuple."""
    return (kept,) if isinstance(kept, str) else kept


UNRATED_TEXT: dict[UnratedReason, str] = {
    UnratedReason.SERVER_BOT: "a server bot played",
    UnratedReason.ONE_NAME: "one name (or two that look alike) held two seats",
    UnratedReason.ONE_ADDRESS: "two seats were played from one address",
    UnratedReason.ORIGIN_UNKNOWN: "where a seat was played from is not known",
    UnratedReason.NOT_BY_THE_RULES: "the server stopped the game, not the rules",
}
"""Why a game is not rated, as the log says it (the clients' catalog has the same English)."""


def side_ranks(winner: int, totals: Sequence[int]) -> list[int]:
    """OpenSkill ranks (lower is better): the winner 1st, the others by their totals."""
    ranks = []
    for side, total in enumerate(totals):
        if side == winner:
            ranks.append(0)
        else:
            ranks.append(1 + sum(1 for other, t in enumerate(totals) if other not in (side, winner) and t > total))
    return ranks


def forfeited_seat(table: Table) -> int | None:
    """The first seat whose person left the game or did not come back to it."""
    if table.forfeits:
        return table.forfeits[0]
    return min(table.taken_over) if table.taken_over else None


class RatingNames:
    """The name a folded name's ratings are kept under, per preset: the first one it
    was rated as (read once from the storage, then kept up to date)."""

    def __init__(self) -> None:
        self._names: dict[str, dict[str, str]] = {}  # preset -> name key -> stored name

    async def stored(self, journal: Journal, preset: str, names: Sequence[str]) -> list[str]:
        """``names`` as their ratings are stored (a new name: as it is)."""
        known = self._names.get(preset)
        if known is None:
            known = {}
            for row in await journal.leaderboard(preset, EVERY_RATING):  # best first: the best row wins
                known.setdefault(name_key(row.name), row.name)
            self._names[preset] = known
        return [known.setdefault(name_key(n), n) for n in names]


def one_row_per_name(ratings: Sequence[Rating], limit: int) -> list[Rating]:
    """The leaderboard without a second row for a name already listed (rows that a
    server before look-alike folding kept apart), at most ``limit`` rows."""
    seen: set[str] = set()
    out: list[Rating] = []
    for r in ratings:
        key = name_key(r.name)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out[:limit]
