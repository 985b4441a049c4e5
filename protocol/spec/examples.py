"""One valid, realistic command of every name: for PROTOCOL.md, tests and bot authors.

A two-player game of plain scopa at table ``7`` between ``player:ada`` and a bot; the
Cirulla declaration examples come from table ``9``.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Callable

from scopa.engine import EndReason
from scopa.engine.rules import Preset, RuleSet

from ..commands import (
    Bye, Chat, ChatMessage, CreateTable, HandDeal, DeclarationKind, MakeDeclaration, DeclarationMade, Error, GameEnd,
    GameStart, Hello, JoinTable, Joined, LeaveTable, Left, LegalMove, ListTables, Ping, PlayCard, CardPlayed, Pong,
    PublicView, RoundEnd, PlayLogEntry, RoundStart, SaveWaiting, SeatAway, SeatBack, SeatInfo, SeatReplaced,
    PileInfo, SideTally, Snapshot, TableCreated, TableInfo, Tables, TableState, TableUpdate, UnwatchLobby,
    UnwatchTable, SeatView, WatchLobby, WatchTable, Welcome, YourTurn,
)  # fmt: skip
from ..commands import (
    ClaimName, GameSummary, Games, GetLeaderboard, GetRecord, Leaderboard, ListGames, NameClaimed, RatingEntry,
    RecordReply, Redirect,
)  # fmt: skip
from ..commands import Admin, AdminOp, AdminReply, Body, ConnectionInfo
from ..commands import (
    GetStandings, KnockoutTie, QuickLeave, QuickPlay, QuickWaiting, StandingsKey, StandingsRow, TournamentCreate, TournamentFormat,
    TournamentGame, TournamentInfo, TournamentJoin, TournamentLeave, TournamentList, TournamentPhase, TournamentRound,
    Tournaments, TournamentStandings, TournamentStart, TournamentTable, TournamentNoTable, TournamentUpdate,
)  # fmt: skip
from ..convert import rules_to_wire
from ..record import PlayerKind, Record, RecordPlay, RecordPlayer, RecordResult, RecordRound
from ..envelope import Command, make_command
from ..errors import ErrorCode


def example_commands() -> dict[str, Command]:
    """Command name -> an example command of that name."""
    engine_rules = RuleSet.build(Preset.SCOPA)
    rules = rules_to_wire(engine_rules)
    waiting = TableInfo(
        id="7", rules=rules, description=engine_rules.describe(), seats=["ada", None], state=TableState.WAITING
    )
    full = waiting.model_copy(update={"seats": ["ada", "greedy-bot-1"], "state": TableState.PLAYING})
    empty = PileInfo(cards=0, denari=0, settebello=False, primiera=0, scope=0)
    view = SeatView(
        seat=0, side=0, round=1, dealer=1, turn=0,
        hand=["7d", "3c", "Rs"], table=["4s", "3b", "Fd", "2c"], stock=30,
        hand_sizes=[3, 3], captured=[[], []], scope=[0, 0], scopa_cards=[[], []], totals=[0, 0],
        round_plays=[], last_capture_side=None, piles=[empty, empty],
    )  # fmt: skip
    ada, lobby, table, everyone = "player:ada", "lobby", "table:7", "table:7/all"

    def cmd(body: Body, seq: int, sender: str, recipient: str, re: int | None = None) -> Command:
        return make_command(body, seq=seq, sender=sender, recipient=recipient, re=re)

    examples = [
        cmd(Hello(name="ada", client="scopa-cli 0.1"), 1, "guest", lobby),
        cmd(Welcome(you=ada, server="scopa 0.1.0", protocol=2, motd="Buon divertimento!", web_port=8080,
                    lan_hosts=["192.168.1.20"]), 1, lobby, ada, 1),
        cmd(ListTables(), 2, ada, lobby),
        cmd(Tables(tables=[waiting]), 2, lobby, ada, 2),
        cmd(CreateTable(preset=Preset.SCOPA, options={"target": 16}, fill_with_bots=["greedy"]), 3, ada, lobby),
        cmd(TableCreated(table=waiting), 3, lobby, ada, 3),
        cmd(JoinTable(table="7"), 4, ada, lobby),
        cmd(Joined(table="7", seat=0, side=0, token="s3at-t0ken-7-0-a1b2c3"), 4, lobby, ada, 4),
        cmd(LeaveTable(table="7"), 5, ada, lobby),
        cmd(Left(table="7", reason="left"), 5, lobby, ada, 5),
        cmd(TableUpdate(table=full), 6, table, everyone),
        cmd(WatchLobby(), 12, ada, lobby),
        cmd(UnwatchLobby(), 13, ada, lobby),
        cmd(
            GameStart(
                event=1,
                rules=rules,
                seats=[SeatInfo(seat=0, name="ada", side=0), SeatInfo(seat=1, name="greedy-bot-1", side=1, bot=True)],
                sides=[[0], [1]],
            ),
            7, table, everyone,
        ),
        cmd(RoundStart(event=2, round=1, dealer=1, table=["4s", "3b", "Fd", "2c"], stock=30), 8, table, everyone),
        cmd(HandDeal(event=3, cards=["7d", "3c", "Rs"], hand=["7d", "3c", "Rs"], stock=30), 9, table, ada),
        cmd(
            YourTurn(
                event=4,
                legal=[
                    LegalMove(index=0, card="7d", capture=["4s", "3b"]),
                    LegalMove(index=1, card="3c", capture=["3b"]),
                    LegalMove(index=2, card="Rs", capture=["Fd", "2c"]),
                ],
                view=view,
            ),
            10, table, ada,
        ),
        cmd(PlayCard(card="7d", capture=["4s", "3b"], turn=4), 6, ada, table, 10),
        cmd(CardPlayed(event=5, seat=0, card="7d", captured=["4s", "3b"], scopa=False, table=["Fd", "2c"]), 11, table, everyone),
        cmd(MakeDeclaration(kind=DeclarationKind.UNDER_TEN), 7, ada, "table:9"),
        cmd(DeclarationMade(event=6, seat=0, kind=DeclarationKind.UNDER_TEN, hand=["Ad", "2s", "4c"], points=3), 12, "table:9", "table:9/all"),
        cmd(
            RoundEnd(
                event=40, round=1, leftover=["5c"], leftover_to=0, cards=[22, 18],
                breakdown=[{"carte": 1, "settebello": 1, "primiera": 1, "scope": 2}, {"denari": 1, "scope": 1}],
                tallies=[SideTally(cards=22, denari=4, primiera=78, primiera_cards=["7d", "7c", "6s", "6b"], settebello=True, scope=2),
                         SideTally(cards=18, denari=6, primiera=0, primiera_cards=["6d", "7s", "7b"], settebello=False, scope=1)],
                points=[5, 2], totals=[5, 2],
            ),
            44, table, everyone,
        ),  # fmt: skip
        cmd(GameEnd(event=160, winner=0, totals=[12, 7], reason="target"), 170, table, everyone),
        cmd(SeatAway(seat=1, name="bob", grace_seconds=120.0), 30, table, everyone),
        cmd(SeatBack(seat=1, name="bob"), 31, table, everyone),
        cmd(SeatReplaced(seat=1, name="bob", strategy="greedy"), 32, table, everyone),
        cmd(SaveWaiting(waiting=True, reason="the disk is full"), 33, table, everyone),
        cmd(
            Snapshot(
                event=5,
                table=full.model_copy(update={"spectators": 1}),
                seats=[SeatInfo(seat=0, name="ada", side=0), SeatInfo(seat=1, name="greedy-bot-1", side=1, bot=True)],
                sides=[[0], [1]],
                public=PublicView(
                    round=1, dealer=1, turn=1, table=["Fd", "2c"], stock=30, hand_sizes=[2, 3],
                    captured=[["7d", "4s", "3b"], []], scope=[0, 0], scopa_cards=[[], []], totals=[0, 0],
                    round_plays=[PlayLogEntry(seat=0, card="7d", captured=["4s", "3b"])], last_capture_side=0,
                    piles=[PileInfo(cards=3, denari=1, settebello=True, primiera=0, scope=0), empty],
                ),
            ),
            2, table, "player:bea", 2,
        ),  # fmt: skip
        cmd(WatchTable(table="7"), 2, "player:bea", lobby),
        cmd(UnwatchTable(table="7"), 3, "player:bea", lobby),
        cmd(Error(code=ErrorCode.NOT_YOUR_TURN, message="it is seat 1's turn"), 13, table, ada, 8),
        cmd(Ping(nonce=42), 9, ada, lobby),
        cmd(Pong(nonce=42), 14, lobby, ada, 9),
        cmd(Chat(text="buona fortuna!"), 10, ada, table),
        cmd(ChatMessage(author=ada, text="buona fortuna!"), 15, table, everyone),
        cmd(Bye(reason="good game"), 11, ada, lobby),
        cmd(Admin(token="0pErAt0r-t0ken-f1le-s3cret", op=AdminOp.CONNECTIONS), 2, "player:admin-1", lobby),
        cmd(
            AdminReply(
                op=AdminOp.CONNECTIONS, total=1,
                connections=[ConnectionInfo(id=4, name="ada", peer="127.0.0.1:50122", table="7", queued_bytes=0)],
            ),
            2, lobby, "player:admin-1", 2,
        ),  # fmt: skip
    ]
    examples += _archive_examples(cmd, ada, lobby)
    examples += _tournament_examples(cmd, ada, lobby)
    return {c.name: c for c in examples}


def _archive_examples(cmd: Callable[..., Command], ada: str, lobby: str) -> list[Command]:
    """Finished games, records, ratings and accounts (PROTOCOL.md §13)."""
    summary = GameSummary(
        id="7", ended="2026-11-30T12:05:09Z", preset="scopa", description="scopa, 2p, to 11",
        players=["ada", "greedy-bot-1"], winner=0, totals=[12, 7], reason="target",
    )  # fmt: skip
    record = example_record()
    return [
        cmd(ListGames(player="ada", limit=10), 20, ada, lobby),
        cmd(Games(games=[summary]), 30, lobby, ada, 20),
        cmd(GetRecord(game="7"), 21, ada, lobby),
        cmd(RecordReply(game="42", record=record), 31, lobby, ada, 21),
        cmd(GetLeaderboard(preset=Preset.SCOPA, limit=3), 22, ada, lobby),
        cmd(Leaderboard(preset=Preset.SCOPA, entries=[
            RatingEntry(rank=1, name="ada", rating=9.5, mu=28.1, sigma=6.2, games=14, wins=10),
            RatingEntry(rank=2, name="greedy-bot-1", rating=6.25, mu=25.0, sigma=6.25, games=20, wins=9),
        ]), 32, lobby, ada, 22),
        cmd(ClaimName(password="correct horse battery"), 23, ada, lobby),
        cmd(NameClaimed(name="ada"), 33, lobby, ada, 23),
        cmd(Redirect(table="7", address="10.0.0.2:7777", ticket="tkt-Qz7sL2xV9aB4"), 34, lobby, ada, 24),
    ]


def _tournament_examples(cmd: Callable[..., Command], ada: str, lobby: str) -> list[Command]:
    """Quick play and a Swiss tournament of four (PROTOCOL.md §16)."""
    info = TournamentInfo(
        id="c1", name="Coppa d'inverno", creator="ada", preset=Preset.SCOPA, format=TournamentFormat.SWISS,
        rounds=3, cap=16, starts_at="2026-12-05T18:00:00Z", phase=TournamentPhase.REGISTERING, round=0,
        entrants=["ada", "bea", "cal", "dan"],
    )  # fmt: skip
    game = TournamentGame(table=1, first="ada", second="bea")
    rows = [
        StandingsRow(rank=1, entrant="ada", match_points=1.0, buchholz=0.0, game_points=11, played=1, wins=1,
                     draws=0, losses=0, byes=0),
        StandingsRow(rank=2, entrant="cal", match_points=0.5, buchholz=0.5, game_points=9, played=1, wins=0,
                     draws=1, losses=0, byes=0),
    ]  # fmt: skip
    return [
        cmd(QuickPlay(preset=Preset.SCOPA, bot_after=60), 40, ada, lobby),
        cmd(QuickWaiting(preset=Preset.SCOPA, others=1), 50, lobby, ada, 40),
        cmd(QuickLeave(), 41, ada, lobby),
        cmd(TournamentCreate(name="Coppa d'inverno", format=TournamentFormat.SWISS, rounds=3, cap=16,
                             starts_in=3600, tie_break=KnockoutTie.REMATCH), 42, ada, lobby),  # fmt: skip
        cmd(TournamentUpdate(tournament=info), 51, lobby, ada, 42),
        cmd(TournamentList(finished=True), 43, ada, lobby),
        cmd(Tournaments(tournaments=[info]), 52, lobby, ada, 43),
        cmd(TournamentJoin(tournament="c1"), 44, ada, lobby),
        cmd(TournamentLeave(tournament="c1"), 45, ada, lobby),
        cmd(TournamentStart(tournament="c1"), 46, ada, lobby),
        cmd(GetStandings(tournament="c1"), 47, ada, lobby),
        cmd(TournamentStandings(tournament="c1", round=1, ranked_by=[StandingsKey.MATCH_POINTS, StandingsKey.BUCHHOLZ,
                                                                         StandingsKey.GAME_POINTS, StandingsKey.SEED],
                                 rows=rows), 53, lobby, ada, 47),  # fmt: skip
        cmd(TournamentRound(tournament="c1", round=1, games=[game, TournamentGame(table=2, first="cal", second="dan")],
                            byes=[]), 54, lobby, ada),  # fmt: skip
        cmd(TournamentTable(tournament="c1", round=1, game=game, table="31", seat=0, grace_ms=60000), 55, lobby, ada),
        cmd(TournamentNoTable(tournament="c1", name="Coppa d'inverno", kind="knocked_out", round=2, by="nonna",
                              place=5), 56, lobby, ada),  # fmt: skip
    ]


def example_record() -> Record:
    """A real record: a game of trentino that ended after three plays (docs/RECORDS.md)."""
    deck = ("2c 2d Cs Rc Fb Rb 5c 4c 5d Cb Fc 5b 7s 5s 7b Cd 6d Fd 6c 2s "
            "Fs 7c 7d 4d 3d 3b 6s 4s Rd Rs 2b 6b 3c Ab Ac 4b 3s As Cc Ad").split()
    return Record(
        game="42",
        played_at=datetime(2026, 11, 30, 12, 5, 9, tzinfo=timezone.utc),
        rules=rules_to_wire(RuleSet.build(Preset.TRENTINO)),
        seed=15,
        first_dealer=1,
        players=[
            RecordPlayer(seat=0, name="ada", side=0, kind=PlayerKind.PERSON),
            RecordPlayer(seat=1, name="greedy-bot-1", side=1, kind=PlayerKind.BOT, strategy="greedy"),
            RecordPlayer(seat=2, name="bea", side=0, kind=PlayerKind.PERSON),
            RecordPlayer(seat=3, name="greedy-bot-3", side=1, kind=PlayerKind.BOT, strategy="greedy"),
        ],
        rounds=[RecordRound(
            number=1, dealer=1, deck=deck, totals=[0, 0],
            actions=[
                RecordPlay(seat=2, card="2d", capture=["Ad", "As"]),
                RecordPlay(seat=3, card="Fc"),
                RecordPlay(seat=0, card="3d", capture=["3s"]),
            ],
        )],
        result=RecordResult(totals=[0, 0], winner=0, reason=EndReason.TRENTINO),
    )
