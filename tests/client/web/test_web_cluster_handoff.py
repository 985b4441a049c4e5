"""The browser client over a drain's handoff: a page served by member A sits at a table
playing on member B (its WebSocket carried to B by A's web front); B is drained, and
until A has taken the table over, A answers the page's resume with ``unavailable`` (the
table is between two servers).  The page says so and asks again until A serves the
table, then it is back at its seat, without a reload or a click.

Members in this process against a real Redis (a key prefix per test) and PostgreSQL (a
schema per test), each on a fake clock: A takes the table over only when the test moves
A's clock on, so the window in which the page is told to wait is held open."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from pg import pg_url  # noqa: F401 - the fixture
from redis_server import redis_prefix  # noqa: F401 - the fixture
from scopa.client.webfiles import web_files, web_root
from scopa.server import NetworkEngine
from scopa.server.web.front import WebFront
from test_cluster_tables import clock_of, member, running, until
from test_web_client import DESKTOP, WAIT, Site, browser, chromium, open_page  # noqa: F401
from wire_client import WireClient

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

HAND = "[aria-label='Your hand'] .card"


def seat_of(engine: NetworkEngine, table: str, name: str) -> tuple[bool, bool]:
    """Whether ``engine`` serves ``table`` with a seat called ``name``, and whether that
    seat's client is connected."""
    served = engine.tables.get(table)
    if served is None:
        return False, False
    for seat in served.seats:
        if seat is not None and seat.name == name:
            return True, not seat.away
    return False, False


async def test_a_page_whose_table_moves_between_members_waits_then_resumes_at_the_taker(
        browser: Browser, redis_prefix: str, pg_url: str) -> None:  # noqa: F811
    a, b = member(redis_prefix, pg_url, 1), member(redis_prefix, pg_url, 2)
    async with running(a, b):
        front = WebFront(a, web_root(), extra=web_files())
        await front.start("127.0.0.1", 0)
        site = Site(a, front)
        try:
            bob = await WireClient.connect(b.port, "bob")
            table = await bob.create()
            await until(lambda: a.tables.remote.get(table) is not None, "A lists B's table", clock_of(a))
            ada = await open_page(browser, site, "ada", DESKTOP)
            await ada.get_by_role("button", name="Join").click()
            await ada.wait_for_selector(HAND, timeout=WAIT)  # dealt: seated on B, through A's front
            assert seat_of(b, table, "ada") == (True, True)
            await b.stop()  # drained: B hands the table on; A takes it on its clock's next look
            assert table not in a.tables
            await ada.wait_for_selector("text=moving to another server", timeout=WAIT)
            await until(lambda: table in a.tables, "A takes the table over", clock_of(a))
            await until(lambda: seat_of(a, table, "ada") == (True, True), "the page resumes its seat at A")
            await ada.wait_for_selector(HAND, timeout=WAIT)
            assert await ada.locator("text=moving to another server").count() == 0
            await bob.close()
        finally:
            await front.stop()
