"""The terminal client in Italian: every string the Textual client shows goes through
the one catalog (``scopa.client.text.i18n.tr``, scopa/client/text/italian.py), and each has its
Italian there.  A string written straight into a widget, a status line or a message, or
given to ``tr`` without an Italian, fails this test; and with an Italian locale the
client speaks Italian."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path


import pytest

from scopa.client.text import ITALIAN, i18n

from paths import ROOT

pytestmark = pytest.mark.unit

TERMINAL = [*sorted((ROOT / "client" / "tui").rglob("*.py")), ROOT / "client" / "text" / "replaywords.py",
            ROOT / "client" / "text" / "render.py", ROOT / "client" / "console" / "human.py",
            ROOT / "client" / "console" / "lobby.py", ROOT / "client" / "console" / "local.py",
            ROOT / "client" / "text" / "movehints.py", ROOT / "client" / "text" / "games.py",
            ROOT / "cli" / "records.py", ROOT / "cli" / "main.py",
            ROOT / "client" / "console" / "recordfile.py", ROOT / "cli" / "lan.py", ROOT / "cli" / "net.py",
            ROOT / "client" / "net" / "discovery.py", ROOT / "client" / "console" / "__init__.py",
            ROOT / "client" / "console" / "club.py", ROOT / "cli" / "interrupt.py",
            ROOT / "cli" / "username.py", ROOT / "cli" / "options.py", ROOT / "cli" / "serve.py",
            ROOT / "cli" / "tls.py", ROOT / "cli" / "web.py", ROOT / "cli" / "loops.py",
            ROOT / "client" / "console" / "prompt.py", ROOT / "client" / "console" / "seatfile.py",
            ROOT / "client" / "console" / "news.py", ROOT / "client" / "console" / "watching.py",
            ROOT / "client" / "console" / "tableform.py", ROOT / "client" / "text" / "options.py", ROOT / "cli" / "admin.py"]
"""The Textual client, the plain one (its lobby, board, moves and events) and what
``scopa serve`` tells its operator."""
SHOWN_BY = {"Text", "Static", "Label", "Button", "Tick", "say", "tell", "Binding", "add_columns", "Input",
            "ConfirmScreen", "GameOverScreen", "LobbyScreen", "BoardScreen", "assemble", "append", "OptionList", "print"}
"""Calls whose string arguments a person reads (Binding: its description)."""
SAME_IN_BOTH = {"SCOPA!", "Scopa"}
WORD = re.compile(r"[A-Za-z]{2,}")


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _words(node: ast.expr) -> str | None:
    """The words of a string written in the code (an f-string's own text), if any."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    elif isinstance(node, ast.Tuple) and node.elts:
        return _words(node.elts[0])  # Text.assemble's (text, style)
    else:
        return None
    text = re.sub(r"\[/?[a-z ]+\]", "", text)  # rich markup: a style, no words
    return text if WORD.search(text) and text.strip() not in SAME_IN_BOTH else None


def _shown(call: ast.Call) -> list[ast.expr]:
    """The arguments of ``call`` a person reads."""
    name = _name(call.func)
    if name == "Binding":
        return list(call.args[2:3]) + [k.value for k in call.keywords if k.arg == "description"]
    if name == "Input":
        return [k.value for k in call.keywords if k.arg == "placeholder"]
    if name == "append" and not (isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
                                 and call.func.value.id in ("t", "notes", "parts")):
        return []
    return [*call.args, *(k.value for k in call.keywords if k.arg in ("label", "empty", "then"))]


def _calls(path: Path) -> list[ast.Call]:
    return [n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, ast.Call)]


def test_every_string_the_terminal_shows_goes_through_the_catalog() -> None:
    written = [f"{path.name}:{call.lineno}: {words!r}" for path in TERMINAL for call in _calls(path)
               if _name(call.func) in SHOWN_BY for arg in _shown(call) if (words := _words(arg)) is not None]
    assert written == []


