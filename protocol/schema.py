"""The JSON Schema of the wire: the envelope and every body, generated from the models.

    python -m scopa.protocol.schema                # print it
    python -m scopa.protocol.schema --write        # write docs/protocol.schema.json
    python -m scopa.protocol.schema --check        # exit 1 if that file is stale

The schema describes one command as its msgpack map reads when rendered as JSON: a
``oneOf`` over one definition per command name (discriminated on ``name``), each an
envelope whose ``body`` refers to that command's body definition.  It is what a command
must look like to be accepted (pydantic's validation mode): fields with a default may
be left out, except ``v`` and ``name``, which the decoder reads before the model does.

The output is normalised (object keys sorted, ``required`` sorted, the commands in name
order) so that it changes only when the wire does; pydantic's minor version is pinned
in the project's dependencies for the same reason.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .envelope import COMMAND_ADAPTER, PROTOCOL_VERSION

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
DEFAULT_PATH = Path("docs") / "protocol.schema.json"
_ALWAYS_REQUIRED = ("v", "name")  # read by the decoder itself (codec: steps 3-5)


def _sorted(value: Any) -> Any:
    """Object keys sorted at every depth, and ``required`` lists sorted."""
    if isinstance(value, dict):
        out = {key: _sorted(value[key]) for key in sorted(value)}
        if isinstance(out.get("required"), list):
            out["required"] = sorted(out["required"])
        return out
    if isinstance(value, list):
        return [_sorted(item) for item in value]
    return value


def protocol_schema() -> dict[str, Any]:
    """The normalised JSON Schema of a command (envelope and body) of this version."""
    generated = COMMAND_ADAPTER.json_schema(mode="validation", ref_template="#/$defs/{model}")
    defs: dict[str, Any] = generated["$defs"]
    mapping: dict[str, str] = generated["discriminator"]["mapping"]
    for ref in mapping.values():
        command = defs[ref.rsplit("/", 1)[1]]
        command["required"] = sorted(set(command.get("required", [])) | set(_ALWAYS_REQUIRED))
    names = sorted(mapping)
    schema = {
        "$schema": SCHEMA_DIALECT,
        "title": f"Scopa wire protocol, version {PROTOCOL_VERSION}",
        "description": (
            "One command: the envelope (v, seq, sender, recipient, re, name) and the body of its "
            "command name. On the wire it is one msgpack map in a length-prefixed frame "
            "(docs/PROTOCOL.md); generated from scopa.protocol's models by "
            "`python -m scopa.protocol.schema --write`."
        ),
        "oneOf": [{"$ref": mapping[name]} for name in names],
        "discriminator": {"propertyName": "name", "mapping": {name: mapping[name] for name in names}},
        "$defs": defs,
    }
    normalised: dict[str, Any] = _sorted(schema)
    return normalised


def render(schema: dict[str, Any]) -> str:
    """The schema as the committed file holds it: indented JSON, one trailing newline."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scopa.protocol.schema", description="The JSON Schema of the Scopa wire protocol."
    )
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the schema to PATH")
    action.add_argument("--check", action="store_true", help="exit 1 if PATH differs from the models")
    parser.add_argument("--path", type=Path, default=DEFAULT_PATH, help=f"default: {DEFAULT_PATH}")
    args = parser.parse_args(argv)
    text = render(protocol_schema())
    if args.write:
        args.path.parent.mkdir(parents=True, exist_ok=True)
        args.path.write_text(text, encoding="utf-8")
        print(f"wrote {args.path}")
        return 0
    if args.check:
        try:
            current = json.loads(args.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            print(f"{args.path}: cannot read it ({exc})", file=sys.stderr)
            return 1
        if _sorted(current) != json.loads(text):
            print(f"{args.path} is stale: run python -m scopa.protocol.schema --write", file=sys.stderr)
            return 1
        print(f"{args.path} is up to date")
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
