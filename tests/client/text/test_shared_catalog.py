"""The one Italian catalog both clients share (scopa/client/text/catalog_it.json): every server
error code, every reason the engine gives for refusing a move (R13, R14), every setting of
a table's description has its Italian there; the terminal reads it and the browser's page
bundles it (no second copy in client/web/src/i18n.ts)."""

from __future__ import annotations

import ast
import itertools
import string

import pytest

from scopa.client.text import catalog, i18n
from scopa.engine import Deal, GameState, Play, RuleSet
from scopa.engine.rules import AssoPigliaTutto, CaptureMode
from scopa.protocol import ErrorCode

from paths import ROOT

pytestmark = pytest.mark.unit

REFUSALS = {"IllegalMoveError", "NotYourTurnError", "CardNotInHandError", "IllegalCaptureError", "WrongPhaseError",
            "BadDeclarationError"}
"""The engine's errors for a refused move: their text is shown to the person who made it."""


def _skeleton(parts: list[str | None]) -> tuple[str | None, ...]:
    """The words of a message with each filled-in value as None (runs of text joined)."""
    out: list[str | None] = []
    for part in parts:
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] += part
        elif part != "":
            out.append(part)
    return tuple(out)


def _engine_messages() -> list[tuple[str, tuple[str | None, ...]]]:
    found = []
    for path in sorted((ROOT / "engine").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in REFUSALS \
                    and node.args and isinstance(node.args[0], (ast.JoinedStr, ast.Constant)):
                arg = node.args[0]
                values = arg.values if isinstance(arg, ast.JoinedStr) else [arg]
                parts = [v.value if isinstance(v, ast.Constant) else None for v in values]
                found.append((f"{path.name}:{node.lineno}", _skeleton(parts)))
    return found


def _template_skeleton(template: str) -> tuple[str | None, ...]:
    parts: list[str | None] = []
    for literal, field, _, _ in string.Formatter().parse(template):
        parts.append(literal)
        if field is not None:
            parts.append(None)
    return _skeleton(parts)


def test_every_refusal_the_engine_can_give_has_its_italian() -> None:
    messages = _engine_messages()
    assert len(messages) >= 8  # the scan sees the engine's refusals
    known = {_template_skeleton(english) for english in catalog.catalog().refusals}
    assert [where for where, skeleton in messages if skeleton not in known] == []
    for english, italian in catalog.catalog().refusals.items():  # the same {names} to fill in
        assert {f for _, f, _, _ in string.Formatter().parse(english) if f} == \
            {f for _, f, _, _ in string.Formatter().parse(italian) if f}, english


def test_every_error_code_of_the_server_has_its_italian() -> None:
    errors = catalog.catalog().errors
    assert sorted(c.value for c in ErrorCode if not errors.get(c.value)) == []
    assert sorted(set(errors) - {c.value for c in ErrorCode}) == []


def _every_setting() -> set[str]:
    parts: set[str] = set()
    flags = ("refill_each_turn", "max_two", "ponino", "napola", "re_bello")
    for mode, apt, on in itertools.product(CaptureMode, AssoPigliaTutto, flags):
        try:
            rules = RuleSet.build(capture_mode=mode, asso_piglia_tutto=apt, **{on: True})
        except ValueError:
            continue
        parts.update(rules.describe().split(", ")[3:])  # after the preset, the players, the target
    return parts


def test_every_setting_of_a_table_description_has_its_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    parts = _every_setting()
    assert {"capture fewest", "max two", "asso piglia tutto (simple)"} <= parts
    assert sorted(p for p in parts if catalog.translate(p, "settings") is None) == []
    assert catalog.setting_text("capture fewest") == "presa: la più piccola"


def test_the_terminal_shows_the_engine_and_the_server_in_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    state = GameState.new(RuleSet.build("scopa"), 0)
    state.apply(Deal(tuple(range(40))))
    seat = state.to_move
    absent = next(c for c in range(40) if not state.hands[seat] >> c & 1)
    refused = state.explain(Play(absent, 0), seat)
    assert refused is not None and "is not in seat" in str(refused)
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    assert "non è nella mano del posto" in catalog.reason_text(refused)
    assert catalog.error_text(ErrorCode.TABLE_FULL, "the table is full") == "il tavolo è pieno"
    assert catalog.error_text(ErrorCode.CARD_NOT_IN_HAND, str(refused)) == catalog.reason_text(refused)
    monkeypatch.setattr(i18n, "LANGUAGE", "en")
    assert catalog.reason_text(refused) == str(refused)


def test_the_browser_takes_its_italian_from_the_same_catalog() -> None:
    source = (ROOT / "client" / "web" / "src" / "i18n.ts").read_text(encoding="utf-8")
    assert 'import catalog from "../../text/catalog_it.json"' in source
    assert "const ERRORS_IT: Record<ErrorCode, string> = catalog.errors;" in source  # tsc: every code
    bundle = (ROOT / "client" / "webdist" / "app.js").read_text(encoding="utf-8")
    shared = catalog.catalog()
    missing = [t for t in [*shared.errors.values(), *shared.refusals.values()] if _as_bundled(t) not in bundle]
    assert missing == []


def _as_bundled(text: str) -> str:
    """``text`` as esbuild writes it in a string of the bundle (non-ASCII as \\xNN or \\uNNNN)."""
    return "".join(c if ord(c) < 128 and c != '"' else '\\"' if c == '"' else
                   f"\\x{ord(c):02X}" if ord(c) < 256 else f"\\u{ord(c):04X}" for c in text)


def test_a_name_after_a_takes_ad_before_a_vowel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    assert i18n.tr("Left on the table, to {who}: ", who="Ada") == "Rimaste in tavola, ad Ada: "
    assert i18n.tr("Left on the table, to {who}: ", who="Bea") == "Rimaste in tavola, a Bea: "
    assert i18n.tr("to {n}", n=11) == "a 11"


def _sense_problems() -> list[tuple[str, tuple[str | None, ...]]]:
    """Every reason ``sense_problems`` can give, as its words with each value as None."""
    source = (ROOT / "engine" / "rules.py").read_text(encoding="utf-8")
    func = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef) and n.name == "sense_problems")
    found = []
    for node in ast.walk(func):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append":
            arg = node.args[0]
            values = arg.values if isinstance(arg, ast.JoinedStr) else [arg]
            if isinstance(arg, ast.BinOp):  # two literals joined by +
                values = [*(arg.left.values if isinstance(arg.left, ast.JoinedStr) else [arg.left]),
                          *(arg.right.values if isinstance(arg.right, ast.JoinedStr) else [arg.right])]
            parts = [v.value if isinstance(v, ast.Constant) else None for v in values]
            found.append((f"rules.py:{node.lineno}", _skeleton(parts)))
    return found


def test_every_reason_rules_do_not_work_has_its_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    """"frac captures follow the 'free' capture mode" reached the Italian form in English."""
    problems = _sense_problems()
    assert len(problems) >= 15  # the scan sees them all
    known = {_template_skeleton(english) for english in catalog.catalog().rules}
    assert [where for where, skeleton in problems if skeleton not in known] == []
    monkeypatch.setattr(i18n, "LANGUAGE", "it")
    try:
        RuleSet.build("scopa", frac=True, napola=True, hand_size=4)
    except ValueError as exc:
        said = catalog.rules_problem_text(str(exc))
    assert said.startswith("il mazzo di 28 carte non si divide") and "a Frac la presa è a scelta" in said
    assert "free" not in said and "frac scores" not in said
