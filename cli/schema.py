"""The JSON Schemas in docs/, printed, written or checked (generated from the models in
:mod:`scopa.protocol.spec.schema` and :mod:`scopa.protocol.record`)::

    python -m scopa.cli.schema                # print the wire's schema
    python -m scopa.cli.schema --client       # print the clients' schema
    python -m scopa.cli.schema --write        # write docs/protocol.schema.json and
                                              # docs/protocol.client.schema.json
    python -m scopa.cli.schema --check        # exit 1 if either file is stale
    python -m scopa.cli.schema --record > docs/record.schema.json   # the game record's
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from scopa.protocol.record import document as record
from scopa.protocol.spec import CLIENT_FILE, SERVER_FILE, client_schema, normalised, protocol_schema, render

DEFAULT_PATH = Path("docs") / SERVER_FILE
REGENERATE = "python -m scopa.cli.schema --write"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scopa.cli.schema", description="The JSON Schema of the Scopa wire protocol."
    )
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="write the schema to PATH")
    action.add_argument("--check", action="store_true", help="exit 1 if PATH (or the clients' file) is stale")
    parser.add_argument("--client", action="store_true", help="print the clients' schema")
    action.add_argument("--record", action="store_true", help="print the game record's schema (docs/RECORDS.md)")
    parser.add_argument("--path", type=Path, default=DEFAULT_PATH,
                        help=f"default: {DEFAULT_PATH}; the clients' schema goes beside it, as {CLIENT_FILE}")
    args = parser.parse_args(argv)
    if args.record:
        sys.stdout.write(record.schema_text())
        return 0
    files = {args.path: render(protocol_schema()), args.path.with_name(CLIENT_FILE): render(client_schema())}
    if args.write:
        args.path.parent.mkdir(parents=True, exist_ok=True)
        for path, text in files.items():
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        return 0
    if args.check:
        return _check(files)
    sys.stdout.write(files[args.path.with_name(CLIENT_FILE)] if args.client else files[args.path])
    return 0


def _check(files: dict[Path, str]) -> int:
    status = 0
    for path, text in files.items():
        try:
            current = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            print(f"{path}: cannot read it ({exc})", file=sys.stderr)
            status = 1
            continue
        if normalised(current) != json.loads(text):
            print(f"{path} is stale: run {REGENERATE}", file=sys.stderr)
            status = 1
        else:
            print(f"{path} is up to date")
    return status


if __name__ == "__main__":
    sys.exit(main())
