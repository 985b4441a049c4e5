"""The browser client's first screens on a family's two phones (390×844, touch), in
Debian's chromium against a real server on 127.0.0.1 (port 0), as
tests/client/web/test_web_client.py drives it: the rules are a player's (no typing codes,
no command lines), the plain connection is a small mark that explains itself, an invite
says whose table and which game and can be shared, and a name in use is asked about
before the lobby."""

from __future__ import annotations

import re
from typing import Any

import msgpack
import pytest
from playwright.async_api import Browser, Page

from scopa.engine import Preset, RuleSet
from scopa.client.text.catalog import catalog
from scopa.server.network import DEFAULT_TURN_TIMEOUT
from scopa.server.table.turns import READING_TIME

from test_web_client import AXE, MINE, PHONE, WAIT, Site, axe_violations, browser, chromium, create, open_page, site  # noqa: F401
from test_web_family import ITALIAN_PHONE, open_italian

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py


async def phone(browser: Browser, site: Site, lang: str, url: str = "", **extra: object) -> Page:
    """A phone in ``lang`` at ``url`` (the server's page), on its name screen."""
    context = await browser.new_context(**(ITALIAN_PHONE if lang == "it" else PHONE), **extra)  # type: ignore[arg-type]
    page = await context.new_page()
    page.on("pageerror", lambda e: site.errors.append(str(e)))
    await page.goto(url or site.url)
    return page


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_rules_are_for_players_who_tap_not_type(site: Site, browser: Browser, lang: str) -> None:
    """The page's rules: no typing codes, no command-line words; every game and every
    option still explained, options under the names the create form gives them."""
    page = await phone(browser, site, lang)
    await page.fill("#name", "ada")
    await page.get_by_role("button", name="Gioca" if lang == "it" else "Play", exact=True).tap()
    await page.get_by_role("button", name="Regole" if lang == "it" else "Rules", exact=True).tap()
    await page.wait_for_selector("dialog[open] .rules h3", timeout=WAIT)
    text = await page.locator("dialog[open] .rules").inner_text()
    assert not re.search(r"--\w", text) and "-o " not in text and "scopa options" not in text
    assert "7d" not in text and "7 Den" not in text and "lettera" not in text and "letter (" not in text
    for p in Preset:
        assert await page.locator("dialog[open] .rules :is(h4, h5, h6)", has_text=re.compile(f"^{p.value}$")).count() == 1
    options = catalog().options
    for name in RuleSet.model_fields:
        own = {"preset": ("Game", "Gioco"), "players": ("Players", "Giocatori")}
        said = own[name][lang == "it"] if name in own else options[name][0] if lang == "it" else name.replace("_", " ")
        assert await page.locator("dialog[open] .rules li > strong", has_text=re.compile(f"^{re.escape(said)}$")).count() == 1, said


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_plain_connection_is_a_small_mark_that_explains_itself(site: Site, browser: Browser, lang: str) -> None:
    """No warning on the first screen: a small "Connessione non cifrata" mark (and a drawn info sign) at the page's foot, which
    says in one plain sentence what it means, and in another that whoever hosts can turn
    encryption on: in words a player reads, no command."""
    page = await phone(browser, site, lang, bypass_csp=True)  # axe is injected
    await page.wait_for_selector("#name", timeout=WAIT)
    assert not await page.locator("#not-private").is_visible()
    assert await page.get_by_text("scopa serve").count() == 0
    said = "Connessione non cifrata" if lang == "it" else "Connection not encrypted"
    mark = page.locator("footer #not-private-mark")
    assert (await mark.inner_text()).strip() == said
    await mark.tap()
    lines = await page.locator("dialog[open] p").all_text_contents()
    assert lines[0] == ("Il collegamento a questa pagina non è cifrato: in una rete di casa va bene, ma in una rete condivisa "
                        "(un bar, un albergo) altri potrebbero vedere ciò che invii." if lang == "it" else
                        "The connection to this page is not encrypted: on a home network that is fine, but on a shared one "
                        "(a café, a hotel) others could see what you send.")
    assert lines[1] == ("Chi ospita il gioco può attivare la cifratura (TLS) nel suo server: allora il collegamento è privato." if lang == "it" else
                        "Whoever hosts the game can turn on encryption (TLS) in its server: then the connection is private.")
    assert await page.get_by_text("scopa serve").count() == 0 and await page.get_by_text("--tls").count() == 0
    assert await axe_violations(page) == []


