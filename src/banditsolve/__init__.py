"""banditsolve: exact rules engines and solvers for bandit-themed tabletop games.

>>> import banditsolve
>>> banditsolve.games()
('banditos', 'bandido', 'bandida', 'rolling')
>>> banditsolve.load_game("los-banditos").title
'Los Banditos'

Games live in their own subpackages and load on first use; importing this package imports none
of them, nor any solver library.
"""

from importlib.metadata import PackageNotFoundError, version

from banditsolve.core.registry import games, load_game
from banditsolve.errors import (
    BanditsolveError,
    DataError,
    IllegalActionError,
    NotationError,
    RuleOptionError,
    SolverError,
)

try:
    #: The version, as installed (``pyproject.toml`` is the one place that sets it).
    __version__ = version("banditsolve")
except PackageNotFoundError:  # pragma: no cover - run from a source tree that is not installed
    __version__ = "unknown"


__all__ = [
    "BanditsolveError",
    "DataError",
    "IllegalActionError",
    "NotationError",
    "RuleOptionError",
    "SolverError",
    "__version__",
    "games",
    "load_game",
]
