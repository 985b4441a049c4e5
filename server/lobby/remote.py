"""The tables of the other members of a cluster, as this server's lobby lists them: each
one's map as its member last published it, filed in the same listing index as this
server's own tables.  Nobody sits or watches at them here: a ``join_table`` or
``watch_table`` for one is answered with the address of the server it plays on."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from scopa.protocol import commands as wire

from .listing import Listing


@dataclass(frozen=True)
class RemoteTable:
    """A table of another member: its id, its member's id, and its map."""

    id: str
    member: str
    """The id of the member it plays on."""
    table: wire.TableInfo

    def info(self) -> wire.TableInfo:
        return self.table


class RemoteTables:
    """The other members' public tables, by id, filed in the listing index."""

    def __init__(self, listing: Listing) -> None:
        self.listing = listing
        self._tables: dict[str, RemoteTable] = {}

    def file(self, member: str, info: wire.TableInfo) -> None:
        """A table of ``member`` as it is now (a ``closed`` one leaves the listing)."""
        if info.state is wire.TableState.CLOSED or info.private:
            self.unfile(info.id)
            return
        entry = RemoteTable(info.id, member, info)
        self._tables[info.id] = entry
        self.listing.file(entry, info.state, info.rules.players)

    def unfile(self, table_id: str) -> RemoteTable | None:
        """The table leaves the listing: the entry it had, if any."""
        entry = self._tables.pop(table_id, None)
        if entry is not None:
            self.listing.unfile(table_id)
        return entry

    def of_member(self, member: str) -> list[RemoteTable]:
        """The tables listed for ``member``."""
        return [t for t in self._tables.values() if t.member == member]

    def get(self, table_id: str) -> RemoteTable | None:
        return self._tables.get(table_id)

    def where(self, table_id: str) -> str | None:
        """The address of the server where table ``table_id`` plays, if another member
        of the cluster has it."""
        entry = self._tables.get(table_id)
        return entry.table.member if entry is not None else None

    def __iter__(self) -> Iterator[RemoteTable]:
        return iter(list(self._tables.values()))

    def __len__(self) -> int:
        return len(self._tables)
