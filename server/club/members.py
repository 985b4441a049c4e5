"""Tournaments whose entrants are connected to several members of a cluster sharing one
journal (server/cluster/relay.py carries what goes between them):

- a join, leave or start a player of this member sends to a tournament another member
  runs goes to that member, and its answer comes back to the player (``unavailable``
  when no member runs it just now);
- the member running a tournament carries out such a command as its own player's
  (:class:`~.relayed.RemoteAsker`), and tells its entrants connected elsewhere what it
  tells its own (:class:`~.tournaments.TournamentHost`);
- this member tells its connections what the member running their tournament told them,
  and sends one whose seat a round's table keeps on to that table's member (``redirect``
  with a ticket: there the server seats it, as it seats an entrant who connects).

The lists and standings need none of this: every member folds them from the journal."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode

from ..core import name_key
from ..lobby import HandOn, TableLife
from .commands import TournamentCommands
from .relayed import RemoteAsker, TournamentRelay
from .tournaments import journaled

if TYPE_CHECKING:
    from ..conn import ServerSession

log = logging.getLogger("scopa.server")

Forwarded = wire.TournamentJoin | wire.TournamentLeave | wire.TournamentStart
MOVING = "the tournament is moving to another server of the cluster; try again in a moment"


class AcrossMembers:
    """This member's side of the tournaments its cluster runs."""

    def __init__(self, commands: TournamentCommands, life: TableLife, names: dict[str, ServerSession]) -> None:
        self.commands = commands
        self.host = commands.host
        self.life = life
        self.names = names
        self.relay: TournamentRelay | None = None

    def forwards(self, body: wire.Body) -> bool:
        """Whether ``body`` goes to the member running its tournament (not this one)."""
        return self.relay is not None and isinstance(body, Forwarded) and body.tournament not in self.host.directors

    def forward(self, sess: ServerSession, body: Forwarded, seq: int) -> None:
        self.host.tasks.spawn(self._forward(sess, body, seq))

    async def _forward(self, sess: ServerSession, body: Forwarded, seq: int) -> None:
        if body.tournament not in await journaled(self.life.storage):  # its records, not folded
            sess.error(ErrorCode.NO_SUCH_TOURNAMENT, f"there is no tournament {body.tournament!r}", re=seq)
        elif self.relay is not None:
            self.relay.ask(body.tournament, sess.name or "", sess.client, body,
                           lambda got: _answered(sess, seq, got))

    def asked(self, name: str, client: str, body: wire.Body, answer: Callable[[wire.Body], None]) -> None:
        """A command of a player of another member, to a tournament run here (or not any more)."""
        asker = RemoteAsker(name, client, answer)
        if not isinstance(body, Forwarded) or body.tournament not in self.host.directors:
            asker.error(ErrorCode.UNAVAILABLE, MOVING)
        elif isinstance(body, wire.TournamentJoin):
            self.commands.join(asker, body, 0)
        elif isinstance(body, wire.TournamentLeave):
            self.commands.leave(asker, body, 0)
        else:
            self.commands.start(asker, body, 0)

    def told(self, names: Sequence[str], body: wire.Body, seat: str | None) -> None:
        """What the member running a tournament tells its entrants: to those connected here."""
        for name in names:
            sess = self.names.get(name_key(name))
            if sess is None or sess.closed:
                continue
            sess.tell(body)
            shared = self.life.shared
            if seat is not None and sess.table_id is None and shared is not None:
                shared.hand_on(seat, sess.name or "", functools.partial(_sent_on, sess, seat))


def _answered(sess: ServerSession, seq: int, got: wire.Body | None) -> None:
    if sess.closed:
        return
    if got is None:
        sess.error(ErrorCode.UNAVAILABLE, MOVING, re=seq)
    elif isinstance(got, wire.Error):
        sess.error(got.code, got.message, re=seq)
    else:
        sess.tell(got, re=seq)


def _sent_on(sess: ServerSession, table_id: str, found: HandOn) -> None:
    """A player whose tournament's table plays on another member: sent there."""
    if not sess.closed and sess.table_id is None and not found.send(sess, table_id):
        log.warning("table %s: %s could not be sent there (no ticket)", table_id, sess.party)
