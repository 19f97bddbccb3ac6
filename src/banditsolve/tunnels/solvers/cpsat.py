"""Closure on OR-Tools CP-SAT (``can_close(..., backend="cpsat")``).

Staged budgets (see :func:`solve_cpsat`): the model of :mod:`banditsolve.tunnels.solvers.model`
(complete for the card budget: see there)
with one Boolean per placement literal, ``add_at_most_one`` per cell, ``add_exactly_one`` per
front cell, an equality of opening sums per pair of neighbouring cells, a count per card type
and ``minimize(sum)`` for the minimum. One worker, a fixed seed and the time limit are set
explicitly; a time-out is ``unknown``, never a verdict. ``ortools`` is imported only here.
"""

from __future__ import annotations

import time
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from banditsolve.core.text import plural
from banditsolve.tunnels.geometry import Placement, opposite
from banditsolve.tunnels.solvers import satclock
from banditsolve.tunnels.solvers.goals import Required, missing
from banditsolve.tunnels.solvers.inputs import Bounds
from banditsolve.tunnels.solvers.model import (
    FORK_LITERALS,
    FREE_SECONDS,
    MAX_LITERALS,
    TOO_LARGE,
    ClosureModel,
    OutOfTime,
    check_deadline,
    order_placements,
    prepare,
)
from banditsolve.tunnels.solvers.result import Closure, SearchStats, certify
from banditsolve.tunnels.table import Table

SEED = 0
#: CP-SAT's probing level. Off: on the closure models (thousands of placement literals, most
#: of them far from the front) probing spent most of the time (about 10 of the 13 s of a
#: 14,101-literal model whose first solution took 142 conflicts) adding millions of binary
#: clauses; without it the whole-pile benchmark positions are decided several times faster
#: (``benchmarks/results/closure_cpsat.md``).
PROBING = 0
#: While a model is built, the clock is read every this many edge or cell constraints (and
#: every 64 times as many literals made).
CHECK_EVERY = 128
#: The seconds per literal of the parts of a model that cannot be stopped once begun, measured
#: on 150,000 literals: the bound on the total (0.12 s), the objective (0.33 s).
SUM_SECONDS = 1e-6
OBJECTIVE_SECONDS = 2.5e-6


