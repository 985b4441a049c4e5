"""A newcomer's phone (390×844, touch, Italian) in Debian's chromium against a real server
on 127.0.0.1 (port 0), as tests/client/web/test_web_client.py drives it: Continue is the
round box's big button with Leave small and apart under it; one line for a player who left; a quick
game says how many players it still waits for; the ways to take leave the picked card and
the table in sight; the score says the points the game is played to; a plain connection
is said small where the name is typed; a new chat message is counted at the screen's top; the
rules show the turn's clock running; nothing flies over the game's end, and the replay's
last step counts the same totals as its end."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, Page

from scopa.engine import RuleSet
from scopa.engine.cards import CARDS
from scopa.server.club import ClubOptions

from test_web_client import MINE, WAIT, Site, browser, chromium, journaled, served, site  # noqa: F401
from test_web_family import ITALIAN_PHONE, against_an_easy_bot, open_italian, play_to_round_end, seed_where_seat_1_plays_first
from test_web_phone import a_choice
from test_web_round_box import lay_down_when_possible
from test_web_table import first_turn, seed_where

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

BOX = "dialog[open]#round-end"


async def at_table(browser: Browser, site: Site, name: str, bots: str = "easy", preset: str = "") -> Page:
    """``name`` on an Italian phone, at a new table (against an easy bot unless ``bots`` is
    empty; of ``preset`` when given)."""
    page = await open_italian(browser, site, name)
    await page.wait_for_selector("#preset", timeout=WAIT)
    if preset:
        await page.select_option("#preset", preset)
    await page.select_option("#bots", bots)
    await page.locator("form:has(#preset) button[type=submit]").tap()
    return page


async def covered(page: Page, selector: str) -> list[str]:
    """The cards of ``selector`` out of the window or under something else (the sheet) at their middle."""
    found: list[str] = await page.evaluate("""(sel) => [...document.querySelectorAll(sel)].filter(c => {
        const r = c.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
        return y < 0 || y > innerHeight || !c.contains(document.elementFromPoint(x, y));
      }).map(c => c.dataset.card)""", selector)
    return found


async def test_continue_is_the_big_button_and_leave_is_apart_and_asks(browser: Browser) -> None:
    """R19-R21 (the round's box): Continua is the box's wide button at its foot; "Esci dalla partita"
    (named as leaving the game, not closing the box) is small, under Continua and apart from it (a
    stray tap at the box's top, or on Continua, never leaves), and asks first."""
    async with served(seed=seed_where_seat_1_plays_first()) as s:
        page = await at_table(browser, s, "ada")
        await play_to_round_end(page)
        box = page.locator(BOX)
        go_on = box.get_by_role("button", name="Continua", exact=True)
        leave = box.get_by_role("button", name="Esci dalla partita", exact=True)
        on, off = await go_on.bounding_box(), await leave.bounding_box()
        assert on and off
        assert on["width"] > 2 * off["width"] and on["height"] >= off["height"]  # the big one, and the small one
        assert off["y"] - (on["y"] + on["height"]) >= 20  # apart, Leave under Continua: the last thing in the box
        said = await box.locator("table").first.bounding_box()
        assert said and off["y"] >= said["y"] + said["height"]  # under everything the box says
        await leave.tap()
        await page.locator("dialog[open]#leave-question").wait_for(timeout=WAIT)  # asked, not left
        await page.locator("dialog[open]#leave-question").get_by_role("button", name="Continua a giocare").tap()
        assert await page.locator(BOX).count() == 1


async def test_a_player_who_left_is_said_once(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §7 (seat_replaced): one event, one line: the one who stays reads once that
    ada left and that a bot plays her seat, in the seat's lasting line, no second line beside it."""
    ada = await at_table(browser, site, "ada", bots="")
    bruno = await open_italian(browser, site, "bruno")
    await bruno.locator(".tables li", has_text="#1 ").get_by_role("button", name="Siediti").tap()
    await ada.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    await bruno.wait_for_selector("[data-area=table] .card", timeout=WAIT)
    await ada.locator("#leave").tap()
    await ada.locator("dialog[open]#leave-question").get_by_role("button", name="Esci: continua un bot").tap()
    said = "ada ha lasciato la partita: da ora un bot gioca al suo posto."
    await bruno.locator("#stand-in li", has_text=said).wait_for(timeout=WAIT)
    lines = await bruno.locator("main p, main li").all_text_contents()
    assert [x for x in lines if "ada" in x and ("lasciato" in x or "al tavolo" in x)] == [said]


async def test_a_quick_game_says_how_many_players_it_waits_for(browser: Browser) -> None:
    """PROTOCOL.md §16 (quick_waiting): Scopone is played by four: alone in the queue, three
    more are awaited ("giocatori"); another person joins the queue: two more, one with you;
    Scopa by two: one more ("giocatore")."""
    async with served(club=ClubOptions()) as s:
        zia = await open_italian(browser, s, "zia")
        await zia.wait_for_selector("#quick-preset", timeout=WAIT)
        await zia.select_option("#quick-preset", "scopone")
        await zia.get_by_role("button", name="Gioca con altre persone").tap()
        status = zia.locator("#quick-title ~ p[role=status]")
        await status.filter(has_text="Aspettiamo ancora 3 giocatori per una partita di Scopone…").wait_for(timeout=WAIT)
        zio = await open_italian(browser, s, "zio")
        await zio.wait_for_selector("#quick-preset", timeout=WAIT)
        await zio.select_option("#quick-preset", "scopone")
        await zio.get_by_role("button", name="Gioca con altre persone").tap()
        await zio.locator("#quick-title ~ p[role=status]").filter(
            has_text="Aspettiamo ancora 2 giocatori per una partita di Scopone… (1 in attesa con te)").wait_for(timeout=WAIT)
        await zia.get_by_role("button", name="Smetti di aspettare").tap()
        await zia.select_option("#quick-preset", "scopa")
        await zia.get_by_role("button", name="Gioca con altre persone").tap()
        await status.filter(has_text="Aspettiamo ancora 1 giocatore per una partita di Scopa…").wait_for(timeout=WAIT)


def scopone_choice() -> tuple[int, str]:
    """A server seed whose Scopone deal lets seat 0 play first with a card that takes in two
    ways or more, and that card (nine cards in hand: two rows on a phone)."""
    rules = RuleSet.build("scopone")
    seed = seed_where(rules, a_choice)
    state = first_turn(rules, seed)
    return seed, next(str(CARDS[c]) for c in range(40) if state.hands[0] >> c & 1 and len(state.capture_options(0, c)) >= 2)


async def test_the_ways_to_take_leave_the_picked_card_and_the_table_in_sight(browser: Browser) -> None:
    """R10-R12: while the ways to take are laid out at the screen's foot, the card in hand they
    are for and every card of the table are in sight above them, none covered (Scopone on a
    small phone: four seats and nine cards in hand, a long board)."""
    seed, card = scopone_choice()
    async with served(seed=seed) as s:
        page = await open_italian(browser, s, "ada")
        await page.set_viewport_size({"width": 375, "height": 667})  # a smaller phone
        await against_an_easy_bot(page, preset="scopone")
        await page.wait_for_selector(MINE, timeout=WAIT)
        picked = page.locator(f"[data-area=hand] .card[data-card='{card}']")
        await picked.tap()
        await picked.tap()
        await page.locator("dialog[open]#choose").wait_for(timeout=WAIT)
        assert await covered(page, "[data-area=table] .card") == []
        assert await covered(page, "[data-area=hand] .card.picked") == []


async def test_the_score_says_the_points_the_game_is_played_to(site: Site, browser: Browser) -> None:
    """R1 (the target): during the game the score's total row says the points it is played to."""
    page = await at_table(browser, site, "ada")
    await page.wait_for_selector("#score-title", timeout=WAIT)
    assert await page.locator("#score-title + table tr.total th").text_content() == "Partita (a 11)"


async def test_the_rules_show_the_turns_clock_running(browser: Browser) -> None:
    """The turn clock (welcome.turn_timeout) does not stop while one reads: the rules opened on
    one's turn show, in sight above them, whose turn it is and its seconds."""
    async with served(seed=seed_where(RuleSet.build("scopa"), lambda s: True)) as s:  # ada plays first
        await rules_on_my_turn(browser, s)


async def rules_on_my_turn(browser: Browser, site: Site) -> None:
    """ada, at a table whose first turn is hers, opens the rules: the turn's clock is in them."""
    page = await at_table(browser, site, "ada")
    await page.wait_for_selector(MINE, timeout=WAIT)
    await page.get_by_role("button", name="Regole", exact=True).tap()
    clock = page.locator("dialog[open]#rules #rules-clock")
    await clock.wait_for(timeout=WAIT)
    said = await clock.text_content() or ""
    assert re.fullmatch(r"Tocca a te · ancora \d+ s per la mossa", said), said
    await page.wait_for_selector("dialog[open] .rules h3", timeout=WAIT)
    top = await clock.bounding_box()
    assert top and 0 <= top["y"] < 844  # in sight with the rules


async def test_a_plain_connection_is_said_small_where_the_name_is_typed(site: Site, browser: Browser) -> None:
    """A page served without TLS (normal on a home network): its small mark is at the foot
    of the name screen, where a person types, and says what it means; no mark in the
    title's row, and none on the board."""
    context = await browser.new_context(**ITALIAN_PHONE)  # type: ignore[arg-type]
    first = await context.new_page()
    await first.goto(site.url)
    assert await first.locator("header #not-private-mark").count() == 0
    mark = first.locator("footer #not-private-mark")
    assert (await mark.inner_text()).strip() == "Connessione non cifrata"
    size = await mark.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert size < 14  # smaller than the page's words (16 px)
    await mark.tap()
    assert "cifratura (TLS)" in (await first.locator("dialog[open] p.hint").text_content() or "")
    page = await at_table(browser, site, "ada")
    await page.wait_for_selector("#turn", timeout=WAIT)
    assert await page.locator("#not-private-mark").count() == 0


async def test_a_new_chat_message_is_counted_at_the_screens_foot(site: Site, browser: Browser) -> None:
    """A message that comes while the chat (at the page's foot, on a small phone turned) is out of view is counted
    at the screen's foot, over nothing of the turn's line; the page scrolled, the count stays in sight there; a tap
    on it goes to the chat."""
    ada = await at_table(browser, site, "ada", bots="")
    bruno = await open_italian(browser, site, "bruno")
    await bruno.locator(".tables li", has_text="#1 ").get_by_role("button", name="Siediti").tap()
    await ada.wait_for_selector("[data-area=table] .card", timeout=WAIT)
    await ada.set_viewport_size({"width": 568, "height": 320})  # a small phone turned: the chat below the fold
    await ada.evaluate("window.scrollTo(0, 0)")
    await bruno.locator("#table-chat").fill("ciao")
    await bruno.locator("#table-chat").press("Enter")
    new = ada.locator(".chat-new")
    await ada.locator("ul.chat li", has_text="bruno: ciao").wait_for(state="attached", timeout=WAIT)
    await new.wait_for(timeout=WAIT)
    assert await new.text_content() == "1 nuovo messaggio in chat"
    box = await new.bounding_box()
    turn = await ada.locator("#turn").bounding_box()
    assert box and turn and 320 / 2 <= box["y"] and box["y"] + box["height"] <= 320  # at the screen's foot
    assert box["y"] >= turn["y"] + turn["height"] or box["y"] + box["height"] <= turn["y"]  # the turn's line uncovered
    await ada.evaluate("window.scrollTo(0, document.querySelector('header').getBoundingClientRect().bottom + scrollY)")  # the title's row just gone
    await ada.wait_for_function("() => { const r = document.querySelector('.chat-new')?.getBoundingClientRect();"
                                " return !!r && r.top >= innerHeight / 2 && r.bottom <= innerHeight; }")
    await new.tap()
    await ada.locator("ul.chat li", has_text="bruno: ciao").wait_for(timeout=WAIT)
    assert await ada.locator(".chat-new").count() == 0


async def test_nothing_flies_over_the_games_end_and_the_replays_end_counts_the_same(journaled: Site, browser: Browser) -> None:
    """R22 (the game's end): the cards in flight land when the game's end comes (the page's
    animations held still, the last play's copies would otherwise stay over the result); the
    game shown again, at its last step, counts in its score the totals its end says."""
    page = await at_table(browser, journaled, "ada", preset="frac")  # V12: 16 points a round, to 11: ends sooner
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("Animation.enable")
    await cdp.send("Animation.setPlaybackRate", {"playbackRate": 0})  # every flight stays in the air
    while not await page.locator("#game-end").count():
        await lay_down_when_possible(page)
        if await page.locator(BOX).count():
            await page.locator(BOX).get_by_role("button", name="Continua", exact=True).tap()
            await page.locator(BOX).wait_for(state="detached", timeout=WAIT)
    assert await page.locator("#fly-layer > *").count() == 0
    assert await page.locator("main .card.landing").count() == 0
    await cdp.send("Animation.setPlaybackRate", {"playbackRate": 1})
    await page.get_by_role("button", name="Rivedi la partita").tap()
    step = page.get_by_role("button", name="Avanti ▶")
    await step.wait_for(timeout=WAIT)
    while await step.is_enabled():
        await step.tap()
    await page.locator("#replay-end").wait_for(timeout=WAIT)
    totals = await page.locator("#score-title + table tr.total td").all_text_contents()
    assert totals == await page.locator("#replay-end tr.total td").all_text_contents()
    assert await page.locator("#score-title + table tr.total th").text_content() == "Partita (a 11)"
