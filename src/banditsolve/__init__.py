"""banditsolve: exact rules engines and solvers for bandit-themed tabletop games.

>>> import banditsolve
>>> banditsolve.games()
('banditos', 'bandido', 'bandida', 'rolling')
>>> banditsolve.load_game("los-banditos").title
'Los Banditos'

Games live in their own subpackages and load on first use; importing this package imports none
of them, nor any solver library.
"""

from typing import Any

from banditsolve.errors import (
    BanditsolveError,
    DataError,
    IllegalActionError,
    NotationError,
    RuleOptionError,
    SolverError,
)

__version__ = "0.2.0"


def games() -> tuple[str, ...]:
    """The names of the registered games (nothing is imported)."""
    from banditsolve.core.registry import games as _games

    return _games()


def load_game(name: str) -> Any:
    """The game object registered as ``name`` or one of its aliases."""
    from banditsolve.core.registry import load_game as _load

    return _load(name)


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
