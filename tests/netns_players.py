"""The players of the two-host cluster test, run inside one host's network namespace:
``python tests/netns_players.py --maker HOST:PORT --home HOST:PORT --games N``.

It opens ``N`` tables (a random bot on each, the maker not seated) at the member at
``--maker``, then seats a player at each through the member at ``--home``, which sends
it on to the table's member.  It prints ``table ID`` for each table, ``under way ID``
once that player has chosen three moves, and when every game has ended one ``result
JSON`` line per game: the client's result, where it finished (``host:port``), every
``Played`` event it was told of in order, how many of them it had been told of each
time a snapshot stood in for events it missed (``snapshots``), and when
(``time.monotonic``) and where it chose each of its moves.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Sequence

from scopa.bots import make_bot
from scopa.client.net import parse_address, ClientSession
from scopa.engine import Declare, Event, IllegalMoveError, Play, Played, Player, View
from scopa.protocol.commands import Snapshot

UNDER_WAY = 3  # own moves chosen before a game counts as under way


class Recorder(Player):
    """A random bot thinking ``think`` s per move, noting every play it is told of."""

    def __init__(self, session: ClientSession, table: str, seed: int, think: float) -> None:
        self.session, self.table, self.think = session, table, think
        self.bot = make_bot("random", f"p{seed}", seed=seed)
        self.moves: list[tuple[float, str]] = []  # when each was chosen (time.monotonic), and where
        self.played: list[tuple[int, list[int]]] = []
        self.snapshots: list[int] = []

    async def choose(self, view: View, legal: Sequence[Play | Declare]) -> Play | Declare:
        self.moves.append((time.monotonic(), f"{self.session.host}:{self.session.port}"))
        if len(self.moves) == UNDER_WAY:
            print("under way", self.table, flush=True)
        await asyncio.sleep(self.think)  # pacing: the game lasts past the cut
        return await self.bot.choose(view, legal)

    async def notify(self, event: Event) -> None:
        if isinstance(event, Played):
            self.played.append((int(event.card), sorted(int(card) for card in event.captured)))
        await self.bot.notify(event)

    async def rejected(self, error: IllegalMoveError) -> None:
        await self.bot.rejected(error)

    def snapshot(self, _: Snapshot) -> None:
        self.snapshots.append(len(self.played))


async def seated(home: tuple[str, int], table: str, seed: int, liveness: float) -> ClientSession:
    session = await ClientSession.connect(*home, f"p{seed}")
    session.first_backoff, session.max_backoff = 0.05, 0.5
    session.ping_after, session.dead_after = liveness, liveness  # a silent link is noticed soon
    # As a person would, join the table once this member's lobby lists it: a table made on
    # the other host reaches this member's listing a moment after the maker is told its id.
    listed = {info.id for info in await session.watch_lobby()}
    while table not in listed:
        update = await session.next_lobby_update(timeout=30.0)
        assert update is not None, f"table {table} never reached the lobby of {home}"
        listed.add(update.id)
    await session.unwatch_lobby()
    await session.join_table(table)
    return session


async def play(session: ClientSession, seed: int, think: float) -> dict[str, object]:
    table = session.table_id
    assert table is not None
    sent_to = f"{session.host}:{session.port}"
    player = Recorder(session, table, seed, think)
    result = await session.play_game(player, on_snapshot=player.snapshot)
    return {"table": table, "winner": result.winner, "totals": list(result.totals),
            "reason": result.reason, "sent_to": sent_to, "ended_at": f"{session.host}:{session.port}",
            "played": player.played, "snapshots": player.snapshots, "moves": player.moves}


async def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--maker", required=True)
    parser.add_argument("--home", required=True)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--liveness", type=float, default=0.5)
    args = parser.parse_args(argv)
    home = parse_address(args.home)
    sessions: list[ClientSession] = []
    maker = await ClientSession.connect(*parse_address(args.maker), "maker")
    try:
        for seed in range(args.games):
            table = (await maker.create_table(fill_with_bots=["random"], sit=False)).id
            print("table", table, flush=True)
            sessions.append(await seated(home, table, seed, args.liveness))  # its game starts
    finally:
        await maker.close()  # (a table still waiting for players would close with it)
    try:
        results = await asyncio.gather(*(play(session, seed, args.think) for seed, session in enumerate(sessions)))
    finally:
        for session in sessions:
            await session.close()
    for result in results:
        print("result", json.dumps(result), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
