"""The table directory: every table of the server, who created it, the caps on how many
one client (and the server) may have, and the index the lobby listing is paged from.

Caps (``Limits``): a client may have ``max_waiting_tables_per_client`` tables waiting
for players and ``max_bot_tables_per_client`` bot-only games running (tables whose
every seat is a server bot); the server as a whole ``max_waiting_tables`` and
``max_bot_tables``.  Waiting tables are capped per source address too
(``max_waiting_tables_per_address``; a connection through a trusted front end counts
under its identity), and the last ``waiting_tables_reserve`` of the server's are kept
for addresses that hold none, so that many connections from a few addresses cannot
fill the lobby.  A table over a cap is refused with ``too_many_tables`` and costs
nothing.  When a client leaves, its waiting tables where no person sits close; a
table where nobody sat down for ``waiting_table_expiry`` closes (on the server's clock).

The listing index (:class:`~.listing.Listing`) is kept as tables come, change state and
go; private tables are never indexed: they are not listed.  In a cluster the other
members' public tables are filed in it too (``remote``), never in the directory itself:
nobody sits or watches at them here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

from scopa.engine import RuleSet, RuleSetError
from scopa.protocol import commands as wire

from ..core import Clock, SystemClock, Limits
from .listing import Listing, Page, WaitingExpiry
from .remote import RemoteTables

if TYPE_CHECKING:
    from ..table import Table

def bot_only(table: Table) -> bool:
    """Every seat is taken by a server bot (nobody but the server plays)."""
    return all(s is not None and s.bot is not None and s.session is None and not s.token_digest
               for s in table.seats)


class TableDirectory:
    """Every table by id, its creator, the caps, and the paged listing index."""

    def __init__(self, limits: Limits, clock: Clock | None = None,
                 on_expired: Callable[[Table], None] | None = None) -> None:
        """``on_expired``: told of a waiting table nobody sat down at for
        ``waiting_table_expiry`` seconds of ``clock`` (it closes the table)."""
        self.limits = limits
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.on_expired = on_expired
        self._origin: dict[str, str] = {}  # table id -> where its creator connected from
        self._by_origin: dict[str, set[str]] = {}  # origin -> the tables created from there
        self._expiry = WaitingExpiry(limits, self.clock, self._expired)
        self.tables: dict[str, Table] = {}
        self.listing = Listing()
        """The listed tables: this server's public ones, and the other members' in a cluster."""
        self.remote = RemoteTables(self.listing)
        """In a cluster: the tables of the other members, listed here too."""
        self._owner: dict[str, int] = {}  # table id -> the connection that created it
        self._owned: dict[int, list[str]] = {}  # connection -> the tables it created (a few: a list, not a set)
        self._waiting: set[str] = set()
        self._bot_games: set[str] = set()
        self._with_away: set[str] = set()  # unfinished tables with a seat waiting for its client
        self._tokens: dict[str, str] = {}  # seat token digest -> the table holding that seat
        self._digests: dict[str, tuple[str, ...]] = {}  # table id -> its seats' token digests
        self._finished: deque[str] = deque()

    # ------------------------------------------------------------------ dict-like

    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self.tables

    def __len__(self) -> int:
        return len(self.tables)

    def __getitem__(self, table_id: str) -> Table:
        return self.tables[table_id]

    def __setitem__(self, table_id: str, table: Table) -> None:
        assert table.id == table_id
        self.add(table)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self.tables))

    def values(self) -> list[Table]:
        return list(self.tables.values())

    def items(self) -> list[tuple[str, Table]]:
        return list(self.tables.items())

    def pop(self, table_id: str, default: Table | None = None) -> Table | None:
        table = self.remove(table_id)
        return table if table is not None else default

    # ------------------------------------------------------------------ caps

    def refusal(self, owner: int, bot_game: bool, origin: str = "", trusted: bool = False) -> str | None:
        """Why ``owner`` (connected from ``origin``) may not create one more table of
        this kind now, or None; ``trusted``: an origin the per-address caps spare."""
        lim = self.limits
        mine = self._owned.get(owner, ())
        if bot_game:
            per, total = lim.max_bot_tables_per_client, lim.max_bot_tables
            have = sum(1 for t in mine if t in self._bot_games)
            if per is not None and have >= per:
                return f"you have {have} bot-only games running (at most {per} at once); wait for one to end"
            if total is not None and len(self._bot_games) >= total:
                return f"the server runs its maximum of {total} bot-only games; try later"
            return None
        per, total = lim.max_waiting_tables_per_client, lim.max_waiting_tables
        have = sum(1 for t in mine if t in self._waiting)
        if per is not None and have >= per:
            return f"you have {have} tables waiting for players (at most {per}); start or leave one first"
        from_there = 0 if trusted else sum(1 for t in self._by_origin.get(origin, ()) if t in self._waiting)
        per_origin = lim.max_waiting_tables_per_address
        if per_origin is not None and from_there >= per_origin:
            return (f"{from_there} tables created from your address wait for players (at most {per_origin}); "
                    "start or leave one first")
        if total is not None and len(self._waiting) >= total:
            return f"the server has its maximum of {total} tables waiting for players; join one of them"
        reserve = int(total * lim.waiting_tables_reserve) if total is not None else 0
        if total is not None and from_there and len(self._waiting) >= total - reserve:
            return (f"the server keeps its last {reserve} waiting tables for players who have none; "
                    "start or leave one of yours first, or join one")
        return None

    def owned_by(self, owner: int) -> list[Table]:
        return [self.tables[t] for t in sorted(self._owned.get(owner, ())) if t in self.tables]

    def disown(self, owner: int) -> None:
        """The creator left: its tables are nobody's (they no longer count against it)."""
        for table_id in self._owned.pop(owner, ()):
            self._owner.pop(table_id, None)

    # ------------------------------------------------------------------ changes

    def add(self, table: Table, owner: int | None = None, origin: str | None = None) -> None:
        self.tables[table.id] = table
        if owner is not None:
            self._owner[table.id] = owner
            mine = self._owned.setdefault(owner, [])
            if table.id not in mine:
                mine.append(table.id)
        if origin is not None:
            self._origin[table.id] = origin
            self._by_origin.setdefault(origin, set()).add(table.id)
        self.update(table)

    def update(self, table: Table) -> None:
        """File the table again after its state (or its seats) changed."""
        if self.tables.get(table.id) is not table:
            return
        state = table.state
        self._waiting.discard(table.id)
        self._bot_games.discard(table.id)
        self._file_tokens(table)
        if state is not wire.TableState.FINISHED and any(s is not None and s.away for s in table.seats):
            self._with_away.add(table.id)
        else:
            self._with_away.discard(table.id)
        if state is not wire.TableState.WAITING:
            self._expiry.disarm(table.id)
        if state is wire.TableState.WAITING:
            self._waiting.add(table.id)
            self._expiry.arm(table)
        elif state is wire.TableState.PLAYING and bot_only(table):
            self._bot_games.add(table.id)
        elif state is wire.TableState.FINISHED and table.id not in self._finished:
            self._finished.append(table.id)
        if not table.private:
            self.listing.file(table, state, table.rules.players)

    def prune_finished(self) -> list[Table]:
        """Forget the oldest finished tables beyond ``finished_tables_kept``: the ones removed."""
        gone = []
        while len(self._finished) > self.limits.finished_tables_kept:
            table = self.remove(self._finished.popleft())
            if table is not None:
                gone.append(table)
        return gone

    def remove(self, table_id: str) -> Table | None:
        table = self.tables.pop(table_id, None)
        self.listing.unfile(table_id)
        self._waiting.discard(table_id)
        self._bot_games.discard(table_id)
        self._with_away.discard(table_id)
        for digest in self._digests.pop(table_id, ()):
            if self._tokens.get(digest) == table_id:
                del self._tokens[digest]
        owner = self._owner.pop(table_id, None)
        if owner is not None:
            owned = self._owned.get(owner)
            if owned is not None and table_id in owned:
                owned.remove(table_id)
        origin = self._origin.pop(table_id, None)
        if origin is not None:
            mine = self._by_origin.get(origin, set())
            mine.discard(table_id)
            if not mine:
                self._by_origin.pop(origin, None)
        self._expiry.disarm(table_id)
        return table

    def stop_expiry(self) -> None:
        """Disarm every waiting table's expiry (the server stops)."""
        self._expiry.stop()

    def _expired(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is not None and table.state is wire.TableState.WAITING and self.on_expired is not None:
            self.on_expired(table)

    def page(self, state: wire.TableState | None = None, players: int | None = None,
             after: str | None = None, limit: int = wire.MAX_PAGE) -> Page:
        """Public tables matching the filter, after the cursor ``after`` (see :meth:`Listing.page`)."""
        return self.listing.page(state, players, after, limit)


    def _file_tokens(self, table: Table) -> None:
        now = tuple(s.token_digest for s in table.seats if s is not None and s.token_digest)
        for digest in self._digests.get(table.id, ()):
            if digest not in now and self._tokens.get(digest) == table.id:
                del self._tokens[digest]
        for digest in now:
            self._tokens[digest] = table.id
        self._digests[table.id] = now

    def table_of_token(self, digest: str) -> Table | None:
        """The table with a seat whose token has this digest (one lookup, whatever the
        number of tables: a client guessing tokens costs next to nothing)."""
        table_id = self._tokens.get(digest)
        return self.tables.get(table_id) if table_id is not None else None

    def with_away_seats(self) -> list[Table]:
        """The unfinished tables where a seat waits for its client to come back."""
        return [self.tables[t] for t in self._with_away if t in self.tables]

    @property
    def waiting_count(self) -> int:
        return len(self._waiting)

    @property
    def bot_game_count(self) -> int:
        return len(self._bot_games)


def build_rules(preset: str | None, options: Mapping[str, object]) -> RuleSet:
    """The rules a ``create_table`` asks for; anything wrong is a :class:`RuleSetError`
    that says what (never another exception, whatever the option map holds)."""
    if "preset" in options:
        raise RuleSetError("the preset is given as create_table's own field, not as an option")
    unknown = sorted(k for k in options if k not in RuleSet.model_fields)
    if unknown:
        raise RuleSetError(f"no rule option called {unknown[0]!r}")
    key: tuple[object, ...] | None = (preset, *sorted((k, type(v), v) for k, v in options.items()))
    try:
        known = _RULES.get(key)  # type: ignore[arg-type]
    except TypeError:  # an option value that is not hashable (a list): built every time
        key = known = None
    if known is not None:
        return known
    try:
        rules = RuleSet.build(preset, **dict(options))
    except RuleSetError:
        raise
    except (TypeError, ValueError, ArithmeticError) as exc:
        raise RuleSetError(f"those options do not make rules: {exc}") from None
    if key is not None:
        if len(_RULES) >= _RULES_KEPT:
            _RULES.clear()
        _RULES[key] = rules
    return rules


_RULES: dict[tuple[object, ...], RuleSet] = {}
"""The rules made for a preset and options, shared by every table created with them (a
RuleSet is frozen; each one is about a kilobyte)."""
_RULES_KEPT = 256
