"""The Python reference closure search's driver (the ``python`` backend, and the compiled
core's fallback for a question too large for it): iterative deepening on the number of cards,
each level one :class:`~banditsolve.tunnels.solvers.exact.ExactSearch` run, and a level that
promises to be long (the previous one took
:data:`~banditsolve.tunnels.solvers.parallel.SPLIT_AFTER` seconds) shared among forked
processes (``workers``)."""

from __future__ import annotations

import time

from banditsolve.core.limits import LimitReached, Limits
from banditsolve.tunnels.solvers import parallel
from banditsolve.tunnels.solvers.bounds import lower_bound
from banditsolve.tunnels.solvers.exact import ExactSearch
from banditsolve.tunnels.solvers.goals import Required
from banditsolve.tunnels.solvers.inputs import Bounds
from banditsolve.tunnels.solvers.result import Closure, SearchStats, certify, settled
from banditsolve.tunnels.table import Table

__all__ = ["JUMP_GAP", "JUMP_NODES", "solve_exact"]

#: can_close goes straight to the whole budget once a level of the deepening has cost this many
#: nodes and at most JUMP_GAP levels are left (see :func:`solve_exact`).
JUMP_NODES = 500
JUMP_GAP = 2

def solve_exact(
    table: Table,
    cards: tuple[int, ...],
    *,
    max_cards: int | None,
    minimum: bool,
    bounds: Bounds | None,
    limits: Limits,
    workers: int = 1,
    required: Required = (),
) -> Closure:
    """The exact backend on checked inputs: iterative deepening of :class:`ExactSearch`
    (``required``: groups of codes of which a closure must lay one card each)."""
    start = time.perf_counter()
    budget = len(cards) if max_cards is None else min(max_cards, len(cards))

    def stats(nodes: int) -> SearchStats:
        return SearchStats(nodes, time.perf_counter() - start)

    early = settled(table, cards, bounds, budget, required, "python", stats(0))
    if early is not None:
        return early
    search = ExactSearch(table, cards, bounds, limits, required)
    low = max(lower_bound(table, cards, bounds) or 1, len(required))
    floor = low
    try:
        # Iterative deepening on the number of cards, for both questions: the shallowest
        # closure is found long before a deep search would wander its way there, and the
        # bounds proven at each level stay memoised for the next (a level the proven bound
        # already rules out is skipped). A closure found this way is also the minimum, since
        # every smaller budget was ruled out. For can_close alone, once a level has cost
        # JUMP_NODES nodes and at most JUMP_GAP levels remain, the search goes straight to the
        # whole budget (the last level costs several times all those below it); the closure it
        # finds is a proven minimum only when it has as few cards as the proven bound. Both
        # choices depend on node counts, never on time, so the answer is the same everywhere.
        # A level is shared among ``workers`` processes once the previous one took long
        # enough (SPLIT_AFTER seconds) to be worth the forks; never with a node limit, whose
        # count must not depend on the machine.
        b = low
        last = 0.0
        while b <= budget:
            level = time.perf_counter()
            before = search.nodes
            if workers > 1 and limits.node_limit is None and last >= parallel.SPLIT_AFTER:
                found = parallel.run_split(search, b, workers)
            else:
                found = search.run(b)
            last = time.perf_counter() - level
            if isinstance(found, tuple):
                n = len(found)
                why = _closed_why(n, low, floor)
                return Closure(
                    "closable",
                    certify(table, found),
                    why,
                    "python",
                    stats(search.nodes),
                    n == floor,
                )
            floor = max(b + 1, found)
            b = floor
            if (
                not minimum
                and b < budget <= b + JUMP_GAP - 1
                and search.nodes - before >= JUMP_NODES
            ):
                b = budget
    except LimitReached as exc:
        # Every level below ``floor`` was searched to the end (a level skipped by the jump to
        # the whole budget was not, so not ``b``).
        return Closure(
            "unknown", (), exc.reason, "python", stats(search.nodes), at_least=floor
        )
    limit = "" if budget == len(cards) else f" with at most {budget} cards"
    return Closure(
        "impossible",
        (),
        f"an exhaustive search found no closure{limit}",
        "python",
        stats(search.nodes),
    )


def _closed_why(n: int, low: int, floor: int) -> str:
    """Why a closure of ``n`` cards is the answer: the counting bound ``low`` or the proven
    ``floor`` rules out fewer, or at least ``floor`` are needed."""
    if n == low:
        return f"{n} cards close it; counting bounds rule out fewer"
    if n == floor:
        return f"{n} cards close it; an exhaustive search proved that fewer cannot"
    return f"{n} cards close it; at least {floor} are needed"
