"""The Italian of the `scopa` command's help (its usage, descriptions, group titles, every
option's help, and argparse's own words), by its English: ``help_it.json`` beside this
module, part of :data:`scopa.client.text.italian.ITALIAN` (scopa/cli/helptext.py puts it in)."""

from __future__ import annotations

import json
from importlib.resources import files

HELP_ITALIAN: dict[str, str] = json.loads(files("scopa.client.text").joinpath("help_it.json").read_text(encoding="utf-8"))