def model_of(
    m: ClosureModel, minimum: bool, required: Required = (), deadline: float | None = None
) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The CP-SAT model and its placement literals (in candidate order); ``required``: groups
    of codes of which at least one card must be laid (a Bandida mode's goal). Building a large
    one takes a good part of a second: past ``deadline`` (a ``perf_counter`` time, read between
    its parts) it stops with :class:`OutOfTime`."""

    def check(cost: float = 0.0) -> None:
        check_deadline(deadline, cost)

    check()
    model = cp_model.CpModel()
    xs = []
    for i in range(len(m.candidates)):
        if not i % (64 * CHECK_EVERY):
            check()
        xs.append(model.new_bool_var(f"p{i}"))
    _add_covering(model, m, xs, check)
    for k, (c, side, n) in enumerate(m.edges):
        if not k % CHECK_EVERY:
            check()
        mine = [xs[i] for i in m.opening.get((c, side), ())]
        theirs = [xs[i] for i in m.opening.get((n, opposite(side)), ())]
        if mine or theirs:
            model.add(sum(mine) == sum(theirs))
    check()
    total = []
    for count, idx in m.by_type.values():
        lits = [xs[i] for i in idx]
        total.extend(lits)
        if len(lits) > count:
            model.add(cp_model.LinearExpr.sum(lits) <= count)
    check(SUM_SECONDS * len(total))
    model.add(cp_model.LinearExpr.sum(total) <= m.budget)
    _add_required(model, m, xs, required)
    if minimum:
        check(OBJECTIVE_SECONDS * len(total))
        model.minimize(cp_model.LinearExpr.sum(total))
    return model, xs


def _add_covering(
    model: cp_model.CpModel,
    m: ClosureModel,
    xs: list[cp_model.IntVar],
    check: Callable[[], None] = lambda: None,
) -> None:
    """Each front cell covered exactly once, every other cell at most once (``check``: called
    now and then, to stop at a deadline)."""
    front = set(m.front)
    for k, (cell, idx) in enumerate(m.covering.items()):
        if not k % CHECK_EVERY:
            check()
        lits = [xs[i] for i in idx]
        if cell in front:
            model.add_exactly_one(lits)
        elif len(lits) > 1:
            model.add_at_most_one(lits)
    for t in m.front:
        if t not in m.covering:
            model.add_bool_or([])  # a front cell outside the region: nothing can cover it


def _add_required(
    model: cp_model.CpModel, m: ClosureModel, xs: list[cp_model.IntVar], required: Required
) -> None:
    """At least one card of each group of ``required`` laid."""
    for group in required:
        need = [xs[i] for code in group for i in m.by_type.get(code, (0, ()))[1]]
        if need:
            model.add_bool_or(need)
        else:
            model.add_bool_or([])  # the required card fits nowhere in the region


#: The first card budget of the staged models (see :func:`solve_cpsat`).
FIRST_STAGE = 1
#: The share of the time left a stage short of the whole budget may take.
STAGE_SHARE = 1 / 3
#: Each stage's budget grows by at least one card and at most this share of the last one.
STAGE_GROWTH = 0.25


def next_stage(stage: int, budget: int) -> int:
    """The card budget of the stage after ``stage`` (at most ``budget``)."""
    return min(budget, stage + max(1, int(stage * STAGE_GROWTH)))


def solve_cpsat(
    table: Table,
    cards: Sequence[int],
    max_cards: int | None,
    bounds: Bounds | None,
    time_limit: float | None,
    minimum: bool,
    required: Required = (),
) -> Closure:
    """Answer the closure question (or its minimum) with CP-SAT, in stages of growing card
    budgets (:data:`FIRST_STAGE`, then :func:`next_stage` up to the budget asked for: one card
    more at a time while the budgets are small, a quarter more later).

    The model of a budget ``b`` holds every closure of at most ``b`` cards (see
    :mod:`~banditsolve.tunnels.solvers.model`) and only the cells within reach of ``b``
    cards, so the small stages stay small: a solution of a stage is a closure (its
    minimum, when proven optimal, is the minimum of every budget), an infeasible stage
    proves that no closure has ``b`` cards or fewer, and only the last stage (the whole
    budget) can prove ``impossible``. A front cell that no placement of any stage's model
    covers (every placement covering it lies within two steps of it, so in every model) is
    ``impossible`` at once. A stage too large for the literal limit makes the answer
    ``unknown``, naming the budget already ruled out.

    With a time limit, a stage short of the whole budget gets :data:`STAGE_SHARE` of the time
    left; when it runs out the next stage goes on with all the time left (its model holds
    every closure of the one before, so only the proof that the smaller budget cannot close
    is lost): a closure of ``b`` cards is then not held up by the proof that ``b - 1`` cannot
    close."""
    start = time.perf_counter()
    budget = len(cards) if max_cards is None else min(max_cards, len(cards))
    stage = min(budget, FIRST_STAGE)
    ruled_out = 0
    nodes = 0
    timed_out = False
    while True:
        left = None if time_limit is None else time_limit - (time.perf_counter() - start)
        if left is not None and left <= 0:
            return _out_of_time(ruled_out, SearchStats(nodes, time.perf_counter() - start))
        last = stage == budget
        share = left if left is None or last or timed_out else left * STAGE_SHARE
        r = _solve_budget(table, cards, stage, bounds, share, minimum, required)
        nodes += r.stats.nodes
        stats = replace(r.stats, nodes=nodes, seconds=time.perf_counter() - start)
        answer = _stage_answer(r, stats, minimum, last, ruled_out)
        if answer is not None:
            return answer
        if r.status == "impossible":
            ruled_out = stage
        else:
            timed_out = True
        stage = next_stage(stage, budget)


def _out_of_time(ruled_out: int, stats: SearchStats) -> Closure:
    """``unknown``: the time limit ran out before a stage (``ruled_out``: the budget already
    ruled out)."""
    why = "CP-SAT: the time limit ran out"
    return Closure("unknown", (), why, "cpsat", stats, at_least=ruled_out + 1)


def _stage_answer(
    r: Closure, stats: SearchStats, minimum: bool, last: bool, ruled_out: int
) -> Closure | None:
    """The answer a stage's result ``r`` gives (with ``stats``, the stages' so far), or None
    when the next stage must go on (``last``: the stage of the whole budget)."""
    if r.status == "closable" and minimum and len(r.placements) == ruled_out + 1:
        # No closure of ``ruled_out`` cards or fewer exists: one more is the fewest, even
        # when the stage's own optimisation stopped at its share of the time.
        why = f"CP-SAT proved {r.cards} cards optimal (the stages before hold no closure)"
        return replace(r, stats=stats, minimum=True, reason=why)
    if r.status == "closable" or (last and r.status == "impossible"):
        return replace(r, stats=stats)
    if r.status == "unknown" and (last or r.reason.startswith(TOO_LARGE)):
        return replace(r, stats=stats, at_least=ruled_out + 1)
    if r.reason.startswith(DEAD):
        return replace(r, stats=stats)
    return None


#: How the reason of an exit no model can close begins.
DEAD = "no placement covers"


def _solve_budget(
    table: Table,
    cards: Sequence[int],
    max_cards: int | None,
    bounds: Bounds | None,
    time_limit: float | None,
    minimum: bool,
    required: Required = (),
) -> Closure:
    """Answer the closure question (or its minimum) with CP-SAT for one card budget.

    With ``required`` (a Bandida goal), a solution whose required card lies in a detached
    closed group (which no legal order reaches) is cut off (that group can never be joined
    to the network, so no solution holding all of it reaches the goal) and the model solved
    again."""
    start = time.perf_counter()
    prepared = prepare(table, cards, max_cards, bounds, "cpsat", MAX_LITERALS, start, time_limit)
    if isinstance(prepared, Closure):
        return prepared
    budget, m = prepared
    dead = _dead_front(m, start)
    if dead is not None:
        return dead
    where = f"radius {m.radius}, {plural(len(m.candidates), 'literal')}"
    # (Freeing the model, and ending the solve, take a while too: their time is kept from the
    # limit.)
    forked = len(m.candidates) >= FORK_LITERALS
    reserve = FREE_SECONDS * len(m.candidates) + satclock.end_seconds(forked)
    deadline = None if time_limit is None else start + time_limit - reserve
    try:
        model, xs = model_of(m, minimum, required, deadline)
    except OutOfTime:
        why = f"CP-SAT: the time limit ran out ({time_limit:g} s) building its model ({where})"
        return Closure("unknown", (), why, "cpsat", SearchStats(0, time.perf_counter() - start))
    last, branches = _solve_model(table, m, model, xs, required, deadline)
    status = last.status
    stats = SearchStats(branches, time.perf_counter() - start, last.deterministic)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        chosen = [c.placement for c, v in zip(m.candidates, last.values, strict=True) if v]
        ordered = order_placements(table, chosen)
        proven = minimum and status == cp_model.OPTIMAL and len(ordered) == len(chosen)
        why = f"CP-SAT found a closure ({where})"
        if proven:
            why = f"CP-SAT proved {len(ordered)} cards optimal ({where})"
        return Closure("closable", certify(table, ordered), why, "cpsat", stats, proven)
    if status == cp_model.INFEASIBLE:
        limit = "" if budget == len(cards) else f" with at most {budget} cards"
        return Closure(
            "impossible",
            (),
            f"CP-SAT proved the complete model infeasible{limit} ({where})",
            "cpsat",
            stats,
        )
    return Closure(
        "unknown",
        (),
        (
            f"CP-SAT: the time limit ran out ({time_limit:g} s) ({where})"
            if status == cp_model.UNKNOWN and time_limit is not None
            else f"CP-SAT stopped with status {cp_model.CpSolver().status_name(status)} ({where})"
        ),
        "cpsat",
        stats,
    )


def _dead_front(m: ClosureModel, start: float) -> Closure | None:
    """``impossible`` when a front cell of a model of radius 2 or more has no placement
    covering it (none of any larger model will either); else None."""
    if m.radius >= 2:
        for t in m.front:
            if not m.covering.get(t):
                why = (
                    f"{DEAD} the front cell {t} in the model (radius {m.radius}): every"
                    " placement covering it lies within two steps, so none ever will"
                )
                stats = SearchStats(0, time.perf_counter() - start)
                return Closure("impossible", (), why, "cpsat", stats)
    return None


def _solve_model(
    table: Table,
    m: ClosureModel,
    model: cp_model.CpModel,
    xs: list[cp_model.IntVar],
    required: Required,
    deadline: float | None,
) -> tuple[Solved, int]:
    """Solve ``model`` (one worker, the seed, no probing, by ``deadline``), cutting off each
    solution whose required cards lie in a detached closed group and solving again; the last
    solve, and the branches of every solve."""
    index = {c.placement: i for i, c in enumerate(m.candidates)}
    branches = 0
    while True:
        last = _solve_once(model, xs, deadline)
        branches += last.branches
        if last.status not in (cp_model.OPTIMAL, cp_model.FEASIBLE) or not required:
            return last, branches
        chosen = [c.placement for c, v in zip(m.candidates, last.values, strict=True) if v]
        ordered: tuple[Placement, ...] = order_placements(table, chosen)
        if not missing(required, Counter(p.card for p in ordered)):
            return last, branches
        dropped = set(chosen) - set(ordered)
        model.add(sum(xs[index[p]] for p in dropped) <= len(dropped) - 1)


@dataclass(frozen=True, slots=True)
class Solved:
    """One CP-SAT solve: its status, branches, deterministic time and each literal's value."""

    status: cp_model.CpSolverStatus
    branches: int
    deterministic: float
    values: tuple[bool, ...]


