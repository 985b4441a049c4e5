"""The layers inside scopa.server (DESIGN: "Folders that show the layers"), read from the
source with tests/layering.py: who may import whom among the server's subpackages, each
entered only through its face, every face saying what it owns and must never do, no crowded
folder, no prefix standing in for a folder, no journal backend importing another, and no
table reaching up for the shared lobby's leases."""

from __future__ import annotations

from pathlib import Path

import pytest

from layering import ANY, ROOT, crowded_folders, face_problems, imports_of, layer_violations, map_cycles, modules, \
    prefix_named

pytestmark = pytest.mark.unit

PACKAGE = "server"
LAYERS: dict[str, set[str]] = {
    "core": set(),
    "conn": {"core"},
    "journal": {"core"},
    "table": {"core", "conn", "journal"},
    "players": {"core", "conn", "journal", "table"},
    "lobby": {"core", "conn", "journal", "table", "players"},
    "web": {"core", "conn"},
    "lan": {"core", "lobby"},
    "tournament": set(),
    "club": {"core", "conn", "journal", "table", "players", "lobby", "tournament"},
    "cluster": {"core", "conn", "journal", "table", "players", "lobby", "web"},
    "endpoints": {"core", "conn", "journal", "table", "players", "lobby", "web", "cluster", "network"},
    "network": {ANY},
    "dispatch": {ANY},
    "greeting": {ANY},
    "serving": {ANY},
}
"""Each unit of scopa.server (a subpackage or a module at its root) and the units it may
import; the router (network, dispatch, greeting, serving) joins them all."""
BACKENDS = ("memory", "sqlite", "postgres")
"""The journal's backends: the same module names in each, and none imports another."""


def test_the_server_layer_map_is_a_dag() -> None:
    assert map_cycles(LAYERS) == []


def test_each_part_of_the_server_imports_only_what_its_layer_allows_through_faces() -> None:
    assert layer_violations(PACKAGE, LAYERS) == []


def test_each_face_of_the_server_says_what_it_owns_and_names_its_public_names() -> None:
    assert face_problems(PACKAGE) == []
    for init in sorted((ROOT / PACKAGE).rglob("__init__.py")):
        if init.parent != ROOT / PACKAGE:
            assert "never" in init.read_text(encoding="utf-8"), f"{init} does not say what it must never do"


def test_no_server_folder_is_crowded_and_no_module_is_named_by_a_prefix() -> None:
    assert crowded_folders(PACKAGE) == {}
    assert prefix_named(PACKAGE) == []


def _backend_crossings(found: dict[str, Path]) -> list[str]:
    bad: list[str] = []
    for module, path in found.items():
        parts = module.split(".")
        if parts[:2] != [PACKAGE, "journal"] or len(parts) < 3 or parts[2] not in BACKENDS:
            continue
        for imp in imports_of(module, path):
            targets = [f"{imp.target}.{n}" for n in imp.names] if imp.names_are_modules else [imp.target]
            for target in targets:
                other = target.split(".")
                if other[:2] == [PACKAGE, "journal"] and len(other) >= 3 and other[2] in BACKENDS \
                        and other[2] != parts[2]:
                    bad.append(f"{module}{f' (in {imp.func})' if imp.func else ''} imports {target}")
    return bad


def test_no_journal_backend_imports_another() -> None:
    assert _backend_crossings(modules(PACKAGE)) == []


def test_the_backend_check_catches_a_backend_choosing_another_inside_a_function(tmp_path: Path) -> None:
    bad = tmp_path / "process.py"
    bad.write_text("def open_storage(db):\n    from ..postgres.storage import PostgresStorage\n")
    assert _backend_crossings({"server.journal.sqlite.process": bad}) == [
        "server.journal.sqlite.process (in open_storage) imports server.journal.postgres.storage"]


def test_a_table_takes_its_lease_from_above() -> None:
    """The table is handed a Lease (a protocol of its own); the shared lobby's TableLeases
    stays in the lobby."""
    reached = {(imp.target, n) for m, p in modules(PACKAGE).items() if m.startswith(f"{PACKAGE}.table")
               for imp in imports_of(m, p) for n in imp.names}
    assert not [t for t in reached if t[1] == "TableLeases" or t[0].startswith(f"{PACKAGE}.lobby")]
