"""The games inside the tools people already use, each behind an optional extra.

- :mod:`banditsolve.interop.openspiel` (extra ``openspiel``): every registered game as an
  OpenSpiel game, ``register()`` then ``pyspiel.load_game("banditsolve_<game>")``.
- :mod:`banditsolve.interop.pettingzoo` (extra ``pettingzoo``): every registered game as a
  PettingZoo AEC environment, ``env(game, **options)``.

Both adapters are written once over the game contract (:class:`banditsolve.core.protocol.Game`:
its observations, action indices and bounded length), never over one game's rules. Importing
this package imports neither tool; importing an adapter without its extra raises
:class:`~banditsolve.errors.MissingExtraError`, one line naming the extra.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from banditsolve.errors import MissingExtraError


def require(feature: str, package: str, extra: str) -> ModuleType:
    """The module ``package``, or :class:`MissingExtraError` naming ``extra`` when it is not
    installed (``feature`` says what needs it)."""
    try:
        return importlib.import_module(package)
    except ImportError:
        raise MissingExtraError(feature, package, extra) from None
