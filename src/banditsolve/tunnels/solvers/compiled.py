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
from banditsolve.errors import SolverError
from banditsolve.tunnels.cards import KIND_INDEX, KIND_SHIFT, PORT_MASK, SUPER5, SUPER6
from banditsolve.tunnels.geometry import Placement, normalise
from banditsolve.tunnels.solvers import closure_core
from banditsolve.tunnels.solvers.bounds import lower_bound
from banditsolve.tunnels.solvers.inputs import Bounds
from banditsolve.tunnels.solvers.result import Closure, Removal, SearchStats, certify, settled
from banditsolve.tunnels.table import OPEN_MASK, Table

__all__ = ["MAX_BOARD_CELLS", "fits_core", "solve_compiled", "solve_compiled_maps"]

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
    if not _board_fits(cells, max_cards):
        return None
    area = None
    if bounds is not None:
        if max(map(abs, bounds)) > MAX_COORDINATE:
            return None
        area = (bounds[0], bounds[1], bounds[2], bounds[3])
    return Problem(cells, types, codes, groups, area, max_cards)


def _board_fits(cells: Sequence[tuple[int, int, int]], max_cards: int) -> bool:
    """True when the table's ``cells`` (at least one) lie within the core's coordinates and
    their span, with a margin of twice ``max_cards`` on each side, within its board."""
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    if max(map(abs, (*xs, *ys))) > MAX_COORDINATE:
        return False
    margin = 2 * (2 * max_cards + 3)
    return (max(xs) - min(xs) + 1 + margin) * (max(ys) - min(ys) + 1 + margin) <= MAX_BOARD_CELLS


def _check_cancel(cancel: bytearray | None) -> None:
    """:class:`ValueError` for a cancel flag without a byte."""
    if cancel is not None and len(cancel) < 1:
        raise ValueError("the cancel flag must hold at least one byte")


def _budget_note(budget: int, cards: Sequence[int]) -> str:
    """The words an impossible answer adds when the budget is below the cards given."""
    return "" if budget == len(cards) else f" with at most {budget} cards"


def _stopped_why(stopped: str, limits: Limits) -> str:
    """Why the core stopped without an answer (its ``stopped``): cancelled, a signal (Ctrl-C or
    SIGTERM, handed on to Python's handler, which may not raise), or a limit."""
    if stopped == "cancel":
        return "cancelled: another solver answered first"
    if stopped == "signal":
        return "stopped by a signal (Ctrl-C or SIGTERM) before an answer was proven"
    return limits.reason("nodes" if stopped == "nodes" else "time")


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
    _check_cancel(cancel)
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
        why = f"an exhaustive search found no closure{_budget_note(budget, cards)}"
        return Closure("impossible", (), why, "exact", stats(nodes))
    # (The core deepens one card at a time: every budget below the one it stopped in failed.)
    why = _stopped_why(got["stopped"], limits)
    return Closure("unknown", (), why, "exact", stats(nodes), at_least=got["lower_bound"])


def placements_of(
    raw: Sequence[tuple[int, int, int, int]], codes: Sequence[int]
) -> tuple[Placement, ...]:
    """The core's placements ``(type, x, y, quarter turns)`` as normalised placements."""
    return tuple(normalise(codes[k], x, y, q * 90) for k, x, y, q in raw)


# -- the map move (BA-CLOSE-2, csrc/closure/maps.cpp) -----------------------------------------

#: The kind flags the core reads (search.hpp): the ladder, Bandido's super card, a map, a super
#: card's port set.
KIND_LADDER, KIND_BANDIDO_SUPER, KIND_MAP, KIND_SUPER_MASK = 1, 2, 4, 8
#: The goals in the core's order.
CORE_GOALS = ("close", "ladder", "join")
#: Each map reading (BA-OPT-1..4: ``map_removes``, ``map_split``, ``map_reopen``,
#: ``map_short``): its default, then the value the core's flag stands for.
READING_VALUES = (
    ("not_special", "not_super"),
    ("edges", "tunnels"),
    ("allowed", "forbidden"),
    ("as_many", "none"),
    ("loses", "illegal", "loses_at_once"),
)


def kind_flags(code: int) -> int:
    """A card code's kind flags, as the core reads them."""
    kind = code >> KIND_SHIFT
    flags = 0
    if kind == KIND_INDEX["ladder"]:
        flags |= KIND_LADDER
    if kind == KIND_INDEX["bandido_super"]:
        flags |= KIND_BANDIDO_SUPER
    if kind == KIND_INDEX["map"]:
        flags |= KIND_MAP
    if code & PORT_MASK in (SUPER6, SUPER5):
        flags |= KIND_SUPER_MASK
    return flags


