"""The compiled closure core (``closure_core``, C++ in ``csrc/closure``) behind the same
answers as the Python reference search (:mod:`~banditsolve.tunnels.solvers.exact`).

The core runs the reference's argument (see ``csrc/closure/search.cpp``): a fail-first
depth-first search that covers one front cell per node in every way the cards allow, on one
mutable board, with the same counting, parity, colour-balance and covering bounds and a memo of
proven lower bounds per set of cards laid, deepened one card at a time from the static lower
bound. So a closure it finds is a proven minimum, and "impossible" is an exhausted search.

Everything it is given is checked here first (:func:`problem_of`), so no input reaches native
code that it was not written for: the table's cells and the card types become small ints, the
board it allocates is bounded (:data:`MAX_BOARD_CELLS`), and a question too large for it goes
to the Python reference instead. The search releases the GIL while it runs; it honours the
time limit, the node limit (its own nodes) and a cancel flag (a one-byte buffer, set to stop).
Its placements come back named by the real cards, normalised, and replayed through the rules
(:func:`~banditsolve.tunnels.solvers.result.certify`) before anyone sees them.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from banditsolve.core.limits import Limits
from banditsolve.tunnels.cards import PORT_MASK
from banditsolve.tunnels.geometry import Placement, normalise
from banditsolve.tunnels.solvers import closure_core
from banditsolve.tunnels.solvers.bounds import lower_bound
from banditsolve.tunnels.solvers.inputs import Bounds
from banditsolve.tunnels.solvers.result import Closure, SearchStats, certify, settled
from banditsolve.tunnels.table import OPEN_MASK, Table

__all__ = ["MAX_BOARD_CELLS", "fits_core", "solve_compiled"]

#: The most cells the core's board may have (one byte each, three arrays, and an int): the
#: table's span plus a margin of twice the cards on each side. 16 M cells is about 112 MB, well
#: under the 1 GB a solve may use; a larger question (a made-up one with hundreds of cards)
#: runs on the Python reference.
MAX_BOARD_CELLS = 1 << 24
#: The most card types and cards the core takes (its counts are ints; no real deck comes near).
MAX_CARDS = 4096
#: Coordinates the core takes (the table's cells): far beyond any table a game can lay.
MAX_COORDINATE = 1 << 20


@dataclass(frozen=True, slots=True)
class Problem:
    """The core's arguments, checked: the table's cells ``(x, y, open sides)``, the card types
    ``(port mask, count)`` with the code each stands for, the required groups as type indices,
    the play area, and the budget."""

    cells: tuple[tuple[int, int, int], ...]
    types: tuple[tuple[int, int], ...]
    codes: tuple[int, ...]
    required: tuple[tuple[int, ...], ...]
    bounds: tuple[int, int, int, int] | None
    max_cards: int


def problem_of(
    table: Table,
    cards: Sequence[int],
    max_cards: int,
    bounds: Bounds | None,
    required: Sequence[frozenset[int]],
) -> Problem | None:
    """The core's arguments for the question, or None when it is too large for the core."""
    cells = tuple((x, y, v & OPEN_MASK) for (x, y), v in table.packed.items())
    counts = Counter(cards)
    codes = tuple(sorted(counts))
    index = {code: i for i, code in enumerate(codes)}
    types = tuple((code & PORT_MASK, counts[code]) for code in codes)
    groups = tuple(tuple(sorted(index[c] for c in group if c in index)) for group in required)
    if not cells or len(cards) > MAX_CARDS or not 0 <= max_cards <= len(cards):
        return None
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    if max(map(abs, (*xs, *ys))) > MAX_COORDINATE:
        return None
    margin = 2 * (2 * max_cards + 3)
    if (max(xs) - min(xs) + 1 + margin) * (max(ys) - min(ys) + 1 + margin) > MAX_BOARD_CELLS:
        return None
    area = None
    if bounds is not None:
        if max(map(abs, bounds)) > MAX_COORDINATE:
            return None
        area = (bounds[0], bounds[1], bounds[2], bounds[3])
    return Problem(cells, types, codes, groups, area, max_cards)


def fits_core(
    table: Table,
    cards: Sequence[int],
    max_cards: int | None,
    bounds: Bounds | None,
) -> bool:
    """True when the compiled core takes this question (see :func:`problem_of`)."""
    budget = len(cards) if max_cards is None else min(max_cards, len(cards))
    return problem_of(table, cards, budget, bounds, ()) is not None


def solve_compiled(
    table: Table,
    cards: tuple[int, ...],
    *,
    max_cards: int | None,
    bounds: Bounds | None,
    limits: Limits,
    required: Sequence[frozenset[int]] = (),
    cancel: bytearray | None = None,
) -> Closure | None:
    """The compiled backend on checked inputs (as :func:`~banditsolve.tunnels.solvers.closure.
    solve_exact` takes them): the answer, with a proven minimum whenever it is closable; None
    when the question is too large for the core (the caller runs the Python reference).
    ``cancel``: a buffer whose first byte, once set (from another thread), stops the search
    with ``unknown``."""
    start = time.perf_counter()
    budget = len(cards) if max_cards is None else min(max_cards, len(cards))

    def stats(nodes: int) -> SearchStats:
        return SearchStats(nodes, time.perf_counter() - start)

    problem = problem_of(table, cards, budget, bounds, required) if table.exit_count else None
    if table.exit_count and problem is None:
        return None
    early = settled(table, cards, bounds, budget, required, "exact", stats(0))
    if early is not None or problem is None:
        return early
    low = max(lower_bound(table, cards, bounds) or 1, len(required))
    if cancel is not None and len(cancel) < 1:
        raise ValueError("the cancel flag must hold at least one byte")
    got = closure_core.solve(
        problem.cells,
        problem.types,
        problem.required,
        problem.bounds,
        problem.max_cards,
        low,
        limits.node_limit or 0,
        limits.time_limit or 0.0,
        cancel,
    )
    nodes = got["nodes"]
    status = got["status"]
    if status == "closable":
        placements = placements_of(got["placements"], problem.codes)
        n = len(placements)
        why = (
            f"{n} cards close it; counting bounds rule out fewer"
            if n == low
            else f"{n} cards close it; an exhaustive search proved that fewer cannot"
        )
        return Closure("closable", certify(table, placements), why, "exact", stats(nodes), True)
    if status == "impossible":
        limit = "" if budget == len(cards) else f" with at most {budget} cards"
        why = f"an exhaustive search found no closure{limit}"
        return Closure("impossible", (), why, "exact", stats(nodes))
    stopped = got["stopped"]
    if stopped == "cancel":
        why = "cancelled: another solver answered first"
    else:
        why = limits.reason("nodes" if stopped == "nodes" else "time")
    return Closure("unknown", (), why, "exact", stats(nodes))


def placements_of(
    raw: Sequence[tuple[int, int, int, int]], codes: Sequence[int]
) -> tuple[Placement, ...]:
    """The core's placements ``(type, x, y, quarter turns)`` as normalised placements."""
    return tuple(normalise(codes[k], x, y, q * 90) for k, x, y, q in raw)
