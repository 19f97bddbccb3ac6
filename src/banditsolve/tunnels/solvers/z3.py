"""Closure on Z3 (``can_close(..., backend="z3")``), for small cases.

The same complete model as the CP-SAT backend (:mod:`banditsolve.tunnels.solvers.model`),
written through the typed wrapper :mod:`banditsolve.z3typed`: one Boolean per placement literal,
at most one per cell, exactly one per front cell, equal opening counts across each edge, a count
per card type. The minimum is found by asking for at most ``n`` cards for ``n = 1, 2, ...`` (each
"unsat" proves fewer cannot). A time-out is ``unknown``.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence

from banditsolve import z3typed as z
from banditsolve.core.text import plural
from banditsolve.tunnels.geometry import Placement, opposite
from banditsolve.tunnels.solvers.bounds import lower_bound
from banditsolve.tunnels.solvers.goals import Required, missing
from banditsolve.tunnels.solvers.inputs import Bounds
from banditsolve.tunnels.solvers.model import (
    MAX_LITERALS,
    ClosureModel,
    order_placements,
    prepare,
)
from banditsolve.tunnels.solvers.result import Closure, SearchStats, certify
from banditsolve.tunnels.table import Table


def _count(lits: list[z.BoolExpr], relation: z.PbRelation, bound: int) -> z.BoolExpr:
    """How many of ``lits`` hold, compared with ``bound``: a native pseudo-Boolean constraint
    (Z3 honours its time limit on these; on sums of if-then-else terms it did not, running
    24 s past a 4 s limit on a 21,000-literal model)."""
    return z.pseudo_boolean(((x, 1) for x in lits), relation, bound)


def solve_z3(
    table: Table,
    cards: Sequence[int],
    max_cards: int | None,
    bounds: Bounds | None,
    time_limit: float | None,
    minimum: bool,
    required: Required = (),
) -> Closure:
    """Answer the closure question (or its minimum) with Z3 (``required`` and the cut of a
    detached group holding a required card as for the CP-SAT backend)."""
    start = time.perf_counter()
    prepared = prepare(table, cards, max_cards, bounds, "z3", MAX_LITERALS // 10, start, time_limit)
    if isinstance(prepared, Closure):
        return prepared
    budget, m = prepared
    run = Z3Run(table, m, required, None if time_limit is None else start + time_limit)
    where = f"radius {m.radius}, {plural(len(m.candidates), 'literal')}"
    limits = [budget]
    if minimum:
        low = max(lower_bound(table, cards) or 1, len(required))
        limits = list(range(min(low, budget), budget + 1))
    for most in limits:
        # Each check gets the time left, not the whole limit again.
        result, trial = run.check(most)
        stats = SearchStats(run.checks, time.perf_counter() - start)
        if result == "unknown":
            why = run.why_unknown(trial, time_limit)
            return Closure("unknown", (), f"Z3: {why} ({where})", "z3", stats)
        if result == "sat":
            chosen = run.chosen(trial.model())
            ordered = order_placements(table, chosen)
            proven = minimum and len(ordered) == len(chosen)
            why = f"Z3 found a closure ({where})"
            if proven:
                why = f"Z3 found {len(ordered)} cards and proved fewer unsatisfiable ({where})"
            return Closure("closable", certify(table, ordered), why, "z3", stats, proven)
        if time_limit is not None and time.perf_counter() - start > time_limit:
            return Closure("unknown", (), f"Z3: the time limit ran out ({where})", "z3", stats)
    limit = "" if budget == len(cards) else f" with at most {budget} cards"
    return Closure(
        "impossible",
        (),
        f"Z3 proved the complete model unsatisfiable{limit} ({where})",
        "z3",
        SearchStats(run.checks, time.perf_counter() - start),
    )


class Z3Run:
    """The model of one closure question in Z3: one Boolean per placement literal, the
    constraints (cuts added as they are found), and the checks made so far."""

    def __init__(
        self, table: Table, m: ClosureModel, required: Required, deadline: float | None
    ) -> None:
        self.table = table
        self.closure_model = m
        self.required = required
        self.deadline = deadline
        self.checks = 0
        self.xs = [z.bool_var(f"p{i}") for i in range(len(m.candidates))]
        self.constraints = constraints_of(m, self.xs, required)

    def why_unknown(self, trial: z.Solver, time_limit: float | None) -> str:
        """Why a check of ``trial`` answered unknown: the time limit, or Z3's own reason."""
        why = trial.reason_unknown()
        late = self.deadline is not None and time.perf_counter() >= self.deadline - 0.01
        if late or why == "timeout":
            return f"the time limit ran out ({time_limit or 0:g} s)"
        return why

    def chosen(self, model: z.Model) -> list[Placement]:
        """The placements whose literals hold in ``model``."""
        return [
            c.placement
            for c, x in zip(self.closure_model.candidates, self.xs, strict=True)
            if model.bool_value(x)
        ]

    def check(self, most: int) -> tuple[z.CheckResult, z.Solver]:
        """Check the model with at most ``most`` cards. With required cards, a solution whose
        required card lies only in a detached group (dropped when the cards are ordered) is
        cut off (that group's literals not all at once) and the check made again."""
        trial = z.Solver(seed=0)
        trial.add(*self.constraints)
        trial.add(_count(self.xs, "<=", most))
        result = trial.check(self.deadline)
        self.checks += 1
        index: dict[Placement, int] | None = None
        while result == "sat" and self.required:
            chosen = self.chosen(trial.model())
            ordered = order_placements(self.table, chosen)
            if not missing(self.required, Counter(p.card for p in ordered)):
                break
            if index is None:
                index = {c.placement: i for i, c in enumerate(self.closure_model.candidates)}
            dropped = [self.xs[index[p]] for p in set(chosen) - set(ordered)]
            cut = _count(dropped, "<=", len(dropped) - 1)
            self.constraints.append(cut)
            trial.add(cut)
            result = trial.check(self.deadline)
            self.checks += 1
        return result, trial


