"""The code base keeps its shape: the server's and the client's modules stay small
(at most 500 lines each) and no class anywhere holds more than 25 methods."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from paths import ROOT

pytestmark = pytest.mark.unit

PACKAGES = ("engine", "protocol", "server", "client", "bots", "rl", "cli")
SMALL_MODULE_PACKAGES = ("server", "client")
MAX_LINES = 500
MAX_METHODS = 25


def _modules(package: str) -> list[Path]:
    return sorted(p for p in (ROOT / package).rglob("*.py") if "node_modules" not in p.parts)


def test_the_packages_are_where_this_test_looks() -> None:
    for package in PACKAGES:
        assert _modules(package), f"no Python module under {package}/"


def test_server_and_client_modules_are_at_most_500_lines() -> None:
    too_long = {
        str(path.relative_to(ROOT)): lines
        for package in SMALL_MODULE_PACKAGES
        for path in _modules(package)
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert too_long == {}


def methods_by_class(source: str) -> dict[str, int]:
    """Each class of a module (nested ones by dotted name) and how many functions its
    body defines: methods, properties, static and class methods alike."""
    counts: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                name = prefix + child.name
                counts[name] = sum(isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) for b in child.body)
                visit(child, name + ".")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, prefix + child.name + ".")

    visit(ast.parse(source), "")
    return counts


def test_the_method_count_counts_every_kind_of_method() -> None:
    source = (
        "class A:\n"
        "    x = 1\n"
        "    def a(self): pass\n"
        "    async def b(self): pass\n"
        "    @property\n    def c(self): return 1\n"
        "    @staticmethod\n    def d(): pass\n"
        "    class Inner:\n        def e(self): pass\n"
    )
    assert methods_by_class(source) == {"A": 4, "A.Inner": 1}


def test_no_class_has_more_than_25_methods() -> None:
    too_big = {
        f"{path.relative_to(ROOT)}:{name}": count
        for package in PACKAGES
        for path in _modules(package)
        for name, count in methods_by_class(path.read_text(encoding="utf-8")).items()
        if count > MAX_METHODS
    }
    assert too_big == {}