def test_every_catalog_string_has_its_italian() -> None:
    keys = {call.args[0].value for path in TERMINAL + [ROOT / "client" / "text" / "invite.py"]
            for call in _calls(path)
            if _name(call.func) in ("tr", "key_word") and call.args and isinstance(call.args[0], ast.Constant)}
    missing = sorted(k for k in keys if not ITALIAN.get(k))
    assert missing == []
    for english, italian in ITALIAN.items():  # the same {names} to fill in
        fields = {f for _, f, _, _ in string.Formatter().parse(english) if f}
        assert fields == {f for _, f, _, _ in string.Formatter().parse(italian) if f}, english


def test_the_locale_chooses_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    assert i18n.language({"LANG": "it_IT.UTF-8"}) == "it"
    assert i18n.language({"LANG": "it_CH.UTF-8", "LC_ALL": "en_GB.UTF-8"}) == "en"  # LC_ALL first
    assert i18n.language({"LC_MESSAGES": "it_IT", "LANG": "en_US"}) == "it"
    assert i18n.language({}) == "en"
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    assert i18n.tr("Your turn: press {keys}, click a card, or / to type one. ? help", keys="1–3").startswith(
        "Tocca a te")
    monkeypatch.setattr(i18n, "LANGUAGE", "en")
    assert i18n.tr("{n} cards", n=3) == "3 cards"


def test_a_board_before_its_game_starts_names_its_sides_in_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    from scopa.client.text.board.state import BoardState

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    board = BoardState(viewer=None)
    assert board.side_name(0) == "parte 1" and board.seat_name(1) == "posto 2"


def test_the_plain_lobby_lists_a_tables_rules_in_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rich.console import Console

    from scopa.client.console.lobby import render_tables
    from scopa.engine import RuleSet
    from scopa.protocol import TableInfo, TableState
    from scopa.protocol.convert import rules_to_wire

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    rules = RuleSet.build(capture_mode="fewest", max_two=True)
    info = TableInfo(id="4", rules=rules_to_wire(rules), description=rules.describe(), seats=["ada", None],
                     state=TableState.WAITING)
    table = render_tables([info])
    out = io.StringIO()
    Console(file=out, width=300).print(table.columns[1]._cells[0])  # type: ignore[union-attr]
    text = out.getvalue()
    assert "2 giocatori, a 11, presa: la più piccola, al massimo due" in text and "to 11" not in text


def test_the_plain_local_game_calls_its_one_person_tu_in_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.console import Console

    from scopa.client.console.local import build_players
    from scopa.client.text import DeckStyle

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    one = build_players(["human", "greedy"], Console(), DeckStyle.ITALIAN, True, 0.0, 1)
    two = build_players(["human", "human"], Console(), DeckStyle.ITALIAN, True, 0.0, 1)
    assert one[0].name == "Tu" and [p.name for p in two] == ["Giocatore 1", "Giocatore 2"]


def test_the_plain_client_says_who_took_in_the_right_person(monkeypatch: pytest.MonkeyPatch) -> None:
    """"Hai giocato F Cop e ha preso …" spoke of you in the third person."""
    import io

    from rich.console import Console

    from scopa.client.text import DeckStyle, event_line, parse_cards
    from scopa.engine import Played

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    fc, c3, b5 = parse_cards("Fc 3c 5b")

    def said(seat: int) -> str:
        out = Console(file=io.StringIO(), width=200)
        out.print(event_line(Played(seat, fc, (c3, b5), False, ()), ["Tu", "Greedy 2"], DeckStyle.ITALIAN, me=0))
        return " ".join(out.file.getvalue().split())  # type: ignore[attr-defined]

    assert said(0) == "Hai giocato F Cop, prendendo 3 Cop 5 Bas"
    assert said(1) == "Greedy 2 ha giocato F Cop, prendendo 3 Cop 5 Bas"


def test_the_plain_client_ends_the_game_and_scores_the_round_in_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rich.console import Console

    from scopa.client.text import DeckStyle, event_line
    from scopa.client.text.render import render_round
    from scopa.engine import EndReason, GameEnded, RoundScore
    from scopa.engine.scoring import Category


    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    out = Console(file=io.StringIO(), width=200)
    out.print(event_line(GameEnded(1, (6, 13), EndReason.TARGET), ["Tu", "Greedy 2"], DeckStyle.ITALIAN, me=0))
    score = RoundScore(breakdown=({Category.CARTE: 1}, {Category.SEVENS: 1}), cards=(21, 19), primiera=(70, 0))
    out.print(render_round(score, ["Tu", "Greedy 2"], False))
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert "Partita finita (traguardo raggiunto): vince Greedy 2" in text and "target" not in text
    assert "Più sette" in text and "sevens" not in text


