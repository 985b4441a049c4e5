"""The rl extra is optional: without PettingZoo, Gymnasium and NumPy every other package
imports, and scopa.rl says which extra to install."""

from __future__ import annotations

import subprocess
import sys

from procs import ROOT

BLOCK = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"numpy", "pettingzoo", "gymnasium"}:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Block())
"""


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCK + code], cwd=ROOT, text=True, check=False,
                          capture_output=True, timeout=60)


def test_core_packages_import_without_the_rl_extra() -> None:
    done = run("import scopa.engine, scopa.bots, scopa.protocol, scopa.server, scopa.client, "
               "scopa.cli; print('imported')")
    assert done.returncode == 0 and "imported" in done.stdout, done.stderr


def test_scopa_rl_without_the_extra_names_it() -> None:
    done = run("import scopa.rl")
    assert done.returncode != 0
    assert "scopa.rl needs the rl extra" in done.stderr and "scopa[rl]" in done.stderr, done.stderr
