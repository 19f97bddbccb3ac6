"""The closure question as a finite model, shared by the CP-SAT and Z3 backends.

The model lives on a finite set of empty cells, the *region*: the empty cells (inside the play
area, if bounded) within distance ``r`` of a front cell, walking through empty cells only. With
a budget of ``k`` cards and ``F`` front cells, one card covers at most two front cells, so at
least ``ceil((F - 2) / 2)`` cards cover front cells other than those of any one connected group
of new cards; that group therefore has at most ``s = k - ceil((F - 2) / 2)`` cards, each joined
to the network through the group, and every cell it covers lies within ``2 s - 1`` steps of a
front cell. With ``r = 2 s - 1`` the model holds every closure that uses at most ``k`` cards:
an infeasible model proves that none exists (complete, not a heuristic bound).

Variables: one Boolean per candidate placement (card type, anchor cell, rotation) whose two
cells lie in the region and whose edges already match every card on the table and open onto no
empty cell outside the region. Constraints: each region cell covered at most once; each front
cell covered exactly once; per neighbouring region cells, the opening on one side equals the
opening on the other (opening meets opening, wall meets wall, and an opening into an uncovered
cell is ruled out); the count of each card type at most the cards given; the total at most
``k``. A solution may hold a detached closed group of cards; :func:`order_placements` lays the
cards in an order reachable from the network and drops such a group (it closes no exit).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from banditsolve.tunnels.cards import PORT_MASK
from banditsolve.tunnels.geometry import ROTATIONS, STEP, Cell, Placement, normalise, orientation
from banditsolve.tunnels.solvers.inputs import Bounds, inside
from banditsolve.tunnels.solvers.result import Closure, SearchStats
from banditsolve.tunnels.table import Table, fits

#: Above this many placement literals a backend gives up (``unknown``) rather than build.
MAX_LITERALS = 250_000
#: How the reason of a model refused for its size begins.
TOO_LARGE = "the model would need more than"


@dataclass(frozen=True, slots=True)
class Candidate:
    """One placement literal: the placement, its two cells and their open sides."""

    placement: Placement
    cells: tuple[Cell, Cell]
    opens: tuple[int, int]


@dataclass(frozen=True, slots=True)
class ClosureModel:
    """Region, candidates, and the index structures the backends turn into constraints."""

    region: frozenset[Cell]
    front: tuple[Cell, ...]
    radius: int
    candidates: tuple[Candidate, ...]
    #: region cell -> indices of candidates covering it
    covering: dict[Cell, tuple[int, ...]]
    #: (cell, side) with the neighbour in the region -> candidates covering cell open on side
    opening: dict[tuple[Cell, int], tuple[int, ...]]
    #: (cell, side, neighbour) for every pair of neighbouring region cells, once each
    edges: tuple[tuple[Cell, int, Cell], ...]
    #: card code -> (count available, candidate indices)
    by_type: dict[int, tuple[int, tuple[int, ...]]]
    budget: int


def region_radius(table: Table, budget: int) -> int:
    """The distance from the front within which every closure of ``budget`` cards lies."""
    front = len(table.front_rim)
    others = max(0, (front - 2 + 1) // 2)
    return max(0, 2 * (budget - others) - 1)


#: From this many placement literals a model is solved (CP-SAT) or checked (Z3) in a forked
#: process killed at the deadline (each reads its own time limit too seldom on large models);
#: smaller ones, quick to stop, in this process.
FORK_LITERALS = 1000
#: The seconds per literal that indexing a model's literals by cell takes (:func:`cover_index`:
#: 1.7-2.5 us measured on 1,613 to 17,168 literals).
INDEX_SECONDS = 2.5e-6
#: The seconds per cell or placement that freeing a model cut short takes (its region, the
#: placements seen: 2-4 ms after 24,000 cells, a whole Bandida pile's region), kept from the
#: time limit.
REGION_FREE_SECONDS = 2e-7
#: The seconds per literal that freeing a model and its solver's model takes (CP-SAT: 0.5 us
#: measured on 21,800 to 207,410 literals; Z3: 0.5-0.8 us on 16,910 and 21,800), kept from
#: the time limit.
FREE_SECONDS = 5e-7


class OutOfTime(Exception):
    """The time limit ran out while a solver's model was built (CP-SAT's, Z3's)."""


