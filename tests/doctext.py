"""Reading the project's Markdown docs as text: the machinery of tests/project/test_doc_paths.py and
tests/project/test_server_doc_shape.py.

``sentences`` splits prose into sentences: fenced code blocks, tables and headings are left
out; a code span counts as one word whatever it holds (a dot inside it ends nothing); a
link counts as its text; a list item or a paragraph ends a sentence.  ``named_paths`` and
``named_modules`` find the repository files and the ``scopa.x.y`` modules a text names.

Run it to measure a doc: ``python tests/doctext.py docs/SERVER.md`` prints its words, its
sentences and their median length, then the same for each ``##`` section.
"""

from __future__ import annotations

import ast
import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP_FOLDERS = ("engine", "protocol", "server", "client", "bots", "rl", "cli", "tests", "benchmarks", "docs",
               "examples", "scripts", "typings")
"""The repository's top-level folders: a path in a doc is one that starts with one of them."""

_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]+)\)")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_END = re.compile(r"(?<=[.!?])[\"')\]*_]*\s+(?=[\"'(\[]?[A-Z0-9`*_])")
_WORD = re.compile(r"\w")
_PATH = re.compile(r"(?<![\w./-])((?:%s)/[\w./@*-]*[\w/*])" % "|".join(TOP_FOLDERS))
_TOP_FILE = re.compile(r"(?<![\w./-])((?:README|CHANGELOG|LICENSE)\.md|pyproject\.toml|setup\.py)(?![\w/-])")
PACKAGES = ("engine", "protocol", "server", "client", "bots", "rl", "cli")
"""The packages installed as ``scopa.<name>``: a dotted name is a module's when it starts with one
(``scopa.db`` is a file's name)."""
_BARE_DOC = re.compile(r"(?<![\w./-])([A-Z][\w-]*(?:\.[a-z]{2})?\.md)\b")
"""A doc named by its file name alone (``PROTOCOL.md §7``): beside the doc, or at the root."""
_MODULE = re.compile(r"(?<![\w.])scopa\.(?:%s)(?:\.[A-Za-z_]\w*)*" % "|".join(PACKAGES))


@dataclass(frozen=True)
class Section:
    """One heading of a Markdown text and the lines under it up to the next heading of its
    level or above."""

    level: int
    title: str
    body: str


def without_fences(text: str) -> str:
    """The text with every fenced code block left out (its lines blank)."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if _FENCE.match(line):
            inside = not inside
            out.append("")
        else:
            out.append("" if inside else line)
    return "\n".join(out)


def _blocks(text: str) -> list[str]:
    """The prose of a text in blocks: paragraphs and list items, each one line."""
    blocks: list[str] = []
    current: list[str] = []

    def close() -> None:
        if current:
            blocks.append(" ".join(current))
            current.clear()

    for line in without_fences(text).splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("|") or stripped.startswith("#"):
            close()
            continue
        if _ITEM.match(line):
            close()
            stripped = _ITEM.sub("", line, count=1).strip()
        current.append(stripped)
    close()
    return blocks


def sentences(text: str) -> list[str]:
    """The sentences of a Markdown text's prose (see the module's docstring)."""
    found: list[str] = []
    for block in _blocks(text):
        block = _LINK.sub(r"\1", block)
        block = _CODE_SPAN.sub("CODE", block)
        for sentence in _END.split(block):
            if _WORD.search(sentence):
                found.append(sentence.strip())
    return found


def words(sentence: str) -> int:
    """How many words a sentence has: tokens between spaces holding a letter or digit."""
    return sum(1 for token in sentence.split() if _WORD.search(token))


def median_sentence(text: str) -> float:
    """The median length in words of a text's sentences (0 for a text with none)."""
    lengths = [words(s) for s in sentences(text)]
    return float(statistics.median(lengths)) if lengths else 0.0


def sections(text: str) -> list[Section]:
    """Every heading (outside code blocks) with its body."""
    lines = without_fences(text).splitlines()
    raw = text.splitlines()
    heads = [(i, len(m.group(1)), m.group(2).strip()) for i, line in enumerate(lines)
             if (m := re.match(r"^(#{1,6})\s+(.*)$", line))]
    out: list[Section] = []
    for n, (start, level, title) in enumerate(heads):
        end = next((i for i, lv, _ in heads[n + 1:] if lv <= level), len(raw))
        out.append(Section(level, title, "\n".join(raw[start + 1:end])))
    return out


def table_cells(text: str) -> list[str]:
    """Every cell of every Markdown table of a text (outside code blocks), header and
    separator rows left out."""
    cells: list[str] = []
    rows = [line.strip() for line in without_fences(text).splitlines() if line.strip().startswith("|")]
    for n, row in enumerate(rows):
        parts = [c.strip() for c in re.split(r"(?<!\\)\|", row.strip("|"))]
        if all(re.fullmatch(r":?-+:?", c) for c in parts if c):
            continue
        if n + 1 < len(rows) and re.fullmatch(r"[|\s:-]+", rows[n + 1]):
            continue  # the header row
        cells.extend(parts)
    return cells


