"""The browser client on a family's phone (390×844, touch), in Debian's chromium against
a real server on 127.0.0.1 (port 0), as tests/client/web/test_web_client.py drives it:
a name the server would refuse is explained in the page's own words with the forms it
takes; a table made for people waits for them and offers its invite; the notice of a taken
name goes once seated; leaving says the one case that applies; a replay ends with who
won; an abandoned game says so; the plain connection is told calmly; the rules open at
the table's game; only the way to take in focus is marked on the table."""

from __future__ import annotations

import asyncio
import re

import pytest
from playwright.async_api import Browser, Page, WebSocketRoute

from scopa.bots import GreedyBot
from scopa.client.net import ClientSession, archive
from scopa.client.webfiles import web_files
from scopa.engine import Preset, RuleSet
from scopa.engine.cards import CARDS, cards_of
from scopa.engine.state import GameState
from scopa.protocol import commands as wire

from test_web_client import MINE, PHONE, WAIT, Site, browser, chromium, journaled, served, site  # noqa: F401
from test_web_family import ITALIAN_PHONE, open_italian, tap_a_card
from test_web_table import first_turn, seed_where
from wire_client import WireClient

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]  # the browser: test_web_client.py


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_a_name_with_a_space_is_explained_and_offered_as_the_server_takes_it(site: Site, browser: Browser, lang: str) -> None:
    """PROTOCOL.md §4 "Names": no spaces in a name. "Zio Gino" is refused by the page in
    its own words (not the browser's bubble), which say what a name may hold and offer
    "Zio_Gino" and "ZioGino"; a tap on one plays under it."""
    context = await browser.new_context(**(ITALIAN_PHONE if lang == "it" else PHONE))  # type: ignore[arg-type]
    page = await context.new_page()
    page.on("pageerror", lambda e: site.errors.append(str(e)))
    await page.goto(site.url)
    rule = "Fino a 24 lettere (anche accentate), cifre e _ - . — senza spazi." if lang == "it" \
        else "Up to 24 letters (accented ones too), digits and _ - . — no spaces."
    assert (await page.locator("#name-rule").text_content()) == rule
    await page.fill("#name", "Zio Gino")
    await page.get_by_role("button", name="Gioca" if lang == "it" else "Play", exact=True).tap()
    said = page.get_by_role("alert")
    await said.filter(has_text="Un nome non può avere spazi." if lang == "it" else "A name cannot have spaces.").wait_for(timeout=WAIT)
    play_as = "Gioca come" if lang == "it" else "Play as"
    assert await said.get_by_role("button").all_text_contents() == [f"{play_as} Zio_Gino", f"{play_as} ZioGino"]
    assert await page.locator("#name").get_attribute("aria-invalid") == "true"
    await said.get_by_role("button", name=f"{play_as} Zio_Gino").tap()
    await page.wait_for_selector("#preset", timeout=WAIT)
    assert (await page.locator("header h1").text_content() or "").endswith("Zio_Gino")


