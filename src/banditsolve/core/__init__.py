"""The game-independent core: the contract every game follows and the helpers they share.

Nothing here imports a game. See :mod:`banditsolve.core.protocol` for the contract,
:mod:`banditsolve.core.registry` for the lazy registry.
"""

from banditsolve.core.answer import EXIT_CODES, Answer
from banditsolve.core.limits import Budget, LimitReached, Limits
from banditsolve.core.protocol import CHANCE, TERMINAL, Game, Outcome, Policy

__all__ = [
    "CHANCE",
    "EXIT_CODES",
    "TERMINAL",
    "Answer",
    "Budget",
    "Game",
    "LimitReached",
    "Limits",
    "Outcome",
    "Policy",
]
