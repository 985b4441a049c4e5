"""Only the optional C accelerators live here; everything else is in pyproject.toml.

``optional=True``: without a C compiler the install still succeeds and the engine
uses its pure-Python path, the server packs its your_turn and reads a play's fields
in Python (same results, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("scopa.engine._speedups", ["engine/_speedups.c"], optional=True),
        Extension("scopa.protocol.convert._turnpack", ["protocol/convert/_turnpack.c"], optional=True),
        Extension("scopa.protocol._playread", ["protocol/_playread.c"], optional=True),
    ]
)
