"""Each accelerated function is chosen once, at import: its C twin when that was built
and not turned off (``SCOPA_SPEEDUPS=python``), else its Python twin.  When the C is
required (``SCOPA_REQUIRE_C=1``, as ``.ci/run`` sets it) a missing build fails here, so
CI cannot pass by comparing the Python twin with itself."""

from __future__ import annotations

import importlib
import importlib.util
import os
import types

import pytest

from scopa.engine import selections, speedups as engine_speedups
from scopa.engine.twins import chosen
from scopa.protocol import playread
from scopa.protocol.convert import speedups as protocol_speedups

ACCELERATED = [  # (selecting module, its twins by name, the C module, the function)
    (engine_speedups, engine_speedups.EXPAND_PLAYS, "scopa.engine._speedups", "expand_plays"),
    (selections, selections.TEMPLATES_BY_SUM, "scopa.engine._speedups", "templates_by_sum"),
    (protocol_speedups, protocol_speedups.YOUR_TURN, "scopa.protocol.convert._turnpack", "your_turn"),
    (playread, playread.READ_PLAY, "scopa.protocol._playread", "read_play"),
    (playread, playread.MODEL_OF, "scopa.protocol._playread", "model_of"),
]


@pytest.mark.parametrize(("selector", "twins", "c_module", "function"), ACCELERATED,
                         ids=["engine", "templates_by_sum", "protocol", "read_play", "model_of"])
def test_the_c_twin_is_in_use_when_built_and_always_when_required(
        selector: types.ModuleType, twins: dict[str, object], c_module: str, function: str) -> None:
    built = importlib.util.find_spec(c_module) is not None
    if os.environ.get("SCOPA_REQUIRE_C") == "1":
        assert built, f"SCOPA_REQUIRE_C=1 but {c_module} was not built"
        assert selector.IMPLEMENTATION == "c"
    in_use = "c" if built and os.environ.get("SCOPA_SPEEDUPS") != "python" else "python"
    assert selector.IMPLEMENTATION == in_use
    assert getattr(selector, function) is twins[in_use]
    if built:
        assert twins["c"] is getattr(importlib.import_module(c_module), function)


def test_the_c_twin_is_chosen_unless_the_environment_asks_for_python(monkeypatch: pytest.MonkeyPatch) -> None:
    both = {"python": len, "c": abs}
    monkeypatch.delenv("SCOPA_SPEEDUPS", raising=False)
    assert chosen(both) == "c"
    assert chosen({"python": len}) == "python"
    monkeypatch.setenv("SCOPA_SPEEDUPS", "python")
    assert chosen(both) == "python"
