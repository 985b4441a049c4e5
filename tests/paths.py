"""Where things are, for the tests in every folder under tests/: ``ROOT`` the checkout,
``TESTS`` this folder (the shared helpers: procs.py, wire_client.py, ...), and the
folders holding test files, which tests/conftest.py puts on ``sys.path`` so that a test
imports a helper or another test module by its name from any folder."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def folders_with_tests() -> list[Path]:
    """Every folder under tests/ holding a ``test_*.py`` file, in name order."""
    return sorted({path.parent for path in TESTS.rglob("test_*.py")
                   if "__pycache__" not in path.parts and "__snapshots__" not in path.parts})
