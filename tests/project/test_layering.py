"""The layer checker itself (tests/layering.py) catches what it is for, on small made-up packages."""

from __future__ import annotations

from pathlib import Path

import pytest

from layering import ANY, crowded_folders, face_problems, layer_violations, map_cycles, prefix_named

pytestmark = pytest.mark.unit


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_a_forbidden_import_and_a_missing_unit_are_caught(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "__init__.py": "from .router import run\n",
        "core/__init__.py": '"""Core: Clock."""\n__all__ = ["Clock"]\nfrom .clock import Clock\n',
        "core/clock.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..table import Table\n",
        "table/__init__.py": '"""Tables: Table."""\n__all__ = ["Table"]\nfrom .table import Table\n',
        "table/table.py": "from ..core import Clock\nclass Table: ...\n",
        "router.py": "def run():\n    from scopa.pkg.table.table import Table\n",
        "lan.py": "",
    })
    allowed = {"core": set(), "table": {"core"}, "router": {ANY}}
    assert layer_violations("pkg", allowed, root) == [
        "pkg.lan is not in the layer map",
        "pkg.core.clock imports pkg.table",
        "pkg.router (in run) reaches inside pkg.table: pkg.table.table",
    ]


def test_a_name_outside_all_is_caught_and_the_face_is_enough(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "core/__init__.py": '"""Core: Clock."""\n__all__ = ["Clock"]\n',
        "core/clock.py": "",
        "conn/__init__.py": '"""Conn: nothing."""\n__all__ = ["Session"]\n',
        "conn/session.py": "from ..core import Clock, _hidden\nfrom scopa.pkg import core\nimport scopa.pkg.core\n",
    })
    assert layer_violations("pkg", {"core": set(), "conn": {"core"}}, root) == [
        "pkg.conn.session takes _hidden from pkg.core, not in its __all__"]
    assert layer_violations("pkg", {"core": set(), "conn": set()}, root) == [
        "pkg.conn.session imports pkg.core", "pkg.conn.session imports pkg.core", "pkg.conn.session imports pkg.core"]


def test_cycles_in_the_map_are_found() -> None:
    assert map_cycles({"a": {"b"}, "b": {"c"}, "c": set(), "r": {ANY}}) == []
    assert map_cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b", "a"]]


def test_faces_need_a_docstring_naming_every_public_name(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "__init__.py": "",
        "core/__init__.py": '"""Core: Clock."""\n__all__ = ["Clock", "Limits"]\n',
        "conn/__init__.py": "__all__ = ['Session']\n",
        "web/__init__.py": '"""The web."""\n',
    })
    assert face_problems("pkg", root) == [
        "pkg/conn/__init__.py has no docstring",
        "pkg/conn/__init__.py's docstring does not name Session",
        "pkg/core/__init__.py's docstring does not name Limits",
        "pkg/web/__init__.py has no __all__",
    ]


def test_crowded_folders_and_prefix_names_are_found(tmp_path: Path) -> None:
    files = {f"m{i}.py": "" for i in range(13)}
    files |= {"journal/__init__.py": "", "journal/journal_ops.py": "", "journal/reads.py": "",
              "sqlite_reads.py": "", "sqlite_writes.py": "", "record.py": "", "record_replay.py": "",
              "seat_notices.py": "", "turn_clock.py": ""}
    root = _tree(tmp_path, files)
    assert crowded_folders("pkg", root) == {"pkg": 19}
    assert prefix_named("pkg", root) == [
        "pkg/record_replay.py", "pkg/sqlite_reads.py", "pkg/sqlite_writes.py", "pkg/journal/journal_ops.py"]


def test_a_nested_subpackage_face_is_read_from_its_own_folder(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        "text/__init__.py": '"""Words: tr."""\n__all__ = ["tr"]\n',
        "text/book/__init__.py": '"""The book: book."""\n__all__ = ["book"]\n',
        "text/book/en.py": "",
    })
    assert face_problems("pkg", root) == []
