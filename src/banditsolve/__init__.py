"""banditsolve: exact rules engines and solvers for bandit-themed tabletop games.

Games live in their own subpackages (``banditsolve.banditos``, ``banditsolve.tunnels``);
importing this package imports none of them, nor any solver library.
"""

from banditsolve.errors import (
    BanditsolveError,
    DataError,
    IllegalActionError,
    NotationError,
    RuleOptionError,
    SolverError,
)

__version__ = "0.1.0"

__all__ = [
    "BanditsolveError",
    "DataError",
    "IllegalActionError",
    "NotationError",
    "RuleOptionError",
    "SolverError",
    "__version__",
]
