"""``scopa.cli``: the `scopa` command, one module per subcommand (or small group).

The one package that joins the client and the server (``scopa serve`` starts a
server, ``scopa admin migrate`` opens its journal); everything else reaches the
server over the wire.  ``python -m scopa.cli`` is the `scopa` command.
"""

from __future__ import annotations

from . import interrupt

interrupt.hold()  # a Ctrl-C while the command's modules load is noted, and main ends quietly on it
try:
    from .main import build_parser, main
finally:
    interrupt.release()

__all__ = ["build_parser", "main"]
