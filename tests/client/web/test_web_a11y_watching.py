"""axe-core (client/web's npm package) finds nothing, minor findings included, on a
spectator's screens at phone size (390×844, touch), in Italian and in English: the board
it watches (with the eye that counts who watches), a round's end, the game's end and the
game shown again from there; in Debian's chromium against a real server on 127.0.0.1."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from test_web_a11y import axe_findings
from test_web_client import AXE, PHONE, WAIT, browser, chromium, served  # noqa: F401
from test_web_family import against_an_easy_bot, open_italian, play_to_round_end

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_axe_finds_nothing_on_a_spectators_screens(browser: Browser, lang: str) -> None:
    async with served() as s:
        nonna = await open_italian(browser, s, "Nonna_Pina")
        await against_an_easy_bot(nonna)
        await nonna.wait_for_selector("[data-area=table] .card", timeout=WAIT)
        context = await browser.new_context(**{**PHONE, "locale": "it-IT" if lang == "it" else "en-GB"}, bypass_csp=True)  # type: ignore[arg-type]  # axe is injected
        zia = await context.new_page()
        zia.on("pageerror", lambda e: s.errors.append(f"zia: {e}"))
        await zia.goto(s.url)
        await zia.fill("#name", "Zia_Lia")
        await zia.get_by_role("button", name="Gioca" if lang == "it" else "Play", exact=True).tap()
        await zia.locator(".tables li", has_text="#1 ").get_by_role("button", name="Guarda" if lang == "it" else "Watch").tap()
        await zia.wait_for_selector("#watching", timeout=WAIT)
        await zia.wait_for_selector("h2 #onlookers", timeout=WAIT)
        await zia.add_script_tag(path=str(AXE))
        assert await axe_findings(zia) == [], "watching"
        await play_to_round_end(nonna)
        await zia.wait_for_selector("dialog[open]#round-end, #game-end", timeout=WAIT)
        assert await axe_findings(zia) == [], "round end"
        if not await nonna.locator("#game-end").count():
            await nonna.locator("dialog[open]#round-end p.bar button").first.tap()
            await nonna.locator("#leave").tap()
            await nonna.locator("dialog[open]#leave-question button.danger").tap()
        await zia.wait_for_selector("#game-end", timeout=WAIT)
        assert await axe_findings(zia) == [], "game end"
        again = "Rivedi la partita" if lang == "it" else "Watch the game again"
        await zia.locator("#game-end").get_by_role("button", name=again).tap()
        await zia.wait_for_selector("#replay-where", timeout=WAIT)
        await zia.locator("#replay-controls button >> nth=1").tap()  # a step on
        assert await axe_findings(zia) == [], "replay"
        await context.close()
