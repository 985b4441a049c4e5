"""The browser client on a family's phone (390×844, touch), in Debian's chromium against
a real server on 127.0.0.1 (port 0), as tests/client/web/test_web_client.py drives it:
the open lock says what it is in words (where the name is typed), the round's box says what its seconds count,
the ways to take are chosen with the table in sight, the rules' table fits the screen,
a seat a bot plays says so (at the table and in the list of tables), and every screen
an Italian phone reaches speaks Italian."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, Page

from scopa.client.net import ClientSession
from scopa.engine import RuleSet
from scopa.engine.cards import CARDS, cards_of
from scopa.engine.state import GameState
from scopa.server.club import ClubOptions

from web_words import page_words
from test_web_client import MINE, PHONE, WAIT, Site, browser, chromium, journaled, served, site  # noqa: F401
from test_web_family import ITALIAN_PHONE, against_an_easy_bot, english_only, open_italian, seed_where_seat_1_plays_first, tap_a_card
from test_web_round_box import into_round_two
from test_web_table import first_turn, seed_where

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py

ENGLISH_PHONE: dict[str, object] = {**PHONE, "locale": "en-GB"}


def a_choice(state: GameState) -> bool:
    """Seat 0 holds a card that takes in two ways or more."""
    return any(len(state.capture_options(0, c)) >= 2 for c in range(40) if state.hands[0] >> c & 1)


def the_choice(seed: int) -> tuple[str, list[list[str]]]:
    """The card of seat 0 that takes in more than one way on the server seeded ``seed``,
    and those ways (each the table cards it takes)."""
    state = first_turn(RuleSet.build("scopa"), seed)
    card = next(c for c in range(40) if state.hands[0] >> c & 1 and len(state.capture_options(0, c)) >= 2)
    return str(CARDS[card]), [sorted(str(x) for x in cards_of(m)) for m in state.capture_options(0, card)]


async def lobby(browser: Browser, site: Site, name: str, lang: str) -> Page:
    """A phone in ``lang`` (it, en) at the lobby, named ``name``."""
    if lang == "it":
        page = await open_italian(browser, site, name)
    else:
        page = await (await browser.new_context(**ENGLISH_PHONE)).new_page()  # type: ignore[arg-type]
        page.on("pageerror", lambda e: site.errors.append(f"{name}: {e}"))
        await page.goto(site.url)
        await page.fill("#name", name)
        await page.get_by_role("button", name="Play").tap()
    await page.wait_for_selector("#preset", timeout=WAIT)
    return page


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_open_lock_says_what_it_is_in_words(site: Site, browser: Browser, lang: str) -> None:
    """A bare lock means little to a grandparent: the mark of a page served without TLS
    reads "Connessione non cifrata" and a drawn info sign (its accessible name is the same words), small at the name screen's
    foot, within the phone's width; at the table it is gone, and the title's row keeps the
    title, the rules and Leave side by side."""
    context = await browser.new_context(**(ENGLISH_PHONE if lang == "en" else ITALIAN_PHONE))  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(site.url)
    said = "Connessione non cifrata" if lang == "it" else "Connection not encrypted"
    mark = page.locator("footer #not-private-mark")
    assert (await mark.inner_text()).strip() == said  # seen
    assert await page.get_by_role("button", name=said, exact=True).count() == 1  # and heard
    box = await mark.bounding_box()
    assert box and box["x"] + box["width"] <= 390
    await mark.tap()
    assert "(TLS)" in (await page.locator("dialog[open] p.hint").text_content() or "")
    await page.locator("dialog[open] button").last.tap()
    await page.fill("#name", "ada")
    await page.get_by_role("button", name="Gioca" if lang == "it" else "Play", exact=True).tap()
    await page.wait_for_selector("#preset", timeout=WAIT)
    await page.select_option("#bots", "easy")
    await page.locator("form:has(#preset) button[type=submit]").tap()
    await page.wait_for_selector(MINE, timeout=WAIT)
    assert await page.locator("#not-private-mark").count() == 0  # the board is the game's
    boxes = [await page.locator(s).bounding_box() for s in ("header h1",
                                                            "header button:text-is('Regole'), header button:text-is('Rules')", "#leave")]
    assert all(b is not None for b in boxes)
    for a, b in zip(boxes, boxes[1:]):
        assert a and b and a["x"] + a["width"] <= b["x"]  # side by side, none over the next
    assert boxes[-1] and boxes[-1]["x"] + boxes[-1]["width"] <= 390


async def test_the_round_box_says_what_its_seconds_count(browser: Browser) -> None:
    """R19-R21 and the turn clock (PROTOCOL.md §7): the next round's first turn, told in
    the last round's box, has the table's 60 s and 15 s to read the box; the box says
    both and shows the same seconds as the clock on the board."""
    async with served(seed=seed_where_seat_1_plays_first()) as s:  # the bot starts round 1: ada starts round 2
        page = await open_italian(browser, s, "ada")
        await against_an_easy_bot(page)
        await into_round_two(page)
        said, clock = await page.evaluate("""() => [document.querySelector('#round-end-turn').textContent,
            document.querySelector('#turn .clock').textContent]""")  # one tick: both from one reading of the clock
        found = re.fullmatch(r"È iniziata la smazzata 2\. Tocca a te\. Hai ancora (\d+) s per la prossima mossa\.", said)
        assert found, said
        assert clock == f" · ancora {found.group(1)} s per la mossa"  # the board's clock says the same


async def test_the_ways_to_take_leave_the_table_in_sight(browser: Browser) -> None:
    """R10-R12: a card that takes in two ways asks which; the ways come up at the foot of
    the screen, each with the cards it takes drawn in it, the table's cards still in
    sight above (none covered), the way in focus marked on the table; the way tapped is
    the one played."""
    seed = seed_where(RuleSet.build("scopa"), a_choice)
    card, ways = the_choice(seed)
    async with served(seed=seed) as s:
        page = await open_italian(browser, s, "ada")
        await against_an_easy_bot(page)
        await page.wait_for_selector(MINE, timeout=WAIT)
        picked = page.locator(f"[data-area=hand] .card[data-card='{card}']")
        await picked.tap()
        await picked.tap()
        sheet = page.locator("dialog[open]#choose")
        await sheet.wait_for(timeout=WAIT)
        covered: list[str] = await page.evaluate("""() => [...document.querySelectorAll('[data-area=table] .card')].filter(c => {
            const r = c.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
            return y < 0 || y > innerHeight || !c.contains(document.elementFromPoint(x, y));
          }).map(c => c.dataset.card)""")
        assert covered == []  # every card on the table in sight while choosing
        buttons = sheet.locator(".ways button")
        assert await buttons.count() == len(ways)
        for i, way in enumerate(ways):
            button = buttons.nth(i)
            assert sorted((await button.get_attribute("data-takes") or "").split()) == way
            assert await button.locator("svg").count() == len(way)  # the cards it takes, drawn
            await button.focus()
            marked = await page.locator("[data-area=table] .card.takes").evaluate_all("cs => cs.map(c => c.dataset.card)")
            assert sorted(marked) == way  # and marked on the table
        said = await buttons.nth(1).locator("span:not(.minis)").inner_text()
        assert await sheet.get_by_role("button", name=said, exact=True).count() == 1  # heard as read
        await buttons.nth(1).tap()
        await sheet.wait_for(state="detached", timeout=WAIT)
        mine = page.locator("[data-area=plays] li", has_text="ada:")
        await mine.wait_for(timeout=WAIT)
        assert (await mine.text_content() or "").endswith(said.replace(" + ", ", "))  # the way tapped was played


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_rules_table_fits_a_phone(site: Site, browser: Browser, lang: str) -> None:
    """The rules' table of suits and letters, whole within the rules box at 390 px."""
    page = await lobby(browser, site, "ada", lang)
    await page.get_by_role("button", name="Regole" if lang == "it" else "Rules", exact=True).tap()
    await page.wait_for_selector("dialog[open] .rules table", timeout=WAIT)
    out: list[str] = await page.evaluate("""() => [...document.querySelectorAll('dialog[open] .rules table')].flatMap(t => {
        const box = t.closest('dialog'), edge = box.getBoundingClientRect().right - parseFloat(getComputedStyle(box).paddingRight);
        const right = Math.max(...[...t.querySelectorAll('th, td')].map(c => c.getBoundingClientRect().right));
        return t.scrollWidth > t.clientWidth + 0.5 || right > edge + 0.5 ? [`${t.rows[0].textContent}: ${t.scrollWidth} > ${t.clientWidth}`] : [];
      })""")
    assert out == []


