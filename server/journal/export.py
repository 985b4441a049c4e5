"""Moving a journal's finished games, ratings and accounts from one database to another
(``scopa admin export --db A > games.jsonl``, ``scopa admin import --db B < games.jsonl``),
between any two backends.

The export is JSON Lines, one object a line, each with its ``kind``:

- ``game``: ``record`` (a game record, docs/RECORDS.md) and what the record leaves out
  but the journal keeps: ``private``, ``finished_at`` (seconds since the epoch),
  ``reason`` (how it ended, as journaled) and ``token_digests`` (per seat, the sha256 of
  its seat token, or null);
- ``rating``: ``preset``, ``name``, ``mu``, ``sigma``, ``games``, ``wins``;
- ``account``: ``name``, ``salt`` and ``hash`` (hex), ``n``, ``r``, ``p``, ``created_at``.

An import journals each game as the server would have (its table, seats, every action
replayed from the record's decks, its end with who played), each in one batch: a game
whose id the database holds already is skipped and named.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from scopa.engine import Deal, GameMaster, PlayMark, Preset
from scopa.protocol.record import (
    PlayerKind,
    Record,
    RecordPlay,
    RecordPlayer,
    action_from_record,
    build_record,
    deck_order,
    parse_record,
)

from .values import Account, Actions, GamePlayer, Rating
from .commands import (
    AllAccounts, AppendAction, Command, CreateTable, FinishedGames, FinishTable, JournalBackend, Leaderboard,
    LoadActions, SaveAccount, SaveRatings, SetSeat, StartTable
)

EVERYTHING = 10**9
PRESETS = [p.value for p in Preset] + ["custom"]


def _one(backend: JournalBackend, request: Any) -> Any:
    [result] = backend.run_batch([request])
    if isinstance(result, BaseException):
        raise result
    return result


def export_lines(backend: JournalBackend) -> Iterator[str]:
    """The journal's finished games (oldest first), ratings and accounts, a JSON line each."""
    for game in reversed(_one(backend, FinishedGames(limit=EVERYTHING))):
        actions: Actions = _one(backend, LoadActions(game.id))
        master = GameMaster(game.rules, game.seed)
        master.restore(actions)
        players = [RecordPlayer(seat=p.seat, name=p.name, side=game.rules.side_of(p.seat), kind=PlayerKind(p.kind),
                                strategy=p.strategy, taken_over=p.taken_over) for p in game.players]
        record = build_record(game.rules, game.seed, master.first_dealer, actions, players, game=game.id,
                              played_at=datetime.fromtimestamp(round(game.finished_at), timezone.utc), marks=actions.marks)
        yield json.dumps({"kind": "game", "record": record.model_dump(mode="json"), "private": game.private,
                          "finished_at": game.finished_at, "reason": game.reason,
                          "token_digests": [p.token_digest for p in game.players]}, separators=(",", ":"))
    for preset in PRESETS:
        for r in _one(backend, Leaderboard(preset, EVERYTHING)):
            yield json.dumps({"kind": "rating", "preset": preset, "name": r.name, "mu": r.mu, "sigma": r.sigma,
                              "games": r.games, "wins": r.wins}, separators=(",", ":"))
    for a in _one(backend, AllAccounts()):
        yield json.dumps({"kind": "account", "name": a.name, "salt": a.salt.hex(), "hash": a.hash.hex(), "n": a.n,
                          "r": a.r, "p": a.p, "created_at": a.created_at}, separators=(",", ":"))


def actions_of(record: Record) -> Actions:
    """A record's actions as the journal keeps them: each round's void deals and deal,
    then its plays and declarations (with how plays came about)."""
    out = Actions()
    for rnd in record.rounds:
        out += [Deal(deck_order(deck)) for deck in rnd.void_deals]
        out.append(Deal(deck_order(rnd.deck)))
        for a in rnd.actions:
            if isinstance(a, RecordPlay) and (a.forced is not None or a.bot):
                out.marks[len(out)] = PlayMark(a.forced, a.bot)
            out.append(action_from_record(a))
    return out


def game_commands(line: dict[str, Any]) -> list[Command]:
    """The commands that journal one exported game."""
    record = parse_record(json.dumps(line["record"]), "the game's record")
    rules = record.engine_rules
    table = record.game or ""
    digests = line.get("token_digests") or [None] * len(record.players)
    commands: list[Command] = [CreateTable(table, rules, record.seed, bool(line.get("private")), {})]
    players = []
    for p, digest in zip(record.players, digests):
        bot = p.strategy if p.kind is PlayerKind.BOT else None
        commands.append(SetSeat(table, p.seat, p.name, digest, bot))
        players.append(GamePlayer(p.seat, p.name, p.kind.value, p.strategy, p.taken_over, digest))
    commands.append(StartTable(table))
    actions = actions_of(record)
    commands += [AppendAction.of(table, i, a, actions.marks.get(i)) for i, a in enumerate(actions)]
    commands.append(FinishTable(table, record.result.winner, tuple(record.result.totals),
                                str(line.get("reason") or record.result.reason.value), tuple(players),
                                finished_at=float(line["finished_at"])))
    return commands


@dataclass
class Imported:
    games: int = 0
    ratings: int = 0
    accounts: int = 0
    skipped: list[str] = field(default_factory=list)  # what was not imported, and why


def import_lines(backend: JournalBackend, lines: Iterable[str]) -> Imported:
    """Journal every line of an export into ``backend``."""
    done = Imported()
    ratings: dict[str, list[Rating]] = {}
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
            kind = line["kind"]
            if kind == "game":
                results = backend.run_batch(game_commands(line))
                failed = next((r for r in results if isinstance(r, BaseException)), None)
                if failed is not None:
                    done.skipped.append(f"line {number}: game {line['record'].get('game')}: {failed}")
                    continue
                done.games += 1
            elif kind == "rating":
                ratings.setdefault(line["preset"], []).append(
                    Rating(line["name"], float(line["mu"]), float(line["sigma"]), int(line["games"]), int(line["wins"])))
            elif kind == "account":
                account = Account(line["name"], bytes.fromhex(line["salt"]), bytes.fromhex(line["hash"]), int(line["n"]),
                                  int(line["r"]), int(line["p"]), float(line["created_at"]))
                _one(backend, SaveAccount(account))
                done.accounts += 1
            else:
                done.skipped.append(f"line {number}: unknown kind {kind!r}")
        except Exception as exc:  # noqa: BLE001 - one bad line is named, the others go on
            done.skipped.append(f"line {number}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
    for preset, rated in ratings.items():
        _one(backend, SaveRatings(preset, tuple(rated)))
        done.ratings += len(rated)
    return done
