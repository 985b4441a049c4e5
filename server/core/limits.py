"""What the server tolerates from one client: deadlines, connection caps, queue bounds and
a command rate, as one frozen value.

Pass it to the server as ``NetworkEngine(..., limits=Limits(...))``; the defaults suit a
public server.  Tests use small values (a tenth of a second, a queue of eight frames) so
that every limit can be hit quickly and deterministically.

What a client sees when it breaks a limit (PROTOCOL.md §7, "Limits"):

=====================================  =================================================
limit                                  what happens
=====================================  =================================================
``hello_timeout``                      no ``hello`` this long after connecting: ``error``
                                       ``not_hello_yet`` (fatal), the server closes
``frame_timeout``                      a frame begun (its first byte arrived) but not
                                       finished this long after: ``error`` ``timeout``
                                       (fatal), closed — a client trickling bytes is
                                       dropped
``ping_interval`` / ``ping_timeout``   nothing received for ``ping_interval``: the server
                                       sends ``ping``; nothing received within
                                       ``ping_timeout`` after it: ``error`` ``timeout``
                                       (fatal), closed
``max_connections``,                   one connection too many, overall or from one
``max_connections_per_address``        address: ``error`` ``rate_limited`` (fatal) at
                                       once, closed
``max_queued_frames``,                 more frames, or more bytes, waiting to be written
``max_queued_bytes``                   to a client than this (it does not read): the
                                       connection is dropped at once, nothing more is
                                       sent.  Nobody else waits for it: every send to it
                                       is a non-blocking ``put_nowait``
``commands_per_second``,               a token bucket per connection: each command
``command_burst``                      takes one token, ``commands_per_second`` tokens
                                       come back per second, up to ``command_burst``.
                                       Without a token the command is not executed and
                                       is answered ``error`` ``rate_limited``
``max_refused_commands``,              more than ``max_refused_commands`` refused
``refused_window``                     commands within ``refused_window`` seconds (a
                                       leaky count): ``error`` ``rate_limited`` (fatal),
                                       closed
``max_waiting_tables_per_client``,     a ``create_table`` that would give its client (or
``max_waiting_tables``                 the server) one table waiting for players too
                                       many: ``error`` ``too_many_tables``
``max_waiting_tables_per_address``     the same per source address (for a connection
                                       through a trusted front end: per identity)
``waiting_tables_reserve``             an address that holds a waiting table already
                                       may not take the last tenth (by default) of
                                       ``max_waiting_tables``: it is kept for
                                       addresses that hold none (``too_many_tables``)
``waiting_table_expiry``               a table where nobody sat down for this long
                                       while it waited for players is closed (its
                                       seated clients get ``left`` ``closed``)
``max_bot_tables_per_client``,         the same for bot-only games (``sit`` false and
``max_bot_tables``                     every seat a server bot)
``password_failures_per_address``,     wrong passwords within ``password_window``
``password_failures_per_name``,        from one address (for any names), or for one
``password_window``                    name (from addresses that never logged in to
                                       it): the next check is refused with
                                       ``rate_limited``; the owner's own address still
                                       gets in
``name_claims_per_address``,           names one address may claim within the window:
``name_claims_window``                 then ``claim_name`` gets ``rate_limited``
``resumes_per_seat``,                  a seat resumed this many times within the
``resume_window``                      window: the next ``hello`` with its token gets
                                       ``rate_limited`` (with ``retry_after``), and
                                       the connection holding the seat keeps it; the
                                       other seats hear of it going away and coming
                                       back at most once per window
``trusted_addresses``                  addresses (or networks) no per-address cap
                                       applies to (connections, waiting tables, name
                                       claims): hosts the operator runs clients on
``finished_tables_kept``               finished tables listed (the oldest go first)
``table_update_interval``              a seated player hears of spectators coming and
                                       going at most once per interval (coalesced)
=====================================  =================================================

A limit set to ``None`` is not enforced.  The deadlines and the token bucket run on
the server's clock (``NetworkEngine(..., clock=...)``), so a test can drive every one
of them with a :class:`~.clock.FakeClock`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cached_property

from .clock import Clock
from .proxies import Network, in_networks, parse_networks


@dataclass(frozen=True)
class Limits:
    """Every limit the server enforces on a connection (see the module docstring)."""

    hello_timeout: float | None = 10.0
    """Seconds from connecting to a ``hello``."""
    frame_timeout: float | None = 20.0
    """Seconds from the first byte of a frame to its last."""
    ping_interval: float | None = 5.0
    """Seconds of silence from a client before the server pings it."""
    ping_timeout: float | None = 10.0
    """Seconds the server waits for anything (a ``pong``) after its ping."""
    max_connections: int | None = 1000
    """Open connections overall."""
    max_connections_per_address: int | None = 50
    """Open connections from one remote IP address."""
    max_queued_frames: int = 2048
    """Frames waiting to be written to one client before it counts as not reading."""
    max_queued_bytes: int = 256 * 1024
    """Bytes waiting to be written to one client before it counts as not reading."""
    max_waiting_tables_per_client: int | None = 4
    """Tables one connection has created that wait for players."""
    max_waiting_tables: int | None = 500
    """Tables waiting for players on the whole server."""
    max_waiting_tables_per_address: int | None = 16
    """Tables waiting for players created from one source address (or one identity
    behind a trusted front end)."""
    waiting_tables_reserve: float = 0.1
    """The share of ``max_waiting_tables`` that only an address holding no waiting
    table may take (room for the players who hold none)."""
    waiting_table_expiry: float | None = 600.0
    """Seconds a table may wait for players with nobody sitting down, then it closes."""
    max_bot_tables_per_client: int | None = 2
    """Bot-only games (every seat a server bot) one connection has running at once."""
    max_bot_tables: int | None = 16
    """Bot-only games running on the whole server."""
    resumes_per_seat: int | None = 3
    """Times one seat may be resumed within ``resume_window`` (then the next one waits)."""
    resume_window: float = 10.0
    """Seconds over which a seat's resumes are counted; the other seats hear of it going
    away and coming back at most once per window."""
    trusted_addresses: tuple[str, ...] = ()
    """Addresses or networks (``10.0.0.0/24``) that no per-address cap applies to."""
    finished_tables_kept: int = 64
    """Finished tables still listed in the lobby (the oldest are forgotten first)."""
    table_update_interval: float = 1.0
    """Seconds between two ``table_update``s caused by spectators coming and going
    (changes within an interval are sent as one, at its end)."""
    socket_send_buffer: int | None = 64 * 1024
    """The kernel send buffer (SO_SNDBUF) and the transport's write high-water mark of
    each connection, in bytes (None: the system's, which grows to megabytes): less
    memory held for a client that reads slowly, and a non-reading client reaches
    ``max_queued_bytes`` after a bounded amount of work."""
    password_failures_per_address: int = 5
    """Wrong passwords from one address (for any names) within ``password_window``."""
    password_failures_per_name: int = 20
    """Wrong passwords for one name within ``password_window`` (its owner's own
    addresses are not refused for it)."""
    password_window: float = 300.0
    """Seconds over which wrong passwords are counted."""
    name_claims_per_address: int = 3
    """Names one address may claim within ``name_claims_window``."""
    name_claims_window: float = 3600.0
    """Seconds over which claimed names are counted."""
    commands_per_second: float | None = 50.0
    """Sustained commands per second per connection (the token bucket's refill rate)."""
    command_burst: int = 200
    """Commands a connection may send at once (the token bucket's size)."""
    max_refused_commands: int = 100
    """Refused (rate-limited) commands within ``refused_window`` before disconnecting."""
    refused_window: float = 10.0
    """Seconds over which refused commands are counted (they leak away at
    ``max_refused_commands`` per ``refused_window``)."""

    def __post_init__(self) -> None:
        for name in ("hello_timeout", "frame_timeout", "ping_interval", "ping_timeout"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be positive (or None), not {value}")
        if self.max_queued_frames < 1 or self.command_burst < 1 or self.max_refused_commands < 0:
            raise ValueError("max_queued_frames and command_burst must be at least 1")
        if self.max_queued_bytes < 1024:
            raise ValueError("max_queued_bytes must be at least 1024")
        for name in ("max_waiting_tables_per_client", "max_waiting_tables", "max_bot_tables_per_client",
                     "max_bot_tables", "max_waiting_tables_per_address"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ValueError(f"{name} must be at least 0 (or None), not {value}")
        if self.waiting_table_expiry is not None and self.waiting_table_expiry <= 0:
            raise ValueError("waiting_table_expiry must be positive (or None)")
        if not 0 <= self.waiting_tables_reserve <= 1:
            raise ValueError("waiting_tables_reserve is a share of max_waiting_tables, from 0 to 1")
        if min(self.password_failures_per_address, self.password_failures_per_name,
               self.name_claims_per_address) < 0 or min(self.password_window, self.name_claims_window) <= 0:
            raise ValueError("the password and claim limits must not be negative, their windows positive")
        if self.finished_tables_kept < 0 or self.table_update_interval < 0:
            raise ValueError("finished_tables_kept and table_update_interval must not be negative")
        if self.commands_per_second is not None and self.commands_per_second <= 0:
            raise ValueError("commands_per_second must be positive (or None)")
        if self.refused_window <= 0:
            raise ValueError("refused_window must be positive")
        if (self.resumes_per_seat is not None and self.resumes_per_seat < 1) or self.resume_window <= 0:
            raise ValueError("resumes_per_seat must be at least 1 (or None), resume_window positive")
        _ = self.trusted_networks  # a bad address is refused here, not at the first connection

    @cached_property
    def trusted_networks(self) -> tuple[Network, ...]:
        """``trusted_addresses`` as networks; ``ValueError`` names one that is not an address."""
        return parse_networks(self.trusted_addresses)

    def trusts(self, address: str) -> bool:
        """Whether a connection from ``address`` (a remote IP) is exempt from the
        per-address caps (it is in ``trusted_addresses``)."""
        return in_networks(address, self.trusted_networks)

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> Limits:
        """Limits from ``name -> text`` (``scopa serve`` options): a number, or ``none``
        for no limit; every other field keeps its default.  ``ValueError`` says what is wrong."""
        kinds = {f.name: f for f in fields(cls)}
        defaults = cls()
        chosen: dict[str, object] = {}
        for name, text in options.items():
            if name not in kinds:
                raise ValueError(f"no limit called {name!r}; the limits are: {', '.join(kinds)}")
            if name == "trusted_addresses":
                chosen[name] = tuple(a for a in str(text).split(",") if a.strip())
                continue
            if str(text).strip().lower() == "none":
                chosen[name] = None
                continue
            number = float(text) if isinstance(getattr(defaults, name), float) or "float" in str(kinds[name].type) \
                else int(text)
            chosen[name] = number
        try:
            return cls(**chosen)  # type: ignore[arg-type]
        except TypeError as exc:
            raise ValueError(str(exc)) from None

    def rate_limiter(self, clock: Clock) -> RateLimiter:
        """A new connection's token bucket, refilled as ``clock`` moves."""
        return RateLimiter(self, clock)


class RateLimiter:
    """One connection's token bucket, and the leaky count of commands it refused."""

    __slots__ = ('_clock', '_last', 'limits', 'refused', 'tokens')

    def __init__(self, limits: Limits, clock: Clock) -> None:
        self.limits = limits
        self._clock = clock
        self._last = clock.now()
        self.tokens = float(limits.command_burst)
        self.refused = 0.0
        """Refused commands, leaking away at ``max_refused_commands / refused_window`` per second."""

    def _advance(self) -> None:
        now = self._clock.now()
        elapsed = max(0.0, now - self._last)
        self._last = now
        rate = self.limits.commands_per_second
        if rate is not None:
            self.tokens = min(float(self.limits.command_burst), self.tokens + elapsed * rate)
        leak = self.limits.max_refused_commands / self.limits.refused_window
        self.refused = max(0.0, self.refused - elapsed * leak)

    def allow(self) -> bool:
        """Take a token for one command: True if it may run, False if it is refused."""
        if self.limits.commands_per_second is None:
            return True
        self._advance()
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1.0
        return False

    @property
    def flooding(self) -> bool:
        """More refused commands than the limit allows: time to disconnect."""
        return self.refused > self.limits.max_refused_commands
