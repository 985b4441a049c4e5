"""What the table page says about who is at the table, for a family on Italian phones
(390x844, it-IT), against a real server on 127.0.0.1 (port 0): a seat a bot plays while
its person is away says so for as long as it lasts; a rematch from the game's end, offered
to the other player and to the game's spectator, or with only a bot left a new game
against it; a spectator reads that it watches, and whose game; a link to a full
table says so and offers to watch; a spectator reads who left a game that ended."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, Page

from scopa.server.core.clock import FakeClock

from test_web_client import MINE, WAIT, Site, axe_violations, browser, chromium, served  # noqa: F401
from test_web_family import open_italian
from test_web_seat_held import play_first

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

NONNA, ZIO, ZIA = "Nonna_Pina", "Zio_Gino", "Zia_Lia"


async def new_table(page: Page, bots: str = "", private: bool = False) -> str:
    """``page`` makes a table (``bots`` for the empty seats); its invite link, if private."""
    await page.wait_for_selector("#preset", timeout=WAIT)
    await page.select_option("#bots", bots)
    if private:
        await page.check("#private")
    await page.locator("form button[type=submit]", has_text="Crea un tavolo").tap()
    await page.wait_for_selector("#turn", timeout=WAIT)
    if not private:
        return ""
    link = page.locator("#invite a")
    await link.wait_for(timeout=WAIT)
    return await link.get_attribute("href") or ""


async def nonna_and_zio(browser: Browser, s: Site, private: bool = False) -> tuple[Page, Page, str]:
    """Nonna_Pina makes a table for two; Zio_Gino sits at it (by its invite link if private)."""
    nonna = await open_italian(browser, s, NONNA)
    link = await new_table(nonna, private=private)
    zio = await open_italian(browser, s, ZIO, url=link, bypass_csp=True)  # axe is injected
    if not private:
        await zio.locator(".tables li", has_text="#1 ").get_by_role("button", name="Siediti").tap()
    await zio.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    await nonna.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    return nonna, zio, link


async def watcher(browser: Browser, s: Site) -> Page:
    """Zia_Lia watches table #1 from the lobby."""
    zia = await open_italian(browser, s, ZIA, bypass_csp=True)  # axe is injected
    await zia.locator(".tables li", has_text="#1 ").get_by_role("button", name="Guarda").tap()
    # the board as the snapshot has it, whose game named (the table itself may be empty after a sweep)
    await zia.wait_for_selector("#watching:has-text('Stai guardando la partita di')", timeout=WAIT)
    return zia


async def test_a_seat_a_bot_plays_while_its_person_is_away_says_so_until_they_are_back(browser: Browser) -> None:
    clock = FakeClock()
    async with served(clock=clock, turn_timeout=600.0) as s:  # the grace period runs on the test's clock; no turn runs out meanwhile
        nonna, zio, _ = await nonna_and_zio(browser, s)
        phone = zio.context
        await zio.close()  # his phone sleeps
        await nonna.locator(".seat", has_text=f"{ZIO} · non è al tavolo").wait_for(timeout=WAIT)
        clock.advance(120.0)  # past the grace period: a bot plays his seat
        line = f"{ZIO} non è al tavolo: un bot gioca al suo posto."
        await nonna.locator("#stand-in li", has_text=line).wait_for(timeout=WAIT)
        await nonna.wait_for_selector(MINE, timeout=WAIT)
        await play_first(nonna)
        await nonna.wait_for_selector(MINE, timeout=WAIT)  # the bot played in his place: the news of it is old
        news = await nonna.locator("#stand-in li, p.scopa[role=alert]").all_text_contents()  # the one notice above the board
        assert news == [line] or (len(news) == 1 and "scopa" in news[0].lower()), news  # the line stays, unless a scopa is newer
        zia = await watcher(browser, s)  # a spectator who comes now reads it too
        assert await zia.locator("#stand-in li").all_text_contents() == [line]

        zio = await phone.new_page()  # his phone wakes: the page comes back with its seat token
        await zio.goto(s.url)
        await zio.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
        for page in (nonna, zia):
            await page.locator("#stand-in").wait_for(state="detached", timeout=WAIT)
        await phone.close()


async def test_a_rematch_brings_the_same_family_to_a_new_table_with_the_same_settings(browser: Browser) -> None:
    async with served() as s:
        nonna, zio, _ = await nonna_and_zio(browser, s, private=True)
        [old] = s.engine.tables.values()
        old.abandon("the family stops")  # the game is over for both
        for page in (nonna, zio):
            await page.wait_for_selector("#game-end", timeout=WAIT)
        await nonna.locator("#game-end").get_by_role("button", name="Rivincita").tap()
        await nonna.locator("#invite").wait_for(timeout=WAIT)  # her new table waits for the others
        offer = zio.locator("#game-end #rematch")
        await offer.get_by_text(f"{NONNA} propone la rivincita").wait_for(timeout=WAIT)
        assert await axe_violations(zio) == []
        join = await offer.get_by_role("button").bounding_box()
        assert join and join["height"] >= 44 and join["x"] + join["width"] <= 390  # a thumb's target, on the screen
        await offer.get_by_role("button", name="Gioca la rivincita").tap()  # no invite needed: he played the game
        for page in (nonna, zio):
            await page.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
        assert await zio.locator("#game-end").count() == 0
        assert [t.split(" · ")[0] for t in await zio.locator(".seat").all_text_contents()] == [NONNA, f"{ZIO} (tu)"]
        new = next(t for t in s.engine.tables.values() if t is not old)
        assert new.rematch_of == old.id and new.private and new.rules == old.rules
        assert new.turn_timeout == old.turn_timeout and new.bot_takeover == old.bot_takeover


