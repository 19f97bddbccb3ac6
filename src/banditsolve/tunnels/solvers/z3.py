"""Closure on Z3 (``can_close(..., backend="z3")``), for small cases.

The same complete model as the CP-SAT backend (:mod:`banditsolve.tunnels.solvers.model`),
written through the typed wrapper :mod:`banditsolve.z3typed`: one Boolean per placement literal,
at most one per cell, exactly one per front cell, equal opening counts across each edge, a count
per card type. The minimum is found by asking for at most ``n`` cards for ``n = 1, 2, ...`` (each
"unsat" proves fewer cannot). A time-out is ``unknown``. Z3 reads its own time limit too seldom
(0.05-0.1 s late at a 0.2 s limit on 21,800 literals), so under a time limit each check of a
model of :data:`~banditsolve.tunnels.solvers.model.FORK_LITERALS` or more runs in a forked
process killed at the deadline (:func:`~banditsolve.tunnels.solvers.satclock.forked_until`).
"""

from __future__ import annotations

import time
from array import array
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from banditsolve import z3typed as z
from banditsolve.core.text import plural
from banditsolve.errors import InternalError
from banditsolve.tunnels.geometry import Placement, opposite
from banditsolve.tunnels.solvers import satclock
from banditsolve.tunnels.solvers.bounds import lower_bound
from banditsolve.tunnels.solvers.goals import Required, missing
from banditsolve.tunnels.solvers.inputs import Bounds
from banditsolve.tunnels.solvers.model import (
    FORK_LITERALS,
    FREE_SECONDS,
    MAX_LITERALS,
    ClosureModel,
    OutOfTime,
    check_deadline,
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
    where = f"radius {m.radius}, {plural(len(m.candidates), 'literal')}"
    # (Freeing the model, and ending a check, take a while too.)
    forked = len(m.candidates) >= FORK_LITERALS
    reserve = FREE_SECONDS * len(m.candidates) + satclock.end_seconds(forked)
    deadline = None if time_limit is None else start + time_limit - reserve
    try:
        run = Z3Run(table, m, required, deadline)
    except OutOfTime:
        why = f"Z3: the time limit ran out ({time_limit or 0:g} s) building its model ({where})"
        return Closure("unknown", (), why, "z3", SearchStats(0, time.perf_counter() - start))
    limits = [budget]
    if minimum:
        low = max(lower_bound(table, cards) or 1, len(required))
        limits = list(range(min(low, budget), budget + 1))
    for most in limits:
        # Each check gets the time left, not the whole limit again.
        done = run.decide(most)
        stats = SearchStats(run.checks, time.perf_counter() - start)
        if done.result == "unknown":
            why = run.why_unknown(done.why, time_limit)
            return Closure("unknown", (), f"Z3: {why} ({where})", "z3", stats)
        if done.result == "sat":
            return _found(table, [m.candidates[i].placement for i in done.chosen], minimum,
                          where, stats)
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


def _found(
    table: Table, chosen: list[Placement], minimum: bool, where: str, stats: SearchStats
) -> Closure:
    """The closable answer of a model's solution (its placements ``chosen``)."""
    ordered = order_placements(table, chosen)
    proven = minimum and len(ordered) == len(chosen)
    why = f"Z3 found a closure ({where})"
    if proven:
        why = f"Z3 found {len(ordered)} cards and proved fewer unsatisfiable ({where})"
    return Closure("closable", certify(table, ordered), why, "z3", stats, proven)


_RESULTS: tuple[z.CheckResult, ...] = ("unsat", "sat", "unknown")


class Decided(NamedTuple):
    """A check's outcome: ``"sat"``, ``"unsat"`` or ``"unknown"``, the indices of the
    literals chosen (``sat``), Z3's reason (``unknown``; ``"timeout"`` when killed)."""

    result: z.CheckResult
    chosen: tuple[int, ...] = ()
    why: str = ""


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
        self.constraints = constraints_of(m, self.xs, required, deadline)

    def why_unknown(self, why: str, time_limit: float | None) -> str:
        """Why a check answered unknown (Z3's reason ``why``): the time limit, or Z3's."""
        late = self.deadline is not None and time.perf_counter() >= self.deadline - 0.01
        if late or why == "timeout":
            return f"the time limit ran out ({time_limit or 0:g} s)"
        return why

    def decide(self, most: int) -> Decided:
        """:meth:`check` with at most ``most`` cards, its answer as :class:`Decided`: under a
        deadline, a model of :data:`FORK_LITERALS` or more in a forked process killed then
        (its cuts stay in the child: a later check finds them again)."""
        large = len(self.xs) >= FORK_LITERALS
        if self.deadline is None or not satclock.FORK or not large:
            return self._decided(most)
        def work() -> bytes:  # pragma: no cover - runs in the forked process
            done = self._decided(most)
            head = [_RESULTS.index(done.result), self.checks, len(done.chosen), *done.chosen]
            return array("i", head).tobytes() + done.why.encode()

        data = satclock.forked_until(work, self.deadline)
        if data is None:
            self.checks += 1
            return Decided("unknown", (), "timeout")
        return self._answer(data)

    def _answer(self, data: bytes) -> Decided:
        """A forked check's answer read back: its status, checks, chosen literals, reason."""
        width = array("i").itemsize
        head = array("i", data[: 3 * width]) if len(data) >= 3 * width else array("i")
        if len(head) < 3 or len(data) < (3 + head[2]) * width:
            raise InternalError("Z3's forked check ended without an answer")
        status, checks, n = head
        chosen = array("i", data[3 * width : (3 + n) * width])
        self.checks = checks
        why = data[(3 + n) * width :].decode()
        return Decided(_RESULTS[status], tuple(chosen), why)

    def _decided(self, most: int) -> Decided:
        result, trial = self.check(most)
        if result == "sat":
            return Decided(result, self.held(trial.model()))
        return Decided(result, (), trial.reason_unknown() if result == "unknown" else "")

    def held(self, model: z.Model) -> tuple[int, ...]:
        """The indices of the literals that hold in ``model``."""
        return tuple(i for i, x in enumerate(self.xs) if model.bool_value(x))

    def chosen(self, model: z.Model) -> list[Placement]:
        """The placements whose literals hold in ``model``."""
        return [self.closure_model.candidates[i].placement for i in self.held(model)]

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
    m: ClosureModel, xs: list[z.BoolExpr], required: Required, deadline: float | None = None
) -> list[z.BoolExpr | bool]:
    """The model's constraints on the literals ``xs``: each front cell covered once (False
    when one cannot be), each other region cell at most once, equal openings across each
    edge, no more of a card type than given, one card of each ``required`` group. Past
    ``deadline`` (read as they are built) :class:`OutOfTime`."""
    constraints = _covering(m, xs, deadline)
    constraints.extend(_edges(m, xs, deadline))
    for count, idx in m.by_type.values():
        if len(idx) > count:
            constraints.append(_count([xs[i] for i in idx], "<=", count))
    for group in required:
        lits = [xs[i] for code in group for i in m.by_type.get(code, (0, ()))[1]]
        constraints.append(_count(lits, ">=", 1))
    return constraints


def _covering(
    m: ClosureModel, xs: list[z.BoolExpr], deadline: float | None
) -> list[z.BoolExpr | bool]:
    """Each front cell covered once (False for one no placement covers), each other region
    cell at most once."""
    constraints: list[z.BoolExpr | bool] = [False for t in m.front if t not in m.covering]
    front = set(m.front)
    for cell, idx in m.covering.items():
        check_deadline(deadline)
        lits = [xs[i] for i in idx]
        if cell in front:
            constraints.append(_count(lits, "==", 1))
        elif len(lits) > 1:
            constraints.append(_count(lits, "<=", 1))
    return constraints


def _edges(
    m: ClosureModel, xs: list[z.BoolExpr], deadline: float | None
) -> list[z.BoolExpr]:
    """Equal openings across each edge of the region that any placement opens onto."""
    constraints = []
    for c, side, n in m.edges:
        check_deadline(deadline)
        mine = [xs[i] for i in m.opening.get((c, side), ())]
        theirs = [xs[i] for i in m.opening.get((n, opposite(side)), ())]
        if mine or theirs:
            weighted = [(x, 1) for x in mine] + [(x, -1) for x in theirs]
            constraints.append(z.pseudo_boolean(weighted, "==", 0))
    return constraints