async def test_a_table_made_for_people_waits_for_them_with_its_invite(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §8 create_table: the form's table waits for people by default (no
    bots), and while it waits its invite shows, the link and its QR code; the next
    person who opens the link sits down. A game against bots at once is one tap."""
    page = await open_italian(browser, site, "nonna")
    await page.wait_for_selector("#preset", timeout=WAIT)
    assert await page.locator("#bots").input_value() == ""  # "nessuno (aspetta persone)"
    await page.get_by_role("button", name="Crea un tavolo", exact=True).tap()
    invite = page.locator("#invite")
    await invite.wait_for(timeout=WAIT)
    link = await invite.locator("a").get_attribute("href") or ""
    assert "?table=" in link
    assert await invite.get_by_role("img", name="Codice QR del link d'invito").count() == 1
    assert await page.locator("[data-area=hand] .card").count() == 0  # no game yet: it waits
    zio = await open_italian(browser, site, "zio", url=link)
    await zio.wait_for_selector("[data-area=hand] .card", timeout=WAIT)  # seated by the link, the game on
    await page.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    assert await page.locator("#invite").count() == 0
    other = await open_italian(browser, site, "ada")
    await other.get_by_role("button", name="Subito una partita contro i bot").tap()
    await other.wait_for_selector("[data-area=hand] .card", timeout=WAIT)


async def late_connection(browser: Browser, site: Site, name: str) -> tuple[Page, asyncio.Event]:
    """A phone on a slow network, named ``name``, in the lobby: its connection to the
    server opens only when the event returned is set."""
    context = await browser.new_context(**ITALIAN_PHONE)
    up = asyncio.Event()

    async def slow(ws: WebSocketRoute) -> None:
        await up.wait()
        ws.connect_to_server()

    await context.route_web_socket(re.compile(r"/ws$"), slow)
    page = await context.new_page()
    page.on("pageerror", lambda e: site.errors.append(f"{name}: {e}"))
    await page.goto(site.url)
    await page.fill("#name", name)
    await page.get_by_role("button", name="Gioca").tap()
    return page, up


async def test_a_tap_in_the_lobby_while_the_connection_is_still_opening_counts(site: Site, browser: Browser) -> None:
    """A slow network: the lobby shows as soon as the name is given, while the page's
    connection to the server is still opening. A tap on "a game against bots now" then is
    kept, and sent once the server has welcomed the page: the game begins."""
    page, up = await late_connection(browser, site, "ada")
    await page.get_by_role("button", name="Subito una partita contro i bot").tap()  # not connected yet
    up.set()
    await page.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    await page.context.close()


async def test_the_new_tables_form_keeps_its_choices_when_the_server_says_its_turn_clock(site: Site, browser: Browser) -> None:
    """The bots chosen in the new table's form before the server welcomed the page stay
    chosen once it has (its welcome tells the turn clock the form offers): the table made
    is a game against them at once."""
    page, up = await late_connection(browser, site, "ada")
    await page.select_option("#bots", "medium")
    up.set()
    await page.locator("#timer option", has_text=re.compile(r"server \(\d+ s\)")).wait_for(state="attached", timeout=WAIT)  # its clock, told
    assert await page.locator("#bots").input_value() == "medium"
    await page.get_by_role("button", name="Crea un tavolo", exact=True).tap()
    await page.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    await page.context.close()


async def test_a_taken_kept_name_is_asked_about_and_nothing_of_it_follows_to_the_table(site: Site, browser: Browser) -> None:
    """A page coming back as "Nonna" (the name it kept) while another Nonna plays is asked
    (never renamed unasked): it plays as the name offered, and once seated at a table
    nothing about the name is said above the board."""
    await open_italian(browser, site, "Nonna")
    second = await open_italian(browser, site, "Nonno")
    await second.wait_for_selector("#preset", timeout=WAIT)  # welcomed as Nonno
    await second.evaluate("localStorage.setItem('scopa.name', 'Nonna')")
    await second.reload()
    question = second.locator("#name-question")
    await question.wait_for(timeout=WAIT)
    said = await question.get_by_role("alert").text_content() or ""
    found = re.fullmatch(r"Il nome Nonna è già in uso\. Gioca come (Nonna\d\d), o scegli un altro nome\.", said)
    assert found, said
    await question.get_by_role("button", name=f"Gioca come {found.group(1)}").tap()
    await second.get_by_role("button", name="Subito una partita contro i bot").tap()
    await second.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    assert await second.get_by_text("già preso").count() == 0


async def a_table_of_two(browser: Browser, site: Site, first: str, second: str) -> tuple[Page, Page]:
    """``first`` makes a table for people, ``second`` sits down by its invite: the game on."""
    one = await open_italian(browser, site, first)
    await one.get_by_role("button", name="Crea un tavolo", exact=True).tap()
    link = await one.locator("#invite a").get_attribute("href", timeout=WAIT) or ""
    two = await open_italian(browser, site, second, url=link)
    for page in (one, two):
        await page.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    return one, two


async def play_a_turn(watcher: Page, pages: dict[str, Page]) -> None:
    """Whoever's turn it is (as ``watcher``'s board says) plays a card, a person's page
    among ``pages`` by name; the play then listed on ``watcher``'s board."""
    plays = watcher.locator("[data-area=plays] li")
    before = await plays.count()
    whose = await watcher.locator(".seat.turn").text_content() or ""
    player = next((p for n, p in pages.items() if whose.startswith(f"{n} ") and "(bot)" not in whose), None)
    if player is not None:
        await player.wait_for_selector(MINE, timeout=WAIT)
        await tap_a_card(player)
    await plays.nth(before).wait_for(timeout=WAIT)


