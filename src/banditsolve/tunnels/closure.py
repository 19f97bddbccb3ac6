"""Former home of the closure solver, now :mod:`banditsolve.tunnels.solvers`.

A re-export kept only while the command line and the puzzle maker still import it from here;
import from :mod:`banditsolve.tunnels` (or :mod:`banditsolve.tunnels.solvers.closure`).
"""

from banditsolve.tunnels.solvers.closure import Closure, can_close, min_cards_to_close, plain_search

__all__ = ["Closure", "can_close", "min_cards_to_close", "plain_search"]
