"""banditsolve: exact rules engines and solvers for bandit-themed tabletop games.

>>> import banditsolve
>>> banditsolve.games()
('banditos', 'bandido', 'bandida', 'rolling')
>>> banditsolve.load_game("los-banditos").title
'Los Banditos'

Games live in their own subpackages and load on first use; importing this package imports none
of them, nor any solver library.
"""

from typing import TYPE_CHECKING

from banditsolve.errors import (
    BanditsolveError,
    DataError,
    IllegalActionError,
    MissingExtraError,
    NotationError,
    RuleOptionError,
    SolverError,
)

if TYPE_CHECKING:
    from banditsolve.core.progress import progress
    from banditsolve.core.registry import games, load_game

    __version__: str


def __getattr__(name: str) -> object:
    """What is read on first use, so that ``import banditsolve`` stays light: ``games`` and
    ``load_game`` (from :mod:`banditsolve.core.registry`), ``progress`` (from
    :mod:`banditsolve.core.progress`: ``with banditsolve.progress(callback): ...`` reports
    every search that runs past a second), and ``__version__``, the version as installed
    (``pyproject.toml`` is the one place that sets it)."""
    if name in ("games", "load_game"):
        from banditsolve.core import registry

        return getattr(registry, name)
    if name == "progress":
        from banditsolve.core.progress import progress

        return progress
    if name != "__version__":
        raise AttributeError(f"module 'banditsolve' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("banditsolve")
    except PackageNotFoundError:  # pragma: no cover - a source tree that is not installed
        return "unknown"


__all__ = [
    "BanditsolveError",
    "DataError",
    "IllegalActionError",
    "MissingExtraError",
    "NotationError",
    "RuleOptionError",
    "SolverError",
    "__version__",
    "games",
    "load_game",
    "progress",
]
