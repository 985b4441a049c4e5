"""The club: quick play and tournaments on a running server.

Owns: the quick-play pool's waves on the server's clock and the tables of its games
(:mod:`.quick`); each tournament's :class:`~scopa.server.tournament.Director`, its
journal of events (:mod:`.codec`: every event as ``(tournament, seq, kind, JSON)``, in
SQLite, PostgreSQL or memory), the carrying out of its effects (tables opened, players
seated, no-shows forfeited, entrants told) and its rebuilding after a restart
(:mod:`.tournaments`); in a cluster sharing one journal, what the tournaments' leases
ask of this server's tournaments, and every member's view of them all (:mod:`.held`); the tables it opens (:mod:`.tables`) and the wire's view of a
tournament (:mod:`.views`); the routing of the §16 commands (:mod:`.host`); in such a
cluster, the commands of its players to tournaments another member runs, carried there,
and what the member running a tournament tells its players connected elsewhere, who are
sent on to their tables (:mod:`.members`, through the cluster's relay: :mod:`.relayed`).

Must never: decide a pairing, a standing or a forfeit itself (the director does, in
``scopa.server.tournament``), seat anyone at a table another part made, or change a
table's game: it opens tables through :class:`~scopa.server.lobby.life.TableLife` and
seats players through :class:`~scopa.server.lobby.commands.TableCommands` like any
``join_table``, and learns a game's end from the table.

Public names: :class:`Club` (made with :class:`ClubOptions`; the router's one entry),
:class:`QuickHost`, :class:`TournamentHost`, :class:`TournamentCommands`,
:class:`ClubTables`, the journaled values :class:`TableOpened` and :class:`ResultsKept`
with :func:`encode`, :func:`decode` and :func:`is_event`, and :func:`game_points`."""

from .codec import ResultsKept, TableOpened, decode, encode, is_event
from .commands import TournamentCommands
from .host import Club, ClubOptions
from .quick import QuickHost
from .tables import ClubTables
from .tournaments import TournamentHost, game_points

__all__ = [
    "Club", "ClubOptions", "ClubTables", "QuickHost", "ResultsKept", "TableOpened", "TournamentCommands",
    "TournamentHost", "decode", "encode", "game_points", "is_event",
]  # fmt: skip
