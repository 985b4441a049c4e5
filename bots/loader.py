"""Find a bot class from text: ``module:Class`` or ``path/to/file.py:Class``."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from pathlib import Path

from scopa.engine import Player


def load_bot_class(spec: str) -> type[Player]:
    """``module:Class`` or ``path/to/file.py:Class`` → a Player (usually a Bot) subclass;
    a clear ``ValueError`` otherwise."""
    module_name, sep, class_name = spec.rpartition(":")
    if not sep or not module_name or not class_name:
        raise ValueError(f"a bot is MODULE:CLASS or FILE.py:CLASS, got {spec!r}")
    if module_name.endswith(".py"):
        path = Path(module_name)
        if not path.is_file():
            raise ValueError(f"no such file: {module_name}")
        loader_spec = importlib.util.spec_from_file_location(path.stem, path)
        assert loader_spec is not None and loader_spec.loader is not None
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[path.stem] = module
        loader_spec.loader.exec_module(module)
    else:
        if "" not in sys.path:
            sys.path.insert(0, "")  # a module in the current directory, as `python -m` would
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise ValueError(f"cannot import {module_name!r}: {exc}") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise ValueError(f"{module_name} has no class {class_name!r} (names are case-sensitive)")
    if not (isinstance(cls, type) and issubclass(cls, Player)):
        raise ValueError(f"{spec!r} is not a Bot (a scopa.bots.Bot subclass)")
    return cls


def build_player(cls: type[Player], name: str | None = None, seed: int | None = None) -> Player:
    """An instance of a bot class, given ``name`` and ``seed`` when its constructor
    takes them."""
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):  # a signature Python cannot read: no arguments
        params = {}  # type: ignore[assignment]
    kwargs: dict[str, object] = {}
    if "name" in params and name is not None:
        kwargs["name"] = name
    if "seed" in params:
        kwargs["seed"] = seed
    return cls(**kwargs)
