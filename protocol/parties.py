"""Party names: who sends a command and who it is for.

A party is a short string with a fixed grammar::

    party      = "lobby"                      the server's lobby (tables, names, chat)
               | "guest"                      a connection not yet welcomed (sends hello)
               | "player:" NAME               one connected client (player or spectator)
               | "table:" TABLE               the game master of one table
               | "table:" TABLE "/all"        broadcast: everyone at the table
               | "spectators:" TABLE          broadcast: the table's spectators only
    NAME       = 1*24 ( ALPHA / LATIN / DIGIT / "_" / "-" / "." )
    LATIN      = the accented Latin letters U+00C0-U+024F but × and ÷ (Niccolò, Zoë, Łukasz)
    TABLE      = 1*16 ( ALPHA / DIGIT / "_" / "-" )

>>> parse_party("table:7/all")
Party(kind=<PartyKind.TABLE_ALL: 'table_all'>, ident='7')
>>> str(player("bob"))
'player:bob'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

NAME_CHARS = r"A-Za-z0-9_.\-À-ÖØ-öø-ɏ"
NAME_PATTERN = rf"[{NAME_CHARS}]{{1,24}}"
"""A player's name: letters (accented Latin ones too), digits, ``_``, ``.`` and ``-``;
compared after Unicode NFC normalisation (:func:`normal_name`), as a person types it."""
TABLE_ID_PATTERN = r"[A-Za-z0-9_\-]{1,16}"
PARTY_PATTERN = (
    rf"^(?:lobby|guest|player:{NAME_PATTERN}|table:{TABLE_ID_PATTERN}(?:/all)?"
    rf"|spectators:{TABLE_ID_PATTERN})$"
)
PARTY_MAX_LENGTH = 40

_PARTY_RE = re.compile(
    rf"^(?:(?P<lobby>lobby)|(?P<guest>guest)|player:(?P<player>{NAME_PATTERN})"
    rf"|table:(?P<table>{TABLE_ID_PATTERN})(?P<all>/all)?|spectators:(?P<spectators>{TABLE_ID_PATTERN}))$"
)


class PartyKind(StrEnum):
    LOBBY = "lobby"
    GUEST = "guest"
    PLAYER = "player"
    TABLE = "table"
    TABLE_ALL = "table_all"
    SPECTATORS = "spectators"


@dataclass(frozen=True, slots=True)
class Party:
    """A parsed party name; ``ident`` is the player name or the table id (or ``None``)."""

    kind: PartyKind
    ident: str | None = None

    def __str__(self) -> str:
        match self.kind:
            case PartyKind.LOBBY | PartyKind.GUEST:
                return self.kind.value
            case PartyKind.PLAYER:
                return f"player:{self.ident}"
            case PartyKind.TABLE:
                return f"table:{self.ident}"
            case PartyKind.TABLE_ALL:
                return f"table:{self.ident}/all"
            case PartyKind.SPECTATORS:
                return f"spectators:{self.ident}"
        raise AssertionError(self.kind)  # pragma: no cover

    @property
    def is_broadcast(self) -> bool:
        return self.kind in (PartyKind.TABLE_ALL, PartyKind.SPECTATORS)

    @property
    def table_id(self) -> str | None:
        """The table this party belongs to (table, its broadcast, its spectators)."""
        if self.kind in (PartyKind.TABLE, PartyKind.TABLE_ALL, PartyKind.SPECTATORS):
            return self.ident
        return None


def is_party(text: str) -> bool:
    """Whether ``text`` follows the party grammar."""
    return _PARTY_RE.match(text) is not None


def parse_party(text: str) -> Party:
    """Parse a party name; ``ValueError`` if it does not follow the grammar."""
    m = _PARTY_RE.match(text)
    if m is None:
        raise ValueError(f"not a party name: {text!r}")
    if m["lobby"]:
        return LOBBY
    if m["guest"]:
        return GUEST
    if m["player"]:
        return Party(PartyKind.PLAYER, m["player"])
    if m["table"]:
        return Party(PartyKind.TABLE_ALL if m["all"] else PartyKind.TABLE, m["table"])
    return Party(PartyKind.SPECTATORS, m["spectators"])


def _checked(pattern: str, value: str, what: str) -> str:
    if re.fullmatch(pattern, value) is None:
        raise ValueError(f"not a valid {what}: {value!r}")
    return value


def normal_name(name: str) -> str:
    """``name`` as the wire carries it: NFC (an ``ò`` typed as ``o`` and a combining
    accent becomes the one letter ``ò``), without surrounding blanks."""
    return unicodedata.normalize("NFC", name.strip())


def player(name: str) -> Party:
    """``player:<name>``: one connected client."""
    return Party(PartyKind.PLAYER, _checked(NAME_PATTERN, name, "player name"))


def table(table_id: str) -> Party:
    """``table:<id>``: the game master of a table."""
    return Party(PartyKind.TABLE, _checked(TABLE_ID_PATTERN, table_id, "table id"))


def table_all(table_id: str) -> Party:
    """``table:<id>/all``: everyone seated at or watching a table."""
    return Party(PartyKind.TABLE_ALL, _checked(TABLE_ID_PATTERN, table_id, "table id"))


def spectators(table_id: str) -> Party:
    """``spectators:<id>``: the spectators of a table."""
    return Party(PartyKind.SPECTATORS, _checked(TABLE_ID_PATTERN, table_id, "table id"))


LOBBY = Party(PartyKind.LOBBY)
GUEST = Party(PartyKind.GUEST)


# --- who sends each command, and to whom ----------------------------------------------


@dataclass(frozen=True, slots=True)
class Route:
    """One way a command travels: from a kind of party to a kind of party."""

    sender: PartyKind
    recipient: PartyKind


def _routes(*pairs: tuple[PartyKind, PartyKind]) -> frozenset[Route]:
    return frozenset(Route(s, r) for s, r in pairs)


_L, _G, _P, _T, _A = PartyKind.LOBBY, PartyKind.GUEST, PartyKind.PLAYER, PartyKind.TABLE, PartyKind.TABLE_ALL
_TO_LOBBY = _routes((_P, _L))
_GAME = _routes((_T, _A))

ROUTES: dict[str, frozenset[Route]] = {
    "hello": _routes((_G, _L)),
    "welcome": _routes((_L, _P)),
    "list_tables": _TO_LOBBY,
    "tables": _routes((_L, _P)),
    "create_table": _TO_LOBBY,
    "table_created": _routes((_L, _P)),
    "join_table": _TO_LOBBY,
    "joined": _routes((_L, _P)),
    "leave_table": _TO_LOBBY,
    "left": _routes((_L, _P)),
    "table_update": _routes((_T, _A), (_L, _P)),
    "watch_lobby": _TO_LOBBY,
    "unwatch_lobby": _TO_LOBBY,
    "game_start": _GAME,
    "round_start": _GAME,
    "deal": _routes((_T, _P)),
    "your_turn": _routes((_T, _P)),
    "play": _routes((_P, _T)),
    "declare": _routes((_P, _T)),
    "played": _GAME,
    "declared": _GAME,
    "round_end": _GAME,
    "game_end": _GAME,
    "seat_away": _GAME,
    "seat_back": _GAME,
    "seat_replaced": _GAME,
    "save_waiting": _GAME,
    "snapshot": _routes((_T, _P)),
    "watch_table": _TO_LOBBY,
    "unwatch_table": _TO_LOBBY,
    "error": _routes((_L, _G), (_L, _P), (_T, _P), (_G, _L), (_P, _L), (_P, _T)),
    "ping": _routes((_L, _G), (_L, _P), (_G, _L), (_P, _L), (_P, _T)),
    "pong": _routes((_L, _G), (_L, _P), (_T, _P), (_G, _L), (_P, _L)),
    "chat": _routes((_P, _L), (_P, _T)),
    "chat_message": _routes((_L, _P), (_T, _A)),
    "bye": _routes((_L, _G), (_L, _P), (_G, _L), (_P, _L)),
    "redirect": _routes((_L, _G), (_L, _P)),
    "list_games": _TO_LOBBY,
    "games": _routes((_L, _P)),
    "get_record": _TO_LOBBY,
    "record": _routes((_L, _P)),
    "get_leaderboard": _TO_LOBBY,
    "leaderboard": _routes((_L, _P)),
    "claim_name": _TO_LOBBY,
    "name_claimed": _routes((_L, _P)),
    "admin": _TO_LOBBY,
    "admin_reply": _routes((_L, _P)),
    "quick_play": _TO_LOBBY,
    "quick_leave": _TO_LOBBY,
    "quick_waiting": _routes((_L, _P)),
    "tournament_create": _TO_LOBBY,
    "tournament_list": _TO_LOBBY,
    "tournaments": _routes((_L, _P)),
    "tournament_join": _TO_LOBBY,
    "tournament_leave": _TO_LOBBY,
    "tournament_start": _TO_LOBBY,
    "tournament_update": _routes((_L, _P)),
    "get_standings": _TO_LOBBY,
    "tournament_standings": _routes((_L, _P)),
    "tournament_round": _routes((_L, _P)),
    "tournament_table": _routes((_L, _P)),
    "tournament_no_table": _routes((_L, _P)),
}
"""For every command name, the (sender kind, recipient kind) pairs it may travel with
(PROTOCOL.md §3).  A server's error or pong comes from the party its request was sent
to; a command sent to ``table:<id>/all`` reaches each connection there as its own copy."""


def route_of(sender: str, recipient: str) -> Route:
    """The route of a sender and recipient party (``ValueError`` if either is not a party)."""
    return Route(parse_party(sender).kind, parse_party(recipient).kind)


_KIND_BY_GROUP = {"lobby": PartyKind.LOBBY, "guest": PartyKind.GUEST, "player": PartyKind.PLAYER,
                  "table": PartyKind.TABLE, "all": PartyKind.TABLE_ALL, "spectators": PartyKind.SPECTATORS}
"""A party's kind by the last group of :data:`_PARTY_RE` it matched."""


def route_allowed(name: str, sender: str, recipient: str) -> bool:
    """Whether command ``name`` may go from ``sender`` to ``recipient`` (by ROUTES).  The
    parties' kinds (:func:`parse_party`'s) are read from their matches each time: nothing
    is kept per party (a server names thousands of players and tables, and a memo of each
    would cost more than the match; a table's broadcasts check their route once,
    :func:`~scopa.protocol.connection.prepare`)."""
    by_sender, by_recipient = _PARTY_RE.match(sender), _PARTY_RE.match(recipient)
    if by_sender is None or by_recipient is None:
        return False
    kinds = (_KIND_BY_GROUP[by_sender.lastgroup], _KIND_BY_GROUP[by_recipient.lastgroup])  # type: ignore[index]
    return kinds in _KIND_PAIRS.get(name, _NO_PAIRS)


_KIND_PAIRS: dict[str, frozenset[tuple[PartyKind, PartyKind]]] = {
    name: frozenset((r.sender, r.recipient) for r in routes) for name, routes in ROUTES.items()
}  # ROUTES as plain pairs, for the check made on every command
_NO_PAIRS: frozenset[tuple[PartyKind, PartyKind]] = frozenset()
