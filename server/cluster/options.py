"""How a server takes part in a cluster: where the shared lobby is (a Redis URL), the
address its clients reach it at, and the timings of its liveness."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import TypeAdapter, ValidationError

from scopa.protocol.fields import HostPort

from .redis_url import check_url

_HOST_PORT: TypeAdapter[str] = TypeAdapter(HostPort)


def is_host_port(text: str) -> bool:
    """Whether ``text`` is an address as the wire gives one (``host:port``, ``tls://host:port``)."""
    try:
        _HOST_PORT.validate_python(text)
    except ValidationError:
        return False
    return True


@dataclass(frozen=True)
class ClusterOptions:
    """A cluster member's settings (``scopa serve --cluster URL --advertise HOST:PORT``)."""

    url: str
    """The Redis the members share, ``redis://HOST:PORT/N``, or the Sentinels that watch
    it, ``redis+sentinel://HOST:PORT[,HOST:PORT...]/MASTER[/N]`` (server/cluster/redis_url.py)."""
    advertise: str | None = None
    """``HOST:PORT`` at which clients reach this server (None: the address it listens on)."""
    prefix: str = "scopa"
    """The start of every key and channel: clusters (or test runs) on one Redis keep apart."""
    member_ttl: float = 10.0
    """Seconds this member's key lives unless refreshed: its tables leave the others'
    lobbies that long after it stopped without saying so."""
    refresh: float | None = None
    """Seconds between refreshes of this member's key and names, and checks of the
    others' (None: a third of ``member_ttl``)."""
    name_ttl: float = 30.0
    """Seconds a name claimed here stays claimed unless refreshed."""
    retry: float = 1.0
    """Seconds between attempts to reach Redis while it cannot be reached."""
    id_block: int = 100
    """Table ids taken from the shared counter at once."""
    member_id: str | None = None
    """This member's id (None: a fresh random one)."""
    timeout: float = 2.0
    """Seconds a Redis command (or connecting) may take before Redis counts as down."""
    front_port: int | None = None
    """A port every member on this host listens on too, sharing it (SO_REUSEPORT): the
    cluster's one address (``scopa cluster``); each member still advertises its own."""
    shared_journal: bool = False
    """The members share one journal (PostgreSQL): each serves only the tables whose
    lease it holds, and takes over those of a member that is gone (server/cluster/leases.py)."""
    ticket_ttl: float = 30.0
    """Seconds a ``redirect``'s ticket may be given in a ``hello`` on the member it names."""
    seeds: tuple[str, ...] = ()
    """``HOST:PORT`` addresses at which clients reach the cluster (a DNS name of the
    members, a shared front), told to every client in the ``welcome`` before the members'
    own addresses."""
    lease_ttl: float = 3.0
    """Seconds a table's lease lives in Redis unless renewed (every third of it); its
    member gives the table up a third of it earlier, when it could not renew it."""

    @property
    def refresh_interval(self) -> float:
        return self.refresh if self.refresh is not None else self.member_ttl / 3

    def __post_init__(self) -> None:
        check_url(self.url)
        if self.member_ttl <= 0 or self.name_ttl <= 0 or self.retry <= 0 or self.id_block < 1 \
                or self.lease_ttl <= 0 or self.ticket_ttl <= 0:
            raise ValueError("the cluster's timings must be positive")
        for seed in self.seeds:
            if not is_host_port(seed):
                raise ValueError(f"--cluster-seeds: {seed!r} is not HOST:PORT")
        if self.refresh_interval >= self.member_ttl:
            raise ValueError("a member must refresh its key more often than the key expires")