async def test_an_invite_says_whose_table_and_which_game_and_can_be_shared(site: Site, browser: Browser) -> None:
    """The host's Condividi hands the invite link to the phone's share sheet; the phone
    that opens it is told who invites them to what before they pick a name; the game's
    first turn gives its player time to look at the board first (the reading time a
    round's first turn has)."""
    host = await phone(browser, site, "it")
    await host.add_init_script("navigator.share = (data) => { window.shared = data; return Promise.resolve(); };")
    await host.reload()
    await host.fill("#name", "Zio_Gino")
    await host.get_by_role("button", name="Gioca", exact=True).tap()
    await host.wait_for_selector("#preset", timeout=WAIT)
    await host.check("#private")
    await host.get_by_role("button", name="Crea un tavolo", exact=True).tap()
    link = await host.locator("#invite a").get_attribute("href", timeout=WAIT) or ""
    await host.get_by_role("button", name="Condividi", exact=True).tap()
    assert (await host.evaluate("window.shared"))["url"] == link
    guest = await (await browser.new_context(**ITALIAN_PHONE)).new_page()  # type: ignore[arg-type]
    heard: list[dict[str, Any]] = []
    guest.on("websocket", lambda ws: ws.on("framereceived", lambda data: heard.append(msgpack.unpackb(data))))
    await guest.goto(link)
    assert await guest.locator("#invited").text_content() == \
        "Zio_Gino ti invita a una partita di Scopa a 2, a 11 punti: scegli un nome e gioca."
    await guest.fill("#name", "Nonna")
    await guest.get_by_role("button", name="Gioca", exact=True).tap()
    await guest.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    start = next(f["body"] for f in heard if f["name"] == "round_start")
    assert start["round"] == 1 and start["turn_left_ms"] == (DEFAULT_TURN_TIMEOUT + READING_TIME) * 1000


@pytest.mark.parametrize("choice", ["play as", "another"])
async def test_a_name_in_use_is_asked_about_before_the_lobby(site: Site, browser: Browser, choice: str) -> None:
    """"zio_gino" while Zio_Gino plays: the name screen asks, offering a free name or
    another of one's own; a reload after that plays on under the name taken, asking
    nothing."""
    await open_italian(browser, site, "Zio_Gino")
    page = await phone(browser, site, "it")
    await page.fill("#name", "zio_gino")
    await page.get_by_role("button", name="Gioca", exact=True).tap()
    question = page.locator("#name-question [role=alert]")
    await question.wait_for(timeout=WAIT)
    said = await question.text_content() or ""
    found = re.fullmatch(r"Il nome zio_gino è già in uso\. Gioca come (zio_gino\d\d), o scegli un altro nome\.", said)
    assert found, said
    assert await page.locator("#preset").count() == 0  # not in the lobby yet
    if choice == "play as":
        await page.get_by_role("button", name=f"Gioca come {found[1]}", exact=True).tap()
        name = found[1]
    else:
        await page.get_by_role("button", name="Scegli un altro nome", exact=True).tap()
        await page.fill("#name", "Nonna")
        await page.get_by_role("button", name="Gioca", exact=True).tap()
        name = "Nonna"
    await page.wait_for_selector("#preset", timeout=WAIT)
    assert await page.locator("header h1").text_content() == f"Scopa · {name}"
    assert await page.get_by_text("già preso").count() == 0  # nothing more to say about it
    await page.reload()
    await page.wait_for_selector("#preset, #name-question", timeout=WAIT)
    assert await page.locator("#name-question").count() == 0
