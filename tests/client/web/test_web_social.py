"""The browser client with other people, in Debian's chromium against a real server on
127.0.0.1 (port 0), as tests/client/web/test_web_client.py drives it: a private table reached only
by its invite link, and chat in the lobby and at a table between two browsers."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.async_api import Browser, Page

from test_web_client import DESKTOP, PHONE, WAIT, Site, browser, chromium, create, open_page, site  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py


async def say(page: Page, field: str, text: str) -> None:
    await page.fill(f"#{field}", text)
    await page.locator(f"form:has(#{field}) button[type=submit]").click()


async def chat_lines(page: Page) -> list[str]:
    return await page.locator("ul.chat[aria-label='Chat'] li").all_text_contents()


async def test_a_private_table_is_reached_by_its_invite_link_only(site: Site, browser: Browser) -> None:
    ada = await open_page(browser, site, "ada", DESKTOP)
    await ada.check("#private")
    await create(ada, bots="")
    link = ada.get_by_role("link")
    await link.wait_for(timeout=WAIT)
    invite = await link.get_attribute("href") or ""
    one = parse_qs(urlsplit(invite).query)["invite"][0]  # the invite as one string, TABLE.CODE
    table, code = one.split(".", 1)
    assert table and code and invite.startswith(site.url)

    # cid has no link: the table is not listed, and asking for it by number finds nothing
    cid = await open_page(browser, site, "cid", PHONE)
    await cid.wait_for_selector(".tables li", timeout=WAIT)
    assert await cid.locator(".tables li").all_text_contents() == ["No tables yet: create one."]
    assert await cid.get_by_role("button", name="Watch").count() == 0
    await cid.goto(f"{site.url}?table={table}")
    await cid.wait_for_selector("#link-gone h2:has-text('This table is gone')", timeout=WAIT)  # no table: said in its own box
    assert await cid.locator("#turn").count() == 0 and await cid.locator("#preset").count() == 1

    # bob opens the link in another browser: named, he sits at the table and the game starts
    context = await browser.new_context(**PHONE)  # type: ignore[arg-type]
    bob = await context.new_page()
    bob.on("console", lambda m: site.errors.append(f"bob: {m.text}") if m.type == "error" else None)
    await bob.goto(invite)
    await bob.fill("#name", "bob")
    await bob.get_by_role("button", name="Play").tap()
    await bob.wait_for_selector("[aria-label='Your hand'] .card", timeout=WAIT)
    seats = await bob.locator(".seat").all_text_contents()
    assert seats[0].startswith("ada") and seats[1].startswith("bob (you)")
    await ada.wait_for_selector("[aria-label='Your hand'] .card", timeout=WAIT)
    assert (await ada.locator(".seat").all_text_contents())[1].startswith("bob")
    assert await cid.locator(".tables li").all_text_contents() == ["No tables yet: create one."]


async def test_two_browsers_chat_in_the_lobby_and_at_the_table(site: Site, browser: Browser) -> None:
    ada = await open_page(browser, site, "ada", DESKTOP)
    bob = await open_page(browser, site, "bob", PHONE)
    await say(ada, "lobby-chat", "anyone for a game?")
    await bob.wait_for_selector("ul.chat li:has-text('ada: anyone for a game?')", timeout=WAIT)
    await say(bob, "lobby-chat", "me!")
    await ada.wait_for_selector("ul.chat li:has-text('bob: me!')", timeout=WAIT)
    assert await chat_lines(ada) == ["ada: anyone for a game?", "bob: me!"]

    await create(ada, bots="")
    await bob.get_by_role("button", name="Join").tap()
    await bob.wait_for_selector("#table-chat", timeout=WAIT)
    await ada.wait_for_selector("[aria-label='Your hand'] .card", timeout=WAIT)
    await say(bob, "table-chat", "buona fortuna")
    await ada.wait_for_selector("ul.chat li:has-text('bob: buona fortuna')", timeout=WAIT)
    await say(ada, "table-chat", "grazie")
    await bob.wait_for_selector("ul.chat li:has-text('ada: grazie')", timeout=WAIT)
    assert await chat_lines(bob) == ["bob: buona fortuna", "ada: grazie"]  # the table's own chat
