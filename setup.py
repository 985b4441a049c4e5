"""Only the optional C accelerator lives here; everything else is in pyproject.toml.

``optional=True``: without a C compiler the install still succeeds and the engine
uses its pure-Python path (same results, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("scopa.engine._speedups", ["engine/_speedups.c"], optional=True),
    ]
)
