"""``python -m scopa.cli``: the `scopa` command."""

import sys

from .main import main

sys.exit(main())