async def test_a_seat_a_bot_plays_after_its_person_left_says_so(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §7: a person who leaves a game another person plays on is told, asked
    and back in the lobby, that a bot plays the seat from then on; the one who stays sees the seat and its side in the
    score as the bot's, "ada (bot)", and still after a reload."""
    ada = await open_italian(browser, site, "ada")
    await ada.wait_for_selector("#preset", timeout=WAIT)
    await ada.select_option("#bots", "")
    await ada.locator("form:has(#preset) button[type=submit]").tap()
    bruno = await open_italian(browser, site, "bruno")
    await bruno.locator(".tables li", has_text="#1 ").get_by_role("button", name="Siediti").tap()
    await ada.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    await ada.locator("#leave").tap()
    question = ada.locator("dialog[open]#leave-question")
    assert (await question.locator("p").first.text_content() or "") == \
        "Lasci la partita? Da ora il tuo posto lo gioca un bot; non potrai riprenderlo."
    await question.get_by_role("button", name="Esci: continua un bot").tap()
    await ada.get_by_role("status").filter(has_text="Hai lasciato la partita: da ora il tuo posto lo gioca un bot.").wait_for(timeout=WAIT)
    await bruno.locator("#stand-in li").filter(has_text="ada ha lasciato la partita: da ora un bot gioca al suo posto.").wait_for(timeout=WAIT)
    for _ in range(2):
        seats = await bruno.locator(".seat").all_text_contents()
        assert seats[0].startswith("ada (bot) · ") and seats[1].startswith("bruno (tu) · ")
        assert await bruno.locator("#score-title + table thead th").all_text_contents() == ["ada (bot)", "bruno"]
        await bruno.reload()  # the server's snapshot: its seats say which a bot plays
        await bruno.wait_for_selector(".seat", timeout=WAIT)
        await bruno.wait_for_selector("#score-title", timeout=WAIT)



@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_tables_list_says_which_seats_a_bot_plays(site: Site, browser: Browser, lang: str) -> None:
    """A table whose person left a game another person plays on lists the seat as the
    bot's from then on ("zio, nipote (bot)"); a bot seated with its table reads as a bot
    too ("Bot 1 (medio)")."""
    zio, nipote, bruno = [await ClientSession.connect("127.0.0.1", site.engine.port, name)
                          for name in ("zio", "nipote", "bruno")]
    await zio.create_table(RuleSet.build("scopa"))
    await nipote.join_table(zio.table_id or "")
    await bruno.create_table(RuleSet.build("scopa"), fill_with_bots=["medium"])
    page = await lobby(browser, site, "ada", lang)
    tables = page.locator(".tables li")
    await tables.filter(has_text=f"#{zio.table_id} ").filter(has_text="zio, nipote").wait_for(timeout=WAIT)
    bot = "Bot 1 (medio)" if lang == "it" else "Bot 1 (medium)"
    await tables.filter(has_text=f"#{bruno.table_id} ").filter(has_text=f"bruno, {bot}").wait_for(timeout=WAIT)
    await nipote.leave_table()  # a bot plays nipote's seat from now on
    await tables.filter(has_text=f"#{zio.table_id} ").filter(has_text="zio, nipote (bot)").wait_for(timeout=WAIT)
    assert await page.evaluate("() => document.documentElement.scrollWidth") <= 390
    for session in (zio, nipote, bruno):
        await session.close()


SHOWN = """() => [...document.body.querySelectorAll('*')].filter(e => !e.closest('code, pre') && e.childNodes.length)
    .flatMap(e => [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent))
    .concat([...document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')]
      .flatMap(e => ['aria-label', 'title', 'placeholder', 'alt'].map(a => e.getAttribute(a) || '')))
    .join('\\n')"""
"""What a person sees or hears on the page: its text (dialogs included; not code) and the
names and hints its elements carry."""


async def english_heard(page: Page, english: set[str]) -> list[str]:
    shown: str = await page.evaluate(SHOWN)
    return sorted(p for p in english if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", shown))  # whole words


async def test_every_screen_speaks_italian_to_an_italian_phone(browser: Browser) -> None:
    """An Italian browser hears no English, in words or in the names a screen reader
    reads: waiting for a quick game, the tournaments (one made, its standings, a refusal
    of the server, the finished ones), the board, the question on leaving, the game's end
    and the game shown again."""
    words = page_words()
    english = {p for p in english_only() if not any(p in said for said in words["it"].values())}  # "Buchholz"
    async with served(club=ClubOptions()) as site:  # quick games and tournaments
        page = await open_italian(browser, site, "zia")
        await page.wait_for_selector("#preset", timeout=WAIT)
        await page.get_by_role("button", name="Gioca con altre persone").tap()
        await page.get_by_role("status").filter(has_text="Aspettiamo ancora 1 giocatore per una partita di Scopa").wait_for(timeout=WAIT)
        assert await english_heard(page, english) == [], "quick game"
        await page.get_by_role("button", name="Smetti di aspettare").tap()
        await page.get_by_role("button", name="Mostra i tornei").tap()
        await page.fill("#t-name", "Coppa")
        await page.fill("#t-cap", "4")
        await page.locator("form:has(#t-name) button[type=submit]").tap()
        item = page.locator("#tournaments li", has_text="Coppa")
        await item.get_by_role("button", name="Classifica").tap()
        await item.get_by_text("Classifica (nessun turno ancora giocato)").wait_for(timeout=WAIT)
        await item.get_by_role("button", name="Inizia").tap()  # nobody registered: refused
        await page.get_by_role("status").filter(has_text="troppo pochi iscritti").wait_for(timeout=WAIT)
        await page.get_by_role("button", name="Mostra i tornei finiti").tap()  # a button that says what it does, not a heading's words
        await page.get_by_text("Nessun torneo è ancora finito.").wait_for(timeout=WAIT)
        assert await page.locator("#finished-title").count() == 0  # no heading over nothing
        assert await english_heard(page, english) == [], "tournaments"
        await page.select_option("#bots", "easy")
        await page.locator("form:has(#preset) button[type=submit]").tap()
        await page.wait_for_selector(MINE, timeout=WAIT)
        await tap_a_card(page)
        await page.wait_for_selector(MINE, timeout=WAIT)
        assert await english_heard(page, english) == [], "board"
        await page.locator("#leave").tap()
        await page.wait_for_selector("dialog[open]#leave-question", timeout=WAIT)
        assert await english_heard(page, english) == [], "leaving"
        await page.locator("dialog[open]#leave-question button.danger").tap()
        await page.wait_for_selector("#game-end", timeout=WAIT)
        assert await english_heard(page, english) == [], "game end"
        await page.get_by_role("button", name="Rivedi la partita").tap()
        await page.wait_for_selector("#replay-where", timeout=WAIT)
        back = page.get_by_role("button", name="◀ Indietro")
        assert await back.is_disabled() and float(await back.evaluate("b => getComputedStyle(b).opacity")) < 1  # seen as such
        await page.get_by_role("button", name="Avanti ▶").tap()
        assert await english_heard(page, english) == [], "replay"


async def test_the_longest_name_keeps_the_board_within_the_phone(site: Site, browser: Browser) -> None:
    """A name of 24 letters (the most a name may have) beside a bot's: the page is no
    wider than the phone (the score's table scrolls in its panel, the name ends in an
    ellipsis and is whole in its title)."""
    name = "Mariagraziella_Bernardin"
    page = await open_italian(browser, site, name)
    await page.wait_for_selector("#preset", timeout=WAIT)
    await page.select_option("#bots", "hard")
    await page.locator("form:has(#preset) button[type=submit]").tap()
    await page.wait_for_selector(MINE, timeout=WAIT)
    assert await page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert await page.locator(f"#score-title + table thead th .name[title='{name}']").count() == 1