def _solve_once(
    model: cp_model.CpModel, xs: list[cp_model.IntVar], deadline: float | None
) -> Solved:
    """Solve ``model`` once by ``deadline``. CP-SAT's own time limit is read too seldom while
    it loads and presolves a large model (a limit of 0.3 s took 1.3 s on 154,406 literals),
    so a model of :data:`FORK_LITERALS` or more is solved in a forked process killed at the
    deadline (``unknown`` then)."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = SEED
    solver.parameters.cp_model_probing_level = PROBING
    if deadline is not None:
        solver.parameters.max_time_in_seconds = max(0.01, deadline - time.perf_counter())

    def solve() -> Solved:
        status = solver.solve(model)
        feasible = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        values = tuple(bool(solver.value(x)) for x in xs) if feasible else ()
        return Solved(status, int(solver.num_branches), float(solver.deterministic_time), values)

    if deadline is None or not satclock.FORK or len(xs) < FORK_LITERALS:
        return solve()

    def work() -> bytes:  # pragma: no cover - runs in the forked process
        done = solve()
        head = array("d", [int(done.status), done.branches, done.deterministic]).tobytes()
        return head + bytes(done.values)

    data = satclock.forked_until(work, deadline)
    if data is None:
        return Solved(cp_model.UNKNOWN, 0, 0.0, ())
    status, branches, deterministic = array("d", data[:24])
    values = tuple(bool(b) for b in data[24:])
    return Solved(cp_model.CpSolverStatus(int(status)), int(branches), deterministic, values)
