"""The import rules of the architecture: who may import whom, read from the source.

Every import counts, including those made only for type checking and those inside a
function.  The client and the server never import each other: ``scopa.cli`` (the
`scopa` command) is the one package that joins them.
"""

from __future__ import annotations

import ast
from pathlib import Path

from layering import imports_of, modules
from paths import ROOT

PACKAGES = {"engine": "engine", "protocol": "protocol", "bots": "bots", "rl": "rl",
            "server": "server", "client": "client", "cli": "cli"}  # fmt: skip
ALLOWED: dict[str, set[str]] = {
    "engine": set(),
    "protocol": {"engine"},
    "bots": {"engine"},
    "rl": {"engine", "bots"},
    "server": {"engine", "protocol", "bots"},
    "client": {"engine", "protocol", "bots"},
    "cli": {"engine", "protocol", "bots", "rl", "server", "client"},
}
JOINS_CLIENT_AND_SERVER = "cli"
"""The one package that may import both the client and the server."""


def _modules() -> dict[str, Path]:
    return {name: path for folder in PACKAGES for name, path in modules(folder).items()}


def _imports(module: str, path: Path) -> list[tuple[str, str | None]]:
    """(imported ``scopa``-relative module, enclosing function or None) for every import;
    ``from .. import a`` and ``from scopa import a`` reach the module ``a``."""
    out: list[tuple[str, str | None]] = []
    for imp in imports_of(module, path):
        if not imp.target:
            out.extend((n, imp.func) for n in imp.names)
        elif imp.names_are_modules:
            out.extend((f"{imp.target}.{n}", imp.func) for n in imp.names)
        else:
            out.append((imp.target, imp.func))
    return out


def _violations(modules: dict[str, Path]) -> list[str]:
    bad: list[str] = []
    for module, path in modules.items():
        package = module.split(".")[0]
        for target, func in _imports(module, path):
            target_package = target.split(".")[0]
            if target_package == package:
                continue
            if target_package not in ALLOWED[package]:
                where = f"{module}" + (f" (in {func})" if func else "")
                bad.append(f"{where} imports scopa.{target}")
    return bad


def test_every_package_imports_only_what_the_architecture_allows() -> None:
    modules = _modules()
    assert {m.split(".")[0] for m in modules} >= {"engine", "protocol", "bots", "server", "client", "cli"}
    assert _violations(modules) == []


def test_only_the_cli_joins_the_client_and_the_server() -> None:
    joining = {p for p, allowed in ALLOWED.items() if {"client", "server"} <= allowed | {p}}
    assert joining == {JOINS_CLIENT_AND_SERVER}
    sides = {"client", "server"}
    crossing = [f"{m} (in {f})" if f else m for m, path in _modules().items() if m.split(".")[0] in sides
                for t, f in _imports(m, path) if t.split(".")[0] in sides - {m.split(".")[0]}]
    assert crossing == []


def test_the_checker_catches_the_client_importing_the_server_inside_a_function(tmp_path: Path) -> None:
    (tmp_path / "netcli.py").write_text(
        "def serve():\n    import scopa.server.network\n    from scopa.server import serve as s\n"
        "class Helper:\n    async def start(self):\n        from ..server.web import WebOptions\n"
    )
    assert _violations({"client.netcli": tmp_path / "netcli.py"}) == [
        "client.netcli (in serve) imports scopa.server.network",
        "client.netcli (in serve) imports scopa.server",
        "client.netcli (in start) imports scopa.server.web",
    ]
    assert _violations({"cli.serve": tmp_path / "netcli.py"}) == []


def test_the_checker_catches_a_forbidden_import(tmp_path: Path) -> None:
    (tmp_path / "server").mkdir()
    bad = tmp_path / "server" / "x.py"
    bad.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from scopa.client.net.session import ClientSession\n"
        "def f():\n    from scopa import client\n"
    )
    assert _violations({"server.x": bad}) == [
        "server.x imports scopa.client.net.session",
        "server.x (in f) imports scopa.client",
    ]
    engine_bad = tmp_path / "e.py"
    engine_bad.write_text("from ..protocol import codec\n")
    assert _violations({"engine.e": engine_bad}) == ["engine.e imports scopa.protocol"]


def _cycles(modules: dict[str, Path]) -> list[list[str]]:
    graph = {m: sorted({t for t, _ in _imports(m, p) if t in modules and t != m}) for m, p in modules.items()}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in graph[m]:
            if state.get(t) == 1:
                # A package's __init__ re-exporting its own modules is not a cycle.
                cycle = stack[stack.index(t):] + [t]
                if not any(c == m.split(".")[0] or "." not in c for c in cycle):
                    cycles.append(cycle)
            elif t not in state:
                walk(t)
        stack.pop()
        state[m] = 2

    for m in graph:
        if m not in state:
            walk(m)
    return cycles


JOINS_THE_SERVER = "server.network"
"""The module that makes the server's parts and joins them (NetworkEngine)."""
RUNS_THE_SERVER = {"server", "server.serving", "server.endpoints"}
"""The server's modules that may import it: the package's face, ``serve`` and the
operator's endpoints, which read the whole server at scrape time."""


def test_no_part_of_the_server_imports_the_engine_that_joins_them() -> None:
    importing = {m for m, path in _modules().items() if m.split(".")[0] == "server"
                 for t, _ in _imports(m, path) if t == JOINS_THE_SERVER or t.startswith(JOINS_THE_SERVER + ".")}
    assert importing == RUNS_THE_SERVER


def test_no_import_cycles_inside_a_package() -> None:
    assert _cycles(_modules()) == []


def test_the_checker_catches_a_cycle_made_only_for_type_checking(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("from .b import B\n")
    (tmp_path / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n")
    assert _cycles({"server.a": tmp_path / "a.py", "server.b": tmp_path / "b.py"}) == [
        ["server.a", "server.b", "server.a"]]


SANS_IO = ("engine", "protocol")
"""Packages that do no I/O: bytes and values in, bytes and values out."""
IO_MODULES = {"asyncio", "socket", "selectors", "pathlib", "shutil", "sqlite3", "subprocess"}


def _io_uses(path: Path) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in IO_MODULES]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found += [node.module] if node.module.split(".")[0] in IO_MODULES else []
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
            found.append("open()")
    return found


def test_the_engine_and_the_protocol_do_no_io() -> None:
    uses = {m: _io_uses(p) for m, p in _modules().items() if m.split(".")[0] in SANS_IO}
    assert {m: u for m, u in uses.items() if u} == {}


def test_the_io_check_catches_asyncio_and_files(tmp_path: Path) -> None:
    (tmp_path / "clock.py").write_text("import asyncio\nfrom pathlib import Path\ndef f():\n    return open('x')\n")
    assert _io_uses(tmp_path / "clock.py") == ["asyncio", "pathlib", "open()"]
