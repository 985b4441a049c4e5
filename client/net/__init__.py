"""The client's side of a connection to a server: bytes, commands, staying connected, the
lobby's calls, and what a client keeps between runs.

Owns the connection (``Channel`` below ``Link`` below ``LobbyCalls`` below
``ClientSession``, with the errors ``SessionError``, ``ConnectionLost`` (``Unreachable``: an address
not reached, and why), ``ServerRefused``),
the addresses to try (``Addresses``, ``parse_address``, ``parse_servers``) and the one an invite names (``share_host``), liveness
(``Watchdog``, ``LinkStatus``, ``LinkEvent``, ``PING_AFTER``, ``DEAD_AFTER``,
``HURRIED_PING_AFTER``, ``HURRIED_DEAD_AFTER``), the clock it waits on (``Clock``,
``SystemClock``), TLS trust (``ServerTrust``, ``KnownServers``, ``CertificateRefused``,
``open_stream``), seat tokens kept on disk (``TokenStore``, ``FileTokenStore``,
``MemoryTokenStore``, ``SavedSeat``, and of the last tables sat at ``PLAYED_KEPT``; a saved seat given up at the server: ``give_up_seat``), finding servers on the LAN (``discover``,
``resolve_server``, ``FoundServer``, ``NoServerFound``, ``SeveralServersFound``,
``no_server_hint``, ``choice_rows``, ``parse_choice``, ``AUTO``, ``BROWSE_SECONDS``) and the
server's archive (``list_games``, whether a table's game is over: ``game_over_at``, ``fetch_record``, ``leaderboard``, ``claim_name``),
a session's address as ``--server`` takes it (``server_address``).

Must never: show anything to a person (no words, no screens: it raises and returns values),
or import the client's text/, console/ or tui/.
"""

from __future__ import annotations

from .addresses import Addresses, share_host
from .archive import claim_name, fetch_record, game_over_at, leaderboard, list_games, server_address
from .calls import LobbyCalls
from .channel import Channel, ConnectionLost, ServerRefused, SessionError, Unreachable
from .clock import Clock, SystemClock
from .discovery import (
    AUTO,
    BROWSE_SECONDS,
    FoundServer,
    NoServerFound,
    SeveralServersFound,
    choice_rows,
    discover,
    no_server_hint,
    parse_choice,
    resolve_server,
)
from .link import Link, parse_address, parse_servers
from .liveness import (
    DEAD_AFTER,
    HURRIED_DEAD_AFTER,
    HURRIED_PING_AFTER,
    PING_AFTER,
    LinkEvent,
    LinkStatus,
    Watchdog,
)
from .session import ClientSession, give_up_seat
from .tokens import PLAYED_KEPT, FileTokenStore, MemoryTokenStore, SavedSeat, TokenStore
from .trust import CertificateRefused, KnownServers, ServerTrust, open_stream

__all__ = [
    "Unreachable",
    "AUTO",
    "Addresses",
    "share_host",
    "BROWSE_SECONDS",
    "CertificateRefused",
    "Channel",
    "ClientSession",
    "Clock",
    "ConnectionLost",
    "DEAD_AFTER",
    "FileTokenStore",
    "FoundServer",
    "HURRIED_DEAD_AFTER",
    "HURRIED_PING_AFTER",
    "KnownServers",
    "Link",
    "LinkEvent",
    "LinkStatus",
    "LobbyCalls",
    "MemoryTokenStore",
    "NoServerFound",
    "PING_AFTER",
    "PLAYED_KEPT",
    "SavedSeat",
    "ServerRefused",
    "ServerTrust",
    "SessionError",
    "SeveralServersFound",
    "SystemClock",
    "TokenStore",
    "Watchdog",
    "choice_rows",
    "claim_name",
    "discover",
    "fetch_record",
    "give_up_seat",
    "leaderboard",
    "game_over_at",
    "server_address",
    "list_games",
    "no_server_hint",
    "open_stream",
    "parse_address",
    "parse_choice",
    "parse_servers",
    "resolve_server",
]
