"""The tournament core stays a pure core: it imports nothing of the server outside its
own package, does no I/O, and keeps to its size (at most 12 modules)."""

from __future__ import annotations

import pytest

from test_import_rules import ROOT, _imports, _io_uses, _modules

pytestmark = pytest.mark.unit

PACKAGE = "server.tournament"


def test_the_tournament_core_imports_nothing_else_of_the_server_and_does_no_io() -> None:
    mine = {m: p for m, p in _modules().items() if m == PACKAGE or m.startswith(PACKAGE + ".")}
    assert len(mine) >= 10
    outside = {m: t for m, p in mine.items() for t, _ in _imports(m, p)
               if t.split(".")[0] == "server" and not (t == PACKAGE or t.startswith(PACKAGE + "."))}  # fmt: skip
    assert outside == {}
    assert {m: u for m, p in mine.items() if (u := _io_uses(p))} == {}


def test_the_tournament_core_has_at_most_twelve_modules() -> None:
    assert len(list((ROOT / "server" / "tournament").glob("*.py"))) <= 12
