"""The table's chat on an Italian family's phone (390×844, touch, it-IT), in Debian's chromium
against a real server on 127.0.0.1 (port 0), as tests/client/web/test_web_client.py drives
it: the chat, below the board, is one tap away from the title's row; the count of new
messages shows over the page, moving nothing under it and covering no turn line."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from test_web_client import WAIT, Site, browser, chromium, site  # noqa: F401
from test_web_family import in_view, open_italian
from test_web_family_trial import in_lobby

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py


async def test_the_chat_is_one_tap_away_and_its_count_moves_nothing(site: Site, browser: Browser) -> None:
    """ada and bruno at a scopone table with two bots: ada's page at its top, the chat out of sight; bruno writes:
    the count of new messages shows and the board stays exactly where it was; "Chat" in the
    title's row brings the chat, bruno's line and the line to write in, into sight."""
    ada = await in_lobby(browser, site, "ada")
    await ada.select_option("#preset", "scopone")
    await ada.select_option("#people", "2")  # bruno, and two bots
    await ada.locator("form:has(#preset) button[type=submit]").tap()
    link = ada.locator("#invite a")
    await link.wait_for(timeout=WAIT)
    bruno = await open_italian(browser, site, "bruno", await link.get_attribute("href") or "")
    await bruno.wait_for_selector("#table-chat", timeout=WAIT)
    await ada.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    await ada.evaluate("window.scrollTo(0, 0)")
    assert not await in_view(ada, "#table-chat")  # below the board
    board = await ada.locator("[data-area=table]").bounding_box()
    await bruno.fill("#table-chat", "ciao nonna")
    await bruno.locator("#table-chat").press("Enter")
    await ada.locator("ul.chat li", has_text="bruno: ciao nonna").wait_for(state="attached", timeout=WAIT)
    new = ada.locator(".chat-new")
    await new.wait_for(timeout=WAIT)
    assert await new.text_content() == "1 nuovo messaggio in chat"
    assert await ada.locator("[data-area=table]").bounding_box() == board  # nothing pushed down
    pill, turn = await new.bounding_box(), await ada.locator("#turn").bounding_box()
    assert pill and turn and (pill["y"] >= turn["y"] + turn["height"] or pill["y"] + pill["height"] <= turn["y"])  # the turn's line and clock uncovered
    await ada.locator("header").get_by_role("button", name="Chat", exact=True).tap()
    await ada.locator("ul.chat li", has_text="bruno: ciao nonna").wait_for(timeout=WAIT)
    assert await in_view(ada, "#table-chat")
    assert await in_view(ada, "ul.chat:has(li:text('bruno: ciao nonna'))")
    assert await ada.locator(".chat-new").count() == 0
