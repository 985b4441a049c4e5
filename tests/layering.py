"""The layers inside a package, read from the source: the machinery of tests/project/test_layers_*.py.

A package (``server``, ``client``, ``protocol``) is cut into *units*: each subpackage and
each module at its root is one unit.  A layer map names, for every unit, the units it may
import; the map must be a DAG, every unit must be in it, and a unit is entered only
through its face: ``from scopa.server.table import Table`` where ``Table`` is in
``server/table/__init__.py``'s ``__all__``, never ``scopa.server.table.seats``.  Every
import counts, including those made only for type checking and those inside a function.

Besides the map: a subpackage's ``__init__`` has a docstring naming each of its public
names, no folder holds more than ``MAX_MODULES`` modules, and no module's name uses a
prefix as a stand-in for a folder (``journal_ops.py`` beside ``journal_pipe.py``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from paths import ROOT

MAX_MODULES = 12
ANY = "*"
"""In a layer map, a unit that may import every other unit (the router that joins them)."""


@dataclass(frozen=True)
class Import:
    """One import in a module: the ``scopa``-relative module it reaches, the names taken
    from it (empty for ``import x``), and the function it sits in (None at module level)."""

    target: str
    names: tuple[str, ...]
    func: str | None
    names_are_modules: bool = False
    """``from .. import a, b``: the names may be modules of the target package."""


def modules(package: str, root: Path = ROOT) -> dict[str, Path]:
    """Every module of a package: dotted name without ``scopa.`` → path (a compiled module
    by its ``.pyi`` stub, beside its C source)."""
    found: dict[str, Path] = {}
    stubs = [p for p in (root / package).rglob("*.pyi") if p.with_suffix(".c").exists()]
    for path in sorted([*(root / package).rglob("*.py"), *stubs]):
        if "node_modules" in path.parts:
            continue
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(module: str, path: Path) -> list[Import]:
    """Every ``scopa`` import of a module, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    out: list[Import] = []

    def visit(node: ast.AST, func: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, func or child.name)
                continue
            if isinstance(child, ast.Import):
                out.extend(Import(a.name.removeprefix("scopa."), (), func)
                           for a in child.names if a.name.startswith("scopa."))
            elif isinstance(child, ast.ImportFrom):
                names = tuple(a.name for a in child.names)
                if child.level:
                    base = module.split(".")
                    if not is_package:
                        base = base[:-1]
                    base = base[: len(base) - (child.level - 1)]
                    out.append(Import(".".join(base + ([child.module] if child.module else [])), names, func,
                                      names_are_modules=not child.module))
                elif child.module == "scopa":
                    out.append(Import("", names, func))
                elif child.module and child.module.startswith("scopa."):
                    out.append(Import(child.module.removeprefix("scopa."), names, func))
            visit(child, func)

    visit(tree, None)
    return out


def unit_of(package: str, module: str) -> str | None:
    """The unit of ``package`` a module belongs to (None when outside it or the package itself)."""
    parts = module.split(".")
    if parts[0] != package or len(parts) < 2:
        return None
    return parts[1]


def public_names(package: str, unit: str, root: Path = ROOT) -> set[str] | None:
    """The names in a subpackage's ``__all__`` (None when the unit is a module, not a folder)."""
    init = root / package / unit.replace(".", "/") / "__init__.py"
    if not init.exists():
        return None
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and node.value is not None:
                value = ast.literal_eval(node.value)
                return {str(v) for v in value}
    return set()


def map_cycles(allowed: dict[str, set[str]]) -> list[list[str]]:
    """Cycles in a layer map (an ``ANY`` unit is a root: nothing may import it)."""
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(unit: str) -> None:
        state[unit] = 1
        stack.append(unit)
        for target in sorted(allowed.get(unit, set()) - {ANY}):
            if state.get(target) == 1:
                cycles.append(stack[stack.index(target):] + [target])
            elif target not in state:
                walk(target)
        stack.pop()
        state[unit] = 2

    for unit in sorted(allowed):
        if unit not in state:
            walk(unit)
    return cycles


