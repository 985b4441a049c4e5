"""The envelope every command travels in, and the tagged union of all commands.

On the wire a command is one msgpack map::

    {"v": 2, "seq": 7, "sender": "player:bob", "recipient": "table:3",
     "re": null, "name": "play", "body": {"card": "7d", "capture": ["3c", "4s"]}}

In Python it is a :class:`Command`; each command name has its own subclass, written out
below, whose ``name`` is a ``Literal`` and whose ``body`` is that command's body model.
:data:`AnyCommand` is their union, discriminated on ``name``, and :data:`COMMAND_ADAPTER`
decodes any of them in one call.  Build commands with :func:`make_command`.

A new body in :data:`~scopa.protocol.commands.BODY_TYPES` needs its command class here
and a place in :data:`AnyCommand`; the tests check that every body has both.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, Union, get_args

from pydantic import ConfigDict, Field, TypeAdapter

from . import commands as wire
from .commands import Body, WireModel
from .fields import build_models
from .fields import PartyStr, SeqNo

PROTOCOL_VERSION: Final = 2
DEFAULT_PORT: Final = 7015
"""The TCP port a server listens on, and a client connects to, when none is given."""
ENVELOPE_KEYS: frozenset[str] = frozenset({"v", "seq", "sender", "recipient", "re", "name", "body"})


class Command(WireModel):
    """One command: the envelope (version, sequence number, parties, name) and a body.

    ``seq`` numbers the commands one end sends on a connection (1, 2, 3, ...);
    ``re`` is the ``seq`` of the peer's command this one answers, if any.
    """

    v: Literal[2] = PROTOCOL_VERSION
    seq: SeqNo
    sender: PartyStr
    recipient: PartyStr
    re: SeqNo | None = None
    name: str
    body: Body


class HelloCommand(Command):
    """The ``hello`` command."""

    name: Literal["hello"] = "hello"
    body: wire.Hello


class WelcomeCommand(Command):
    """The ``welcome`` command."""

    name: Literal["welcome"] = "welcome"
    body: wire.Welcome


class ListTablesCommand(Command):
    """The ``list_tables`` command."""

    name: Literal["list_tables"] = "list_tables"
    body: wire.ListTables


class TablesCommand(Command):
    """The ``tables`` command."""

    name: Literal["tables"] = "tables"
    body: wire.Tables


class CreateTableCommand(Command):
    """The ``create_table`` command."""

    name: Literal["create_table"] = "create_table"
    body: wire.CreateTable


class TableCreatedCommand(Command):
    """The ``table_created`` command."""

    name: Literal["table_created"] = "table_created"
    body: wire.TableCreated


class JoinTableCommand(Command):
    """The ``join_table`` command."""

    name: Literal["join_table"] = "join_table"
    body: wire.JoinTable


class JoinedCommand(Command):
    """The ``joined`` command."""

    name: Literal["joined"] = "joined"
    body: wire.Joined


class LeaveTableCommand(Command):
    """The ``leave_table`` command."""

    name: Literal["leave_table"] = "leave_table"
    body: wire.LeaveTable


class LeftCommand(Command):
    """The ``left`` command."""

    name: Literal["left"] = "left"
    body: wire.Left


class TableUpdateCommand(Command):
    """The ``table_update`` command."""

    name: Literal["table_update"] = "table_update"
    body: wire.TableUpdate


class WatchLobbyCommand(Command):
    """The ``watch_lobby`` command."""

    name: Literal["watch_lobby"] = "watch_lobby"
    body: wire.WatchLobby


class UnwatchLobbyCommand(Command):
    """The ``unwatch_lobby`` command."""

    name: Literal["unwatch_lobby"] = "unwatch_lobby"
    body: wire.UnwatchLobby


class GameStartCommand(Command):
    """The ``game_start`` command."""

    name: Literal["game_start"] = "game_start"
    body: wire.GameStart


class RoundStartCommand(Command):
    """The ``round_start`` command."""

    name: Literal["round_start"] = "round_start"
    body: wire.RoundStart


class HandDealCommand(Command):
    """The ``deal`` command."""

    name: Literal["deal"] = "deal"
    body: wire.HandDeal


class YourTurnCommand(Command):
    """The ``your_turn`` command."""

    name: Literal["your_turn"] = "your_turn"
    body: wire.YourTurn


class PlayCardCommand(Command):
    """The ``play`` command."""

    name: Literal["play"] = "play"
    body: wire.PlayCard


class MakeDeclarationCommand(Command):
    """The ``declare`` command."""

    name: Literal["declare"] = "declare"
    body: wire.MakeDeclaration


class CardPlayedCommand(Command):
    """The ``played`` command."""

    name: Literal["played"] = "played"
    body: wire.CardPlayed


class DeclarationMadeCommand(Command):
    """The ``declared`` command."""

    name: Literal["declared"] = "declared"
    body: wire.DeclarationMade


class RoundEndCommand(Command):
    """The ``round_end`` command."""

    name: Literal["round_end"] = "round_end"
    body: wire.RoundEnd


class GameEndCommand(Command):
    """The ``game_end`` command."""

    name: Literal["game_end"] = "game_end"
    body: wire.GameEnd


class SeatAwayCommand(Command):
    """The ``seat_away`` command."""

    name: Literal["seat_away"] = "seat_away"
    body: wire.SeatAway


class SeatBackCommand(Command):
    """The ``seat_back`` command."""

    name: Literal["seat_back"] = "seat_back"
    body: wire.SeatBack


class SaveWaitingCommand(Command):
    """The ``save_waiting`` command."""

    name: Literal["save_waiting"] = "save_waiting"
    body: wire.SaveWaiting


class SeatReplacedCommand(Command):
    """The ``seat_replaced`` command."""

    name: Literal["seat_replaced"] = "seat_replaced"
    body: wire.SeatReplaced


class SnapshotCommand(Command):
    """The ``snapshot`` command."""

    name: Literal["snapshot"] = "snapshot"
    body: wire.Snapshot


class WatchTableCommand(Command):
    """The ``watch_table`` command."""

    name: Literal["watch_table"] = "watch_table"
    body: wire.WatchTable


class UnwatchTableCommand(Command):
    """The ``unwatch_table`` command."""

    name: Literal["unwatch_table"] = "unwatch_table"
    body: wire.UnwatchTable


class ErrorCommand(Command):
    """The ``error`` command."""

    name: Literal["error"] = "error"
    body: wire.Error


class PingCommand(Command):
    """The ``ping`` command."""

    name: Literal["ping"] = "ping"
    body: wire.Ping


class PongCommand(Command):
    """The ``pong`` command."""

    name: Literal["pong"] = "pong"
    body: wire.Pong


class ChatCommand(Command):
    """The ``chat`` command."""

    name: Literal["chat"] = "chat"
    body: wire.Chat


class ChatMessageCommand(Command):
    """The ``chat_message`` command."""

    name: Literal["chat_message"] = "chat_message"
    body: wire.ChatMessage


class ByeCommand(Command):
    """The ``bye`` command."""

    name: Literal["bye"] = "bye"
    body: wire.Bye


class AdminCommand(Command):
    """The ``admin`` command."""

    name: Literal["admin"] = "admin"
    body: wire.Admin


class AdminReplyCommand(Command):
    """The ``admin_reply`` command."""

    name: Literal["admin_reply"] = "admin_reply"
    body: wire.AdminReply


class ListGamesCommand(Command):
    """The ``list_games`` command."""

    name: Literal["list_games"] = "list_games"
    body: wire.ListGames


class GamesCommand(Command):
    """The ``games`` command."""

    name: Literal["games"] = "games"
    body: wire.Games


class GetRecordCommand(Command):
    """The ``get_record`` command."""

    name: Literal["get_record"] = "get_record"
    body: wire.GetRecord


class RecordReplyCommand(Command):
    """The ``record`` command."""

    name: Literal["record"] = "record"
    body: wire.RecordReply


class GetLeaderboardCommand(Command):
    """The ``get_leaderboard`` command."""

    name: Literal["get_leaderboard"] = "get_leaderboard"
    body: wire.GetLeaderboard


class LeaderboardCommand(Command):
    """The ``leaderboard`` command."""

    name: Literal["leaderboard"] = "leaderboard"
    body: wire.Leaderboard


class ClaimNameCommand(Command):
    """The ``claim_name`` command."""

    name: Literal["claim_name"] = "claim_name"
    body: wire.ClaimName


class NameClaimedCommand(Command):
    """The ``name_claimed`` command."""

    name: Literal["name_claimed"] = "name_claimed"
    body: wire.NameClaimed


class RedirectCommand(Command):
    """The ``redirect`` command."""

    name: Literal["redirect"] = "redirect"
    body: wire.Redirect


class QuickPlayCommand(Command):
    """The ``quick_play`` command."""

    name: Literal["quick_play"] = "quick_play"
    body: wire.QuickPlay


class QuickLeaveCommand(Command):
    """The ``quick_leave`` command."""

    name: Literal["quick_leave"] = "quick_leave"
    body: wire.QuickLeave


class QuickWaitingCommand(Command):
    """The ``quick_waiting`` command."""

    name: Literal["quick_waiting"] = "quick_waiting"
    body: wire.QuickWaiting


class TournamentCreateCommand(Command):
    """The ``tournament_create`` command."""

    name: Literal["tournament_create"] = "tournament_create"
    body: wire.TournamentCreate


class TournamentListCommand(Command):
    """The ``tournament_list`` command."""

    name: Literal["tournament_list"] = "tournament_list"
    body: wire.TournamentList


class TournamentsCommand(Command):
    """The ``tournaments`` command."""

    name: Literal["tournaments"] = "tournaments"
    body: wire.Tournaments


class TournamentJoinCommand(Command):
    """The ``tournament_join`` command."""

    name: Literal["tournament_join"] = "tournament_join"
    body: wire.TournamentJoin


class TournamentLeaveCommand(Command):
    """The ``tournament_leave`` command."""

    name: Literal["tournament_leave"] = "tournament_leave"
    body: wire.TournamentLeave


class TournamentStartCommand(Command):
    """The ``tournament_start`` command."""

    name: Literal["tournament_start"] = "tournament_start"
    body: wire.TournamentStart


class TournamentUpdateCommand(Command):
    """The ``tournament_update`` command."""

    name: Literal["tournament_update"] = "tournament_update"
    body: wire.TournamentUpdate


class GetStandingsCommand(Command):
    """The ``get_standings`` command."""

    name: Literal["get_standings"] = "get_standings"
    body: wire.GetStandings


class TournamentStandingsCommand(Command):
    """The ``tournament_standings`` command."""

    name: Literal["tournament_standings"] = "tournament_standings"
    body: wire.TournamentStandings


class TournamentRoundCommand(Command):
    """The ``tournament_round`` command."""

    name: Literal["tournament_round"] = "tournament_round"
    body: wire.TournamentRound


class TournamentTableCommand(Command):
    """The ``tournament_table`` command."""

    name: Literal["tournament_table"] = "tournament_table"
    body: wire.TournamentTable


class TournamentNoTableCommand(Command):
    """The ``tournament_no_table`` command."""

    name: Literal["tournament_no_table"] = "tournament_no_table"
    body: wire.TournamentNoTable


AnyCommand = Annotated[
    Union[
    HelloCommand,
    WelcomeCommand,
    ListTablesCommand,
    TablesCommand,
    CreateTableCommand,
    TableCreatedCommand,
    JoinTableCommand,
    JoinedCommand,
    LeaveTableCommand,
    LeftCommand,
    TableUpdateCommand,
    WatchLobbyCommand,
    UnwatchLobbyCommand,
    GameStartCommand,
    RoundStartCommand,
    HandDealCommand,
    YourTurnCommand,
    PlayCardCommand,
    MakeDeclarationCommand,
    CardPlayedCommand,
    DeclarationMadeCommand,
    RoundEndCommand,
    GameEndCommand,
    SeatAwayCommand,
    SeatBackCommand,
    SeatReplacedCommand,
    SaveWaitingCommand,
    SnapshotCommand,
    WatchTableCommand,
    UnwatchTableCommand,
    ErrorCommand,
    PingCommand,
    PongCommand,
    ChatCommand,
    ChatMessageCommand,
    ByeCommand,
    AdminCommand,
    AdminReplyCommand,
    ListGamesCommand,
    GamesCommand,
    GetRecordCommand,
    RecordReplyCommand,
    GetLeaderboardCommand,
    LeaderboardCommand,
    ClaimNameCommand,
    NameClaimedCommand,
    RedirectCommand,
    QuickPlayCommand,
    QuickLeaveCommand,
    QuickWaitingCommand,
    TournamentCreateCommand,
    TournamentListCommand,
    TournamentsCommand,
    TournamentJoinCommand,
    TournamentLeaveCommand,
    TournamentStartCommand,
    TournamentUpdateCommand,
    GetStandingsCommand,
    TournamentStandingsCommand,
    TournamentRoundCommand,
    TournamentTableCommand,
    TournamentNoTableCommand,
    ],
    Field(discriminator="name"),
]
"""The tagged union of every command class, discriminated on ``name``."""

COMMAND_TYPES: tuple[type[Command], ...] = get_args(get_args(AnyCommand)[0])
"""Every command class, in the order of :data:`~scopa.protocol.commands.BODY_TYPES`."""


def body_type_of(command_type: type[Command]) -> type[Body]:
    """The body model a command class carries."""
    annotation = command_type.model_fields["body"].annotation
    if not (isinstance(annotation, type) and issubclass(annotation, Body)):
        raise TypeError(f"{command_type.__name__}.body is not a Body model")
    return annotation


COMMAND_CLASSES: dict[type[Body], type[Command]] = {body_type_of(c): c for c in COMMAND_TYPES}
"""The command class of each body type."""

COMMAND_ADAPTER: TypeAdapter[AnyCommand] = TypeAdapter(AnyCommand, config=ConfigDict(cache_strings=False, defer_build=True))
"""Decodes any command; built on first use, as every wire model (:func:`build_wire_models`)."""


def build_wire_models() -> None:
    """Build now every wire model and :data:`COMMAND_ADAPTER`, which are otherwise built on
    their first use: a server calls it before it listens, so that no client's first
    command waits for them.  Idempotent."""
    build_models(WireModel)
    if not COMMAND_ADAPTER.pydantic_complete:
        COMMAND_ADAPTER.rebuild()


def make_command(
    body: Body,
    *,
    seq: int,
    sender: str,
    recipient: str,
    re: int | None = None,
) -> Command:
    """Wrap ``body`` in its envelope; ``ValueError`` (a pydantic one) if a field is invalid."""
    cls = COMMAND_CLASSES[type(body)]
    return cls(seq=seq, sender=sender, recipient=recipient, re=re, name=body.NAME, body=body)
