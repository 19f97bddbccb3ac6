"""Closure on a SAT solver: CaDiCaL through python-sat (:func:`solve_sat`).

The solver is asked "is there a closure of at most ``b`` cards within radius ``r`` of the
front?", ``r`` growing. The *region* of radius ``r``: the empty cells (inside the play area, if
bounded) within ``r`` steps of a front cell (an empty cell an exit runs into), walking through
such cells only.

**The formula** (:class:`Layers`). One Boolean per candidate placement whose two cells lie in
the region, whose edges fit the table (BD-PLACE-2) and which opens onto no empty cell outside
the region. Each front cell covered exactly once, every other cell at most once; across each
edge of two region cells, an opening on one side if and only if one on the other; each card
type at most its count (a sequential counter), all cards at most ``b`` (a totalizer over the
counters, bounded by an assumption the minimum tightens); one card of each ``required`` group.
The formula grows with the radius in one solver; a disjunction whose literals may still grow
(a front cell's covers, a cell's openings on one side, a required group) is a chain whose open
end the radius's guard (an assumption) holds false, closed for good once every candidate
covering its cell is in (they lie within two steps of it).

**Order and connectivity: a replay.** A model's placements are laid breadth first from the
network (:func:`~banditsolve.tunnels.solvers.model.order_placements`; every edge matches, so
each card joined to the network through openings meets an exit when laid, BD-PLACE-3), and
the certificate is replayed by the rules (:func:`~banditsolve.tunnels.solvers.result.certify`).
What is left is a *detached group*, whose openings all meet its own: it covers no front cell
and closes no exit. When the cards
laid miss a required group, the detached cards are cut ("not all of these") and the solver
asked again: no legal sequence lays a whole detached group (its first card would have to meet
an exit, and its openings face only its own cells), so no closure is lost.

**Why the complete radius is complete (BD-CLOSE-8).** Take a table with ``F`` front cells and
a closure of ``k`` cards; group its cards by touching cells. The first card laid of a group
meets an exit of a card laid before, which touches it, so is a table card: every group covers
a front cell. A group ``G`` of ``s`` cards covers ``f >= 1`` front cells; all ``F`` must be
covered, two at most per card, so ``s <= k - ceil((F - f) / 2)``. From any cell of ``G`` a
shortest path through ``G`` to a front cell of ``G`` crosses only its non-front cells: at most
``2 s - f <= 2 k - 2 ceil((F - f) / 2) - f <= 2 k - F`` steps, through cells that were empty
and in the play area. So every card of the closure lies within ``R(k) = 2 k - F``, and opens
only onto cards (no exit is left): the formula of radius ``R(b)`` holds every closure of at
most ``b`` cards, and is unsatisfiable only if none exists. An unsatisfiable formula of radius
``r`` and bound ``b`` rules out every closure of ``k <= min(b, (r + F) // 2)`` cards, and one
of a region that no longer grows (no allowed empty cell just outside) every closure.

**The search** (:class:`SatSearch`): radii ``1, 2, 3, 4, 5, 7, 9, 12, ...`` (:func:`next_radius`)
up to ``R(budget)``, each asked for at most the budget; ``can_close`` stops at the first closure.
The minimum tightens the total after each closure, then asks ``R`` of one card fewer, which
alone can prove it the fewest. ``floor`` (the fewest cards still possible) starts at the
counting bounds and grows with each unsatisfiable formula; a closure of ``floor`` cards is a
proven minimum. ``impossible`` only from ``R(budget)`` (or a region that no longer grows)
unsatisfiable, nothing cut short. Under a time limit, a radius short of ``R(budget)`` gets
:data:`STAGE_SHARE` of the time left, then a larger one (holding its closures) is asked.

**Limits.** pysat's CaDiCaL cannot be interrupted (``interrupt`` is unsupported; it holds the
GIL while it solves), and conflict budgets restart its search (a formula solved in 3.3 s took
35 s in slices of 2,000 conflicts). So each call runs in a forked process holding a copy of
the solver (:mod:`~banditsolve.tunnels.solvers.satclock`), killed at the time limit, on
``cancel`` or at the radius's share, and with its caller, while this process waits without
the GIL; the node limit is its conflict budget (``nodes``: the conflicts of the calls that
ended). The limits are checked while the formula is built; freeing it is reserved from the
time limit.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

from pysat.card import ITotalizer
from pysat.solvers import Solver, SolverNames

from banditsolve.core.limits import Limits
from banditsolve.core.text import plural, shown
from banditsolve.errors import BanditsolveError, InternalError, SolverError
from banditsolve.tunnels.cards import PORT_MASK, as_code
from banditsolve.tunnels.geometry import STEP, Cell, Placement, opposite, shapes
from banditsolve.tunnels.solvers.bounds import lower_bound, static_reason
from banditsolve.tunnels.solvers.goals import Required, missing
from banditsolve.tunnels.solvers.inputs import Bounds, check_bounds, check_limits, inside
from banditsolve.tunnels.solvers.model import ModelTooLarge, order_placements
from banditsolve.tunnels.solvers.result import Closure, SearchStats, Status, certify
from banditsolve.tunnels.solvers.satclock import Clock, Stopped
from banditsolve.tunnels.table import FITS, Table

#: The backend's name in answers.
BACKEND = "sat"
#: The python-sat solver: CaDiCaL 1.9.5 (``cadical153`` where an older python-sat lacks it).
SOLVER = "cadical195" if hasattr(SolverNames, "cadical195") else "cadical153"
#: Above this many placement literals, or variables in all (or a total's counter that large),
#: a formula is not built (``unknown``): the regression set's largest has 140,000 and 650,000.
MAX_LITERALS = 300_000
MAX_VARIABLES = 1_500_000
#: The first radius asked (closures near the table are the common case and the cheapest).
FIRST_RADIUS = 1
#: The share of the time left that a radius short of the complete one may take.
STAGE_SHARE = 1 / 3
#: While the formula grows, the limits are checked every this many cells, literals and clauses;
#: clauses are handed to the solver once this many are written (Python's lists cost more).
CHECK_CELLS, CHECK_CLAUSES, FLUSH_CLAUSES = 16, 4096, 65_536
#: Seconds kept from the time limit per clause and literal, to free them at the end (about
#: 0.17 s freed the solver of 1.3 million clauses).
RESERVE_PER_CLAUSE = 2e-7
RESERVE_PER_LITERAL = 1e-6


def complete_radius(front: int, cards: int) -> int:
    """``R(k) = 2 k - F``: every closure of at most ``cards`` cards lies within this many steps
    of the ``front`` front cells (negative: no closure of so few cards covers the front)."""
    return 2 * cards - front


def next_radius(radius: int) -> int:
    """The radius asked after ``radius``: one more while small, then a quarter more."""
    return radius + 1 + radius // 4


# -- the formula, grown one radius at a time in one solver ----------------------------------


class Row(NamedTuple):
    """One way a card covers a cell ``t``, relative to ``t``: the open sides on ``t``, the
    other cell's offset and open sides, square A's offset and the rotation laid, the offsets
    of the cells its openings face, and its openings as ``(square, side)`` (square 0 is
    ``t``, 1 the other cell)."""

    t_open: int
    other: Cell
    o_open: int
    anchor: Cell
    rotation: int
    faced: tuple[Cell, ...]
    openings: tuple[tuple[int, int], ...]


@cache
def rows_of(mask: int) -> tuple[Row, ...]:
    """The :class:`Row` of each way a card of canonical port mask ``mask`` covers a cell
    (:func:`~banditsolve.tunnels.geometry.shapes`)."""
    out = []
    for sh in shapes(mask):
        other = STEP[sh.side]
        openings = tuple(
            (square, side)
            for square, open4 in enumerate((sh.t_open, sh.o_open))
            for side in range(4)
            if open4 >> side & 1
        )
        at = ((0, 0), other)
        facing = tuple((at[q][0] + STEP[d][0], at[q][1] + STEP[d][1]) for q, d in openings)
        out.append(Row(sh.t_open, other, sh.o_open, sh.a_step, sh.rotation, facing, openings))
    return tuple(out)


@dataclass(slots=True)
class Chain:
    """A disjunction whose literals keep coming as the radius grows: ``head`` or some literal
    of the chain. Written as clauses ``head or lits or rest``, ``-rest or more or rest2``, ...;
    the last ``rest`` is held false by the radius's guard while the chain is open, and for
    good once no literal can join it (:meth:`Layers.seal`)."""

    head: list[int]
    #: the cell whose candidates the chain lists (None: it stays open while the region grows)
    cell: Cell | None
    batch: list[int] = field(default_factory=list)
    rest: int | None = None
    closed: bool = False


class Layers:
    """The formula of a growing radius in one CaDiCaL instance (see the module notes):
    :meth:`grow` adds the cells, candidates and clauses of the next radii; the chains still
    open hang on the radius's guard, assumed false while that radius is asked
    (:meth:`assumptions`). Every clause added stays true of every closure within any larger
    radius."""

    def __init__(self, question: SatSearch) -> None:
        table, counts, area = question.table, question.counts, question.area
        required, budget = question.required, question.budget
        self.table, self.area, self.budget, self.clock = table, area, budget, question.clock
        self.solver = Solver(name=SOLVER)
        self.top = 0
        self.clauses: list[list[int]] = []
        self.radius = -1
        self.saturated = False
        front = sorted(table.front_rim)
        self.dist: dict[Cell, int] = {t: 0 for t in front if inside(t, area)}
        self.ring: list[Cell] = list(self.dist)
        self.rows = [(code, rows_of(code & PORT_MASK)) for code in sorted(counts)]
        #: candidates waiting for the next radius: the cell they entered from, their row
        self.waiting: list[tuple[Cell, Row, Placement]] = []
        #: the placement literals, in order, and their variables
        self.lits: dict[Placement, int] = {}
        #: per cell, the literal implied by every candidate covering it so far (at most one)
        self.any: dict[Cell, int] = {}
        self.fresh: dict[Cell, list[int]] = {}
        self.edges: dict[tuple[Cell, int], int] = {}
        self.chains: dict[tuple[object, ...], Chain] = {("cover", t): Chain([], t) for t in front}
        self.groups = [frozenset(g) for g in required]
        for i in range(len(required)):
            self.chains["need", i] = Chain([], None)
        #: the chains not closed yet
        self.open = list(self.chains.values())
        #: clauses handed to the solver so far
        self.added = 0
        self.caps = {code: min(n, budget + 1) for code, n in counts.items()}
        #: card code -> its count if the budget does not already bound it
        self.most = {code: n for code, n in counts.items() if n <= budget}
        self.registers: dict[int, list[int]] = {code: [] for code in counts}
        self.total: list[int] = []
        self.guard = 0

    def new(self) -> int:
        """A fresh variable."""
        self.top += 1
        return self.top

    def assumptions(self, most: int) -> list[int]:
        """The current radius's guard, and at most ``most`` cards."""
        out = [-self.guard]
        if most < len(self.total):
            out.append(-self.total[most])
        return out

    def grow(self, radius: int) -> None:
        """Add the cells and candidates up to ``radius``, and seal."""
        while self.radius < radius and not self.saturated:
            self.level()
            self.clock.check()
        self.seal()

    def level(self) -> None:
        """The next radius: the ring one step further out, the candidates waiting for it
        (their openings face its cells) and those whose later cell lies on it."""
        if self.radius >= 0:
            ring: list[Cell] = []
            occupied = self.table.packed
            for x, y in self.ring:
                for dx, dy in STEP:
                    n = (x + dx, y + dy)
                    if n not in self.dist and n not in occupied and inside(n, self.area):
                        self.dist[n] = self.radius + 1
                        ring.append(n)
            if not ring:
                self.saturated = True
                return
            self.ring = ring
        self.radius += 1
        waiting, self.waiting = self.waiting, []
        for t, row, p in waiting:
            self.add(t, row, p)
        for i, t in enumerate(self.ring):
            self.enter(t)
            if len(self.lits) > MAX_LITERALS:
                raise ModelTooLarge(MAX_LITERALS)
            if i % CHECK_CELLS == 0:
                self.clock.check()

    def enter(self, t: Cell) -> None:
        """The candidates whose later cell (by distance, then order) is ``t``, just joined:
        their edges fit the table; those opening onto an empty cell not yet in the region
        wait for the next radius (such a cell joins it: it touches ``t`` or a nearer cell),
        those opening onto a cell outside the play area never enter."""
        rim = self.table.rim
        dist = self.dist
        occupied = self.table.packed
        here = self.radius
        t_fits = FITS[rim.get(t, 0)]
        tx, ty = t
        for code, rows in self.rows:
            for row in rows:
                if not t_fits >> row.t_open & 1:
                    continue
                o = (tx + row.other[0], ty + row.other[1])
                d = dist.get(o)
                if d is None or (d == here and o > t):
                    continue  # entered from ``o`` (now or later)
                if not FITS[rim.get(o, 0)] >> row.o_open & 1:
                    continue
                wait = False
                for dx, dy in row.faced:
                    n = (tx + dx, ty + dy)
                    if n in dist or n in occupied:
                        continue
                    if not inside(n, self.area):
                        break
                    wait = True
                else:
                    p = Placement(code, tx + row.anchor[0], ty + row.anchor[1], row.rotation)
                    if wait:
                        self.waiting.append((t, row, p))
                    else:
                        self.add(t, row, p)

    def add(self, t: Cell, row: Row, p: Placement) -> None:
        """Enter candidate ``p`` (covering ``t`` as ``row`` says): its cells' at-most-one,
        its openings' edges, its card's count and the required groups it counts for."""
        o = (t[0] + row.other[0], t[1] + row.other[1])
        v = self.lits[p] = self.new()
        if len(self.lits) % CHECK_CLAUSES == 0:
            self.clock.check()
        if self.top > MAX_VARIABLES:
            raise ModelTooLarge(MAX_VARIABLES)
        if len(self.clauses) >= FLUSH_CLAUSES:
            self.flush()
        for c in (t, o):
            self.fresh.setdefault(c, []).append(v)
            chain = self.chains.get(("cover", c))
            if chain is not None:
                join(chain, v)
        for square, side in row.openings:
            c = o if square else t
            n = (c[0] + STEP[side][0], c[1] + STEP[side][1])
            if n in self.dist:
                self.clauses.append([-v, self.edge(c, side, n)])
                join(self.chains["open", c, side], v)
        self.count(p.card, v)
        for i, group in enumerate(self.groups):
            if p.card in group:
                join(self.chains["need", i], v)

    def edge(self, c: Cell, side: int, n: Cell) -> int:
        """The literal "an opening across the edge between ``c`` and ``n``" (made with its two
        chains on first use: it implies an opening on each side)."""
        key = (c, side) if c < n else (n, opposite(side))
        e = self.edges.get(key)
        if e is None:
            e = self.edges[key] = self.new()
            mine = self.chains["open", c, side] = Chain([-e], c)
            theirs = self.chains["open", n, opposite(side)] = Chain([-e], n)
            self.open += (mine, theirs)
        return e

    def count(self, code: int, v: int) -> None:
        """Extend card ``code``'s sequential counter by ``v``: register ``j`` holds once more
        than ``j`` of its literals do; more than its count is ruled out."""
        regs = self.registers[code]
        out: list[int] = []
        for j in range(min(len(regs) + 1, self.caps[code])):
            y = self.new()
            self.clauses.append([-v, y] if j == 0 else [-v, -regs[j - 1], y])
            if j < len(regs):
                self.clauses.append([-regs[j], y])
            out.append(y)
        most = self.most.get(code)
        if most is not None and len(regs) >= most:
            self.clauses.append([-v, -regs[most - 1]])
        self.registers[code] = out

    def seal(self) -> None:
        """Write the radius's clauses: each cell's at-most-one extended, each chain extended
        and closed (its literals final) or held by a new guard, the total rebuilt; then hand
        the clauses to the solver."""
        for i, (c, lits) in enumerate(self.fresh.items()):
            prev = self.any.get(c)
            self.any[c] = self.at_most_one([prev, *lits] if prev else lits)
            if i % CHECK_CLAUSES == 0:
                self.clock.check()
        self.fresh = {}
        old = self.guard
        self.guard = self.new()
        if old:
            self.clauses.append([old])
        still = []
        for chain in self.open:
            self.extend(chain)
            if not chain.closed:
                still.append(chain)
        self.open = still
        # The total's outputs up to the budget, and no further than the cards the region holds
        # (a cell is covered once): a bound beyond them holds in every model.
        inputs = [r for regs in self.registers.values() for r in regs]
        most = min(self.budget, len(self.dist) // 2)
        if len(inputs) * (most + 1) > MAX_VARIABLES:
            raise ModelTooLarge(MAX_VARIABLES)
        self.total = self.counter(inputs, most) if inputs else []
        self.flush()

    def flush(self) -> None:
        """Hand the clauses written so far to the solver (a few thousand at a time, the limits
        checked in between) and keep the reserve for freeing them."""
        clauses, self.clauses = self.clauses, []
        for i in range(0, len(clauses), CHECK_CLAUSES):
            self.clock.check()
            self.solver.append_formula(clauses[i : i + CHECK_CLAUSES])
        self.added += len(clauses)
        self.clock.reserve = RESERVE_PER_CLAUSE * self.added + RESERVE_PER_LITERAL * len(self.lits)

    def extend(self, chain: Chain) -> None:
        """Extend ``chain`` by its batch; close it when no literal can join it any more (all
        candidates covering its cell are in: they lie within two steps of it), else hold its
        last link by the guard."""
        final = self.saturated or (
            chain.cell is not None and self.radius >= self.dist.get(chain.cell, 0) + 2
        )
        first = chain.head if chain.rest is None else [-chain.rest]
        if final:
            self.clauses.append([*first, *chain.batch])
            chain.closed = True
        else:
            if chain.batch or chain.rest is None:
                rest = self.new()
                self.clauses.append([*first, *chain.batch, rest])
                chain.rest = rest
            self.clauses.append([-chain.rest, self.guard])
        chain.batch = []

    def at_most_one(self, lits: Sequence[int]) -> int:
        """At most one of ``lits`` (a sequential counter); the literal implied by each."""
        if len(lits) == 1:
            return lits[0]
        prev = self.new()
        self.clauses.append([-lits[0], prev])
        for x in lits[1:]:
            cur = self.new()
            self.clauses += ([-x, cur], [-prev, cur], [-x, -prev])
            prev = cur
        return prev

    def counter(self, lits: Sequence[int], bound: int) -> list[int]:
        """Unary outputs of a totalizer over ``lits``: output ``j`` holds when more than ``j``
        of them do, for ``j`` up to ``bound``."""
        tot = ITotalizer(lits=list(lits), ubound=bound, top_id=self.top)
        try:
            self.clauses.extend(list(c) for c in tot.cnf.clauses)
            self.top = int(tot.top_id)
            return [int(v) for v in tot.rhs]
        finally:
            tot.delete()

    def chosen(self, model: Sequence[int]) -> list[Placement]:
        """The placements true in ``model`` (a solver's model: literal ``v`` at ``v - 1``)."""
        return [p for p, v in self.lits.items() if model[v - 1] > 0]


def join(chain: Chain, v: int) -> None:
    """Add literal ``v`` to ``chain`` (never to a closed one: its cell's candidates were all
    in, see :meth:`Layers.extend`)."""
    if chain.closed:
        raise InternalError("a SAT literal joined a disjunction already closed")
    chain.batch.append(v)


# -- the limits and the solver's runs -------------------------------------------------------


# -- the search ---------------------------------------------------------------------------


@dataclass(slots=True)
class SatSearch:
    """One closure question on checked inputs (``counts``: the cards by code): the radii in
    turn, the best closure found, and ``floor``, the fewest cards a closure may still have."""

    table: Table
    counts: Counter[int]
    budget: int
    area: Bounds | None
    clock: Clock
    minimum: bool
    required: Required
    floor: int
    best: tuple[Placement, ...] | None = None
    where: str = ""

    @property
    def front(self) -> int:
        """The number of front cells."""
        return len(self.table.front_rim)

    @property
    def bound(self) -> int:
        """The most cards still worth asking for."""
        return self.budget if self.best is None else len(self.best) - 1

    def run(self) -> Closure:
        """The answer (see the module notes); ``unknown`` on a limit or a refused size."""
        layers = Layers(self)
        try:
            self.search(layers)
        except Stopped as stop:
            return self.answer(str(stop))
        except ModelTooLarge as exc:
            why = f"the formula would need more than {exc.literals} literals"
            return self.answer(why)
        finally:
            layers.solver.delete()
        return self.answer(None)

    def search(self, layers: Layers) -> None:
        """Ask the radii in turn until a closure is found (the fewest, for the minimum) or
        every count of cards within the budget is ruled out."""
        radius = FIRST_RADIUS
        while self.floor <= self.bound:
            complete = complete_radius(self.front, self.bound)
            # Once a closure is found (the minimum's question), only the complete radius of
            # one card fewer can prove it the fewest.
            target = complete if self.best is not None else min(radius, complete)
            layers.grow(max(layers.radius, target))
            self.where = f"radius {layers.radius}, {plural(len(layers.lits), 'literal')}"
            if layers.saturated:
                self.where += ", every empty cell the front reaches in the play area"
            # A radius short of the complete one gets a share of the time left.
            until, deadline = None, self.clock.deadline
            if deadline is not None and not (layers.radius >= complete or layers.saturated):
                until = (now := time.perf_counter()) + (deadline - now) * STAGE_SHARE
            if self.solve_radius(layers, until) and not self.minimum:
                return
            radius = next_radius(layers.radius)

    def solve_radius(self, layers: Layers, until: float | None) -> bool:
        """Ask the layers' formula (its total tightened after each closure, for the minimum)
        until it is unsatisfiable (the counts it rules out raise ``floor``), ``until`` passes,
        or a closure is found (``can_close``); True when a closure was found."""
        found = False
        while self.floor <= self.bound:
            b = self.bound
            result, model = self.clock.run(layers.solver, layers.assumptions(b), until)
            if result is None:
                return found
            if not result:
                # Every closure of ``k`` cards lies within ``R(k) = 2 k - F``; a region that
                # no longer grows holds every closure.
                most = min(b, (layers.radius + self.front) // 2) if not layers.saturated else b
                self.floor = max(self.floor, most + 1)
                return found
            chosen = layers.chosen(model)
            ordered = order_placements(self.table, chosen)
            if missing(self.required, Counter(p.card for p in ordered)):
                dropped = set(chosen) - set(ordered)
                if not dropped:
                    raise InternalError("a SAT model misses a required card and holds no cut")
                layers.solver.add_clause([-layers.lits[p] for p in dropped])
                continue
            found = True
            self.best = ordered
            if not self.minimum:
                return found
        return found

    def answer(self, stopped: str | None) -> Closure:
        """The answer from what the search proved; ``stopped`` names a limit that ran out."""
        stats = SearchStats(self.clock.conflicts, time.perf_counter() - self.clock.start)
        where = f" ({self.where})" if self.where else ""
        if self.best is not None:
            n = len(self.best)
            proven = n <= self.floor
            why = f"CaDiCaL found a closure of {plural(n, 'card')}{where}"
            if proven:
                why = f"{n} cards close it; CaDiCaL proved that fewer cannot{where}"
            elif stopped is not None and self.minimum:
                why += f"; at least {self.floor} are needed ({stopped})"
            return Closure("closable", certify(self.table, self.best), why, BACKEND, stats, proven)
        if stopped is not None:
            why = f"CaDiCaL: {stopped}{where}"
            return Closure("unknown", (), why, BACKEND, stats, at_least=self.floor)
        reach = complete_radius(self.front, self.budget)
        why = (
            f"CaDiCaL proved the formula unsatisfiable{where}, which holds every closure of at"
            f" most {plural(self.budget, 'card')} (they lie within {reach} steps of the front)"
        )
        return Closure("impossible", (), why, BACKEND, stats)


# -- the entry point ----------------------------------------------------------------------


def check_inputs(
    table: object,
    codes: object,
    max_cards: object,
    area: object,
    limits: object,
    minimum: object,
    required: object,
    cancel: object,
) -> None:
    """Refuse (:class:`SolverError`) anything :func:`solve_sat` cannot hand the solver."""
    if not isinstance(table, Table):
        raise SolverError(f"the SAT closure needs a Table, not {type(table).__name__}")
    if not isinstance(codes, tuple) or not all(canonical_code(c) for c in codes):
        raise SolverError(f"the cards must be a tuple of canonical card codes, not {shown(codes)}")
    check_limits(max_cards)
    check_bounds(area, table)
    if not isinstance(limits, Limits) or not isinstance(minimum, bool):
        raise SolverError(
            f"limits must be a Limits and minimum a bool, not {shown(limits)}, {shown(minimum)}"
        )
    groups = required if isinstance(required, tuple) else (None,)
    if not all(isinstance(g, frozenset) and all(canonical_code(c) for c in g) for g in groups):
        raise SolverError(
            f"required must be a tuple of frozensets of card codes: {shown(required)}"
        )
    if cancel is not None and not isinstance(cancel, threading.Event):
        raise SolverError(f"cancel must be a threading.Event, not {type(cancel).__name__}")


def canonical_code(c: object) -> bool:
    """True for a canonical card code (an int, not a bool)."""
    try:
        return isinstance(c, int) and not isinstance(c, bool) and as_code(c) == c
    except BanditsolveError:
        return False


def solve_sat(
    table: Table,
    codes: tuple[int, ...],
    max_cards: int | None,
    area: Bounds | None,
    limits: Limits,
    minimum: bool,
    required: Required = (),
    *,
    cancel: threading.Event | None = None,
) -> Closure:
    """Answer the closure question (or its minimum, ``minimum=True``) with CaDiCaL: closures
    within a growing radius of the front, ``impossible`` only from the formula of the complete
    radius (see the module notes). ``codes`` are canonical card codes, ``required`` groups of
    codes of which a closure must lay one card each; ``limits``' time limit and node limit
    (counted as the solver's conflicts) are kept, and setting ``cancel`` stops the run
    (``unknown``, reason ``"cancelled"``) within a slice of the solver's run."""
    check_inputs(table, codes, max_cards, area, limits, minimum, required, cancel)
    start = time.perf_counter()
    budget = len(codes) if max_cards is None else min(max_cards, len(codes))

    def at_once(status: Status, why: str, proven: bool = False) -> Closure:
        stats = SearchStats(0, time.perf_counter() - start)
        return Closure(status, (), why, BACKEND, stats, proven)

    if not table.exit_count:
        if required:
            return at_once("impossible", "the table is closed without a required card")
        return at_once("closable", "the table has no exit", True)
    reason = static_reason(table, codes, area, budget)
    if reason is not None:
        return at_once("impossible", reason)
    low = lower_bound(table, codes, area)
    if low is None:
        return at_once("impossible", "no choice of the cards can absorb the exits")
    clock = Clock(limits, cancel, start)
    low = max(low, len(required))
    return SatSearch(table, Counter(codes), budget, area, clock, minimum, required, low).run()