async def test_leaving_says_the_one_case_that_applies_and_keeps_earlier_plays_named(site: Site, browser: Browser) -> None:
    """PROTOCOL.md §7: at a table whose listing says nothing of ``bot_takeover`` (true),
    with another person seated, the question on leaving names only the bot playing on,
    whoever made the table; after bruno leaves, his plays before keep his name and only
    those after say "(bot)"."""
    ada, bruno = await a_table_of_two(browser, site, "ada", "bruno")
    people = {"ada": ada, "bruno": bruno}
    mine = ada.locator("[data-area=plays] li", has_text="bruno:")
    while not await mine.count():
        await play_a_turn(ada, people)
    await bruno.locator("#leave").tap()
    question = bruno.locator("dialog[open]#leave-question")
    assert await question.locator("p").first.text_content() == \
        "Lasci la partita? Da ora il tuo posto lo gioca un bot; non potrai riprenderlo."
    await question.get_by_role("button", name="Esci: continua un bot").tap()
    await ada.locator("#stand-in li").filter(has_text="bruno ha lasciato la partita: da ora un bot gioca al suo posto.").wait_for(timeout=WAIT)
    people = {"ada": ada}
    bots = ada.locator("[data-area=plays] li", has_text="bruno (bot):")
    while not await bots.count():
        await play_a_turn(ada, people)
    said = await ada.locator("[data-area=plays] li").all_text_contents()
    first_bot = next(i for i, x in enumerate(said) if x.startswith("bruno (bot):"))
    assert any(x.startswith("bruno:") for x in said[:first_bot])  # his own play, still his
    assert not any(x.startswith("bruno:") for x in said[first_bot:])


async def test_the_replay_ends_with_who_won(journaled: Site, browser: Browser) -> None:
    """R22 and RECORDS.md ``result``: a finished game shown again from the lobby: its last
    step says the game is over, who won and the final totals, as the record has them."""
    async with await ClientSession.connect("127.0.0.1", journaled.engine.port, "greedy") as s:
        await s.create_table(preset="scopa", fill_with_bots=("random",))
        await s.play_game(GreedyBot())
        [game] = await archive.list_games(s)
    assert game.winner is not None
    page = await open_italian(browser, journaled, "ada")
    await page.get_by_role("button", name="Mostra le partite finite").tap()
    await page.locator("#games li").get_by_role("button", name="Rivedi").tap()
    await page.wait_for_selector("#replay-where", timeout=WAIT)
    assert await page.locator("#replay-end").count() == 0  # not at the first step
    for name in ("Smazzata successiva", "Avanti ▶"):
        step = page.get_by_role("button", name=name)
        while await step.is_enabled():
            await step.tap()
    end = page.locator("#replay-end")
    assert await end.locator("h2").text_content() == "Partita finita"
    won = "Ha vinto greedy" if game.winner == 0 else "Ha vinto Bot 1 (facile)"
    assert await end.locator(".winner").text_content() == won
    assert [int(x) for x in await end.locator("td").all_text_contents() if x.isdigit()] == list(game.totals)


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_a_game_left_early_is_listed_as_abandoned(journaled: Site, browser: Browser, lang: str) -> None:
    """PROTOCOL.md §13 ``games``: a game its only person left at once ends ``abandoned``,
    0 – 0 and no winner; the finished games say so in words."""
    zio = await WireClient.connect(journaled.engine.port, "zio")
    zio.send(wire.CreateTable(preset=Preset.SCOPA, fill_with_bots=["random"]))
    table = (await zio.recv_until("table_created")).body.table.id
    await zio.recv_until("game_start")
    zio.send(wire.LeaveTable(table=table))
    await zio.recv_until("left")
    await zio.close()
    context = await browser.new_context(**(ITALIAN_PHONE if lang == "it" else PHONE))  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(journaled.url)
    await page.fill("#name", "ada")
    await page.get_by_role("button", name="Gioca" if lang == "it" else "Play", exact=True).tap()
    await page.get_by_role("button", name="Mostra le partite finite" if lang == "it" else "Show the finished games").tap()
    line = await page.locator("#games li span").first.text_content(timeout=WAIT) or ""
    assert line.endswith(" · 0 – 0 · abbandonata" if lang == "it" else " · 0 – 0 · abandoned"), line


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_first_screen_says_calmly_what_a_plain_connection_means(site: Site, browser: Browser, lang: str) -> None:
    """OPERATING.md "TLS": a page served without TLS says, behind the small mark of its
    first screen, that the connection is not encrypted and that on a home network that is
    fine; it names no password (there is no password to type)."""
    context = await browser.new_context(**(ITALIAN_PHONE if lang == "it" else PHONE))  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(site.url)
    await page.locator("footer #not-private-mark").tap()
    said = await page.locator("dialog[open] p").first.text_content() or ""
    assert said == ("Il collegamento a questa pagina non è cifrato: in una rete di casa va bene, ma in una rete condivisa "
                    "(un bar, un albergo) altri potrebbero vedere ciò che invii." if lang == "it" else
                    "The connection to this page is not encrypted: on a home network that is fine, but on a shared one "
                    "(a café, a hotel) others could see what you send.")
    assert "password" not in said.lower()


