"""Tournaments in a cluster whose members share one journal: each is run by the member
holding its lease (under ``P:tournament``, like a table's: server/cluster/leases.py), and
every member reads every tournament from the journal.

:class:`HeldTournaments` is what those leases ask of this server's tournaments (a
:class:`~scopa.server.lobby.shared.TableKeeper`): the journal's unfinished tournaments,
one rebuilt from its events once its lease is this server's, one dropped when its lease
is lost, those that still need their lease (not finished).  :meth:`HeldTournaments.known`
is every tournament of the journal, those run elsewhere folded from their events."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from ..tournament import Director, Finished, Phase, TournamentError
from .codec import decode, is_event
from .tables import leased
from .tournaments import TournamentHost, journaled

log = logging.getLogger("scopa.server")


class HeldTournaments:
    """What a cluster's tournament leases ask of this server's tournaments."""

    def __init__(self, host: TournamentHost) -> None:
        self.host = host
        self._folded: dict[str, tuple[int, Director]] = {}  # run elsewhere: its records read, its fold

    async def new_id(self) -> str | None:
        """A new tournament's id, its lease this server's (None: no id or no lease now).
        Its number is a table id's: unique in the cluster."""
        number = self.host.life.next_table_id()
        if number is None or self.host.leases is None:
            return None
        tid = f"c{number}"
        return tid if await leased(self.host.leases, tid) else None

    async def unfinished(self) -> list[str]:
        grouped = await journaled(self.host.life.storage)
        return [tid for tid, records in grouped.items() if not any(kind == Finished.__name__ for kind, _ in records)]

    async def adopt(self, table_ids: Sequence[str]) -> list[str]:
        grouped = await journaled(self.host.life.storage)
        served = []
        for tid in table_ids:
            if tid in self.host.directors or (tid in grouped and self.host.take(tid, grouped[tid])):
                served.append(tid)
                log.info("tournament %s: run here now, rebuilt from %d journal records", tid,
                         len(grouped.get(tid, ())))
        return [tid for tid in served if self.host.directors[tid].state.phase is not Phase.FINISHED]

    def give_up(self, table_id: str, reason: str) -> None:
        log.warning("tournament %s: no longer run here (%s)", table_id, reason)
        self.host.drop(table_id)

    def serving(self) -> list[str]:
        return [tid for tid, d in self.host.directors.items() if d.state.phase is not Phase.FINISHED]

    async def flush(self) -> None:
        if self.host.life.storage is not None:
            await self.host.life.storage.flush()

    async def known(self) -> dict[str, Director]:
        """Every tournament of the journal: those run here as they are, the others as
        their journaled events fold (a journal that does not rebuild one leaves it out)."""
        found: dict[str, Director] = {}
        for tid, records in (await journaled(self.host.life.storage)).items():
            held = self.host.directors.get(tid)
            if held is not None:
                found[tid] = held
                continue
            folded = self._folded.get(tid)
            if folded is None or folded[0] != len(records):
                try:
                    events = [r for r in (decode(kind, data) for kind, data in records) if is_event(r)]
                    folded = (len(records), Director.rebuild(events))  # type: ignore[arg-type]
                except (ValueError, TournamentError):
                    continue
                self._folded[tid] = folded
            found[tid] = folded[1]
        return found
