"""Where a cluster's Redis is, from its ``--cluster`` URL, and the clients a member makes
to reach it: ``redis://HOST:PORT/N`` (``rediss://`` over TLS, ``unix://PATH``) names one
Redis; ``redis+sentinel://HOST:PORT[,HOST:PORT...]/MASTER[/N]`` names the Sentinels that
watch the master called ``MASTER``, and the member asks them where the master is each
time it connects, so after a failover it reaches the replica they promoted
(server/cluster/connector.py).  Read here without Redis's client library."""

from __future__ import annotations

from dataclasses import dataclass

SENTINEL_SCHEME = "redis+sentinel://"
PLAIN_SCHEMES = ("redis://", "rediss://", "unix://")
DEFAULT_SENTINEL_PORT = 26379


@dataclass(frozen=True)
class SentinelUrl:
    """The Sentinels (``host``, ``port``), the name of the master they watch, its database."""

    sentinels: tuple[tuple[str, int], ...]
    master: str
    db: int = 0


def parse_sentinel_url(url: str) -> SentinelUrl:
    """``redis+sentinel://HOST:PORT[,HOST:PORT...]/MASTER[/N]`` (a port left out is 26379);
    ValueError if it is not one."""
    if not url.startswith(SENTINEL_SCHEME):
        raise ValueError(f"not a {SENTINEL_SCHEME} URL: {url!r}")
    hosts, _, path = url[len(SENTINEL_SCHEME):].partition("/")
    parts = path.strip("/").split("/") if path.strip("/") else []
    if not hosts or len(parts) not in (1, 2) or not parts[0]:
        raise ValueError(f"--cluster wants redis+sentinel://HOST:PORT[,HOST:PORT...]/MASTER[/N], not {url!r}")
    sentinels = []
    for address in hosts.split(","):
        host, port = _host_port(address)
        sentinels.append((host, port))
    try:
        db = int(parts[1]) if len(parts) == 2 else 0
    except ValueError:
        raise ValueError(f"the database of {url!r} is not a number") from None
    return SentinelUrl(tuple(sentinels), parts[0], db)


def _host_port(address: str) -> tuple[str, int]:
    if address.startswith("["):  # [IPv6]:PORT
        host, _, rest = address[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port = address.rpartition(":") if ":" in address else (address, "", "")
    if not host:
        raise ValueError(f"a Sentinel's address {address!r} has no host")
    try:
        number = int(port) if port else DEFAULT_SENTINEL_PORT
    except ValueError:
        raise ValueError(f"a Sentinel's port in {address!r} is not a number") from None
    if not 0 < number < 65536:
        raise ValueError(f"a Sentinel's port in {address!r} is out of range")
    return host, number


def check_url(url: str) -> None:
    """ValueError unless ``url`` is a Redis URL a cluster can use."""
    if url.startswith(SENTINEL_SCHEME):
        parse_sentinel_url(url)
    elif not url.startswith(PLAIN_SCHEMES):
        raise ValueError(f"--cluster wants a redis:// or redis+sentinel:// URL, not {url!r}")
