"""The browser client in a cluster of two members (in this process, a real Redis, each
with its web front on 127.0.0.1, port 0): a table plays on member B while the page comes
from member A.  Joining it, resuming its seat after a reload and watching it are answered
by A with ``redirect``; the page opens ``/ws?ticket=`` on A, which carries that WebSocket
to B (server/web/relay.py), and the player sees the table as if it played on A."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from aiohttp import ClientSession, WSServerHandshakeError
from playwright.async_api import Browser

from club_players import ClubPlayer, Server
from pg import pg_url  # noqa: F401 - the fixture
from redis_server import SERVER, redis_prefix  # noqa: F401 - the fixture
from scopa.protocol import commands as wire
from scopa.server.club import ClubOptions
from scopa.server.cluster import ClusterOptions
from scopa.server.core.clock import FakeClock
from scopa.client.webfiles import web_files, web_root
from scopa.server import NetworkEngine
from scopa.server.web.front import WebFront
from test_club_tournament import create as create_tournament
from test_cluster_lobby import members
from test_web_client import DESKTOP, MINE, PHONE, WAIT, Site, browser, chromium, create, first_ready, open_page, play_by_keys, play_one  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

HAND = "[aria-label='Your hand'] .card"


@asynccontextmanager
async def two_sites(prefix: str) -> AsyncIterator[tuple[Site, Site]]:
    """Two members of one cluster, each with its web front."""
    async with members(prefix, 2) as engines:
        fronts: list[WebFront] = []
        try:
            for engine in engines:
                front = WebFront(engine, web_root(), extra=web_files())
                await front.start("127.0.0.1", 0)
                fronts.append(front)
            a, b = (Site(engine, front) for engine, front in zip(engines, fronts))
            yield a, b
            assert a.errors + b.errors == []  # no console error, no uncaught exception, while both ran
        finally:
            for front in fronts:
                await front.stop()


def seats(engine: NetworkEngine) -> list[str | None]:
    """The seats of the one table ``engine`` serves."""
    (table,) = engine.tables.values()
    return list(table.info().seats)


async def test_a_page_of_one_member_joins_resumes_and_watches_a_table_of_another(
        browser: Browser, redis_prefix: str) -> None:  # noqa: F811
    async with two_sites(redis_prefix) as (a, b):
        bob = await open_page(browser, b, "bob", DESKTOP)
        await create(bob, bots="")
        ada = await open_page(browser, a, "ada")  # A's lobby lists B's table
        await ada.get_by_role("button", name="Join").tap()
        await ada.wait_for_selector(f"{HAND}", timeout=WAIT)  # dealt: joined on B
        assert seats(b.engine) == ["bob", "ada"] and not a.engine.tables
        for _ in range(4):  # moves either way, ada's through A's relay
            page = await first_ready([ada, bob], MINE)
            await (play_one(page) if page is ada else play_by_keys(page))
            await page.wait_for_selector("main:not([data-mine]), dialog[open]", timeout=WAIT)
        labels = await ada.locator(HAND).evaluate_all("cs => cs.map(c => c.ariaLabel)")
        await ada.reload()  # the seat's resume goes to A, which sends it on to B
        await ada.wait_for_selector(HAND, timeout=WAIT)
        assert await ada.locator(HAND).evaluate_all("cs => cs.map(c => c.ariaLabel)") == labels
        assert seats(b.engine) == ["bob", "ada"]
        cid = await open_page(browser, a, "cid", PHONE)
        await cid.get_by_role("button", name="Watch").tap()
        await cid.wait_for_selector("[aria-label='Table'] .card", timeout=WAIT)
        assert await cid.locator(HAND).count() == 0  # a spectator sees no hand
        assert not a.engine.tables


async def test_a_ticket_the_front_did_not_send_is_refused(redis_prefix: str) -> None:  # noqa: F811
    async with two_sites(redis_prefix) as (a, _):
        async with ClientSession() as http:
            with pytest.raises(WSServerHandshakeError) as refused:
                await http.ws_connect(f"{a.url}ws?ticket=made-up-ticket-1234")
        assert refused.value.status == 403


async def test_a_page_is_taken_to_its_tournament_table_on_another_member(
        browser: Browser, pg_url: str, redis_prefix: str) -> None:  # noqa: F811
    """A tournament run by member A (sharing one journal with B): bea's page, from B's
    front, registers; when the round is paired B sends her on (``redirect``, ``re`` nil)
    and the page goes, through B's front, to her table on A (PROTOCOL.md §16)."""
    a, b = [NetworkEngine("127.0.0.1", 0, seed=s, clock=FakeClock(), db=pg_url, club=ClubOptions(),
                          cluster=ClusterOptions(url=SERVER, prefix=redis_prefix, member_ttl=30.0, refresh=10.0,
                                                 retry=1.0, timeout=2.0, shared_journal=True, lease_ttl=300.0))
            for s in (2, 3)]
    front = WebFront(b, web_root(), extra=web_files())
    try:
        for engine in (a, b):
            await engine.start()
        await front.start("127.0.0.1", 0)
        site = Site(b, front)
        ada = ClubPlayer("ada", Server(a.port))
        await ada.connect()
        tid = await create_tournament(ada, rounds=1, cap=2, grace=30)
        asked = ada.send(wire.TournamentJoin(tournament=tid))
        await ada.until(lambda c: c.re == asked)
        bea = await open_page(browser, site, "bea", DESKTOP)
        await bea.get_by_role("button", name="Show the tournaments").click()
        await bea.get_by_role("button", name="Register").click()
        await bea.get_by_text("2/2: ada, bea").wait_for(timeout=WAIT)
        ada.send(wire.TournamentStart(tournament=tid))
        await bea.wait_for_selector("#turn", timeout=WAIT)  # at her table: the game began
        async with asyncio.timeout(WAIT / 1000):
            await ada.until(lambda c: c.name == "game_start")
        (table,) = a.tables.values()
        assert sorted(s.name for s in table.seats if s is not None) == ["ada", "bea"] and not b.tables
        await ada.close()
        assert site.errors == []
    finally:
        await front.stop()
        for engine in (a, b):
            await engine.stop()