def constraints_of(
    m: ClosureModel, xs: list[z.BoolExpr], required: Required
) -> list[z.BoolExpr | bool]:
    """The model's constraints on the literals ``xs``: each front cell covered once (False
    when one cannot be), each other region cell at most once, equal openings across each
    edge, no more of a card type than given, one card of each ``required`` group."""
    constraints = _covering(m, xs)
    constraints.extend(_edges(m, xs))
    for count, idx in m.by_type.values():
        if len(idx) > count:
            constraints.append(_count([xs[i] for i in idx], "<=", count))
    for group in required:
        lits = [xs[i] for code in group for i in m.by_type.get(code, (0, ()))[1]]
        constraints.append(_count(lits, ">=", 1))
    return constraints


def _covering(m: ClosureModel, xs: list[z.BoolExpr]) -> list[z.BoolExpr | bool]:
    """Each front cell covered once (False for one no placement covers), each other region
    cell at most once."""
    constraints: list[z.BoolExpr | bool] = [False for t in m.front if t not in m.covering]
    front = set(m.front)
    for cell, idx in m.covering.items():
        lits = [xs[i] for i in idx]
        if cell in front:
            constraints.append(_count(lits, "==", 1))
        elif len(lits) > 1:
            constraints.append(_count(lits, "<=", 1))
    return constraints


def _edges(m: ClosureModel, xs: list[z.BoolExpr]) -> list[z.BoolExpr]:
    """Equal openings across each edge of the region that any placement opens onto."""
    constraints = []
    for c, side, n in m.edges:
        mine = [xs[i] for i in m.opening.get((c, side), ())]
        theirs = [xs[i] for i in m.opening.get((n, opposite(side)), ())]
        if mine or theirs:
            weighted = [(x, 1) for x in mine] + [(x, -1) for x in theirs]
            constraints.append(z.pseudo_boolean(weighted, "==", 0))
    return constraints