def layer_violations(package: str, allowed: dict[str, set[str]], root: Path = ROOT) -> list[str]:
    """Each import inside ``package`` that its layer map forbids, each unit missing from the
    map (or named by it and missing), and each import that enters a subpackage other than
    through the names in its ``__all__``.  The package's own ``__init__`` may import any unit."""
    found = modules(package, root)
    units = {u for m in found if (u := unit_of(package, m)) is not None}
    bad = [f"{package}.{u} is not in the layer map" for u in sorted(units - set(allowed))]
    bad += [f"the layer map names {package}.{u}, which does not exist" for u in sorted(set(allowed) - units)]
    for module, path in found.items():
        unit = unit_of(package, module)
        if unit is None:
            continue
        for imp in imports_of(module, path):
            reached: list[tuple[str, tuple[str, ...] | None, str]]
            if imp.target == package:  # from scopa.server import table  /  from .. import table
                reached = [(n, (), f"{package}.{n}") for n in imp.names if n in units]
            elif imp.target.startswith(package + "."):
                target_unit = imp.target.split(".")[1]
                names = imp.names if imp.target.count(".") == 1 else None
                reached = [(target_unit, names, imp.target)]
            else:
                continue
            where = module + (f" (in {imp.func})" if imp.func else "")
            for target_unit, names, target in reached:
                if target_unit == unit:
                    continue
                if ANY not in allowed.get(unit, set()) and target_unit not in allowed.get(unit, set()):
                    bad.append(f"{where} imports {package}.{target_unit}")
                    continue
                face = public_names(package, target_unit, root)
                if face is None:
                    continue
                if names is None:
                    bad.append(f"{where} reaches inside {package}.{target_unit}: {target}")
                elif hidden := sorted(set(names) - face):
                    bad.append(f"{where} takes {', '.join(hidden)} from {package}.{target_unit}, not in its __all__")
    return bad


def face_problems(package: str, root: Path = ROOT) -> list[str]:
    """Subpackages whose ``__init__`` lacks ``__all__`` or a docstring naming each public name."""
    bad: list[str] = []
    for init in sorted((root / package).rglob("__init__.py")):
        if init.parent == root / package or "node_modules" in init.parts:
            continue
        where = str(init.relative_to(root))
        tree = ast.parse(init.read_text(encoding="utf-8"))
        doc = ast.get_docstring(tree) or ""
        names = public_names(package, str(init.parent.relative_to(root / package)).replace("/", "."), root)
        if not doc:
            bad.append(f"{where} has no docstring")
        if not names:
            bad.append(f"{where} has no __all__")
            continue
        bad += [f"{where}'s docstring does not name {n}" for n in sorted(names) if n not in doc]
    return bad


def crowded_folders(package: str, root: Path = ROOT) -> dict[str, int]:
    """Folders of a package with more than ``MAX_MODULES`` modules (``__init__`` not counted)."""
    counts: dict[str, int] = {}
    for folder in [root / package, *sorted(p for p in (root / package).rglob("*") if p.is_dir())]:
        if "node_modules" in folder.parts or "__pycache__" in folder.parts:
            continue
        n = len([p for p in folder.glob("*.py") if p.name != "__init__.py"])
        if n > MAX_MODULES:
            counts[str(folder.relative_to(root))] = n
    return counts


def prefix_named(package: str, root: Path = ROOT) -> list[str]:
    """Modules whose name starts with a prefix standing in for a folder: the folder's own
    name, a sibling module's or subpackage's name, or a prefix two modules share."""
    bad: list[str] = []
    for folder in [root / package, *sorted(p for p in (root / package).rglob("*") if p.is_dir())]:
        if "node_modules" in folder.parts or "__pycache__" in folder.parts:
            continue
        names = {p.stem for p in folder.glob("*.py") if p.name != "__init__.py"}
        siblings = names | {p.name for p in folder.iterdir() if (p / "__init__.py").exists()}
        for name in sorted(names):
            if "_" not in name.strip("_"):
                continue
            prefix = name.strip("_").split("_")[0]
            sharing = [n for n in names if n != name and n.strip("_").split("_")[0] == prefix and "_" in n.strip("_")]
            if prefix == folder.name or prefix in siblings or sharing:
                bad.append(str((folder / name).relative_to(root)) + ".py")
    return bad