def named_paths(text: str) -> set[str]:
    """Every repository path a text names: a word starting with a top-level folder
    (``server/table/turns.py``, ``client/web/``), a top-level file (``README.md``) and the
    target of a Markdown link to a local file, relative to the repository's root when the
    text is in it (links are resolved by ``check_paths``, which knows the doc's folder)."""
    found: set[str] = set()
    for span in re.findall(r"`([^`]+)`", text) + [text]:
        for match in _PATH.finditer(span):
            found.add(match.group(1).rstrip("."))
        for match in _TOP_FILE.finditer(span):
            found.add(match.group(1))
    return found


def linked_paths(text: str) -> set[str]:
    """The targets of a text's Markdown links that are local files (no scheme, no bare
    anchor), without their ``#anchor``."""
    found: set[str] = set()
    for match in _LINK.finditer(text):
        target = match.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        found.add(target.split("#", 1)[0])
    return found


def named_modules(text: str) -> set[str]:
    """Every dotted ``scopa.x.y`` name a text gives (a trailing ``.`` of a sentence left
    out)."""
    return {m.group(0).rstrip(".") for m in _MODULE.finditer(text)}


def _is_glob(path: str) -> bool:
    return any(ch in path for ch in "*?[")


def missing_paths(doc: Path, root: Path = ROOT) -> list[str]:
    """The paths a doc names (in its words or its links) that are not in the repository."""
    text = doc.read_text(encoding="utf-8")
    bad: list[str] = []
    for path in sorted(named_paths(text)):
        if _is_glob(path):
            if not list(root.glob(path)):
                bad.append(path)
        elif not (root / path).exists():
            bad.append(path)
    for link in sorted(linked_paths(text)):
        if not (doc.parent / link).exists():
            bad.append(f"link {link}")
    for name in sorted(set(_BARE_DOC.findall(_LINK.sub(r"\1", text)))):
        if not (doc.parent / name).exists() and not (root / name).exists():
            bad.append(name)
    return bad


_SECTION_REF = re.compile(r"((?:docs/)?[A-Z][\w-]*(?:\.[a-z]{2})?\.md)(?:\s+§[\d.]+)?,\s+\"([^\"]+)\"")
"""A section named in prose: ``SERVER.md, "The cluster"`` or ``PROTOCOL.md §7, "Front ends"``."""


def missing_sections(doc: Path, root: Path = ROOT) -> list[str]:
    """The sections a doc names in another doc (``X.md, "Title"``) that no heading or bold
    paragraph label of that doc holds (backticks and case aside)."""
    bad: list[str] = []
    for name, title in sorted(set(_SECTION_REF.findall(" ".join(doc.read_text(encoding="utf-8").split())))):
        target = next((p for p in (doc.parent / name, root / name, root / "docs" / name) if p.exists()), None)
        if target is None:
            continue  # missing_paths reports it
        text = target.read_text(encoding="utf-8")
        heads = [s.title.replace("`", "").lower() for s in sections(text)]
        heads += [m.lower() for m in re.findall(r"\*\*([^*]+)\*\*", text)]  # a bold paragraph label
        if not any(title.replace("`", "").lower() in h for h in heads):
            bad.append(f'{name}, "{title}"')
    return bad


def module_exists(name: str, root: Path = ROOT) -> bool:
    """Whether ``scopa.a.b`` is a module or package of the repository, or a name defined in
    one (``scopa.server.NetworkEngine``): the longest prefix that is a module must be
    followed by at most one more part, which that module's source defines or imports."""
    parts = name.split(".")[1:]
    for cut in range(len(parts), 0, -1):
        base = root.joinpath(*parts[:cut])
        source = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        if base.is_dir() and not source.exists() and cut == len(parts):
            return True  # a namespace folder such as client/web
        if not source.exists():
            continue
        rest = parts[cut:]
        if not rest:
            return True
        if len(rest) > 1:
            return False
        return rest[0] in _top_level_names(source)
    return False


def _top_level_names(source: Path) -> set[str]:
    """The names a module binds at its top level: its classes, functions, assignments and
    imports."""
    names: set[str] = set()
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return names


def missing_modules(doc: Path, root: Path = ROOT) -> list[str]:
    """The ``scopa.x.y`` names a doc gives that name no module of the repository."""
    return sorted(m for m in named_modules(doc.read_text(encoding="utf-8")) if not module_exists(m, root))


def _report(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    print(f"{path}: {len(text.split())} words, {len(sentences(text))} sentences, "
          f"median sentence {median_sentence(text):g} words")
    for section in sections(text):
        if section.level == 2:
            print(f"  {section.title}: {len(section.body.split())} words, "
                  f"median sentence {median_sentence(section.body):g}")


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        _report(Path(arg))
