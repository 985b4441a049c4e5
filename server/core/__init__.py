"""The server's ground floor: what every other part of scopa.server stands on, and which
imports nothing of scopa.server itself.

It owns the one clock every timer waits on (:class:`Clock`, :class:`SystemClock`,
:class:`Timer`, :func:`start_timer`), what the server tolerates from a client
(:class:`Limits`, :class:`RateLimiter`), background requests (:class:`BackgroundTasks`),
free text made safe and names that are taken (:func:`clean_text`, :func:`name_key`,
:func:`bot_name`, :func:`reserved_name`, :class:`Names`), the figures exported to
Prometheus (the module :mod:`.metrics`, its ``PREFIX``), TLS on the ports (:class:`ServerTls`,
:class:`PlainSecrets`, :data:`HANDSHAKE_TIMEOUT`, :func:`open_member`), the trusted front
ends' networks (:class:`ProxiedClients`, :func:`parse_networks`), the bots' worker
processes (:class:`BotPool`), children that the terminal's Ctrl-C never reaches
(:func:`ctrl_c_held`), the JSON log (:func:`follow_member`) and the garbage
collector's setting (:class:`Collector`).

It must never import another part of the server, hold a connection, a table or a
journal, or know that a lobby exists."""

from __future__ import annotations

from . import metrics
from .clock import Clock, SystemClock, Timer, start_timer
from .children import ctrl_c_held
from .collector import Collector
from .jsonlog import follow_member
from .limits import Limits, RateLimiter
from .metrics import PREFIX
from .proxies import ProxiedClients, parse_networks
from .tasks import BackgroundTasks
from .text import Names, bot_name, clean_text, name_key, reserved_name
from .tls import HANDSHAKE_TIMEOUT, PlainSecrets, ServerTls, open_member
from .workers import BotPool

__all__ = [
    "BackgroundTasks", "BotPool", "Clock", "Collector", "HANDSHAKE_TIMEOUT", "Limits", "Names", "PREFIX",
    "PlainSecrets", "ProxiedClients", "RateLimiter", "ServerTls", "SystemClock", "Timer", "bot_name", "clean_text",
    "ctrl_c_held", "follow_member", "metrics", "name_key", "open_member", "parse_networks", "reserved_name", "start_timer",
]
