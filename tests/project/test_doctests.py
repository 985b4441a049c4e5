"""The examples in the packages' docstrings (``>>> ...``) run and give what they show: every
module of every installed package whose source holds an example is run through doctest."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
from pathlib import Path

import pytest

PACKAGES = ("scopa.engine", "scopa.protocol", "scopa.server", "scopa.client", "scopa.bots", "scopa.rl")


def modules_with_examples() -> list[str]:
    """Dotted names of the modules whose source shows a ``>>>`` prompt (found without
    importing anything else)."""
    found: list[str] = []
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.submodule_search_locations, f"{package} is not installed"
        for top in map(Path, spec.submodule_search_locations):
            for path in sorted(top.rglob("*.py")):
                if ">>> " not in path.read_text(encoding="utf-8"):
                    continue
                parts = path.relative_to(top).with_suffix("").parts
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                found.append(".".join((package, *parts)))
    return found


MODULES = modules_with_examples()


def test_the_packages_have_examples() -> None:
    assert MODULES, "no module shows a >>> example: the search is broken"


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    tests = doctest.DocTestFinder().find(module)
    examples = sum(len(t.examples) for t in tests)
    assert examples, f"{name} shows >>> outside any docstring doctest can find"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    for test in tests:
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
