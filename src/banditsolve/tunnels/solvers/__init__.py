"""Solvers of the tunnel games, one module per job.

- :mod:`.inputs`: checking what a caller hands a solver (tables, cards against the deck,
  limits, play areas); :data:`~.inputs.Bounds`.
- :mod:`.result`: the :class:`~.result.Closure` answer, :class:`~.result.SearchStats` and
  :func:`~.result.certify` (every certificate replayed through the rules engine).
- :mod:`.options`: the placements that can cover a front cell, cached per local signature.
- :mod:`.bounds`: counting, parity, colour balance and covering bounds; static reasons.
- :mod:`.exact`: the exact search on one mutable board (:class:`~.exact.ExactSearch`).
- :mod:`.parallel`: a long level of the exact search shared among forked processes.
- :mod:`.plain`: the unpruned baseline (:func:`~.plain.plain_search`).
- :mod:`.model`: the finite model shared by the CP-SAT and Z3 backends.
- :mod:`.cpsat`, :mod:`.z3`: those backends (OR-Tools and Z3 load only there, when used).
- :mod:`.closure`: the public :func:`~.closure.can_close` and
  :func:`~.closure.min_cards_to_close`, the iterative deepening of the exact backend and the
  dispatch to the backends.
- :mod:`.endgame`: the whole game with perfect information (:func:`~.endgame.solve_game`)
  and the share of shuffles it wins (:func:`~.endgame.win_share`).

Imports run one way (inputs/result <- options <- bounds <- exact <- parallel <- closure;
model <- cpsat, z3; no backend imports :mod:`.closure`), and this package imports nothing, so
importing one module never loads the others.
"""
