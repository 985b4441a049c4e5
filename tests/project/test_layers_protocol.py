"""The layers inside ``scopa.protocol``: the wire core stays flat at the package's root
(one unit a module), with the engine ⇄ wire conversion (``convert``), the game record
(``record``), where a server is and how it is known (``servers``) and the protocol described
for docs and tests (``spec``) in subpackages.  The wire core never imports the conversion
or the spec: a client or a server speaks the protocol without them.
"""

from __future__ import annotations

import pytest

from layering import crowded_folders, face_problems, layer_violations, map_cycles, prefix_named

pytestmark = pytest.mark.unit

PACKAGE = "protocol"
CORE: dict[str, set[str]] = {
    "errors": set(),
    "parties": set(),
    "rules": set(),
    "fields": {"parties"},
    "framing": {"errors"},
    "record": {"fields", "rules"},
    "commands": {"errors", "fields", "record", "rules"},
    "envelope": {"commands", "fields"},
    "transitions": {"commands", "errors"},
    "_playread": set(),
    "playread": {"_playread", "commands", "envelope", "fields"},
    "codec": {"commands", "envelope", "errors", "framing", "parties", "playread"},
    "connection": {"codec", "commands", "envelope", "errors", "fields", "framing", "parties", "transitions"},
}
"""The wire core: each module at the package's root (``_playread``, compiled, the C twins of
``playread``), and the record the commands carry."""
LAYERS: dict[str, set[str]] = {
    **CORE,
    "servers": {"envelope"},
    "convert": {"codec", "commands", "rules"},
    "spec": {"commands", "convert", "envelope", "errors", "record"},
}


def test_the_protocol_layer_map_has_no_cycle() -> None:
    assert map_cycles(LAYERS) == []


def test_the_protocol_imports_only_down_its_layers_and_through_faces() -> None:
    assert layer_violations(PACKAGE, LAYERS) == []


def test_the_wire_core_never_imports_the_conversion_or_the_spec() -> None:
    assert not any({"convert", "spec", "servers"} & LAYERS[unit] for unit in CORE)


def test_every_protocol_subpackage_says_what_it_owns_and_names_its_public_names() -> None:
    assert face_problems(PACKAGE) == []


def test_no_protocol_folder_is_crowded_and_no_module_is_prefix_named() -> None:
    assert crowded_folders(PACKAGE) == {}
    assert prefix_named(PACKAGE) == []
