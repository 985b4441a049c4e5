"""The layers inside ``scopa.client``: the map below is the reference.

``game`` is what a table tells the client, as values; ``text`` says it in words; ``net``
is the connection; ``console`` (the plain client) and ``tui`` (the full-screen one) stand
beside each other on those and never import each other; ``seats`` (what sits at a seat of a
local game) is shared by both.  Each subpackage is entered through its ``__init__``'s
``__all__`` only.
"""

from __future__ import annotations

import pytest

from layering import crowded_folders, face_problems, layer_violations, map_cycles, prefix_named

pytestmark = pytest.mark.unit

PACKAGE = "client"
LAYERS: dict[str, set[str]] = {
    "game": set(),
    "text": {"game"},
    "net": {"game"},
    "seats": set(),
    "sdk": set(),
    "webfiles": {"text"},
    "console": {"game", "text", "net", "seats"},
    "tui": {"game", "text", "net", "seats"},
}


def test_the_client_layer_map_has_no_cycle() -> None:
    assert map_cycles(LAYERS) == []


def test_the_client_imports_only_down_its_layers_and_through_faces() -> None:
    assert layer_violations(PACKAGE, LAYERS) == []


def test_the_two_terminal_clients_never_import_each_other() -> None:
    assert "tui" not in LAYERS["console"] and "console" not in LAYERS["tui"]


def test_every_client_subpackage_says_what_it_owns_and_names_its_public_names() -> None:
    assert face_problems(PACKAGE) == []


def test_no_client_folder_is_crowded_and_no_module_is_prefix_named() -> None:
    assert crowded_folders(PACKAGE) == {}
    assert prefix_named(PACKAGE) == []