def reading_flags(readings: Sequence[str]) -> tuple[int, int, int, int, int]:
    """The five readings (the map's four, the hole's) as the core's flags (the hole's: 0 for
    ``loses``, else no line makes a hole); :class:`SolverError` for a value not a
    reading's."""
    if len(readings) != len(READING_VALUES):
        raise SolverError("internal error: a line with maps takes five readings")
    flags = []
    for value, allowed in zip(readings, READING_VALUES, strict=True):
        if value not in allowed:
            raise SolverError(f"internal error: {value!r} is none of {allowed}")
        flags.append(allowed.index(value))
    return flags[0], flags[1], flags[2], flags[3], flags[4]


def map_data(
    table: Table, codes: Sequence[int], readings: Sequence[str], goal: str
) -> tuple[
    list[int], list[tuple[int, int, int, int, int]], tuple[int, int, int, int, int], int
]:
    """The core's map data (search.hpp's ``MapRules``): each type's kind flags, the table's
    cards (their two cells and kind flags, in the order laid), the readings' flags and the
    goal; :class:`SolverError` for a reading or goal the rules do not have."""
    if goal not in CORE_GOALS:
        raise SolverError(f"internal error: no goal {goal!r}")
    table_cards = []
    for p in table.history:
        (ax, ay), (bx, by) = p.cells
        table_cards.append((ax, ay, bx, by, kind_flags(p.card)))
    kinds = [kind_flags(c) for c in codes]
    return kinds, table_cards, reading_flags(readings), CORE_GOALS.index(goal)


def core_removals(table: Table, readings: Sequence[str]) -> list[tuple[int, ...]] | None:
    """The removals the core's map move allows on ``table``, whose last card is the map just
    laid (sorted indices into ``table.history``, in the core's order); None when the table is
    too large for the core. For the tests, which compare them with
    :func:`~banditsolve.tunnels.bandida.maps.removal_indices`."""
    problem = problem_of(table, (), 0, None, ())
    if problem is None:
        return None
    got = closure_core.removals(problem.cells, map_data(table, (), readings, "close"))
    return [tuple(ids) for ids in got]


def solve_compiled_maps(
    table: Table,
    cards: tuple[int, ...],
    *,
    goal: str,
    readings: Sequence[str],
    max_cards: int | None,
    bounds: Bounds | None,
    limits: Limits,
    required: Sequence[frozenset[int]] = (),
    cancel: bytearray | None = None,
) -> Closure | None:
    """The compiled search with the map move (BA-CLOSE-2): lines that lay the map cards among
    ``cards`` (those of kind map) with every removal ``readings`` allow, and lines without
    them; ``goal`` checked on the final table. Closable: the placements named by ``cards``'
    codes with the removals (:class:`Removal`, the cards by the placements that laid them),
    not yet replayed (the caller names the real cards, then replays them); impossible: every
    line within the budget searched. None when the question is too large for the core."""
    start = time.perf_counter()
    budget = len(cards) if max_cards is None else min(max_cards, len(cards))
    map_data(table, (), readings, goal)  # (the readings and the goal checked first)
    if not table.exit_count:
        return None
    problem = problem_of(table, cards, budget, bounds, required)
    if problem is None:
        return None
    _check_cancel(cancel)
    maps = map_data(table, problem.codes, readings, goal)
    got = closure_core.solve(
        problem.cells,
        problem.types,
        problem.required,
        problem.bounds,
        problem.max_cards,
        min(1, budget),
        limits.node_limit or 0,
        limits.time_limit or 0.0,
        cancel,
        maps,
    )
    stats = SearchStats(got["nodes"], time.perf_counter() - start)
    status = got["status"]
    if status == "closable":
        placements = placements_of(got["placements"], problem.codes)
        removals = _removals_of(got["removals"], table.history, placements)
        why = f"{len(placements)} cards close it"
        return Closure("closable", placements, why, "exact", stats, removals=removals)
    if status == "impossible":
        why = (
            "an exhaustive search of every line, each map laid in every way with every"
            f" removal its reading allows, found no closure{_budget_note(budget, cards)}"
        )
        return Closure("impossible", (), why, "exact", stats)
    return Closure("unknown", (), _stopped_why(got["stopped"], limits), "exact", stats)


def _removals_of(
    raw: Sequence[tuple[int, Sequence[int]]],
    history: Sequence[Placement],
    placements: tuple[Placement, ...],
) -> tuple[Removal, ...]:
    """The core's removals ``(after, indices)`` as :class:`Removal`: each index names a card of
    ``history`` or, past it, of ``placements``; :class:`SolverError` for one out of range."""
    n = len(history)
    removals = []
    for after, ids in raw:
        if not 1 <= after <= len(placements) or not all(0 <= i < n + after for i in ids):
            raise SolverError("internal error: the core named a removal out of range")
        gone = tuple(history[i] if i < n else placements[i - n] for i in ids)
        removals.append(Removal(after, gone))
    return tuple(removals)