def late(deadline: float | None, cost: float = 0.0) -> bool:
    """True when ``deadline`` (a ``perf_counter`` time; None: none) passes before a part of a
    model that takes ``cost`` seconds, and cannot be stopped once begun, would end."""
    return deadline is not None and time.perf_counter() + cost > deadline


def check_deadline(deadline: float | None, cost: float = 0.0) -> None:
    """:class:`OutOfTime` when the next part of a model, of ``cost`` seconds, is :func:`late`."""
    if late(deadline, cost):
        raise OutOfTime


class ModelTooLarge(Exception):
    """Raised by :func:`build` when the model would exceed its literal limit (``literals``
    set to it) or its deadline (``literals`` None)."""

    def __init__(self, literals: int | None) -> None:
        super().__init__(literals)
        self.literals = literals


def build(
    table: Table,
    cards: Sequence[int],
    budget: int,
    bounds: Bounds | None = None,
    literal_limit: int | None = None,
    deadline: float | None = None,
) -> ClosureModel:
    """The finite model of closing ``table`` with at most ``budget`` of ``cards``; stops with
    :class:`ModelTooLarge` as soon as it holds more than ``literal_limit`` candidates or the
    clock passes ``deadline`` (a ``time.perf_counter`` value)."""
    front = tuple(sorted(table.front_rim))
    radius = region_radius(table, budget)
    region = region_of(table, front, radius, bounds, deadline)
    counts: dict[int, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    candidates: list[Candidate] = []
    by_type_lists: dict[int, list[int]] = {code: [] for code in counts}
    for code in sorted(counts):
        for cand in candidates_of(table, region, code, deadline):
            by_type_lists[code].append(len(candidates))
            candidates.append(cand)
            if literal_limit is not None and len(candidates) > literal_limit:
                raise ModelTooLarge(literal_limit)
    # (The index cannot be stopped once begun: begun only with its time.)
    if late(deadline, INDEX_SECONDS * len(candidates)):
        raise ModelTooLarge(None)
    covering, opening = cover_index(region, candidates)
    return ClosureModel(
        region,
        front,
        radius,
        tuple(candidates),
        covering,
        opening,
        region_edges(region),
        {code: (counts[code], tuple(v)) for code, v in by_type_lists.items()},
        budget,
    )


def region_of(
    table: Table,
    front: Sequence[Cell],
    radius: int,
    bounds: Bounds | None,
    deadline: float | None = None,
) -> frozenset[Cell]:
    """The empty cells (inside the play area ``bounds``) within ``radius`` steps of a front
    cell, walking through such cells only; raises :class:`ModelTooLarge` once the clock passes
    ``deadline`` (checked every 1024 cells: thousands of cards make a region of millions)."""
    occupied = table.packed

    def allowed(c: Cell) -> bool:
        return c not in occupied and inside(c, bounds)

    dist: dict[Cell, int] = {}
    queue: deque[Cell] = deque()
    for t in front:
        if allowed(t):
            dist[t] = 0
            queue.append(t)
    walked = 0
    while queue:
        walked += 1
        if not walked & 1023 and late(deadline, walked * REGION_FREE_SECONDS):
            raise ModelTooLarge(None)
        c = queue.popleft()
        d = dist[c]
        if d >= radius:
            continue
        for dx, dy in STEP:
            n = (c[0] + dx, c[1] + dy)
            if n not in dist and allowed(n):
                dist[n] = d + 1
                queue.append(n)
    return frozenset(dist)


def candidates_of(
    table: Table, region: frozenset[Cell], code: int, deadline: float | None
) -> Iterator[Candidate]:
    """The placement literals of card ``code``: each placement (in normal form, once) whose
    two cells lie in ``region`` and whose edges fit the table, opening onto no empty cell
    outside the region; raises :class:`ModelTooLarge` once the clock passes ``deadline``
    (checked every 256 cells, some 1 ms: a whole pile's region holds tens of thousands)."""
    occupied = table.packed
    rim = table.rim
    mask = code & PORT_MASK
    cells = sorted(region)
    seen: set[Placement] = set()
    for rotation in ROTATIONS:
        o = orientation(mask, rotation)
        for n, a in enumerate(cells):
            if not n & 255 and late(deadline, (len(cells) + len(seen)) * REGION_FREE_SECONDS):
                raise ModelTooLarge(None)
            b = (a[0] + o.b_step[0], a[1] + o.b_step[1])
            if b not in region:
                continue
            p = normalise(code, a[0], a[1], rotation)
            if p in seen:
                continue
            seen.add(p)
            if _static_ok(occupied, rim, region, ((a, o.open_a), (b, o.open_b))):
                yield Candidate(p, (a, b), (o.open_a, o.open_b))


def cover_index(
    region: frozenset[Cell], candidates: Sequence[Candidate]
) -> tuple[dict[Cell, tuple[int, ...]], dict[tuple[Cell, int], tuple[int, ...]]]:
    """Per region cell, the candidates covering it; per (cell, side), the candidates covering
    the cell open on that side (:attr:`ClosureModel.covering`, :attr:`ClosureModel.opening`)."""
    covering: dict[Cell, list[int]] = {c: [] for c in region}
    opening: dict[tuple[Cell, int], list[int]] = {}
    for i, cand in enumerate(candidates):
        for cell, open4 in zip(cand.cells, cand.opens, strict=True):
            covering[cell].append(i)
            for side in range(4):
                if open4 >> side & 1:
                    opening.setdefault((cell, side), []).append(i)
    return (
        {c: tuple(v) for c, v in covering.items()},
        {k: tuple(v) for k, v in opening.items()},
    )


def region_edges(region: frozenset[Cell]) -> tuple[tuple[Cell, int, Cell], ...]:
    """``(cell, side, neighbour)`` for every pair of neighbouring region cells, once each."""
    edges: list[tuple[Cell, int, Cell]] = []
    for c in sorted(region):
        for side in (1, 2):  # east and south: each pair once
            dx, dy = STEP[side]
            n = (c[0] + dx, c[1] + dy)
            if n in region:
                edges.append((c, side, n))
    return tuple(edges)


def _static_ok(
    occupied: Mapping[Cell, int],
    rim: Mapping[Cell, int],
    region: frozenset[Cell],
    squares: tuple[tuple[Cell, int], tuple[Cell, int]],
) -> bool:
    """Each square's edges fit the cards already laid (the table's edge rule, :func:`fits`),
    and no opening faces an empty cell outside the region."""
    for cell, open4 in squares:
        if not fits(open4, rim.get(cell, 0)):
            return False
        for side in range(4):
            if open4 >> side & 1:
                dx, dy = STEP[side]
                n = (cell[0] + dx, cell[1] + dy)
                if n not in occupied and n not in region:
                    return False
    return True


def order_placements(table: Table, chosen: Sequence[Placement]) -> tuple[Placement, ...]:
    """The chosen placements in an order legal from ``table`` (breadth first from the network);
    cards of a detached closed group are dropped. Every edge of the final layout must match."""
    pending = list(chosen)
    order: list[Placement] = []
    current = table
    progress = True
    while pending and progress:
        progress = False
        rest: list[Placement] = []
        for p in pending:
            if current.is_legal(p):
                current = current.place(p, check=False)
                order.append(p)
                progress = True
            else:
                rest.append(p)
        pending = rest
    return tuple(order)


def prepare(
    table: Table,
    cards: Sequence[int],
    max_cards: int | None,
    bounds: Bounds | None,
    backend: str,
    literal_limit: int,
    start: float,
    time_limit: float | None = None,
) -> tuple[int, ClosureModel] | Closure:
    """The card budget and the model of a closure question for a solver backend, or the answer
    at once: closable when no exit is left, unknown when the model would be too large or the
    time limit (counted from ``start``) runs out while it is built."""
    budget = len(cards) if max_cards is None else min(max_cards, len(cards))
    if not table.exit_count:
        return Closure("closable", (), "the table has no exit", backend, SearchStats(), True)
    deadline = None if time_limit is None else start + time_limit
    try:
        m = build(table, cards, budget, bounds, literal_limit, deadline)
    except ModelTooLarge as exc:
        why = "the time limit ran out while the model was built"
        if exc.literals is not None:
            why = (
                f"{TOO_LARGE} {exc.literals} placement literals, the most "
                f"the {backend} backend takes"
            )
        return Closure("unknown", (), why, backend, SearchStats(0, time.perf_counter() - start))
    return budget, m
