"""A complete Scopa bot with the SDK: `python examples/sdk_bot.py [HOST:PORT] [GAMES] [BOT]`
joins the first table waiting for players, or opens one (against the server's BOT, e.g.
greedy, if named) and plays; `tls://HOST:PORT` for a server speaking TLS (its certificate
checked, or pinned on first use).  It plays locally too: play_local(rules, [Sweeper()], seed).
"""

import asyncio
import sys

from scopa.client import Bot, ClientSession
from scopa.engine import CARDS, Play
from scopa.protocol.servers import parse_server_address


class Sweeper(Bot):
    """Takes as many cards as it can; with nothing to take, lays down its lowest card."""

    def pick(self, view, legal):
        plays = [a for a in legal if isinstance(a, Play)]
        if len(plays) < len(legal):
            return legal[0]  # a Cirulla declaration (they come first): free points
        return max(plays, key=lambda p: (p.capture.bit_count(), -CARDS[p.card].value))


async def main(address: str = "127.0.0.1:7015", games: str = "1", *opponent: str) -> None:
    where = parse_server_address(address)
    async with await ClientSession.connect(where.host, where.port, "sweeper", tls=where.tls) as session:
        for n in range(1, int(games) + 1):
            waiting = [t for t in await session.list_tables() if t.state == "waiting" and None in t.seats]
            if waiting:
                await session.join_table(waiting[0].id)
            else:
                await session.create_table(fill_with_bots=opponent)  # default rules, 2 seats
            result = await session.play_game(Sweeper())
            print(f"game {n}: {'won' if result.won else 'lost'}, totals {list(result.totals)}")


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
