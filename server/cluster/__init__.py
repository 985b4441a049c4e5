"""A server as one member of a cluster sharing one lobby through Redis
(``scopa serve --cluster redis://HOST:PORT/N``): its options (:mod:`.options`, no Redis
needed to read them), the keys and messages the members share (:mod:`.keys`), and the
member itself (:mod:`.member`: the connection to Redis and what it does while it is up),
its tables' presence in the shared lobby (:mod:`.presence`), the names its connections
hold (:mod:`.names`) and the tournaments it runs with the others (:mod:`.relay`).  Only
:mod:`.member`, :mod:`.presence`, :mod:`.names` and the modules they use import ``redis``; a server without ``--cluster`` never imports them: :class:`ClusterMember` is
imported from here on first use.  Public names: :class:`ClusterOptions`, :class:`ClusterMember`.

The cluster may import every part of the server below the router; it must never import the
router (network, dispatch, greeting, serving), and no part below it imports it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .options import ClusterOptions

if TYPE_CHECKING:
    from .member import ClusterMember

__all__ = ["ClusterMember", "ClusterOptions"]


def __getattr__(name: str) -> Any:
    """``ClusterMember`` on first use: ``redis`` only for a server with ``--cluster``."""
    if name == "ClusterMember":
        from .member import ClusterMember

        return ClusterMember
    raise AttributeError(name)
