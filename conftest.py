"""The collection of the source's doctests (``--doctest-modules``): an adapter of
:mod:`banditsolve.interop` whose optional extra is not installed is left out, since importing
it raises :class:`~banditsolve.errors.MissingExtraError` (its tests skip themselves)."""

from __future__ import annotations

import importlib.util

#: Each adapter's module and the package of its extra.
ADAPTERS = (("src/banditsolve/interop/openspiel.py", "pyspiel"),)

collect_ignore = [path for path, package in ADAPTERS if importlib.util.find_spec(package) is None]
