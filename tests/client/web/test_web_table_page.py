"""The table page as two people on phones see it, in Debian's chromium against a real
server on 127.0.0.1 (port 0), as tests/client/web/test_web_client.py drives it: one's own
capture and scopa in one's own score panel at once; a card that takes nothing says so
and a double tap lays it down; a tap that cannot play says why; the notices in sentences (a bot taking over says
why, a time that ran out, a scopa); watching a table one left; the round's box and its
Leave; the turn and the chat when the page is scrolled away; a team's partner, the French
cards' suit words, a seat played in another tab, and the replay going on across rounds."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, Page, expect

from scopa.engine.cards import CARDS
from scopa.server.core.clock import FakeClock
from scopa.server.lobby.directory import build_rules

from test_web_client import (  # noqa: F401
    MINE, PHONE, WAIT, Site, browser, chromium, create, dismiss_round_end, open_page, play_one,
    play_to_the_end, served,
)
from test_web_table import first_turn, play_card, scopa_play, seed_where

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

SCORE = "#score-title + table"


async def score(page: Page) -> list[str]:
    return await page.locator(f"{SCORE} tr").all_inner_texts()


async def two_at_a_table(browser: Browser, site: Site, timer: str = "") -> tuple[Page, Page]:
    """ada (seat 0, who plays first on the tests' seeds) and bob, each on a phone."""
    ada = await open_page(browser, site, "ada")
    if timer:
        await ada.select_option("#timer", timer)
    await create(ada, bots="")
    bob = await open_page(browser, site, "bob")
    await bob.locator(".tables li", has_text="#1 ").get_by_role("button", name="Join").tap()
    await ada.wait_for_selector(MINE, timeout=WAIT)
    await bob.wait_for_selector("[data-area=table] .card", timeout=WAIT)
    return ada, bob


async def test_your_own_scopa_is_in_your_score_panel_at_once(browser: Browser) -> None:
    """ada's scopa on the first play: her own panel counts its cards and the scopa before bob
    moves, as bob's does; the notice is hers ("You made a scopa!"), and bob's names her."""
    rules = build_rules("scopa", {})
    seed = seed_where(rules, lambda s: scopa_play(s) is not None)
    play = scopa_play(first_turn(rules, seed))
    assert play is not None
    taken = len(play.captured) + 1
    async with served(seed=seed) as site:
        ada, bob = await two_at_a_table(browser, site)
        await play_card(ada, str(CARDS[play.card]))
        await bob.wait_for_selector(MINE, timeout=WAIT)  # bob's turn: ada has no turn of her own to be told the piles
        await ada.locator("[data-area=plays] li", has_text="ada: ").wait_for(timeout=WAIT)  # her play, as her page has it
        mine = await score(ada)
        assert f"Cards\t{taken}\t0" in mine and "Scope\t1\t0" in mine
        assert mine == await score(bob)
        await ada.get_by_role("alert").filter(has_text="You made a scopa!").wait_for(timeout=WAIT)
        await bob.get_by_role("alert").filter(has_text="ada made a scopa!").wait_for(timeout=WAIT)


async def test_a_card_that_takes_nothing_says_so_and_a_double_tap_lays_it_down(browser: Browser) -> None:
    """A tap on a card with one way to go says where it goes; a second tap at once (a double
    tap) plays it, as tap and tap again would."""
    seed, card = lays_only_seed()
    async with served(seed=seed) as site:
        page = await open_page(browser, site, "ada")
        await create(page)
        await page.wait_for_selector(MINE, timeout=WAIT)
        own = page.locator(f"[data-area=hand] .card[data-card='{card}']")
        name = await own.get_attribute("aria-label")
        await own.tap()
        said = page.locator("#tap-said")  # the tap's click may land after tap() returns: waited for
        await expect(said).to_have_text(f"{name} takes nothing: tap it again to lay it on the table.", timeout=WAIT)
        await own.tap()  # at once: a double tap lays it on the table
        await page.locator("[data-area=plays] li", has_text=f"ada: {name}").wait_for(timeout=WAIT)


def lays_only_seed() -> tuple[int, str]:
    """A seed whose first turn (seat 0's) holds a card that takes nothing, and that card."""
    rules = build_rules("scopa", {})

    def lays_only(card: int, state: object) -> bool:
        return not state.capture_options(0, card)  # type: ignore[attr-defined]

    seed = seed_where(rules, lambda s: any(s.hands[0] >> c & 1 and lays_only(c, s) for c in range(40)))
    state = first_turn(rules, seed)
    return seed, next(str(CARDS[c]) for c in range(40) if state.hands[0] >> c & 1 and lays_only(c, state))


async def test_a_tap_that_cannot_play_says_why(browser: Browser) -> None:
    """bob taps a card while it is ada's turn: he is told it is not his turn yet; ada taps a
    table card with nothing picked, then with a card picked that does not take it: each
    time she is told what to do instead."""
    seed, card = lays_only_seed()
    async with served(seed=seed) as site:
        ada, bob = await two_at_a_table(browser, site)
        await bob.locator("[data-area=hand] .card").first.tap()
        await bob.locator("#tap-said", has_text="It is not your turn yet: ada is playing.").wait_for(timeout=WAIT)
        on_table = ada.locator("[data-area=table] .card").first
        await on_table.tap()
        said = ada.locator("#tap-said")
        assert await said.text_content() == "First tap a card in your hand, then a table card it takes."
        own = ada.locator(f"[data-area=hand] .card[data-card='{card}']")
        name = await own.get_attribute("aria-label")
        await own.tap()
        await on_table.tap()
        assert await said.text_content() == f"{name} does not take {await on_table.get_attribute('aria-label')}."
        await own.tap()  # the picked card, tapped again: laid down
        await ada.locator("[data-area=plays] li", has_text=f"ada: {name}").wait_for(timeout=WAIT)


async def test_watching_the_table_one_left_shows_no_old_news(browser: Browser) -> None:
    """ada leaves: bob is told why a bot plays her seat; ada watches the table then, with no
    notice of before, no "Your hand", the turn's seconds counting; bob's time runs out (a
    sentence says so); bob leaves, the game ends, and ada goes back to the tables with no error."""
    clock = FakeClock()
    async with served(clock=clock, seed=seed_where(build_rules("scopa", {}), lambda s: True)) as site:
        ada, bob = await two_at_a_table(browser, site, timer="30")
        await ada.locator("#leave").tap()
        await ada.locator("dialog[open]#leave-question button.danger").tap()
        await ada.get_by_role("status").filter(has_text="You left the game").wait_for(timeout=WAIT)
        await bob.locator("#stand-in li").filter(has_text="ada left the game: a bot plays their seat from now on.").wait_for(timeout=WAIT)
        await ada.locator(".tables li", has_text="#1 ").get_by_role("button", name="Watch").tap()
        await ada.wait_for_selector("[data-area=table] .card", timeout=WAIT)
        await ada.locator("#turn", has_text="bob to play").wait_for(timeout=WAIT)
        assert re.search(r"\d+ s left", await ada.locator("#turn .clock").text_content() or "")
        assert await ada.get_by_role("status").count() == 0 or "You left" not in (await ada.get_by_role("status").first.text_content() or "")
        assert await ada.get_by_role("alert").count() == 0
        assert await ada.get_by_role("heading", name="Your hand").count() == 0
        clock.advance(46)  # bob's time (his first turn of the round: 30 s and 15 s of reading) runs out: the server plays for him
        told = ada.get_by_role("alert").filter(has_text="bob's time ran out")
        await told.wait_for(timeout=WAIT)
        assert re.fullmatch(r"bob's time ran out: the server played .+ for them\.", await told.text_content() or "")
        await bob.locator("#leave").tap()
        await bob.locator("dialog[open]#leave-question button.danger").tap()
        await bob.locator("#game-end", has_text="Nobody won: you left the game, so it ended.").wait_for(timeout=WAIT)
        await ada.wait_for_selector("#game-end", timeout=WAIT)
        await ada.locator("#game-end").get_by_role("button", name="Back to the tables").tap()
        await ada.wait_for_selector("#preset", timeout=WAIT)
        assert await ada.get_by_role("status").all_text_contents() == []  # no error


async def test_the_turn_bar_leaves_the_headers_buttons_free(browser: Browser) -> None:
    """ada's turn, writing in the chat (so "Your turn" shows), the page scrolled back to 8 px
    from its top: the bar does not lie over the title's row, so her tap on Leave there opens
    the leave question."""
    rules = build_rules("scopa", {})
    async with served(seed=seed_where(rules, lambda s: True)) as site:
        ada, bob = await two_at_a_table(browser, site)
        await ada.locator("#table-chat").focus()
        await ada.evaluate("window.scrollTo(0, 8)")
        await ada.wait_for_function("window.scrollY === 8", timeout=WAIT)
        await ada.locator(".turn-bar").wait_for(timeout=WAIT)
        leave = await ada.locator("#leave").bounding_box()
        assert leave is not None
        hit = "([x, y]) => document.elementFromPoint(x, y)?.closest('#leave') !== null"
        assert await ada.evaluate(hit, [leave["x"] + leave["width"] / 2, leave["y"] + leave["height"] / 2])
        await ada.locator("#leave").tap(timeout=WAIT)
        await ada.locator("dialog[open]#leave-question").wait_for(timeout=WAIT)
        await bob.context.close()
        await ada.context.close()


async def test_the_last_play_stays_in_sight_under_the_turn_bar(browser: Browser) -> None:
    """ada's turn after bob's play, her page scrolled down to the hand so that the last play's
    line is where "Your turn" lies over the page: the bar says the last play."""
    rules = build_rules("scopa", {})
    async with served(seed=seed_where(rules, lambda s: True)) as site:
        ada, bob = await two_at_a_table(browser, site)
        await play_one(ada)
        await bob.wait_for_selector(MINE, timeout=WAIT)
        await play_one(bob)
        await ada.wait_for_selector(MINE, timeout=WAIT)
        last = ada.locator("#last-play", has_text="Last play: bob: ")
        await last.wait_for(timeout=WAIT)
        words = await last.text_content() or ""
        await ada.evaluate("window.scrollBy(0, document.getElementById('last-play').getBoundingClientRect().top - 10)")
        bar = ada.locator(".turn-bar")
        await bar.wait_for(timeout=WAIT)
        seen = "(words) => [...document.querySelectorAll('#last-play, .turn-bar .bar-last')].some((e) => {" \
            " const r = e.getBoundingClientRect(); const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);" \
            " return r.height > 0 && e.textContent === words && at !== null && e.contains(at); })"
        await ada.wait_for_function(seen, arg=words, timeout=WAIT)


async def test_your_turn_and_new_chat_reach_a_page_scrolled_away(browser: Browser) -> None:
    """ada writes in the chat (the turn's line scrolled away) while bob plays: "Your turn"
    stays in view; a message that comes while the chat is out of view is counted there."""
    rules = build_rules("scopa", {})
    async with served(seed=seed_where(rules, lambda s: True)) as site:
        ada, bob = await two_at_a_table(browser, site)
        await play_one(ada)
        await bob.wait_for_selector(MINE, timeout=WAIT)
        await ada.locator("#table-chat").tap()
        await ada.locator("#table-chat").fill("a moment")
        assert await ada.evaluate("document.activeElement.id") == "table-chat"  # writing there as the turn comes
        await play_one(bob)
        bar = ada.locator(".turn-bar")
        await bar.wait_for(timeout=WAIT)
        box = await bar.bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844 and (await bar.text_content() or "").startswith("Your turn")
        await bar.tap()
        await ada.locator(".turn-bar").wait_for(state="hidden", timeout=WAIT)
        await ada.set_viewport_size({"width": 568, "height": 320})  # the phone turned: the chat is below the fold
        await ada.evaluate("window.scrollTo(0, 0)")
        await bob.locator("#table-chat").fill("take your time")
        await bob.locator("#table-chat").press("Enter")
        new = ada.locator(".chat-new")
        await new.wait_for(timeout=WAIT)
        assert await new.text_content() == "1 new message in the chat"
        await new.tap()
        await ada.locator("ul.chat li", has_text="bob: take your time").wait_for(timeout=WAIT)
        assert await ada.locator(".chat-new").count() == 0


async def test_the_rounds_box_says_the_seconds_left_plainly_and_offers_leave(browser: Browser) -> None:
    """The next round's first turn runs while the round's box is open: the box says the
    seconds left in a sentence (not a sum), apart and calmly what happens when they run out,
    and Leave is in the box. The game left, its replay's Next goes on into the next round."""
    clock = FakeClock()  # the turn's 30 s never run out on their own
    async with served(clock=clock, seed=seed_where(build_rules("scopa", {}), lambda s: True)) as site:
        page = await open_page(browser, site, "ada")
        await page.select_option("#timer", "30")
        await create(page)
        while not await page.locator("dialog#round-end[open]").count():
            await page.wait_for_selector(f"{MINE}, dialog#round-end[open]", timeout=WAIT)
            if await page.locator(MINE).count() and not await page.locator("dialog#round-end[open]").count():
                await play_one(page)
        box = page.locator("dialog#round-end[open]")
        line = box.locator("#round-end-turn")
        await line.filter(has_text="You have").wait_for(timeout=WAIT)  # the bot has played: ada's turn
        assert re.fullmatch(r"Round 2 has begun\. Your turn\. You have \d+ s left for your next move\.", await line.text_content() or "")
        assert await box.locator("#round-end-calm").text_content() == \
            "If the time runs out, the server plays a card for you and the game goes on."
        tallies = await score(page)  # behind the box: the round that ended
        await box.get_by_role("button", name="Continue").tap()
        await box.wait_for(state="detached", timeout=WAIT)
        cards = next(row for row in await score(page) if row.startswith("Cards\t"))
        assert cards.split("\t")[1] == "0" and cards not in tallies  # the new round: ada has taken nothing yet
        box = page.locator("dialog#round-end")  # the box again, for its Leave: the board's own
        await page.locator("#leave").tap()
        await page.locator("dialog[open]#leave-question button.danger").tap()
        await page.locator("#game-end", has_text="Nobody won: you left the game, so it ended.").wait_for(timeout=WAIT)
        await page.locator("#game-end").get_by_role("button", name="Watch the game again").tap()
        where = page.locator("#replay-where")
        step = page.get_by_role("button", name="Next ▶")
        while (await where.text_content() or "").startswith("Round 1 of 2"):
            await step.tap()  # at the round's end too: on into the next round
        assert (await where.text_content() or "").startswith("Round 2 of 2 · Just dealt")


async def test_a_partner_french_suits_and_a_seat_played_in_another_tab(browser: Browser) -> None:
    async with served(seed=seed_where(build_rules("scopone", {}), lambda s: True)) as site:
        page = await open_page(browser, site, "ada")
        await page.select_option("#preset", "scopone")
        await create(page)
        await page.wait_for_selector(MINE, timeout=WAIT)
        seats = await page.locator(".seat").all_text_contents()
        assert seats[2].startswith("Bot 2 (easy, on your team) · ") and "team" not in seats[1] + seats[3]
        assert "Denari\t" in "\n".join(await score(page))
        await page.select_option("#deck", "french")
        said = "\n".join(await score(page))
        assert "Diamonds\t" in said and "Denari" not in said
        await page.locator("[data-area=hand] .card").first.tap()  # picked, when the seat goes to another tab
        await page.locator("[data-area=hand] .card.picked").wait_for(timeout=WAIT)
        second = await page.context.new_page()
        await second.goto(site.url)
        await second.wait_for_selector(MINE, timeout=WAIT)
        await page.get_by_role("button", name="Play here").wait_for(timeout=WAIT)
        said = [s for s in await page.locator("main p").all_text_contents() if "another tab" in s]
        assert said == ["This seat is open in another tab or device. Play here"]  # one message, and nothing left to play with
        assert await page.locator("#turn, #leave, .card.picked, .turn-bar").count() == 0


async def test_the_news_of_a_table_left_does_not_follow_to_the_next_one(browser: Browser) -> None:
    """ada leaves a game that a bot plays on for her, then opens a table of her own: the line
    "You left the game…" was about the other table, and is gone at the new one."""
    clock = FakeClock()
    async with served(clock=clock, seed=seed_where(build_rules("scopa", {}), lambda s: True)) as site:
        ada, _ = await two_at_a_table(browser, site, timer="30")
        await ada.locator("#leave").tap()
        await ada.locator("dialog[open]#leave-question button.danger").tap()
        await ada.get_by_role("status").filter(has_text="You left the game").wait_for(timeout=WAIT)
        await create(ada)
        await ada.wait_for_selector(MINE, timeout=WAIT)
        assert not [s for s in await ada.get_by_role("status").all_text_contents() if "You left" in s]
