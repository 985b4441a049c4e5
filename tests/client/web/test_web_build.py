"""The browser client shipped in the package (client/webdist) is what its sources build
to: a fresh esbuild build of client/web, and protocol types freshly generated from
docs/protocol.schema.json, equal the committed files; its JavaScript and CSS weigh
under 150 KB compressed; it loads nothing from outside the server."""

from __future__ import annotations

import gzip
import re
import subprocess
from pathlib import Path

from scopa.client.webfiles import web_root

from paths import ROOT

WEB = ROOT / "client" / "web"


def _node(*args: str) -> None:
    subprocess.run(["node", *args], cwd=WEB, check=True, timeout=120)


def test_the_shipped_files_are_a_fresh_build(tmp_path: Path) -> None:
    _node("build.mjs", str(tmp_path))
    shipped = {p.name: p.read_bytes() for p in web_root().iterdir()}
    fresh = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert shipped.keys() == fresh.keys()
    for name in fresh:
        assert shipped[name] == fresh[name], f"client/webdist/{name} is stale: run npm run build in client/web"


def test_the_protocol_types_are_generated_from_the_schema(tmp_path: Path) -> None:
    out = tmp_path / "protocol.ts"
    _node("gen-types.mjs", str(ROOT / "docs" / "protocol.schema.json"), str(out))
    assert (WEB / "src" / "protocol.ts").read_text() == out.read_text()


def test_the_page_is_light_and_self_contained() -> None:
    files = {p.name: p.read_bytes() for p in web_root().iterdir()}
    weight = sum(len(gzip.compress(files[n], 9)) for n in ("app.js", "app.css"))
    assert weight < 150 * 1024
    page = files["index.html"].decode() + files["app.js"].decode() + files["app.css"].decode()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert "fonts.googleapis" not in page and "cdn." not in page


def test_the_client_type_checks() -> None:
    """tsc --strict over the sources and the generated protocol types (npm run check)."""
    _node(str(WEB / "node_modules" / "typescript" / "bin" / "tsc"), "-p", ".")


SAME_IN_BOTH = {"title", "chat", "scopa", "bot", "denari", "primiera", "scope", "settebello", "catNapola", "catReBello",
                "catPiccola", "catGrande", "tris", "error", "pointsBy", "total", "no", "botName", "botSeat", "tournamentLine"}
"""Texts that are the same words in Italian and English: the game's own terms (and "Bot {n} ({level})", "{name} (bot)"),
and lines made of other texts only."""


def test_every_text_of_the_page_has_its_italian() -> None:
    """Every text of the page (client/web/src/i18n.ts), every option of `scopa options`
    and every refusal the server may send has its Italian, with the same {fields}."""
    import re

    from scopa.client.text import option_lines
    from scopa.protocol.errors import ErrorCode
    from web_words import page_words

    words = page_words()
    en, it = words["en"], words["it"]
    assert en.keys() == it.keys()
    untranslated = sorted(k for k in en if en[k] == it[k] and k not in SAME_IN_BOTH)
    assert untranslated == []
    assert {k: re.findall(r"\{\w+\}", it[k]) for k in en} == {k: re.findall(r"\{\w+\}", en[k]) for k in en}
    assert sorted(words["errors"]) == sorted(c.value for c in ErrorCode)
    shown = {name for name, _, _ in option_lines()} - {"preset", "players"}  # the form's own fields
    assert shown - words["options"].keys() == set()


def test_no_module_of_the_client_is_over_500_lines() -> None:
    """The project's 500-line rule for modules (tests/test_code_shape.py) holds for the
    client's TypeScript too; the protocol's types, generated from the schema, aside."""
    long = {p.name: n for p in (WEB / "src").glob("*.ts")
            if p.name != "protocol.ts" and (n := len(p.read_text().splitlines())) > 500}
    assert long == {}
