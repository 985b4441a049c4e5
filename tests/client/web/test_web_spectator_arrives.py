"""The browser client's spectator on a phone (390×844, touch), as it starts watching
(PROTOCOL.md §7 Watching): the chat said at the table before it came is in the table's
chat, and a seat whose person is away is said held for them, for how long, counting down,
as the players read it (the seat_away the server tells right after the snapshot)."""

from __future__ import annotations

import asyncio
import re

import pytest
from playwright.async_api import Browser

from scopa.client.net import ClientSession
from scopa.server.core.clock import FakeClock

from test_web_client import PHONE, WAIT, browser, chromium, open_page, served  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]


async def test_a_phone_watching_reads_the_earlier_chat_and_the_away_seats_hold(browser: Browser) -> None:
    clock = FakeClock()
    async with served(clock=clock, turn_timeout=600.0) as s:  # the grace period runs on the test's clock
        ada = await ClientSession.connect("127.0.0.1", s.engine.port, "ada")
        info = await ada.create_table(preset="scopa", fill_with_bots=["medium"])
        await ada.send_chat("torno subito", to=f"table:{info.id}")
        await ada.list_tables()  # answered after the chat: the table has it
        s.engine.names["ada"].abort()  # her connection dies: her seat is held for her (120 s)
        onlooker = await ClientSession.connect("127.0.0.1", s.engine.port, "onlooker")
        while not any(t.id == info.id and t.away for t in await onlooker.list_tables()):
            await asyncio.sleep(0.01)  # until the server has seen the connection go
        await onlooker.close()
        clock.advance(20.0)
        zio = await open_page(browser, s, "zio", PHONE)
        await zio.locator(".tables li", has_text=f"#{info.id} ").get_by_role("button", name="Watch").tap()
        held = zio.locator("#away li", has_text="ada is away from the table: the seat stays theirs for another ")
        await held.wait_for(timeout=WAIT)
        assert re.fullmatch(r"ada is away from the table: the seat stays theirs for another 1:[34]\d, then a bot plays\.",
                            (await held.text_content() or "").strip())
        await zio.locator("ul.chat li", has_text="ada: torno subito").wait_for(state="attached", timeout=WAIT)
        await zio.context.close()
