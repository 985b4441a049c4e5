"""Every file a doc names is there: the paths (``server/table/turns.py``,
``client/web/src/main.ts``, ``tests/test_x.py``, ``docs/X.md``) and local links of README.md
and docs/*.md, and every ``scopa.x.y`` module they name (tests/doctext.py finds them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from doctext import ROOT, missing_modules, missing_paths, missing_sections, named_modules, named_paths

pytestmark = pytest.mark.unit

DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])


def test_the_docs_this_test_reads_are_there() -> None:
    names = {doc.relative_to(ROOT).as_posix() for doc in DOCS}
    assert {"README.md", "docs/SERVER.md", "docs/PROTOCOL.md", "docs/CLIENT.md"} <= names


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.relative_to(ROOT).as_posix())
def test_every_path_a_doc_names_exists(doc: Path) -> None:
    assert missing_paths(doc) == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.relative_to(ROOT).as_posix())
def test_every_module_a_doc_names_exists(doc: Path) -> None:
    assert missing_modules(doc) == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.relative_to(ROOT).as_posix())
def test_every_section_a_doc_names_in_another_doc_exists(doc: Path) -> None:
    assert missing_sections(doc) == []


def test_the_server_doc_names_many_paths_so_the_check_reads_them() -> None:
    text = (ROOT / "docs" / "SERVER.md").read_text(encoding="utf-8")
    assert {"server/table/turns.py", "server/network.py"} <= named_paths(text)


def test_a_made_up_path_link_or_module_is_reported(tmp_path: Path) -> None:
    doc = tmp_path / "docs" / "X.md"
    doc.parent.mkdir()
    (tmp_path / "server" / "table").mkdir(parents=True)
    (tmp_path / "server" / "table" / "turns.py").write_text("class Turns: ...\n", encoding="utf-8")
    (tmp_path / "server" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "server" / "table" / "__init__.py").write_text("from .turns import Turns\n", encoding="utf-8")
    doc.write_text(
        "## The turns\n\nThe turns are in `server/table/turns.py`, not in server/table/clock.py.\n"
        "See [the rules](RULES.md) and [the turns](../server/table/turns.py#L1).\n"
        "Import `scopa.server.table.Turns`, not `scopa.server.table.clock` or `scopa.server.tabel`.\n"
        "A file called scopa.db is no module; PROTOCOL.md §7 is no doc here.\n"
        "The clock is in X.md, \"The turns\"; the rest is in X.md, \"The\nrest\".\n",
        encoding="utf-8")
    assert missing_paths(doc, tmp_path) == ["server/table/clock.py", "link RULES.md", "PROTOCOL.md"]
    assert missing_modules(doc, tmp_path) == ["scopa.server.tabel", "scopa.server.table.clock"]
    assert missing_sections(doc, tmp_path) == ['X.md, "The rest"']
    assert named_modules(doc.read_text(encoding="utf-8")) == {
        "scopa.server.table.Turns", "scopa.server.table.clock", "scopa.server.tabel"}