async def test_a_spectator_of_the_game_is_told_of_its_rematch_and_watches_it_with_one_tap(browser: Browser) -> None:
    """PROTOCOL.md §8 (`create_table`'s `rematch_of`): a spectator who watched the game to its
    end reads on its end that a player proposes the rematch, and one tap watches it: the
    new game's table, as its players play it."""
    async with served() as s:
        nonna, zio, _ = await nonna_and_zio(browser, s)
        zia = await watcher(browser, s)
        [old] = s.engine.tables.values()
        old.abandon("the family stops")
        for page in (nonna, zio, zia):
            await page.wait_for_selector("#game-end", timeout=WAIT)
        await nonna.locator("#game-end").get_by_role("button", name="Rivincita").tap()
        offer = zia.locator("#game-end #rematch")
        await offer.get_by_text(f"{NONNA} propone la rivincita").wait_for(timeout=WAIT)
        await offer.get_by_role("button", name="Guarda la rivincita").tap()
        await zio.locator("#game-end #rematch").get_by_role("button", name="Gioca la rivincita").tap()
        await zia.wait_for_selector("[data-area=table] .card", timeout=WAIT)  # the rematch, dealt
        assert await zia.locator("#game-end").count() == 0
        assert await zia.locator("#watching").text_content() == f"Stai guardando la partita di {NONNA} e {ZIO}: non stai giocando."
        new = next(t for t in s.engine.tables.values() if t is not old)
        assert new.rematch_of == old.id


async def test_with_only_a_bot_left_the_game_end_offers_the_rematch_with_the_bot(browser: Browser) -> None:
    """PROTOCOL.md §7 (a bot plays on for a person who left): once the game is over and no
    other person is left at the table, its end offers the rematch with a bot in the place of
    the one who left, which starts at once; it waits for no one."""
    async with served() as s:
        nonna, zio, _ = await nonna_and_zio(browser, s)
        await zio.locator("#leave").tap()
        await zio.locator("dialog[open]#leave-question button.danger").tap()  # a bot plays his seat on
        await nonna.locator(".seat", has_text=f"{ZIO} (bot)").wait_for(timeout=WAIT)
        [old] = s.engine.tables.values()
        old.abandon("nonna stops")
        end = nonna.locator("#game-end")
        await end.wait_for(timeout=WAIT)
        assert await end.get_by_role("button", name="Rivincita", exact=True).count() == 0  # none waiting for zio
        await end.get_by_role("button", name=f"Rivincita, con un bot al posto di {ZIO}", exact=True).tap()
        await nonna.wait_for_selector("[data-area=hand] .card", timeout=WAIT)  # no one to wait for: it starts
        new = next(t for t in s.engine.tables.values() if t is not old)
        assert new.rematch_of == old.id and new.rules == old.rules  # the same game again: its chat goes on
        assert [seat is not None and seat.bot is not None for seat in new.seats] == [False, True]


async def test_a_spectator_reads_that_it_watches_and_whose_game(browser: Browser) -> None:
    async with served() as s:
        nonna, zio, _ = await nonna_and_zio(browser, s)
        zia = await watcher(browser, s)
        said = zia.locator("#watching")
        assert await said.text_content() == f"Stai guardando la partita di {NONNA} e {ZIO}: non stai giocando."
        box = await said.bounding_box()
        assert box and box["y"] < 844  # on the phone's first screen
        for page in (nonna, zio):
            assert await page.locator("#watching").count() == 0  # the players play
        assert await axe_violations(zia) == []


async def test_a_link_to_a_full_table_says_so_and_offers_to_watch(browser: Browser) -> None:
    async with served() as s:
        nonna, zio, link = await nonna_and_zio(browser, s, private=True)
        # the same invite, the table full now: found so as zia joins (the name screen did not know)
        zia = await open_italian(browser, s, ZIA, url=link, seat_open=False, bypass_csp=True)
        box = zia.locator("#link-full")
        await box.get_by_role("heading", name="Questo tavolo è al completo").wait_for(timeout=WAIT)
        assert f"a cui ti ha invitato {NONNA} non c'è più posto" in (await box.text_content() or "")
        assert await axe_violations(zia) == []
        await box.get_by_role("button", name="Guarda la partita").tap()
        await zia.wait_for_selector("[data-area=table] .card", timeout=WAIT)
        assert (await zia.locator("#watching").text_content() or "").startswith("Stai guardando la partita di")
        assert await zia.locator("#link-full").count() == 0


async def test_a_link_to_a_full_table_leads_to_the_tables_too(browser: Browser) -> None:
    async with served() as s:
        await nonna_and_zio(browser, s)
        zia = await open_italian(browser, s, ZIA, url=f"{s.url}?table=1&from={NONNA}", seat_open=False)
        await zia.locator("#link-full").get_by_role("button", name="Vai ai tavoli").tap()
        await zia.locator("#link-full").wait_for(state="detached", timeout=WAIT)
        await zia.wait_for_selector("#preset", timeout=WAIT)
        assert "?" not in zia.url  # a reload does not try the full table again


async def test_a_spectator_reads_who_left_the_game(browser: Browser) -> None:
    async with served() as s:
        nonna = await open_italian(browser, s, NONNA)
        await new_table(nonna, bots="easy")
        zia = await watcher(browser, s)
        await nonna.locator("#leave").tap()
        await nonna.locator("dialog[open]#leave-question button.danger").tap()  # only a bot would be left: it ends
        end = zia.locator("#game-end")
        await end.wait_for(timeout=WAIT)
        line = await end.locator(".winner").text_content() or ""
        assert line == f"Nessun vincitore. La partita è finita: {NONNA} ha lasciato la partita.", line
