"""The wheel: built from a copy of the source, installed (not editable) in a fresh virtual
environment, it holds every package with its type marker, and its `scopa` command works
(help, a bots-only local game); its installed packages pass mypy --strict."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from procs import ROOT

# source folder -> installed package (DESIGN.md "Package names"); a folder that exists
# must be in the wheel, rl included once it is there
FOLDERS = {"engine": "scopa.engine", "protocol": "scopa.protocol", "server": "scopa.server",
           "client": "scopa.client", "bots": "scopa.bots", "rl": "scopa.rl", "cli": "scopa.cli"}  # fmt: skip
ALWAYS = {"engine", "protocol", "server", "client", "bots", "cli"}
NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv*", "build", "dist", "node_modules", "__pycache__", "*.egg-info", ".mypy_cache",
    ".pytest_cache", ".hypothesis", "*.so", "*.db", "*.db-*",
)  # fmt: skip
STEP = 600  # seconds: a safety net for one build or install step


def run(args: list[str | Path], cwd: Path, what: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["NO_COLOR"] = "1"
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, text=True, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=STEP)  # fmt: skip
    assert done.returncode == 0, f"{what} failed ({done.returncode}):\n{done.stdout}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the wheel, the fresh environment's bin folder)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "source"
    shutil.copytree(ROOT, src, ignore=NOT_SOURCE)
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", tmp / "dist", src], tmp,
        "building the wheel")  # fmt: skip
    (wheel,) = (tmp / "dist").glob("scopa-*.whl")
    # a fresh environment with nothing in it, filled by this environment's pip (`--python`);
    # no bytecode compiled ahead of time (the interpreter makes it when it imports)
    run([sys.executable, "-m", "venv", "--without-pip", tmp / "venv"], tmp, "creating a virtual environment")
    bin_dir = tmp / "venv" / "bin"
    extras = "[rl]" if (ROOT / "rl" / "__init__.py").exists() else ""  # scopa.rl needs its extra to import
    run([sys.executable, "-m", "pip", "--python", bin_dir / "python", "install", "--quiet", "--no-compile",
         f"{wheel}{extras}"], tmp, "installing the wheel")  # fmt: skip
    return wheel, bin_dir


def test_the_wheel_holds_every_package_module_and_type_marker(installed: tuple[Path, Path]) -> None:
    wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    present = {folder for folder in FOLDERS if (ROOT / folder / "__init__.py").exists()}
    assert ALWAYS <= present
    for folder in sorted(present):
        where = FOLDERS[folder].replace(".", "/")
        assert f"{where}/py.typed" in names, f"{FOLDERS[folder]} has no py.typed in the wheel"
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            inside = f"{where}/{path.relative_to(ROOT / folder).as_posix()}"
            assert inside in names, f"{inside} is missing from the wheel"
    assert "scopa/engine/_speedups.pyi" in names
    assert "scopa/bots/horizon_weights.json" in names  # the expert's learnt evaluation
    assert not any(n.startswith(("tests/", "examples/", "benchmarks/", "scopa/__init__")) for n in names)


def test_the_installed_packages_come_from_the_environment_not_the_source(installed: tuple[Path, Path]) -> None:
    _, bin_dir = installed
    present = [FOLDERS[f] for f in FOLDERS if (ROOT / f / "__init__.py").exists()]
    out = run([bin_dir / "python", "-c",
               f"import importlib; print('\\n'.join(importlib.import_module(m).__file__ for m in {present!r}))"],
              bin_dir.parent.parent, "importing the installed packages")  # fmt: skip
    files = out.split()
    assert len(files) == len(present)
    venv = bin_dir.parent.resolve()
    for file in files:
        assert Path(file).resolve().is_relative_to(venv), file


def test_scopa_help_and_a_bots_only_local_game(installed: tuple[Path, Path]) -> None:
    _, bin_dir = installed
    scopa = bin_dir / "scopa"
    out = run([scopa, "--help"], bin_dir, "scopa --help")
    for command in ("local", "serve", "play", "bot", "watch"):
        assert command in out
    out = run([scopa, "local", "--seats", "greedy,random", "--seed", "5"], bin_dir, "scopa local (bots only)")
    assert "game over" in out.lower() and "Traceback" not in out, out


def test_the_installed_packages_pass_mypy_strict(installed: tuple[Path, Path]) -> None:
    _, bin_dir = installed
    run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-executable", bin_dir / "python",
         "-p", "scopa.engine", "-p", "scopa.bots"], bin_dir.parent.parent, "mypy --strict on the wheel")  # fmt: skip
