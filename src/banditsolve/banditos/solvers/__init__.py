"""Los Banditos solvers: everything that answers a question about a position.

- :mod:`~banditsolve.banditos.solvers.claims`: ``claim_verdict`` / ``claim_verdict_at`` with the
  backend dispatch (``"exact"`` closed form from the rules, ``"cpsat"``, ``"z3"``);
- :mod:`~banditsolve.banditos.solvers.cpsat`, :mod:`~banditsolve.banditos.solvers.z3model`: the
  two solver encodings of the claim question (their libraries load only when these modules do);
- :mod:`~banditsolve.banditos.solvers.odds`: exact completion odds;
- :mod:`~banditsolve.banditos.solvers.endgame`: the best turn (expectimax or Monte Carlo).

Solvers import the rules; the rules never import a solver.
"""