def test_a_game_without_a_winner_says_why_in_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    from scopa.client.text.board.state import BoardState
    from scopa.client.tui.text import result_line

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    board = BoardState(viewer=0)
    board.totals, board.end_reason = [4, 7], "abandoned"
    assert result_line(board) == "La partita è finita senza vincitori (interrotta); 4–7."


def test_every_word_the_server_sends_for_a_reason_or_a_state_has_its_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    """Why a game ended (R22, V8, V13), why a seat left, why a move was played for a
    seat, how a table stands: words on the wire, shown by ``scopa games``, the plain
    lobby and the watcher.  Each has its English and Italian in the shared catalog."""
    from scopa.client.text import catalog
    from scopa.engine import EndReason
    from scopa.protocol import TableState
    from scopa.protocol.commands import ForcedBy, LeftReason

    words = [w.value for kind in (EndReason, LeftReason, ForcedBy, TableState) for w in kind]
    assert sorted(w for w in words if w not in catalog.catalog().words) == []
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    italian = {w: catalog.word_text(w) for w in words}
    monkeypatch.setattr(i18n, "LANGUAGE", "en")
    english = {w: catalog.word_text(w) for w in words}
    assert [w for w in words if italian[w] == english[w] or italian[w] == w] == []


def _said(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


def test_scopa_games_and_the_leaderboard_speak_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    """``scopa games`` under LANG=it_IT.UTF-8 said "ada won 11-4 (target)"."""
    from scopa.client.text import game_lines, leaderboard_lines
    from scopa.engine import Preset
    from scopa.protocol.commands import GameSummary, Leaderboard, RatingEntry

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    games = [GameSummary(id="7", ended="2026-12-05T10:00:00Z", preset="scopa", description="scopa, 2p, to 11",
                         players=["ada", "bea"], winner=0, totals=[11, 4], reason="target", private=True),
             GameSummary(id="8", ended="2026-12-05T11:00:00Z", preset="scopa", description="scopa, 2p, to 11",
                         players=["ada", "bea"], winner=None, totals=[3, 2], reason="abandoned")]
    text = _said(game_lines(games))
    assert "vince ada 11–4 (traguardo raggiunto)" in text and "(privata)" in text and "interrotta 3–2" in text
    assert not {"won", "target", "abandoned", "private"} & set(re.findall(r"[a-z]+", text))
    board = Leaderboard(preset=Preset.SCOPA, entries=[RatingEntry(rank=1, name="ada", rating=21.5, mu=30.0, sigma=2.8,
                                                                    games=3, wins=2)])
    head = leaderboard_lines(board)[0].split()
    assert head == ["pos.", "nome", "punti", "partite", "vinte"]
    assert leaderboard_lines(Leaderboard(preset=Preset.SCOPA, entries=[]))[0].startswith("ancora nessuna partita")


def test_the_plain_lobby_asks_and_tells_in_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain lobby's questions for a new table, a watched game's end and a table's
    state, under an Italian locale: no English word of the wire (reasons, states, the
    capture modes) reaches the screen, and an Italian answer is taken."""
    import asyncio
    import io

    from rich.console import Console

    from scopa.client.console.lobby import render_tables
    from scopa.client.text import DeckStyle, event_line
    from scopa.engine import EndReason, GameEnded
    from scopa.client.console.prompt import LineReader
    from scopa.client.console.tableform import TableForm
    from scopa.engine import RuleSet
    from scopa.engine.rules import CaptureMode
    from scopa.protocol import TableInfo, TableState
    from scopa.protocol.convert import rules_to_wire

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    asked: list[str] = []
    answers = iter(["", "", "", "la più piccola", ""])

    def typed(prompt: object) -> str:
        asked.append(str(prompt))
        return next(answers)

    form = TableForm(LineReader(Console(file=io.StringIO(), width=200), typed), RuleSet())
    rules = asyncio.run(form.rules())
    assert rules.capture_mode is CaptureMode.FEWEST
    assert asked[0] == "Gioco [scopa]: "
    assert asked[3].startswith("Regola di presa (tradizionale, la più piccola, a scelta) [tradizionale]")

    line = str(event_line(GameEnded(None, (3, 2), EndReason.ABANDONED), ["ada", "bea"], DeckStyle.ITALIAN))
    assert "interrotta" in line and "abandoned" not in line
    info = TableInfo(id="4", rules=rules_to_wire(RuleSet()), description="scopa", seats=["ada", "bea"],
                     state=TableState.FINISHED)
    out = io.StringIO()
    Console(file=out, width=300).print(render_tables([info]))
    assert "finita" in out.getvalue() and "finished" not in out.getvalue()


def test_the_plain_client_speaks_to_you_when_you_deal_declare_and_win(monkeypatch: pytest.MonkeyPatch) -> None:
    """"Smazzata 2: dà le carte Tu", "Tu ha dichiarato", "vince Tu": the person at the
    keyboard is "you" in every sentence of the plain client (R22 for the end)."""
    import io

    from rich.console import Console

    from scopa.client.text import DeckStyle, event_line, parse_cards
    from scopa.engine import Declare, DeclarationKind, Declared, EndReason, GameEnded, RoundStarted

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    names = ["Tu", "Greedy 2"]

    def said(event: object) -> str:
        out = Console(file=io.StringIO(), width=200)
        out.print(event_line(event, names, DeckStyle.ITALIAN, me=0))  # type: ignore[arg-type]
        return " ".join(out.file.getvalue().split())  # type: ignore[attr-defined]

    table = tuple(parse_cards("4b 5s 6c 7d"))
    assert said(RoundStarted(2, 0, table, 0, ())).startswith("Smazzata 2: dai tu le carte. Tavola:")
    hand = tuple(parse_cards("Ad 2d 3d"))
    assert said(Declared(0, Declare(DeclarationKind.UNDER_TEN), hand)).startswith("Hai dichiarato")
    assert said(GameEnded(0, (11, 4), EndReason.TARGET)) .startswith("Partita finita (traguardo raggiunto): hai vinto 11 – ")
    assert said(GameEnded(1, (4, 11), EndReason.TARGET)).endswith(" 4") and "vince Greedy 2 11 – " in said(GameEnded(1, (4, 11), EndReason.TARGET))
    assert not [s for s in (said(RoundStarted(2, 0, table, 0, ())), said(GameEnded(0, (11, 4), EndReason.TARGET)))
                if "Tu " in s]


def test_the_plain_client_gives_the_leftovers_and_the_score_to_tu_in_the_second_person(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A plain local game in Italian said "Le carte rimaste a Tu" and listed "Tu (tu)"."""
    import io
    import random

    from rich.console import Console

    from scopa.client.text import DeckStyle, event_line, parse_cards, render_view
    from scopa.engine import Deal, GameState, RoundEnded, RoundScore, RuleSet
    from scopa.engine.view import view

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    names = ["Tu", "Greedy 2"]

    def said(thing: object) -> str:
        out = Console(file=io.StringIO(), width=200)
        out.print(thing)
        return " ".join(out.file.getvalue().split())  # type: ignore[attr-defined]

    score = RoundScore(breakdown=({}, {}), cards=(20, 20), primiera=(70, 70))
    left = parse_cards("4d")
    mine = said(event_line(RoundEnded(1, score, left, 0, (0, 0)), names, DeckStyle.ITALIAN, me=0))
    theirs = said(event_line(RoundEnded(1, score, left, 1, (0, 0)), names, DeckStyle.ITALIAN, me=0))
    assert "Rimaste in tavola, a te: 4 Den" in mine and "Rimaste in tavola, a Greedy 2: 4 Den" in theirs
    team = said(event_line(RoundEnded(1, score, left, 0, (0, 0)), ["Tu", "Bot 2", "Nonna", "Bot 4"],
                           DeckStyle.ITALIAN, me=0))
    assert "Rimaste in tavola, a te e a Nonna: 4 Den" in team
    state = GameState.new(RuleSet.build("scopa"), 1)
    order = list(range(40))
    random.Random(3).shuffle(order)
    state.apply(Deal(tuple(order)))
    board = said(render_view(view(state, 0), names, DeckStyle.ITALIAN))
    assert "Tu " in board and "Tu (tu)" not in board
    assert "ada (tu)" in said(render_view(view(state, 0), ["ada", "bea"], DeckStyle.ITALIAN))


GENDERED = re.compile(
    r"\b(sei|sei stat[oa]|resti|rimani|eri|sarai)\s+(già\s+|più\s+|ancora\s+|ora\s+)?"
    r"\w+(at[oa]|ut[oa]|it[oa]|tt[oa]|ess[oa]|uscit[oa]|sedut[oa])\b"
    r"|^(riconness|collegat|disconness|benvenut|iscritt|uscit|entrat|sedut|pront)[oa]\b", re.IGNORECASE)
"""Italian that agrees with the person it speaks to ("sei uscito", "non sei iscritto",
"Riconnesso"): the clients speak to everyone alike ("hai lasciato il tavolo")."""


def test_the_italian_never_agrees_with_the_persons_gender() -> None:
    """Every Italian string of the terminal and of the catalog both clients share."""
    from scopa.client.text.catalog import catalog

    shared = catalog()
    texts = [*ITALIAN.values(), *shared.errors.values(), *shared.refusals.values(), *shared.values.values(),
             *shared.settings.values(), *(it for _, it in shared.options.values()),
             *(it for _, it in shared.words.values())]
    assert [t for t in texts if GENDERED.search(t)] == []
    assert GENDERED.search("sei uscito") and GENDERED.search("non sei iscritto a questo torneo")
    assert GENDERED.search("Riconnesso come ada.") and not GENDERED.search("sei giocatori, a 11")


def test_every_option_value_has_its_italian_name_and_the_italian_rules_use_it() -> None:
    """"la regola `free`": an option's value reached an Italian sentence as its code."""
    from enum import StrEnum

    from scopa.client.text import rulebook_it
    from scopa.client.text.catalog import catalog
    from scopa.engine import Preset, RuleSet

    codes = {m.value for field in RuleSet.model_fields.values()
             if isinstance(field.annotation, type) and issubclass(field.annotation, StrEnum) for m in field.annotation}
    assert codes and all(catalog().values.get(code) for code in codes)
    english = re.compile(r"\b(" + "|".join(sorted(codes - {"off"})) + r")\b")  # "off": a word of code only
    shown = [rulebook_it.BASICS, *rulebook_it.OPTION_TEXT.values(), *(rulebook_it.settings(p) for p in Preset)]
    assert [t for t in shown if english.search(t) or "`off`" in t] == []


def test_the_plain_score_box_counts_the_scope(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scope column says how many scope a side made ("2"), not the cards that made
    them run together with the number ("2 5 Cop  F Den")."""
    import dataclasses
    import io
    import random

    from rich.console import Console

    from scopa.client.text import DeckStyle, parse_cards, render_view
    from scopa.engine import Deal, GameState, RuleSet
    from scopa.engine.view import view

    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    state = GameState.new(RuleSet.build("scopa"), 1)
    order = list(range(40))
    random.Random(3).shuffle(order)
    state.apply(Deal(tuple(order)))
    seen = dataclasses.replace(view(state, 0), scope=(2, 0), scopa_cards=(tuple(parse_cards("5c Fd")), ()))
    out = Console(file=io.StringIO(), width=120)
    out.print(render_view(seen, ["ada", "bea"], DeckStyle.ITALIAN))
    rows = out.file.getvalue().splitlines()  # type: ignore[attr-defined]
    mine = next(row.strip("│ ") for row in rows if "ada (tu)" in row)
    assert mine.split()[-1] == "2" and "Cop" not in mine and "Den" not in mine, mine


def test_the_italian_server_log_says_a_lost_connection_whoever_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """The log's line of a connection lost at a table names the person without a gendered
    past participle ("si è scollegato" would call Giulia a man)."""
    from scopa.client.text.catalog import log_text
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    template, args = log_text("table %s: %s disconnected (%s)", ("7", "player:giulia", "playing"))
    line = template % args  # type: ignore[operator]
    assert line.startswith("tavolo 7:") and "giulia" in line and "player:" not in line, line
    assert "scollegat" not in line, line
