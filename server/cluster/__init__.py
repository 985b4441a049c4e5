"""A server as one member of a cluster sharing one lobby through Redis
(``scopa serve --cluster redis://HOST:PORT/N``): its options (:mod:`.options`, no Redis
needed to read them), the keys and messages the members share (:mod:`.keys`), and the
member itself (:mod:`.member`: the connection to Redis and what it does while it is up),
its tables' presence in the shared lobby (:mod:`.presence`) and the names its connections
hold (:mod:`.names`).  Only :mod:`.member`, :mod:`.presence` and :mod:`.names` import
``redis``; a server without ``--cluster`` never imports them."""

from .options import ClusterOptions

__all__ = ["ClusterOptions"]
