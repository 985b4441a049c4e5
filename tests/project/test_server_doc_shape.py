"""docs/SERVER.md stays a map a newcomer can change the server from (DESIGN: "Docs a newcomer
can change the code from"): a headed section for each subpackage of server/ (read from the
folder), short sentences (median under 25 words, the whole page and each ``##`` section) and
a "Who owns what" table with a row for each subpackage whose cells name at most 5 files each.  docs/CLIENT.md is held to
the same for client/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from doctext import ROOT, median_sentence, sections, sentences, table_cells

pytestmark = pytest.mark.unit

MAX_MEDIAN = 25
MAX_FILES_IN_A_CELL = 5
MIN_SENTENCES = 5
"""A ``##`` section with fewer sentences is too small for its median to say anything."""
_FILE = re.compile(r"[\w./@-]+\.(?:py|ts|mjs|md|sql|json|c|css|html|toml|sh)\b")


def subpackages(package: str, root: Path = ROOT) -> list[str]:
    """The subpackages directly under a package's folder: the folders with an ``__init__.py``."""
    return sorted(p.parent.name for p in (root / package).glob("*/__init__.py"))


def unheaded_subpackages(text: str, folders: list[str]) -> list[str]:
    """The folders no ``##`` or ``###`` heading of the text names as `` `name/` ``."""
    titles = [s.title for s in sections(text) if s.level in (2, 3)]
    return [f for f in folders if not any(f"`{f}/`" in t or f"`{f}`" in t for t in titles)]


def long_sections(text: str) -> dict[str, float]:
    """The ``##`` sections (of at least ``MIN_SENTENCES`` sentences) whose median sentence is
    ``MAX_MEDIAN`` words or more."""
    return {s.title: median_sentence(s.body) for s in sections(text)
            if s.level == 2 and len(sentences(s.body)) >= MIN_SENTENCES and median_sentence(s.body) >= MAX_MEDIAN}


def crowded_cells(text: str, title: str = "Who owns what") -> list[str]:
    """The cells of the table under the heading ``title`` naming more than
    ``MAX_FILES_IN_A_CELL`` files."""
    found = [s for s in sections(text) if s.title == title]
    assert found, f"no section {title!r}"
    cells = table_cells(found[0].body)
    assert cells, f"no table under {title!r}"
    return [c for c in cells if len(set(_FILE.findall(c))) > MAX_FILES_IN_A_CELL]


def rowless_subpackages(text: str, folders: list[str], title: str = "Who owns what") -> list[str]:
    """The folders with no row of their own (a first cell `` `name/` ``) in the table under
    the heading ``title``."""
    body = next((s.body for s in sections(text) if s.title == title), "")
    firsts = {row.strip().strip("|").split("|")[0].strip() for row in body.splitlines() if row.strip().startswith("|")}
    return [f for f in folders if f"`{f}/`" not in firsts]


def shape_problems(text: str, package: str, root: Path = ROOT) -> list[str]:
    """Everything that breaks the shape of a package's map."""
    folders = subpackages(package, root)
    problems = [f"no section for {f}/" for f in unheaded_subpackages(text, folders)]
    problems += [f"no row for {f}/ in 'Who owns what'" for f in rowless_subpackages(text, folders)]
    if median_sentence(text) >= MAX_MEDIAN:
        problems.append(f"median sentence {median_sentence(text)} words")
    problems += [f"section {t!r}: median sentence {m} words" for t, m in long_sections(text).items()]
    problems += [f"cell naming more than {MAX_FILES_IN_A_CELL} files: {c[:80]}" for c in crowded_cells(text)]
    return problems


@pytest.mark.parametrize(("doc", "package"), [("docs/SERVER.md", "server"), ("docs/CLIENT.md", "client")])
def test_the_map_keeps_its_shape(doc: str, package: str) -> None:
    assert subpackages(package), f"no subpackage under {package}/"
    assert shape_problems((ROOT / doc).read_text(encoding="utf-8"), package) == []


def test_a_map_with_a_missing_section_long_sentences_or_a_crowded_cell_is_refused(tmp_path: Path) -> None:
    for name in ("core", "table"):
        (tmp_path / "server" / name).mkdir(parents=True)
        (tmp_path / "server" / name / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "server" / "sql").mkdir()
    long = "Long " + " ".join(["word"] * 29) + "."
    text = (
        "# Inside\n\n## Who owns what\n\n| Part | Files |\n|---|---|\n"
        "| core | `a.py`, `b.py`, `c.py`, `d.py`, `e.py`, `f.py` |\n| `table/` | `table.py` |\n\n"
        "## The parts\n\n### `core/`: the ground floor\n\n"
        + " ".join([long] * MIN_SENTENCES) + "\n\n```\n" + "short. " * 50 + "\n```\n"
    )
    assert shape_problems(text, "server", tmp_path) == [
        "no section for table/",
        "no row for core/ in 'Who owns what'",
        "median sentence 30.0 words",
        "section 'The parts': median sentence 30.0 words",
        "cell naming more than 5 files: `a.py`, `b.py`, `c.py`, `d.py`, `e.py`, `f.py`",
    ]


def test_the_sentence_splitter_leaves_out_code_and_tables_and_ends_at_list_items() -> None:
    text = ("Read `server/table/turns.py. It` first. Then [the map](X.md) again!\n"
            "- One item\n- Two items. And a third sentence\n\n| a. b. c |\n|---|\n\n```\nx. y. z.\n```\n")
    assert sentences(text) == ["Read CODE first.", "Then the map again!", "One item", "Two items.",
                               "And a third sentence"]


def test_the_old_server_doc_shape_would_be_refused() -> None:
    old = ("## Who owns what\n\n| Object | File | Owns |\n|---|---|---|\n"
           "| `Journal` | `server/journal/commands.py`, `server/journal/values.py`, `server/journal/writer.py`, "
           "`server/journal/sqlite/process.py`, `server/journal/sqlite/child.py`, `server/journal/sqlite/pipe.py` "
           "| The journal. |\n")
    assert crowded_cells(old) != []
