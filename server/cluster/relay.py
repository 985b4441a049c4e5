"""Tournaments across the members of a cluster sharing one journal: each tournament is run
by the member holding its lease (server/cluster/leases.py, under ``P:tournament``), the one
writer of its state; its entrants may be connected to any member.

- **Asking.** A tournament command of a player connected to a member that does not run
  the tournament (join, leave, start) goes to the member holding its lease (``ask`` on the
  lobby channel, naming that member); that member carries it out as if the player were
  its own and sends its answer back (``answer``), which the asking member gives its
  player.  No holder, or no answer within four times the cluster's timeout: ``None``
  (the asking member answers ``unavailable``).
- **Telling.** What the member running a tournament tells its entrants connected to
  other members (``told``: their names, the message, and the table whose seat it keeps
  for them): the member each is connected to tells them, and sends the one whose seat is
  kept on to that table's member (a ``redirect``).  One member's messages are published
  in the order it sends them, so its entrants hear them in that order.
- **Coming.** A player who connects to a member is named to the others (``came``): the
  member running a tournament that keeps a seat for them tells them of it and sends them
  there as above.

Only the lobby channel carries them: every member reads every ``told`` and keeps what is
for its connections."""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import deque
from collections.abc import Callable, Sequence

from redis.asyncio import Redis
from redis.exceptions import RedisError

from scopa.protocol import commands as wire

from ..core import BackgroundTasks
from .keys import AnswerNews, AskNews, CameNews, Keys, ToldNews, answer_news, ask_news, came_news, told_news

log = logging.getLogger("scopa.server.cluster")

Answer = Callable[[wire.Body | None], None]
"""Told once with the answer of the member running the tournament (None: none came)."""
Asked = Callable[[str, str, wire.Body, Callable[[wire.Body], None]], None]
"""What the member running a tournament does with a command asked on another member:
``(name, client, command, answer)``."""
Told = Callable[[Sequence[str], wire.Body, str | None], None]
"""What a member does with a tournament's message for entrants it may hold:
``(names, message, seat)``."""


class TournamentRelay:
    """This member's part in the tournaments its cluster runs on several members."""

    def __init__(self, member: str, lobby: str, tournament_keys: Keys, store: Callable[[], Redis | None],
                 on_lost: Callable[[BaseException], None], timeout: float) -> None:
        self.member = member
        self.lobby = lobby
        self.tournament_keys = tournament_keys
        self.store = store
        self.on_lost = on_lost
        self.timeout = timeout
        self.on_asked: Asked | None = None
        """The club's: a command asked of a tournament this member runs."""
        self.on_told: Told | None = None
        """The club's: a tournament's message for entrants connected here."""
        self.on_came: Callable[[str], None] | None = None
        """The club's: a player connected to another member, by this name."""
        self._numbers = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[wire.Body]] = {}
        self._outbox: deque[str] = deque()
        self._sending = False
        self._background = BackgroundTasks()

    # ------------------------------------------------------------------ what the club asks

    def ask(self, tournament: str, name: str, client: str, body: wire.Body, answer: Answer) -> None:
        """Carry out ``body`` (a player's command to ``tournament``) on the member running it."""
        self._background.spawn(self._ask(tournament, name, client, body, answer))

    def tell(self, names: Sequence[str], body: wire.Body, seat: str | None = None) -> None:
        """Tell ``body`` to those of ``names`` connected to other members (``seat``: the
        table a seat is kept at for them: they are sent there)."""
        if names:
            self._send(told_news(ToldNews(self.member, tuple(names), body, seat)))

    def arrived(self, name: str) -> None:
        """A player connected here by ``name``: told to the other members."""
        self._send(came_news(CameNews(self.member, name)))

    # ------------------------------------------------------------------ what the channel brings

    def hear(self, news: AskNews | AnswerNews | ToldNews | CameNews) -> None:
        if isinstance(news, CameNews):
            if self.on_came is not None:
                self.on_came(news.name)
        elif isinstance(news, ToldNews):
            if self.on_told is not None:
                self.on_told(news.names, news.body, news.seat)
        elif news.to != self.member:
            return
        elif isinstance(news, AnswerNews):
            waiting = self._waiting.pop(news.ask, None)
            if waiting is not None and not waiting.done():
                waiting.set_result(news.body)
        elif self.on_asked is not None:
            asker, number = news.member, news.ask
            self.on_asked(news.name, news.client, news.body,
                          lambda body: self._send(answer_news(AnswerNews(self.member, asker, number, body))))

    async def close(self) -> None:
        for waiting in self._waiting.values():
            waiting.cancel()
        self._waiting.clear()
        await self._background.close()

    # ------------------------------------------------------------------ inside

    async def _ask(self, tournament: str, name: str, client: str, body: wire.Body, answer: Answer) -> None:
        store = self.store()
        got: wire.Body | None = None
        if store is not None:
            number = next(self._numbers)
            waiting = self._waiting[number] = asyncio.get_running_loop().create_future()
            try:
                async with asyncio.timeout(self.timeout * 4):
                    raw = await store.get(self.tournament_keys.lease(tournament))
                    holder = raw.decode() if isinstance(raw, bytes) else raw
                    if holder is not None and holder != self.member:
                        self._send(ask_news(AskNews(self.member, holder, number, name, client, body)))
                        got = await waiting
            except (RedisError, OSError) as exc:
                self.on_lost(exc)
            except TimeoutError:
                log.warning("cluster: no answer from the member running tournament %s", tournament)
            finally:
                self._waiting.pop(number, None)
        answer(got)

    def _send(self, message: str) -> None:
        """Publish ``message`` after every message this member sent before."""
        self._outbox.append(message)
        if not self._sending:
            self._sending = True
            self._background.spawn(self._drain())

    async def _drain(self) -> None:
        try:
            while self._outbox:
                message = self._outbox.popleft()
                store = self.store()
                if store is None:
                    log.warning("cluster: a tournament's message to the other members is lost: Redis is down")
                    continue
                try:
                    async with asyncio.timeout(self.timeout):
                        await store.publish(self.lobby, message)
                except (RedisError, OSError, TimeoutError) as exc:
                    self.on_lost(exc)
        finally:
            self._sending = False
