"""The archive: finished games and their records, as a server with storage serves them
(PROTOCOL.md §13), over the journal.

The NetworkEngine hands this module ``list_games``, ``get_record`` and
``get_leaderboard`` (:meth:`Archive.dispatch`) and each finished table's end
(:meth:`Archive.finish`: who played it goes with the end, which :mod:`.rater` rates
and journals).  A record is rebuilt from the game's journaled actions; a private
table's game is shown only to a holder of one of its seat tokens or to one of its
players logged in with a password (:mod:`.accounts`).  A server without storage
keeps no games, but the record of a game just finished at one of its tables (still
listed, with its state ``finished``) is given from that table, so that its players can
watch it again at once.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timezone

from scopa.engine import GameMaster
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.protocol.record import PlayerKind, Record, RecordPlayer, build_record

from .accounts import Accounts
from ..journal import FinishTable, Journal, FinishedGame, GamePlayer, preset_key
from .rater import Rater
from ..conn import ServerSession
from ..core import BackgroundTasks, name_key
from ..table import token_digest, Table

log = logging.getLogger("scopa.server")

REQUESTS = (wire.ListGames, wire.GetRecord, wire.GetLeaderboard)
MAX_RECORD_BYTES = 60_000  # a record must fit in one frame (64 KiB) with its envelope


class Archive:
    """Finished games over the journal (None: a server without a database keeps none)."""

    def __init__(self, journal: Journal | None, rater: Rater, accounts: Accounts) -> None:
        self.journal = journal
        self.rater = rater
        self.accounts = accounts
        self._background = BackgroundTasks()
        self.table_of: Callable[[str], Table | None] = lambda table_id: None
        """A table of this server by id (its directory's), for the record of a game just
        finished there when no journal keeps games."""

    @staticmethod
    def handles(body: wire.Body) -> bool:
        return isinstance(body, REQUESTS)

    def dispatch(self, sess: ServerSession, body: wire.Body, seq: int) -> None:
        if self.journal is None and isinstance(body, wire.GetRecord):
            self._record_in_memory(sess, body, seq)
            return
        if self.journal is None:
            sess.error(ErrorCode.UNEXPECTED_COMMAND,
                       "this server keeps no finished games or ratings (it runs without a database)", re=seq)
            return
        if isinstance(body, wire.ListGames):
            self._background.spawn(self._list(sess, body, seq))
        elif isinstance(body, wire.GetRecord):
            self._background.spawn(self._record(sess, body, seq))
        elif isinstance(body, wire.GetLeaderboard):
            self._background.spawn(self._leaderboard(sess, body, seq))

    # ------------------------------------------------------------------ a game's end

    def finish(self, table: Table, end: FinishTable) -> Awaitable[None]:
        """A table's end (``Table.on_result``): journaled with who played it, and rated
        (:meth:`.rater.Rater.finish` journals it, with the new ratings of a rated game):
        done once stored."""
        players = self.players_of(table) if self.journal is not None and table.master is not None else None
        return self.rater.finish(table, end if players is None else replace(end, players=tuple(players)))

    @staticmethod
    def players_of(table: Table) -> list[GamePlayer] | None:
        """Who sat where, as the archive keeps it (None: a seat is empty)."""
        players = []
        for i, seat in enumerate(table.seats):
            if seat is None:
                return None
            taken = i in table.taken_over
            person = seat.bot is None or taken
            players.append(GamePlayer(i, seat.name, PlayerKind.PERSON.value if person else PlayerKind.BOT.value,
                                      None if person else seat.strategy or None, taken,
                                      table.taken_over.get(i) or seat.token_digest or None))
        return players

    # ------------------------------------------------------------------ games and records

    def _visible(self, sess: ServerSession, game: FinishedGame, digests: set[str]) -> bool:
        """A private table's game: only to a holder of one of its seat tokens, or to one
        of its players logged in with a password."""
        if not game.private:
            return True
        if any(p.token_digest and p.token_digest in digests for p in game.players):
            return True
        return (self.accounts.is_verified(sess)
                and any(name_key(p.name) == name_key(sess.name or "") for p in game.players))

    async def _list(self, sess: ServerSession, body: wire.ListGames, seq: int) -> None:
        assert self.journal is not None
        digests = {token_digest(t) for t in body.tokens}
        preset = body.preset.value if body.preset is not None else None
        games = await self.journal.finished_games(body.player, preset)
        found = [g for g in games if self._visible(sess, g, digests)]
        sess.tell(wire.Games(games=[_summary(g) for g in found[: body.limit]]), re=seq)

    async def _record(self, sess: ServerSession, body: wire.GetRecord, seq: int) -> None:
        assert self.journal is not None
        game = await self.journal.finished_game(body.game)
        if game is None:
            sess.error(ErrorCode.NO_SUCH_TABLE, f"there is no finished game {body.game!r}", re=seq)
            return
        table = self.table_of(body.game)
        invited = table is not None and table.admits(body.invite)  # its table still held: its invite shows it too
        if not invited and not self._visible(sess, game, {token_digest(body.token)} if body.token else set()):
            sess.error(ErrorCode.PRIVATE_TABLE,
                       f"game {body.game} was played at a private table: give one of its seat tokens or its invite", re=seq)
            return
        try:
            record = await self.record_of(game)
        except Exception:  # noqa: BLE001 - a journal that does not replay must not hurt the server
            log.exception("game %s: its journal does not make a record", game.id)
            sess.error(ErrorCode.INTERNAL, f"the journal of game {game.id} could not be replayed", re=seq)
            return
        if len(record.model_dump_json()) > MAX_RECORD_BYTES:
            sess.error(ErrorCode.INTERNAL, f"the record of game {game.id} is too large to send", re=seq)
            return
        sess.tell(wire.RecordReply(game=game.id, record=record), re=seq)

    def _record_in_memory(self, sess: ServerSession, body: wire.GetRecord, seq: int) -> None:
        """Without a journal: the record of the game just finished at table ``body.game``,
        while the table is still there (a private one's to a holder of one of its seat
        tokens, as with a journal)."""
        table = self.table_of(body.game)
        players = self.players_of(table) if table is not None and table.master is not None else None
        if table is None or table.master is None or table.state is not wire.TableState.FINISHED or players is None:
            sess.error(ErrorCode.UNEXPECTED_COMMAND, "this server keeps no finished games (it runs without a "
                       f"database), and no game has just finished at table {body.game!r}", re=seq)
            return
        digests = {p.token_digest for p in players if p.token_digest}
        if table.private and (not body.token or token_digest(body.token) not in digests) and not table.admits(body.invite):
            sess.error(ErrorCode.PRIVATE_TABLE,
                       f"game {body.game} was played at a private table: give one of its seat tokens or its invite", re=seq)
            return
        master = table.master
        record = build_record(
            table.rules, table.seed, master.first_dealer, list(master.actions),
            [RecordPlayer(seat=p.seat, name=p.name, side=table.rules.side_of(p.seat), kind=PlayerKind(p.kind),
                          strategy=p.strategy, taken_over=p.taken_over) for p in players],
            game=table.id, played_at=datetime.fromtimestamp(round(time.time()), timezone.utc),
            marks=table.marks.by_action)
        if len(record.model_dump_json()) > MAX_RECORD_BYTES:
            sess.error(ErrorCode.INTERNAL, f"the record of game {table.id} is too large to send", re=seq)
            return
        sess.tell(wire.RecordReply(game=table.id, record=record), re=seq)

    async def record_of(self, game: FinishedGame) -> Record:
        """A finished game's record, rebuilt from its journal (whose deals must follow
        from its seed: ``GameMaster.restore`` checks them)."""
        assert self.journal is not None
        actions = await self.journal.load_actions(game.id)
        master = GameMaster(game.rules, game.seed)
        master.restore(actions)
        players = [
            RecordPlayer(seat=p.seat, name=p.name, side=game.rules.side_of(p.seat), kind=PlayerKind(p.kind),
                         strategy=p.strategy, taken_over=p.taken_over)
            for p in game.players
        ]
        return build_record(game.rules, game.seed, master.first_dealer, actions, players, game=game.id,
                            played_at=datetime.fromtimestamp(round(game.finished_at), timezone.utc),
                            marks=actions.marks)

    async def _leaderboard(self, sess: ServerSession, body: wire.GetLeaderboard, seq: int) -> None:
        best = await self.rater.leaderboard(body.preset.value, body.limit)  # games that ended before this asked
        entries = [wire.RatingEntry(rank=i + 1, name=r.name, rating=round(r.ordinal, 3), mu=round(r.mu, 3),
                                    sigma=round(r.sigma, 3), games=r.games, wins=r.wins)
                   for i, r in enumerate(best)]
        unrated = [wire.UnratedGames(reason=why.value, games=n)
                   for why, n in self.rater.unrated.get(body.preset.value, Counter()).most_common()]
        sess.tell(wire.Leaderboard(preset=body.preset, entries=entries, unrated=unrated), re=seq)

    async def close(self) -> None:
        await self._background.close()


def _summary(game: FinishedGame) -> wire.GameSummary:
    ended = datetime.fromtimestamp(game.finished_at, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return wire.GameSummary(id=game.id, ended=ended, preset=preset_key(game.rules),
                            description=game.rules.describe()[:200], players=[p.name for p in game.players],
                            winner=game.winner, totals=list(game.totals), reason=game.reason or "abandoned",
                            leaver=game.leaver, private=game.private,
                            taken_over=[p.seat for p in game.players if p.taken_over])
