"""Former home of the tunnel game solver, now :mod:`banditsolve.tunnels.solvers.endgame`.

A re-export kept only while the command line and the puzzle maker still import it from here;
import from :mod:`banditsolve.tunnels` (or :mod:`banditsolve.tunnels.solvers.endgame`).
"""

from banditsolve.tunnels.solvers.endgame import GameSolution, WinShare, solve_game, win_share

__all__ = ["GameSolution", "WinShare", "solve_game", "win_share"]
