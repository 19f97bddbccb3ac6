"""The collection of the source's doctests (``--doctest-modules``): a module of an optional
extra that is not installed (an adapter of :mod:`banditsolve.interop`, the web app) is left out,
since importing it fails (its tests skip themselves)."""

from __future__ import annotations

import importlib.util

#: Each adapter's module and the package of its extra.
ADAPTERS = (
    ("src/banditsolve/interop/openspiel.py", "pyspiel"),
    ("src/banditsolve/interop/pettingzoo.py", "pettingzoo"),
    ("src/banditsolve/web/app.py", "starlette"),
)

collect_ignore = [path for path, package in ADAPTERS if importlib.util.find_spec(package) is None]
