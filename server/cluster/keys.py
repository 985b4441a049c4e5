"""The keys and the channel the members of a cluster share in Redis, and the messages on
that channel (JSON), read and written here only.

Under the prefix ``P``:

- ``P:members``: a set, the ids of the members that joined (a member whose key expired
  is taken out by the first member that notices);
- ``P:member:ID``: the member's advertised address, with a TTL the member refreshes
  (its liveness);
- ``P:tables:ID``: a hash, the member's public tables (table id -> a ``table`` message's
  ``n`` and map), with the same TTL;
- ``P:name:KEY``: the id of the member one of whose connections goes by that name
  (``name_key``: names that look alike are one), with a TTL refreshed while it does; or
  ``table:ID``, a seat's name of a table handed on by a member that stopped, until the
  member that restores it takes it (server/cluster/names.py);
- ``P:table_ids``: the counter table ids are taken from, in blocks, when the members
  keep journals of their own (each block above the member's journal's highest id);
  members sharing one journal take them from the journal, never from here;
- ``P:lease:ID``, ``P:leased``: with one journal shared by the members, the member
  serving table ``ID`` and the tables that need one (server/cluster/leases.py);
- ``P:ticket:T``: a ``redirect``'s one-time ticket: the ``name_key`` of the name it is
  for, with a short TTL;
- ``P:pass:T``: the address that ticket's ``redirect`` named, as long: any member's web
  front relays the WebSocket that gives ``T`` there, once (server/web/relay.py);
- ``P:lobby``: the channel: ``table`` (a member's table as it is now; ``closed``: gone),
  ``chat`` (lobby chat), ``leave`` (a member stops); with one journal shared by the
  members, a tournament's news too (server/cluster/relay.py): ``ask`` (a tournament
  command of a player of one member, for the member running the tournament), ``answer``
  (its answer, for the member that asked), ``told`` (what the entrants of a tournament
  connected to other members are told; ``seat``: the table the server seats them at),
  ``came`` (a player connected to a member: the member running their tournament sends
  them to the seat it keeps for them, if any).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from scopa.protocol import commands as wire


@dataclass(frozen=True)
class Keys:
    """The names of the shared keys under one prefix."""

    prefix: str

    @property
    def members(self) -> str:
        return f"{self.prefix}:members"

    def member(self, member: str) -> str:
        return f"{self.prefix}:member:{member}"

    def tables(self, member: str) -> str:
        return f"{self.prefix}:tables:{member}"

    def name(self, key: str) -> str:
        return f"{self.prefix}:name:{key}"

    @property
    def table_ids(self) -> str:
        return f"{self.prefix}:table_ids"

    def lease(self, table_id: str) -> str:
        return f"{self.prefix}:lease:{table_id}"

    def ticket(self, ticket: str) -> str:
        return f"{self.prefix}:ticket:{ticket}"

    def passage(self, ticket: str) -> str:
        return f"{self.prefix}:pass:{ticket}"

    @property
    def leased(self) -> str:
        return f"{self.prefix}:leased"

    @property
    def lobby(self) -> str:
        return f"{self.prefix}:lobby"


@dataclass(frozen=True)
class TableNews:
    """A member's table as it is now; ``n`` orders one member's news of it."""

    member: str
    n: int
    table: wire.TableInfo


@dataclass(frozen=True)
class ChatNews:
    """Lobby chat said on another member."""

    member: str
    message: wire.ChatMessage


@dataclass(frozen=True)
class LeaveNews:
    """A member stops: its tables leave the lobby."""

    member: str


@dataclass(frozen=True)
class AskNews:
    """A tournament command of a player connected to member ``member``, for the member
    ``to`` running the tournament; ``ask``: its number on the asking member."""

    member: str
    to: str
    ask: int
    name: str
    client: str
    body: wire.Body


@dataclass(frozen=True)
class AnswerNews:
    """The answer of the member running a tournament to the command ``ask`` of member ``to``."""

    member: str
    to: str
    ask: int
    body: wire.Body


@dataclass(frozen=True)
class ToldNews:
    """What the member running a tournament tells its entrants ``names`` connected to other
    members; ``seat``: the table it keeps a seat at for them (they are sent there)."""

    member: str
    names: tuple[str, ...]
    body: wire.Body
    seat: str | None = None


@dataclass(frozen=True)
class CameNews:
    """A player connected to member ``member`` by ``name``."""

    member: str
    name: str


News = TableNews | ChatNews | LeaveNews | AskNews | AnswerNews | ToldNews | CameNews


def table_texts(member: str, n: int, table: wire.TableInfo) -> tuple[str, str]:
    """A table of ``member`` as its hash keeps it and as its ``table`` message says it (the
    table's map dumped once for both): read back by :func:`read_entry` and :func:`read_news`."""
    dumped = json.dumps(table.model_dump(mode="json"), separators=(",", ":"))
    return (f'{{"n":{n:d},"table":{dumped}}}',
            f'{{"k":"table","m":{json.dumps(member)},"n":{n:d},"table":{dumped}}}')


def read_entry(member: str, raw: bytes | str) -> TableNews | None:
    """A table from its member's hash (None: unreadable)."""
    news = read_news(_text(raw), kind="table", member=member)
    return news if isinstance(news, TableNews) else None


def chat_news(member: str, message: wire.ChatMessage) -> str:
    return json.dumps({"k": "chat", "m": member, "chat": message.model_dump(mode="json")}, separators=(",", ":"))


def leave_news(member: str) -> str:
    return json.dumps({"k": "leave", "m": member}, separators=(",", ":"))


def ask_news(news: AskNews) -> str:
    return json.dumps({"k": "ask", "m": news.member, "to": news.to, "ask": news.ask, "name": news.name,
                       "client": news.client, "body": _body(news.body)}, separators=(",", ":"))


def answer_news(news: AnswerNews) -> str:
    return json.dumps({"k": "answer", "m": news.member, "to": news.to, "ask": news.ask, "body": _body(news.body)},
                      separators=(",", ":"))


def told_news(news: ToldNews) -> str:
    return json.dumps({"k": "told", "m": news.member, "names": list(news.names), "body": _body(news.body),
                       "seat": news.seat}, separators=(",", ":"))


def came_news(news: CameNews) -> str:
    return json.dumps({"k": "came", "m": news.member, "name": news.name}, separators=(",", ":"))


def _body(body: wire.Body) -> dict[str, Any]:
    return {"name": body.NAME, "body": body.model_dump(mode="json")}


def _read_body(data: Any) -> wire.Body:
    return wire.BODY_BY_NAME[str(data["name"])].model_validate(data["body"], strict=False)


def read_news(raw: bytes | str, *, kind: str | None = None, member: str | None = None,
              unless_from: str | None = None) -> News | None:
    """A message of the channel (None: unreadable, of a kind this server does not know,
    or sent by member ``unless_from``: a member hears its own messages too, and reads
    no further than who sent them)."""
    try:
        data: Any = json.loads(_text(raw))
        kind = kind if kind is not None else data["k"]
        member = member if member is not None else str(data["m"])
        if member == unless_from:
            return None
        if kind == "table":
            return TableNews(member, int(data["n"]), wire.TableInfo.model_validate(data["table"], strict=False))
        if kind == "chat":
            return ChatNews(member, wire.ChatMessage.model_validate(data["chat"], strict=False))
        if kind == "leave":
            return LeaveNews(member)
        if kind == "ask":
            return AskNews(member, str(data["to"]), int(data["ask"]), str(data["name"]), str(data["client"]),
                           _read_body(data["body"]))
        if kind == "answer":
            return AnswerNews(member, str(data["to"]), int(data["ask"]), _read_body(data["body"]))
        if kind == "came":
            return CameNews(member, str(data["name"]))
        if kind == "told":
            seat = data.get("seat")
            return ToldNews(member, tuple(str(n) for n in data["names"]), _read_body(data["body"]),
                            str(seat) if seat is not None else None)
    except (ValueError, KeyError, TypeError, ValidationError):
        pass
    return None


def _text(raw: bytes | str) -> str:
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
