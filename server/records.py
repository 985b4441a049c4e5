"""Finished games, their records and the ratings, as a server with storage serves them
(PROTOCOL.md §13), and the accounts of ``--accounts``.

The NetworkEngine hands this module the commands of §13 (:meth:`Records.dispatch`), each
finished table's end (:meth:`Records.finish`: journaled with who played and the game's ratings)
and, with accounts, each ``hello`` for a claimed name (:meth:`Records.hello_deferred`).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime, timezone

from scopa.engine import GameMaster
from scopa.protocol import commands as wire
from scopa.protocol.errors import ErrorCode
from scopa.protocol.record import PlayerKind, Record, RecordPlayer, build_record

from .accounts import Accounts, Verdict
from .archive import FinishedGame, GamePlayer, preset_key
from .clock import Clock
from .limits import Limits
from .rated import FairRatings, Outcome, RatingNames, one_row_per_name
from .ratings import rate_ranked
from .session import ClientSession
from .journal import FinishTable, Journal, RatingUpdate
from .table import Table, token_digest
from .text import name_key

log = logging.getLogger("scopa.server")

REQUESTS = (wire.ListGames, wire.GetRecord, wire.GetLeaderboard, wire.ClaimName)
MAX_RECORD_BYTES = 60_000  # a record must fit in one frame (64 KiB) with its envelope


class Records:
    """The finished-games, ratings and accounts side of a server."""

    def __init__(self, storage: Journal | None, clock: Clock, *, accounts: bool = False,
                 limits: Limits | None = None, shared_addresses: Sequence[str] = ()) -> None:
        self.archive: Journal | None = storage  # the archive's calls are the storage's
        if accounts and self.archive is None:
            raise ValueError("accounts are kept in the server's database: give it one (--db)")
        self.accounts = Accounts(self.archive, clock, limits) if accounts and self.archive is not None else None
        self.verified: weakref.WeakSet[ClientSession] = weakref.WeakSet()
        """Connections that gave their claimed name's password."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._rating: set[asyncio.Task[None]] = set()  # games being rated (a leaderboard waits for them)
        self.fair = FairRatings(shared_addresses)
        """Where each seat was played from; which games are rated (server/rated.py)."""
        self._names = RatingNames()
        self._rating_one = asyncio.Lock()  # one game rated at a time

    @staticmethod
    def handles(body: wire.Body) -> bool:
        return isinstance(body, REQUESTS)

    def dispatch(self, sess: ClientSession, body: wire.Body, seq: int) -> None:
        if isinstance(body, wire.ClaimName):
            self._claim(sess, body, seq)
            return
        if self.archive is None:
            sess.error(ErrorCode.UNEXPECTED_COMMAND,
                       "this server keeps no finished games or ratings (it runs without a database)", re=seq)
            return
        if isinstance(body, wire.ListGames):
            self._spawn(self._list(sess, body, seq))
        elif isinstance(body, wire.GetRecord):
            self._spawn(self._record(sess, body, seq))
        elif isinstance(body, wire.GetLeaderboard):
            self._spawn(self._leaderboard(sess, body, seq))

    # ------------------------------------------------------------------ games and records

    def _visible(self, sess: ClientSession, game: FinishedGame, digests: set[str]) -> bool:
        """A private table's game: only to a holder of one of its seat tokens, or to one
        of its players logged in with a password."""
        if not game.private:
            return True
        if any(p.token_digest and p.token_digest in digests for p in game.players):
            return True
        return sess in self.verified and any(name_key(p.name) == name_key(sess.name or "") for p in game.players)

    async def _list(self, sess: ClientSession, body: wire.ListGames, seq: int) -> None:
        assert self.archive is not None
        digests = {token_digest(t) for t in body.tokens}
        preset = body.preset.value if body.preset is not None else None
        games = await self.archive.finished_games(body.player, preset)
        found = [g for g in games if self._visible(sess, g, digests)]
        sess.send(wire.Games(games=[_summary(g) for g in found[: body.limit]]), re=seq)

    async def _record(self, sess: ClientSession, body: wire.GetRecord, seq: int) -> None:
        assert self.archive is not None
        game = await self.archive.finished_game(body.game)
        if game is None:
            sess.error(ErrorCode.NO_SUCH_TABLE, f"there is no finished game {body.game!r}", re=seq)
            return
        if not self._visible(sess, game, {token_digest(body.token)} if body.token else set()):
            sess.error(ErrorCode.PRIVATE_TABLE,
                       f"game {body.game} was played at a private table: give one of its seat tokens", re=seq)
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
        sess.send(wire.RecordReply(game=game.id, record=record), re=seq)

    async def record_of(self, game: FinishedGame) -> Record:
        """A finished game's record, rebuilt from its journal (whose deals must follow
        from its seed: ``GameMaster.restore`` checks them)."""
        assert self.archive is not None
        actions = await self.archive.load_actions(game.id)
        master = GameMaster(game.rules, game.seed)
        master.restore(actions)
        players = [
            RecordPlayer(seat=p.seat, name=p.name, side=game.rules.side_of(p.seat), kind=PlayerKind(p.kind),
                         strategy=p.strategy, taken_over=p.taken_over)
            for p in game.players
        ]
        return build_record(game.rules, game.seed, master.first_dealer, actions, players, game=game.id,
                            played_at=datetime.fromtimestamp(round(game.finished_at), timezone.utc))

    # ------------------------------------------------------------------ ratings

    async def _leaderboard(self, sess: ClientSession, body: wire.GetLeaderboard, seq: int) -> None:
        assert self.archive is not None
        await asyncio.gather(*self._rating, return_exceptions=True)  # games that ended before this asked
        best = one_row_per_name(await self.archive.leaderboard(body.preset.value, 2 * body.limit), body.limit)
        entries = [wire.RatingEntry(rank=i + 1, name=r.name, rating=round(r.ordinal, 3), mu=round(r.mu, 3),
                                    sigma=round(r.sigma, 3), games=r.games, wins=r.wins)
                   for i, r in enumerate(best)]
        sess.send(wire.Leaderboard(preset=body.preset, entries=entries), re=seq)

    def finish(self, table: Table, end: FinishTable) -> None:
        """Journal a table's end (``end``) with who played it and, for a rated game, the new
        ratings, in one command: a crash keeps all of it or none (then the restored game
        ends again and is rated then).  Ratings are read, computed and journaled one game
        at a time, so two games of one name never rate from the same old rating."""
        assert table.storage is not None
        players = self._players(table)
        if self.archive is None or players is None or table.master is None:
            self.fair.forget(table.id)
            table.storage.write(end)
            return
        outcome = self.fair.outcome(table, players)
        if outcome is None:
            log.info("table %s: not rated (%s)", table.id,
                     self.fair.unrated_because(table, players) or "it did not end by the rules")
        self.fair.forget(table.id)
        rating = asyncio.create_task(self._finish_rated(table, replace(end, players=tuple(players)), outcome))
        self._rating.add(rating)
        rating.add_done_callback(self._rating.discard)

    @staticmethod
    def _players(table: Table) -> list[GamePlayer] | None:
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

    async def _finish_rated(self, table: Table, end: FinishTable, outcome: Outcome | None) -> None:
        assert table.storage is not None
        async with self._rating_one:
            try:
                update = await self._rating_update(table, outcome) if outcome is not None else None
            except Exception:  # noqa: BLE001 - the game is over either way
                log.exception("table %s: could not rate the game", table.id)
                update = None
            try:
                await table.storage.write(replace(end, rating=update))
            except Exception:  # noqa: BLE001 - logged by the journal; the game is over either way
                pass

    async def _rating_update(self, table: Table, outcome: Outcome) -> RatingUpdate:
        """The new ratings a rated game gives (server/rated.py says which games are)."""
        assert self.archive is not None
        preset = preset_key(table.rules)
        stored = iter(await self._names.stored(self.archive, preset, [n for side in outcome.sides for n in side]))
        sides = [[next(stored) for _ in side] for side in outcome.sides]
        known = await self.archive.ratings(preset, [n for side in sides for n in side])
        return RatingUpdate(preset, tuple(rate_ranked(sides, outcome.ranks, known)))

    # ------------------------------------------------------------------ accounts

    def hello_deferred(self, sess: ClientSession, body: wire.Hello, seq: int, welcome: Callable[[], None]) -> bool:
        """With accounts, a hello for a claimed name: True when this module answers it
        (an error, or ``welcome()`` once the password checked out off the event loop)."""
        if self.accounts is None:
            return False
        self._spawn(self._hello_claimed(sess, body, seq, welcome))
        return True

    async def _hello_claimed(self, sess: ClientSession, body: wire.Hello, seq: int,
                             welcome: Callable[[], None]) -> None:
        assert self.accounts is not None
        if not await self.accounts.claimed(body.name):
            if not sess.closed:
                welcome()
            return
        if sess.closed:
            return
        if body.password is None:
            sess.error(ErrorCode.NAME_TAKEN, f"the name {body.name!r} is claimed: give its password, or choose "
                                             "another name", re=seq)
            return
        if not self.accounts.begin_check(body.name, _address(sess)):
            sess.error(ErrorCode.RATE_LIMITED, "too many wrong passwords, or another check under way: try again "
                                               "later", re=seq)
            return
        await self._verify(sess, body, seq, welcome)

    async def _verify(self, sess: ClientSession, body: wire.Hello, seq: int, welcome: Callable[[], None]) -> None:
        assert self.accounts is not None and body.password is not None
        verdict = await self.accounts.check(body.name, body.password, _address(sess))
        if sess.closed:
            return
        if verdict is Verdict.WRONG:
            log.info("connection %s: wrong password for %s", sess.id, body.name)
            sess.error(ErrorCode.BAD_PASSWORD, f"that is not the password of {body.name!r}", re=seq)
        else:
            welcome()
            if sess.name == body.name and verdict is Verdict.OK:
                self.verified.add(sess)

    def _claim(self, sess: ClientSession, body: wire.ClaimName, seq: int) -> None:
        if self.accounts is None:
            sess.error(ErrorCode.UNEXPECTED_COMMAND, "this server has no accounts (it runs without --accounts)",
                       re=seq)
            return
        self._spawn(self._claim_name(sess, body, seq))

    async def _claim_name(self, sess: ClientSession, body: wire.ClaimName, seq: int) -> None:
        assert self.accounts is not None and sess.name is not None
        name = sess.name
        verdict = await self.accounts.claim(name, body.password, _address(sess))
        if verdict is Verdict.LIMITED:
            sess.error(ErrorCode.RATE_LIMITED, "too many refused attempts: try again later", re=seq)
        elif verdict is not Verdict.OK:
            sess.error(ErrorCode.NAME_TAKEN, f"the name {name!r} is claimed already", re=seq)
        else:
            log.info("connection %s claims the name %s", sess.id, name)
            self.verified.add(sess)
            sess.send(wire.NameClaimed(name=name), re=seq)

    def _spawn(self, work: object) -> None:
        task: asyncio.Task[None] = asyncio.create_task(work)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settled(self) -> None:
        """Wait until every game that has finished is rated."""
        await asyncio.gather(*self._rating, return_exceptions=True)

    async def close(self) -> None:
        await asyncio.gather(*self._rating, return_exceptions=True)  # finished games are rated before the end
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def _address(sess: ClientSession) -> str:
    return sess.address


def _summary(game: FinishedGame) -> wire.GameSummary:
    ended = datetime.fromtimestamp(game.finished_at, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return wire.GameSummary(id=game.id, ended=ended, preset=preset_key(game.rules),
                            description=game.rules.describe()[:200], players=[p.name for p in game.players],
                            winner=game.winner, totals=list(game.totals), reason=game.reason or "abandoned",
                            private=game.private)
