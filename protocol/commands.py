"""The command bodies: one strict pydantic model per command name.

A body holds only plain wire values (card strings, seat numbers, names).  Each body
class knows its wire ``NAME`` and which way it may travel (:class:`Flow`); the
envelope around it (version, seq, sender, recipient) lives in
:mod:`scopa.protocol.envelope`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from scopa.engine.actions import DeclarationKind as DeclarationKind  # V13: one definition, engine and wire
from scopa.engine.rules import Preset

from .errors import ErrorCode
from .record import Record
from .rules import WireRules
from .fields import (
    MAX_CARDS,
    MAX_SEATS,
    BotName,
    Cards,
    CardStr,
    ChosenToken,
    Count,
    EventNo,
    PartyStr,
    Counts,
    PointsList,
    PlayerName,
    PlayerParty,
    Points,
    Seat,
    ShortText,
    Side,
    TableId,
    Text,
    Token,
    TurnTimeout,
    TurnLeftMs,
    HostPort,
    Host,
    Word,
    AdminToken,
    InviteCode,
)

MAX_PAGE = 50
"""Tables in one page of a listing (``list_tables``, the operator's ``tables``)."""
READING_TIME = 15.0
"""Seconds more on the clock of a round's first turn: the time to read the round's score
before the new round is played (PROTOCOL.md §7, Turn clock)."""
MAX_CLUSTER_ADDRESSES = 32
"""Addresses of a cluster in one ``welcome``."""
MAX_LAN_HOSTS = 8
"""Addresses a server is reached at from other machines, in one ``welcome``."""
MAX_ADMIN_ROWS = 200
"""Connections or damaged tables in one ``admin_reply``."""


class Flow(StrEnum):
    """Which way a command may travel."""

    TO_SERVER = "to_server"  # client -> server (lobby or a table)
    TO_CLIENT = "to_client"  # server -> client
    BOTH = "both"


class WireModel(BaseModel):
    """Base of every wire model: strict, closed, immutable.  Each model's validator and
    serializer are built on its first use, not on import (a command line that never sends
    one does not pay for them); a server builds them all before it listens
    (:func:`~scopa.protocol.envelope.build_wire_models`)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, defer_build=True)



class Body(WireModel):
    """Base of every command body."""

    NAME: ClassVar[str]
    FLOW: ClassVar[Flow]


class TableEvent(Body):
    """A body the game master sends about the game: numbered per table for resume."""

    event: EventNo = Field(description="per-table event number, increasing")


# --- values shared by several bodies -------------------------------------------------


class Role(StrEnum):
    PLAYER = "player"
    SPECTATOR = "spectator"


class LeftReason(StrEnum):
    """Why ``left`` says a client is no longer at a table (the wire keeps it a word:
    a later version may add reasons, and clients ignore what they do not know)."""

    LEFT = "left"  # it asked (leave_table)
    GAME_OVER = "game_over"
    ABANDONED = "abandoned"  # another seat ended the game
    UNWATCHED = "unwatched"  # it stopped watching
    CLOSED = "closed"  # the waiting table was closed


class ForcedBy(StrEnum):
    """Why the game master made a ``played`` for a seat (``forced``)."""

    TIMEOUT = "timeout"  # the turn clock ran out
    REFUSED = "refused"  # the seat's answers were refused too often


class TableState(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"
    CLOSED = "closed"  # the table is gone (only in a table_update to lobby watchers)


class ResumeRequest(WireModel):
    """Reconnecting to a seat: the token from ``joined`` and the last event number seen."""

    token: Token
    last_event: EventNo
    table: TableId | None = None
    """The table of the seat: a cluster's member that does not serve it sends the client
    where it does (``redirect``)."""


class TableInfo(WireModel):
    id: TableId
    rules: WireRules
    description: ShortText
    seats: Annotated[list[PlayerName | None], Field(min_length=2, max_length=MAX_SEATS)]
    state: TableState
    private: bool = False
    spectators: Count = 0
    away: Annotated[list[Seat], Field(max_length=MAX_SEATS)] = []
    turn_timeout: TurnTimeout | None = None
    member: HostPort | None = Field(default=None, exclude_if=lambda v: v is None)
    """In a cluster: the address of the server the table plays on (left out otherwise)."""
    bot_takeover: bool = Field(default=True, exclude_if=lambda v: v is True)
    """A seat whose person leaves the game is played on by a bot (true) or the game ends
    (false, the only value sent: left out when true)."""
    bots: Annotated[list[Seat], Field(max_length=MAX_SEATS)] = Field(default=[], exclude_if=lambda v: not v)
    """The seats a built-in bot plays: seated with the table, or playing on for a person
    who left the game or did not come back (left out when a person holds every seat)."""
    rematch_of: TableId | None = Field(default=None, exclude_if=lambda v: v is None)
    """A rematch: the finished table whose players it was made for (they may join it
    without its invite); left out otherwise."""
    abandoned: bool = Field(default=False, exclude_if=lambda v: not v)
    """A finished table whose game was abandoned, with no winner (a person left it or did
    not come back, or the operator closed it): sent only when true, left out otherwise."""


class PlayAt(WireModel):
    """A play of the game: the round, and its index among that round's plays."""

    round: Annotated[int, Field(ge=0, le=10_000)]
    play: Annotated[int, Field(ge=0, le=1000)]


class SeatInfo(WireModel):
    seat: Seat
    name: PlayerName
    side: Side
    bot: bool = False
    bot_from: PlayAt | None = Field(default=None, exclude_if=lambda v: v is None,
                                    description="a person's seat a built-in bot took over: the first play the bot "
                                                "made for it (or would make)")
    bot_until: PlayAt | None = Field(default=None, exclude_if=lambda v: v is None,
                                     description="the person took the seat back: the first play theirs again")


class LegalMove(WireModel):
    index: Annotated[int, Field(ge=0, le=1000)]
    card: CardStr
    capture: Cards


class DeclarationOption(WireModel):
    kind: DeclarationKind
    wild: Annotated[int, Field(ge=1, le=10)] | None = None
    points: Points


class DeclaredHand(WireModel):
    seat: Seat
    hand: Cards


class PlayLogEntry(WireModel):
    """One play of the current round, as everyone at the table saw it."""

    seat: Seat
    card: CardStr
    captured: Cards
    scopa: bool = Field(default=False, exclude_if=lambda v: not v, description="it swept the table (R16)")
    forced: ForcedBy | None = Field(default=None, exclude_if=lambda v: v is None,
                                    description="the server played it for the seat: why (as played's forced)")
    bot: bool = Field(default=False, exclude_if=lambda v: not v,
                      description="a built-in bot played it for the seat's person (away or gone)")


class PileInfo(WireModel):
    """What anyone can count in one side's captured pile this round (R19)."""

    cards: Count
    denari: Count
    settebello: bool
    primiera: Count  # R21's sum so far; 0 while a suit is missing
    scope: Count


class SideTally(WireModel):
    """The raw numbers behind one side's round score (R21 and the variant extras)."""

    cards: Count
    denari: Count
    primiera: Count  # 0: a suit is missing
    primiera_cards: Cards = Field(default_factory=list, exclude_if=lambda v: not v,
                                  description="R21: the best card of each suit the side took, in suit order")
    settebello: bool
    scope: Count
    sevens: Count = 0  # V7: sevens captured
    honours: Count = 0  # V12: aces and court cards captured
    denari_run: Count = 0  # V3/V13: Denari in an unbroken run from the ace
    declarations: Points = 0  # V13: points declared this round


class PublicView(WireModel):
    """What anyone may see of a game (a spectator's view): no hand, no stock order."""

    round: Annotated[int, Field(ge=1, le=10_000)]
    dealer: Seat
    turn: Seat
    table: Cards
    stock: Count
    hand_sizes: Counts
    captured: Annotated[list[Cards], Field(max_length=MAX_SEATS)]
    scope: Counts
    scopa_cards: Annotated[list[Cards], Field(max_length=MAX_SEATS)]
    totals: PointsList
    declared: Annotated[list[DeclaredHand], Field(max_length=MAX_SEATS)] = []
    round_plays: Annotated[list[PlayLogEntry], Field(max_length=MAX_CARDS)] = []
    last_capture_side: Side | None = None
    piles: Annotated[list[PileInfo], Field(max_length=MAX_SEATS)] = []


class SeatView(PublicView):
    """What one seat may see (R7, R19): the public view plus the seat's own hand — the
    state a bot needs to choose a move."""

    seat: Seat
    side: Side
    hand: Cards


RuleOptionValue = bool | int | str | None


def _absent(value: object) -> bool:
    """Whether an optional field is left out of the body (``turn_left_ms``: no clock runs)."""
    return value is None

# --- connection and lobby ------------------------------------------------------------


class Hello(Body):
    NAME = "hello"
    FLOW = Flow.TO_SERVER
    name: PlayerName
    role: Role = Role.PLAYER
    client: ShortText = ""
    resume: ResumeRequest | None = None
    password: Annotated[str, Field(min_length=8, max_length=200)] | None = None
    proxied_for: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{8,64}$")] | None = None
    """Set by a front end the server trusts (a web host): the opaque identity of the user
    this connection is for; capped per identity instead of per address (PROTOCOL.md §7, "Front ends")."""
    ticket: Token | None = None
    """A ``redirect``'s ticket: this connection takes the name the client had on the
    member that sent it (PROTOCOL.md §7, "A cluster's lobby")."""


class Welcome(Body):
    NAME = "welcome"
    FLOW = Flow.TO_CLIENT
    you: PlayerParty
    server: ShortText
    protocol: Annotated[int, Field(ge=1, le=1000)]
    motd: Text = ""
    turn_timeout: TurnTimeout | None = Field(default=None, exclude_if=_absent,
                                             description="the server's turn clock: the longest a table may ask for")
    reading_time: Annotated[float, Field(ge=0, le=3600)] | None = Field(
        default=None, exclude_if=_absent, description="the seconds more than the table's turn_timeout each seat's "
                                                      "first turn of a round gets (PROTOCOL.md §7, Turn clock)")
    web_port: Annotated[int, Field(ge=1, le=65535)] | None = Field(
        default=None, exclude_if=_absent, description="the port of the server's web page on the host the client "
                                                      "reached, when it serves one (an invite's link points there)")
    lan_hosts: Annotated[list[Host], Field(max_length=MAX_LAN_HOSTS)] = Field(
        default=[], exclude_if=lambda v: not v,
        description="the addresses (no port: the one the client reached) at which other machines reach this "
                    "server: the LAN addresses it announces, or the host it listens on when not loopback; "
                    "left out when it listens on loopback only (an invite made on loopback names one of these)")
    cluster: Annotated[list[HostPort], Field(max_length=MAX_CLUSTER_ADDRESSES)] = Field(
        default=[], exclude_if=lambda v: not v)
    """From a member of a cluster: the addresses at which the cluster can be reached (its
    operator's seeds, then each member's), to try when this member is gone (left out
    otherwise)."""


class ListTables(Body):
    NAME = "list_tables"
    FLOW = Flow.TO_SERVER
    state: TableState | None = None
    players: Annotated[int, Field(ge=2, le=MAX_SEATS)] | None = None
    after: TableId | None = None
    limit: Annotated[int, Field(ge=1, le=MAX_PAGE)] = MAX_PAGE


class Tables(Body):
    NAME = "tables"
    FLOW = Flow.TO_CLIENT
    tables: Annotated[list[TableInfo], Field(max_length=64)]
    next: TableId | None = None
    total: Count = 0


class CreateTable(Body):
    NAME = "create_table"
    FLOW = Flow.TO_SERVER
    preset: Preset | None = None
    options: Annotated[dict[Word, RuleOptionValue], Field(max_length=32)] = {}
    rules: WireRules | None = None
    fill_with_bots: Annotated[list[BotName], Field(max_length=MAX_SEATS - 1)] = []
    sit: bool = True
    private: bool = False
    turn_timeout: TurnTimeout | None = None
    bot_takeover: bool = True
    no_turn_timer: bool = False
    token: ChosenToken | None = None
    rematch_of: TableId | None = None
    """The finished table (of this server, where the maker sat) this one is a rematch of:
    its other players are told of it (a ``table_update``) and may join without the invite."""

    @model_validator(mode="after")
    def _rules_or_preset(self) -> CreateTable:
        if self.rules is not None and (self.preset is not None or self.options):
            raise ValueError("give either rules, or a preset and options, not both")
        return self


class TableCreated(Body):
    NAME = "table_created"
    FLOW = Flow.TO_CLIENT
    table: TableInfo
    invite: InviteCode | None = None


class JoinTable(Body):
    NAME = "join_table"
    FLOW = Flow.TO_SERVER
    table: TableId
    invite: InviteCode | None = None
    token: ChosenToken | None = None


class ChatMessage(Body):
    NAME = "chat_message"
    FLOW = Flow.TO_CLIENT
    author: PartyStr
    text: Annotated[str, Field(min_length=1, max_length=500)]


CHAT_KEPT = 20
"""How many of a table's last chat messages a seat coming back gets (``joined.chat``)."""


def _none_said(value: list[ChatMessage]) -> bool:
    """Whether a ``joined`` leaves its ``chat`` out: nothing said at the table yet, or not a resume."""
    return not value


class Joined(Body):
    NAME = "joined"
    FLOW = Flow.TO_CLIENT
    table: TableId
    seat: Seat
    side: Side
    token: Token
    resumed: bool = False
    chat: Annotated[list[ChatMessage], Field(max_length=CHAT_KEPT)] = Field(
        default=[], exclude_if=_none_said,
        description="a resume's: the table's last chat messages, oldest first, for the chat the seat missed; "
                    "a rematch's on taking a seat there: the finished game's last chat messages, for the chat to go on")


class LeaveTable(Body):
    NAME = "leave_table"
    FLOW = Flow.TO_SERVER
    table: TableId


class Left(Body):
    NAME = "left"
    FLOW = Flow.TO_CLIENT
    table: TableId
    reason: Word = "left"


class TableUpdate(Body):
    NAME = "table_update"
    FLOW = Flow.TO_CLIENT
    table: TableInfo


class WatchLobby(Body):
    NAME = "watch_lobby"
    FLOW = Flow.TO_SERVER


class UnwatchLobby(Body):
    NAME = "unwatch_lobby"
    FLOW = Flow.TO_SERVER


# --- the game ------------------------------------------------------------------------


class GameStart(TableEvent):
    NAME = "game_start"
    FLOW = Flow.TO_CLIENT
    rules: WireRules
    seats: Annotated[list[SeatInfo], Field(min_length=2, max_length=MAX_SEATS)]
    sides: Annotated[list[Annotated[list[Seat], Field(max_length=MAX_SEATS)]], Field(max_length=MAX_SEATS)]


class RoundStart(TableEvent):
    NAME = "round_start"
    FLOW = Flow.TO_CLIENT
    round: Annotated[int, Field(ge=1, le=10_000)]
    dealer: Seat
    table: Cards
    stock: Count
    dealer_bonus_cards: Cards = []
    dealer_bonus_scope: Annotated[int, Field(ge=0, le=2)] = 0
    turn_left_ms: TurnLeftMs | None = Field(default=None, exclude_if=_absent,
                                            description="the first turn's clock (the seat after the dealer), from now; "
                                                        "with 15 s of reading time more")


class HandDeal(TableEvent):
    """A seat's hand after a deal (``deal`` on the wire; the engine's ``Deal`` is a shuffled deck)."""

    NAME = "deal"
    FLOW = Flow.TO_CLIENT
    cards: Cards
    hand: Cards
    stock: Count


class YourTurn(TableEvent):
    NAME = "your_turn"
    FLOW = Flow.TO_CLIENT
    legal: Annotated[list[LegalMove], Field(min_length=1, max_length=1000)]
    declarations: Annotated[list[DeclarationOption], Field(max_length=32)] = []
    view: SeatView
    turn_left_ms: TurnLeftMs | None = Field(default=None, exclude_if=_absent,
                                            description="the time you have left for this turn, from now")


class PlayCard(Body):
    NAME = "play"
    FLOW = Flow.TO_SERVER
    card: CardStr
    capture: Cards = []
    turn: EventNo | None = None

    @field_validator("capture")
    @classmethod
    def _distinct(cls, capture: list[str]) -> list[str]:
        if len(set(capture)) != len(capture):
            raise ValueError("a card appears twice in capture")
        return capture


class MakeDeclaration(Body):
    NAME = "declare"
    FLOW = Flow.TO_SERVER
    kind: DeclarationKind
    wild: Annotated[int, Field(ge=1, le=10)] | None = None
    turn: EventNo | None = None


class CardPlayed(TableEvent):
    NAME = "played"
    FLOW = Flow.TO_CLIENT
    seat: Seat
    card: CardStr
    captured: Cards
    scopa: bool
    table: Cards
    forced: Word | None = None
    turn_left_ms: TurnLeftMs | None = Field(default=None, exclude_if=_absent,
                                            description="the next turn's clock (the seat after this one), from now")


class DeclarationMade(TableEvent):
    NAME = "declared"
    FLOW = Flow.TO_CLIENT
    seat: Seat
    kind: DeclarationKind
    hand: Cards
    wild: Annotated[int, Field(ge=1, le=10)] | None = None
    points: Points
    turn_left_ms: TurnLeftMs | None = Field(default=None, exclude_if=_absent,
                                            description="the clock of this seat's turn, which starts again, from now")


class RoundEnd(TableEvent):
    NAME = "round_end"
    FLOW = Flow.TO_CLIENT
    round: Annotated[int, Field(ge=1, le=10_000)]
    leftover: Cards = []
    leftover_to: Side | None = None
    cards: Counts
    breakdown: Annotated[list[Annotated[dict[Word, Points], Field(max_length=32)]], Field(max_length=MAX_SEATS)]
    tallies: Annotated[list[SideTally], Field(max_length=MAX_SEATS)] = []
    points: PointsList
    totals: PointsList


class GameEnd(TableEvent):
    NAME = "game_end"
    FLOW = Flow.TO_CLIENT
    winner: Side | None
    totals: PointsList
    reason: Word
    leaver: Seat | None = Field(default=None, exclude_if=lambda v: v is None)
    """Reason ``abandoned``: the seat whose person left (or did not come back); left out otherwise."""


# --- who is at the table --------------------------------------------------------------


class SeatAway(Body):
    NAME = "seat_away"
    FLOW = Flow.TO_CLIENT
    event: EventNo | None = None  # numbered once the game has begun (PROTOCOL.md §2)
    seat: Seat
    name: PlayerName
    grace_seconds: Annotated[float, Field(ge=0, le=86_400)]


class SeatBack(Body):
    NAME = "seat_back"
    FLOW = Flow.TO_CLIENT
    event: EventNo | None = None  # numbered once the game has begun (PROTOCOL.md §2)
    seat: Seat
    name: PlayerName
    turn_left_ms: TurnLeftMs | None = Field(default=None, exclude_if=_absent,
                                            description="the clock of the turn waiting now, from now")
    bot_played: bool = Field(default=False, exclude_if=lambda v: not v,
                             description="a built-in bot played the seat since its grace period ran out; its person "
                                         "plays it again from now on")


class SeatReplaced(Body):
    NAME = "seat_replaced"
    FLOW = Flow.TO_CLIENT
    event: EventNo | None = None  # numbered once the game has begun (PROTOCOL.md §2)
    seat: Seat
    name: PlayerName
    strategy: BotName


class SaveWaiting(Body):
    """The server cannot save this table's moves for now (``waiting``): the game waits
    until it can (no move is announced before it is saved); ``waiting`` false: saved again."""

    NAME = "save_waiting"
    FLOW = Flow.TO_CLIENT
    waiting: bool
    reason: ShortText = ""


# --- reconnecting and watching --------------------------------------------------------


class Snapshot(Body):
    NAME = "snapshot"
    FLOW = Flow.TO_CLIENT
    event: EventNo = Field(description="the last event number this snapshot includes")
    table: TableInfo
    seats: Annotated[list[SeatInfo], Field(max_length=MAX_SEATS)] = []
    sides: Annotated[list[Annotated[list[Seat], Field(max_length=MAX_SEATS)]], Field(max_length=MAX_SEATS)] = []
    public: PublicView | None = None
    you: SeatView | None = None
    turn_left_ms: TurnLeftMs | None = Field(default=None, exclude_if=_absent,
                                            description="the clock of the turn waiting now (public.turn's), from now")
    last_round: RoundEnd | None = Field(default=None, exclude_if=_absent,
                                        description="the game's last round_end (as it went out), so a client coming "
                                                    "back can show the round's result again; left out before any")
    chat: Annotated[list[ChatMessage], Field(max_length=CHAT_KEPT)] = Field(
        default=[], exclude_if=_none_said,
        description="a spectator's: the table's last chat messages, oldest first (a rematch's: the finished game's "
                    "too), in place of any it shows; left out for a seat (joined carries them) and when none was said")


class WatchTable(Body):
    NAME = "watch_table"
    FLOW = Flow.TO_SERVER
    table: TableId
    invite: InviteCode | None = None
    last_event: EventNo | None = None
    """Watching again after a lost connection: the highest event number seen; the
    public events after it come first, then the snapshot (PROTOCOL.md §7, Watching)."""


class UnwatchTable(Body):
    NAME = "unwatch_table"
    FLOW = Flow.TO_SERVER
    table: TableId


# --- any time ------------------------------------------------------------------------


class Error(Body):
    NAME = "error"
    FLOW = Flow.BOTH
    code: ErrorCode
    message: Text
    fatal: bool = False
    retry_after: Annotated[float, Field(ge=0, le=3600)] | None = Field(default=None, exclude_if=lambda v: v is None)
    """Seconds to wait before trying again (a ``rate_limited`` that says how long; left out otherwise)."""


class Ping(Body):
    NAME = "ping"
    FLOW = Flow.BOTH
    nonce: Annotated[int, Field(ge=0, le=2**32 - 1)] = 0


class Pong(Body):
    NAME = "pong"
    FLOW = Flow.BOTH
    nonce: Annotated[int, Field(ge=0, le=2**32 - 1)] = 0


class Chat(Body):
    NAME = "chat"
    FLOW = Flow.TO_SERVER
    text: Annotated[str, Field(min_length=1, max_length=500)]


class Bye(Body):
    NAME = "bye"
    FLOW = Flow.BOTH
    reason: ShortText = ""


# --- hardening: the operator's commands ----------------------------------------------
# (the paged ``list_tables``, invite codes of private tables and ``no_turn_timer`` are
# fields of the lobby commands above; see PROTOCOL.md "Limits, private tables and the
# operator")


class AdminOp(StrEnum):
    """What the operator asks of the server (``scopa admin``)."""

    CONNECTIONS = "connections"  # list the open connections
    TABLES = "tables"  # list every table, private ones too (paged: target = the id after which)
    CLOSE_TABLE = "close_table"  # close table ``target`` (a running game is recorded as abandoned)
    KICK = "kick"  # disconnect the client named ``target``
    DAMAGED = "damaged"  # the journaled tables that could not be restored
    STOP = "stop"  # stop gracefully: running games are journaled and resume on the next start


class ConnectionInfo(WireModel):
    id: Count
    name: PlayerName | None = None
    peer: ShortText
    table: TableId | None = None
    watching: TableId | None = None
    queued_bytes: Count = 0


class DamagedTable(WireModel):
    id: TableId
    reason: Text


class Admin(Body):
    NAME = "admin"
    FLOW = Flow.TO_SERVER
    token: AdminToken
    op: AdminOp
    target: ShortText = ""


class AdminReply(Body):
    NAME = "admin_reply"
    FLOW = Flow.TO_CLIENT
    op: AdminOp
    message: ShortText = ""
    connections: Annotated[list[ConnectionInfo], Field(max_length=MAX_ADMIN_ROWS)] = []
    tables: Annotated[list[TableInfo], Field(max_length=MAX_PAGE)] = []
    damaged: Annotated[list[DamagedTable], Field(max_length=MAX_ADMIN_ROWS)] = []
    next: TableId | None = None
    total: Count = 0


# --- finished games, records, ratings and accounts (PROTOCOL.md §13) ------------------

Password = Annotated[str, Field(min_length=8, max_length=200)]


class GameSummary(WireModel):
    """One finished game in a ``games`` listing."""

    id: TableId
    ended: ShortText = Field(description="when the game ended, ISO 8601 UTC")
    preset: Word = Field(description="the rules' preset, or custom")
    description: ShortText
    players: Annotated[list[PlayerName], Field(min_length=2, max_length=MAX_SEATS)]
    winner: Side | None
    totals: PointsList
    reason: Word
    leaver: Seat | None = Field(default=None, exclude_if=lambda v: v is None)
    """Reason ``abandoned``: the seat whose person left (or did not come back); left out otherwise."""
    private: bool = False
    taken_over: Annotated[list[Seat], Field(max_length=MAX_SEATS)] = Field(
        default=[], exclude_if=lambda v: not v,
        description="the seats whose person left the game or did not come back to it: a bot finished them")


class ListGames(Body):
    NAME = "list_games"
    FLOW = Flow.TO_SERVER
    player: PlayerName | None = None
    preset: Preset | None = None
    limit: Annotated[int, Field(ge=1, le=100)] = 50
    tokens: Annotated[list[Token], Field(max_length=16)] = []


class Games(Body):
    NAME = "games"
    FLOW = Flow.TO_CLIENT
    games: Annotated[list[GameSummary], Field(max_length=100)]


class GetRecord(Body):
    NAME = "get_record"
    FLOW = Flow.TO_SERVER
    game: TableId
    token: Token | None = None
    invite: InviteCode | None = None
    """A private table's game, while the server still holds its table: that table's invite
    (what a spectator who came by the invite link holds instead of a seat token)."""


class RecordReply(Body):
    NAME = "record"
    FLOW = Flow.TO_CLIENT
    game: TableId
    record: Record


class GetLeaderboard(Body):
    NAME = "get_leaderboard"
    FLOW = Flow.TO_SERVER
    preset: Preset = Preset.SCOPA
    limit: Annotated[int, Field(ge=1, le=100)] = 20


class RatingEntry(WireModel):
    rank: Annotated[int, Field(ge=1)]
    name: PlayerName
    rating: float = Field(description="mu - 3 sigma")
    mu: float
    sigma: Annotated[float, Field(ge=0)]
    games: Count
    wins: Count


class UnratedReason(StrEnum):
    """Why finished games were not rated (PROTOCOL.md §14, Ratings; the wire keeps it a
    word: a later server may add reasons, and clients show one they do not know as it came)."""

    SERVER_BOT = "server_bot"  # a server bot sat at the table from the start
    ONE_NAME = "one_name"  # one name (or look-alikes) held two seats
    ONE_ADDRESS = "one_address"  # two seats were played from one address
    ORIGIN_UNKNOWN = "origin_unknown"  # where a seat was played from is not known (a restored game)
    NOT_BY_THE_RULES = "not_by_the_rules"  # the server abandoned it: nobody's loss


class UnratedGames(WireModel):
    reason: Word
    games: Annotated[int, Field(ge=1)]


class Leaderboard(Body):
    NAME = "leaderboard"
    FLOW = Flow.TO_CLIENT
    preset: Preset
    entries: Annotated[list[RatingEntry], Field(max_length=100)]
    unrated: Annotated[list[UnratedGames], Field(max_length=16)] = []


class ClaimName(Body):
    NAME = "claim_name"
    FLOW = Flow.TO_SERVER
    password: Password


class NameClaimed(Body):
    NAME = "name_claimed"
    FLOW = Flow.TO_CLIENT
    name: PlayerName


class Redirect(Body):
    """The table asked for is served by another member of the cluster: connect to
    ``address`` and say ``hello`` with ``ticket``, then ask again (PROTOCOL.md §7)."""

    NAME = "redirect"
    FLOW = Flow.TO_CLIENT
    table: TableId
    address: ShortText
    ticket: Token


# --------------------------------------------------------------------------- quick play and tournaments (§16)

MAX_ENTRANTS = 256
"""Entrants of one tournament, and rows of its standings."""


class QuickPlay(Body):
    """Wait for a quick game of ``preset`` with whoever else asks for it."""

    NAME = "quick_play"
    FLOW = Flow.TO_SERVER
    preset: Preset = Preset.SCOPA
    bot_after: Annotated[int, Field(ge=1, le=600)] | None = Field(
        default=None, description="seconds: still waiting then, play against bots instead; nil: wait on")


class QuickLeave(Body):
    NAME = "quick_leave"
    FLOW = Flow.TO_SERVER


class QuickWaiting(Body):
    NAME = "quick_waiting"
    FLOW = Flow.TO_CLIENT
    preset: Preset
    others: Count = Field(description="how many others wait for the same game")


class TournamentFormat(StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    KNOCKOUT = "knockout"


class KnockoutTie(StrEnum):
    """What a drawn knockout game leads to: the same two play again."""

    REMATCH = "rematch"
    DECIDING_ROUND = "deciding_round"


class StandingsKey(StrEnum):
    """What a tournament's standings rank by, in order (§16)."""

    ROUND_REACHED = "round_reached"
    MATCH_POINTS = "match_points"
    BUCHHOLZ = "buchholz"
    GAME_POINTS = "game_points"
    SEED = "seed"


class TournamentPhase(StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"


class TournamentCreate(Body):
    NAME = "tournament_create"
    FLOW = Flow.TO_SERVER
    name: Annotated[str, Field(min_length=1, max_length=64)]
    preset: Preset = Preset.SCOPA
    format: TournamentFormat
    rounds: Annotated[int, Field(ge=0, le=50)] = Field(default=0, description="Swiss: how many rounds")
    cap: Annotated[int, Field(ge=2, le=MAX_ENTRANTS)]
    starts_in: Annotated[int, Field(ge=1, le=7 * 86400)] | None = Field(
        default=None, description="seconds from now; nil: when its creator starts it")
    grace: Annotated[int, Field(ge=5, le=600)] = Field(default=60, description="seconds to come to a table")
    bots_allowed: bool = Field(default=False, description="a bot may stand in for a player who leaves a game")
    tie_break: KnockoutTie = KnockoutTie.REMATCH
    token: AdminToken | None = Field(
        default=None, description="the operator's token (scopa admin's): on a server where only its operator "
                                  "creates tournaments; left out otherwise")


class TournamentInfo(WireModel):
    id: TableId
    name: Annotated[str, Field(min_length=1, max_length=64)]
    creator: PlayerName
    preset: Preset
    format: TournamentFormat
    rounds: Annotated[int, Field(ge=0, le=50)]
    cap: Annotated[int, Field(ge=2, le=MAX_ENTRANTS)]
    starts_at: ShortText | None = Field(description="ISO 8601 UTC; nil: when its creator starts it")
    phase: TournamentPhase
    round: Count = Field(description="the round being played (0: not begun)")
    entrants: Annotated[list[PlayerName], Field(max_length=MAX_ENTRANTS)]


class TournamentList(Body):
    NAME = "tournament_list"
    FLOW = Flow.TO_SERVER
    finished: bool = Field(default=False, description="the finished tournaments (the newest last) instead of "
                                                      "those open for registration or being played")


class Tournaments(Body):
    NAME = "tournaments"
    FLOW = Flow.TO_CLIENT
    tournaments: Annotated[list[TournamentInfo], Field(max_length=MAX_PAGE)]


class TournamentJoin(Body):
    NAME = "tournament_join"
    FLOW = Flow.TO_SERVER
    tournament: TableId
    team: PlayerName | None = Field(default=None, description="a team game: the team's name")
    partner: PlayerName | None = Field(default=None, description="a team game: your partner's name")


class TournamentLeave(Body):
    NAME = "tournament_leave"
    FLOW = Flow.TO_SERVER
    tournament: TableId


class TournamentStart(Body):
    NAME = "tournament_start"
    FLOW = Flow.TO_SERVER
    tournament: TableId


class TournamentUpdate(Body):
    NAME = "tournament_update"
    FLOW = Flow.TO_CLIENT
    tournament: TournamentInfo


class GetStandings(Body):
    NAME = "get_standings"
    FLOW = Flow.TO_SERVER
    tournament: TableId


class StandingsRow(WireModel):
    rank: Annotated[int, Field(ge=1, le=MAX_ENTRANTS)]
    entrant: PlayerName
    match_points: Annotated[float, Field(ge=0, le=1000)]
    buchholz: Annotated[float, Field(ge=0, le=100_000)]
    game_points: Count
    played: Count
    wins: Count
    draws: Count
    losses: Count
    byes: Count


class TournamentStandings(Body):
    NAME = "tournament_standings"
    FLOW = Flow.TO_CLIENT
    tournament: TableId
    round: Count
    final: bool = False
    ranked_by: Annotated[list[StandingsKey], Field(min_length=1, max_length=len(StandingsKey))] = Field(
        description="what the rows are ranked by, in order: a column a client shows only when it is here")
    rows: Annotated[list[StandingsRow], Field(max_length=MAX_ENTRANTS)]


class TournamentGame(WireModel):
    table: Annotated[int, Field(ge=1, le=MAX_ENTRANTS)] = Field(description="the game's number in its round")
    first: PlayerName
    second: PlayerName
    replay: Count = 0
    decider: bool = False


class TournamentRound(Body):
    NAME = "tournament_round"
    FLOW = Flow.TO_CLIENT
    tournament: TableId
    round: Annotated[int, Field(ge=1, le=1000)]
    games: Annotated[list[TournamentGame], Field(max_length=MAX_ENTRANTS)]
    byes: Annotated[list[PlayerName], Field(max_length=MAX_ENTRANTS)]


class TournamentTable(Body):
    """Your table in this round: the server made it and keeps your seat."""

    NAME = "tournament_table"
    FLOW = Flow.TO_CLIENT
    tournament: TableId
    round: Annotated[int, Field(ge=1, le=1000)]
    game: TournamentGame
    table: TableId
    seat: Seat
    grace_ms: Annotated[int, Field(ge=0, le=600_000)] = Field(description="milliseconds left to sit down")


NoTableKind = Literal["knocked_out", "bye", "finished"]
"""Why an entrant has no table in a round: out of a knockout, a bye, the tournament over."""


class TournamentNoTable(Body):
    """What a round means for you when it gives you no table: you were knocked out, you
    have a bye, or the tournament is over."""

    NAME = "tournament_no_table"
    FLOW = Flow.TO_CLIENT
    tournament: TableId
    name: Annotated[str, Field(min_length=1, max_length=64)] = Field(description="the tournament's name")
    kind: NoTableKind
    round: Annotated[int, Field(ge=1, le=1000)] = Field(
        description="knocked_out: the round you lost; bye: the round you sit out; finished: the last round")
    by: PlayerName | None = Field(default=None, description="knocked_out: the entrant who beat you")
    place: Annotated[int, Field(ge=1, le=MAX_ENTRANTS)] | None = Field(
        default=None, description="knocked_out, finished: the place you finish in")
    points: Annotated[float, Field(ge=0, le=1)] | None = Field(
        default=None, description="bye: the match points it gives")


TOURNAMENT_BODY_TYPES: tuple[type[Body], ...] = (
    QuickPlay, QuickLeave, QuickWaiting, TournamentCreate, TournamentList, Tournaments, TournamentJoin,
    TournamentLeave, TournamentStart, TournamentUpdate, GetStandings, TournamentStandings, TournamentRound,
    TournamentTable, TournamentNoTable,
)  # fmt: skip


ARCHIVE_BODY_TYPES: tuple[type[Body], ...] = (
    ListGames, Games, GetRecord, RecordReply, GetLeaderboard, Leaderboard, ClaimName, NameClaimed,
)


BODY_TYPES: tuple[type[Body], ...] = (
    Hello, Welcome, ListTables, Tables, CreateTable, TableCreated, JoinTable, Joined,
    LeaveTable, Left, TableUpdate, WatchLobby, UnwatchLobby, GameStart, RoundStart, HandDeal, YourTurn,
    PlayCard, MakeDeclaration, CardPlayed, DeclarationMade, RoundEnd, GameEnd, SeatAway, SeatBack, SeatReplaced, SaveWaiting, Snapshot,
    WatchTable, UnwatchTable, Error, Ping, Pong, Chat, ChatMessage, Bye, Admin, AdminReply,
)  # fmt: skip
"""Every command body, in the order PROTOCOL.md documents them."""
BODY_TYPES += ARCHIVE_BODY_TYPES
BODY_TYPES += (Redirect,)
BODY_TYPES += TOURNAMENT_BODY_TYPES

SEAT_EVENT_TYPES: tuple[type[Body], ...] = (SeatAway, SeatBack, SeatReplaced)
"""Who is at the table: numbered in the table's event log once its game has begun."""


def event_number(body: Body) -> int | None:
    """The table event number ``body`` carries: a game event's, a numbered seat event's."""
    if isinstance(body, TableEvent):
        return body.event
    if isinstance(body, SEAT_EVENT_TYPES):
        number = getattr(body, "event", None)
        return number if isinstance(number, int) else None
    return None


BODY_BY_NAME: dict[str, type[Body]] = {b.NAME: b for b in BODY_TYPES}
COMMAND_NAMES: frozenset[str] = frozenset(BODY_BY_NAME)
RESERVED_NAMES: frozenset[str] = frozenset({"resume"})
"""Names kept for later; never used otherwise (reconnecting is ``hello.resume``)."""
