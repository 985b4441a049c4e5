"""The browser client's files as a server serves them: the built page (``webdist``,
shipped in this package) and the data files it reads."""

from __future__ import annotations

from pathlib import Path


def web_root() -> Path:
    """The browser client's built files (index.html, app.js, app.css), shipped in the package."""
    return Path(__file__).resolve().parent / "webdist"


def web_files() -> dict[str, bytes]:
    """Files the page reads besides the built ones: ``options.json``, every table option
    as ``[name, values, meaning]`` (what ``scopa options`` prints), ``presets.json``, each
    game's own value of every option (what the form's "as the game has it" means), and the
    rule book in each language as the page's players read it (``rules.en.md``, ``rules.it.md``)."""
    import json

    from scopa.engine import Preset, RuleSet

    from .text import book, option_lines

    rules = {f"rules.{lang}.md": book(lang, "page").encode() for lang in ("en", "it")}
    presets = {p.value: RuleSet.build(p).model_dump(mode="json") for p in Preset}
    return {"options.json": json.dumps(option_lines()).encode(), "presets.json": json.dumps(presets).encode(), **rules}