def variant_text(lang: str, preset: str) -> str:
    """The first paragraph of ``preset``'s section of the rules the page serves."""
    text = web_files()[f"rules.{lang}.md"].decode()
    section = text.split(f"### `{preset}`\n", 1)[1]
    return section.strip().split("\n\n")[0].replace("\n", " ")


@pytest.mark.parametrize("lang", ["it", "en"])
async def test_the_rules_in_a_game_open_at_its_game(site: Site, browser: Browser, lang: str) -> None:
    """RULES.md "Games by name": the rules opened at a table of Scopa a quindici show that
    game's section first, under its name, the whole manual below; in the lobby the
    manual alone."""
    context = await browser.new_context(**(ITALIAN_PHONE if lang == "it" else PHONE))  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(site.url)
    await page.fill("#name", "ada")
    await page.get_by_role("button", name="Gioca" if lang == "it" else "Play", exact=True).tap()
    rules = page.get_by_role("button", name="Regole" if lang == "it" else "Rules", exact=True)
    await rules.tap()
    await page.wait_for_selector("dialog[open] .rules h3", timeout=WAIT)
    assert await page.locator("#rules-now").count() == 0
    await page.locator("dialog[open] p.bar button").last.tap()
    await page.select_option("#quick-preset", "quindici")  # the game the lobby's first buttons play
    await page.get_by_role("button", name="Subito una partita contro i bot" if lang == "it" else "A game against bots now").tap()
    await page.wait_for_selector("[data-area=hand] .card", timeout=WAIT)
    await rules.tap()
    now = page.locator("dialog[open] #rules-now")
    await now.wait_for(timeout=WAIT)
    assert await now.locator("h3").text_content() == ("A questo tavolo: Scopa a quindici" if lang == "it" else "At this table: Scopa a quindici")
    assert await now.locator("p").first.text_content() == variant_text(lang, "quindici")
    first = await page.evaluate("() => document.querySelector('dialog[open] #rules-now').compareDocumentPosition("
                                "document.querySelector('dialog[open] .rules')) & Node.DOCUMENT_POSITION_FOLLOWING")
    assert first  # the game's section above the manual


def a_shared_card(state: GameState) -> bool:
    """Seat 0 holds a card that takes in two ways sharing a table card."""
    return any(state.hands[0] >> c & 1 and a_shared_card_of(state, c) for c in range(40))


async def test_only_the_way_in_focus_is_marked_on_the_table(browser: Browser) -> None:
    """R10-R12: a card that takes in two ways sharing a table card; while the ways are
    laid out, the table marks the cards of the way in focus only (a card in both ways
    would otherwise say nothing), and never those of the others."""
    seed = seed_where(RuleSet.build("scopa"), a_shared_card)
    state = first_turn(RuleSet.build("scopa"), seed)
    card = next(c for c in range(40) if state.hands[0] >> c & 1 and a_shared_card_of(state, c))
    ways = [sorted(str(x) for x in cards_of(m)) for m in state.capture_options(0, card)]
    async with served(seed=seed) as s:
        page = await open_italian(browser, s, "ada")
        await page.get_by_role("button", name="Subito una partita contro i bot").tap()
        await page.wait_for_selector(MINE, timeout=WAIT)
        picked = page.locator(f"[data-area=hand] .card[data-card='{CARDS[card]}']")
        await picked.tap()
        await picked.tap()
        sheet = page.locator("dialog[open]#choose")
        await sheet.wait_for(timeout=WAIT)
        buttons = sheet.locator(".ways button")
        for i in [*range(len(ways)), 0]:
            await buttons.nth(i).focus()
            marked = await page.locator("[data-area=table] .card.lit, [data-area=table] .card.takes").evaluate_all(
                "cs => cs.map(c => c.dataset.card)")
            assert sorted(marked) == ways[i]


def a_shared_card_of(state: GameState, card: int) -> bool:
    options = state.capture_options(0, card)
    return any(m & n for i, m in enumerate(options) for n in options[i + 1:])
