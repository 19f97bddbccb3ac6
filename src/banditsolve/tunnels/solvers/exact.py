"""The exact closure search on one mutable board (:class:`ExactSearch`).

The search is complete:

- it branches on ONE front cell (an empty cell faced by an exit), the one with the fewest
  (card type, placement) options; every front cell must be covered in any closure, and a
  placement covering a front cell now is legal at any later time too (its other edges only meet
  cards that are also there in the final table), so it may be laid first: exploring every way to
  cover that cell is exhaustive;
- it works on card *types* with counts, never on individual cards;
- it lays and lifts cards on one mutable board (never copying the table) and keeps the exit
  count, the colour balance and the remaining cards per class up to date as it goes;
- every node returns a proven lower bound on the cards any closure from it needs (the largest of
  its bounds, or one more than the smallest bound of its branching cell's children); the memo
  keeps that bound per set of cards added (which fixes the table and the remaining multiset);
- it prunes a branch when a front cell has no option left (a hole, a cell outside the play area,
  or a cell no remaining type fits: dead exits only stay dead), and by the bounds of
  :mod:`banditsolve.tunnels.solvers.bounds` (counting and parity, colour balance, covering);
  when the cover bound equals the budget, every card still laid covers a front cell, so only
  placements whose openings face occupied cells or cells that a card covering *another* front
  cell can reach are kept (the tight filter);
- before laying a card it checks the child's exit count and a quick covering bound
  (:func:`~banditsolve.tunnels.solvers.bounds.quick_cover`), so most dead ends are never laid.

The iterative deepening over budgets lives in :mod:`banditsolve.tunnels.solvers.closure`, the
sharing of a long level among processes in :mod:`banditsolve.tunnels.solvers.parallel`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from banditsolve.core.limits import Budget, Limits
from banditsolve.tunnels.cards import PORT_MASK
from banditsolve.tunnels.geometry import SIDE_MASK, STEP, Cell, Placement, orientation
from banditsolve.tunnels.solvers.bounds import (
    colour_balance,
    cover_bound,
    min_cards_for_balance,
    min_cards_for_exits,
    quick_cover,
    skew,
)
from banditsolve.tunnels.solvers.inputs import Bounds, inside
from banditsolve.tunnels.solvers.options import (
    Option,
    Signature,
    fits_zone,
    placements_at,
    rows,
    shape_info,
    signature,
    summary,
)
from banditsolve.tunnels.table import TOUCH, Table

#: The lower bound of a node from which no closure exists at all, whatever the budget.
NEVER = 1 << 20

#: What :meth:`ExactSearch.push` returns and :meth:`ExactSearch.pop` takes back: the two cells
#: laid, the rim entries changed (cell, old value or -1), and the exit count and colour
#: balance before.
Record = tuple[Cell, Cell, list[tuple[Cell, int]], int, int]


class ExactSearch:
    """One exact search; :meth:`run` may be called with growing budgets (memo kept).

    The search works on a mutable copy of the table (laid and lifted again on the way back,
    never copied) and keeps the exit count, the colour balance and the counts per class of the
    remaining cards up to date as it goes. Each node returns a proven lower bound on the cards
    any closure from it needs (``-1`` once a closure is found): the largest of its counting
    bounds, or one more than the smallest bound among the children of its branching cell. The
    memo keeps that bound per set of cards laid, so a later, larger budget skips every node
    already known to need more, and a node that can never close is never searched twice.
    :meth:`tick` raises :class:`~banditsolve.core.limits.LimitReached` when a limit runs out.
    """

    def __init__(
        self,
        table: Table,
        cards: Sequence[int],
        bounds: Bounds | None,
        limits: Limits,
        required: Sequence[frozenset[int]] = (),
    ) -> None:
        self.counts: Counter[int] = Counter(cards)
        self.given: Counter[int] = Counter(cards)
        #: Groups of codes of which at least one card must be laid (a Bandida mode's goal:
        #: the ladder, the second super card); a closed table without them is a dead end.
        self.required = tuple(required)
        self.bounds = bounds
        self.budget = Budget(limits)
        self.lower: dict[frozenset[Placement], int] = {}
        self.path: list[Placement] = []
        self.cells: dict[Cell, int] = table.cells
        self.rim: dict[Cell, int] = dict(table.rim)
        self.front: dict[Cell, int] = dict(table.front_rim)
        self.exits = table.exit_count
        self.balance = colour_balance(table)
        self.classes = [0] * 7
        self.skews = [0] * 4
        for c in cards:
            self.classes[(c & PORT_MASK).bit_count()] += 1
            self.skews[skew(c)] += 1

    @property
    def nodes(self) -> int:
        """Nodes searched so far (by this process and the workers it waited for)."""
        return self.budget.nodes

    def run(self, budget: int) -> tuple[Placement, ...] | int:
        """The placements of a closure with at most ``budget`` cards, or a proven lower bound
        (greater than ``budget``) on the cards any closure needs."""
        self.path = []
        found = self.dfs(budget, frozenset())
        if found < 0:
            return tuple(self.path)
        return found

    # -- the mutable board ------------------------------------------------------------------

    def lay(self, p: Placement) -> tuple[Cell, Cell, list[tuple[Cell, int]]]:
        """Lay ``p`` on the board; the cells and the undo list of rim entries.

        :meth:`Table.place` on mutable dicts, for speed (the search lays and lifts a card per
        node, and never copies the table): the rim values change by the table's one rim update
        (:func:`~banditsolve.tunnels.table.rim_add`, through its table
        :data:`~banditsolve.tunnels.table.TOUCH`); a test lays random boards both ways and
        compares them. It also keeps the exit count and the colour balance. (Rim values: the
        sides with an opening running in are ``rim & SIDE_MASK``.)"""
        o = orientation(p.card & PORT_MASK, p.rotation)
        a = (p.x, p.y)
        b = (p.x + o.b_step[0], p.y + o.b_step[1])
        cells, rim, front = self.cells, self.rim, self.front
        undo: list[tuple[Cell, int]] = []
        exits, balance = self.exits, self.balance
        for cell in (a, b):
            old = rim.pop(cell, -1)
            undo.append((cell, old))
            if old > 0 and old & SIDE_MASK:
                del front[cell]
                lost = (old & SIDE_MASK).bit_count()
                exits -= lost
                balance -= -lost if (cell[0] + cell[1]) & 1 else lost
        cells[a] = o.open_a
        cells[b] = o.open_b
        for (cx, cy), open4 in ((a, o.open_a), (b, o.open_b)):
            for side in range(4):
                dx, dy = STEP[side]
                n = (cx + dx, cy + dy)
                if n in cells:
                    continue
                old = rim.get(n, -1)
                undo.append((n, old))
                v = (old if old > 0 else 0) | TOUCH[open4 << 2 | side]
                if open4 >> side & 1:
                    exits += 1
                    balance += -1 if (n[0] + n[1]) & 1 else 1
                if v & SIDE_MASK:
                    front[n] = v
                rim[n] = v
        self.exits, self.balance = exits, balance
        return a, b, undo

    def lift(self, a: Cell, b: Cell, undo: list[tuple[Cell, int]]) -> None:
        """Take the card laid on ``a`` and ``b`` off again (the exit count and balance are
        restored by :meth:`pop`)."""
        rim, front = self.rim, self.front
        for cell, old in reversed(undo):
            if old < 0:
                rim.pop(cell, None)
                front.pop(cell, None)
            else:
                rim[cell] = old
                if old & SIDE_MASK:
                    front[cell] = old
                else:
                    front.pop(cell, None)
        del self.cells[a]
        del self.cells[b]

    def push(self, p: Placement) -> Record:
        """Lay ``p`` on the board and take its card from the counts; the undo record."""
        mask = p.card & PORT_MASK
        self.counts[p.card] -= 1
        self.classes[mask.bit_count()] -= 1
        self.skews[skew(mask)] -= 1
        exits, balance = self.exits, self.balance
        a, b, undo = self.lay(p)
        self.path.append(p)
        return a, b, undo, exits, balance

    def pop(self, p: Placement, record: Record) -> None:
        """Undo :meth:`push`."""
        a, b, undo, exits, balance = record
        self.lift(a, b, undo)
        self.exits, self.balance = exits, balance
        mask = p.card & PORT_MASK
        self.counts[p.card] += 1
        self.classes[mask.bit_count()] += 1
        self.skews[skew(mask)] += 1
        self.path.pop()

    # -- the search -------------------------------------------------------------------------

    def zone_options(
        self,
        t: Cell,
        sig: Signature,
        kinds: tuple[int, ...],
        zone: dict[Cell, list[Cell]],
        first: bool,
    ) -> list[Option]:
        """The options at ``t`` that open only onto occupied cells or the zone of another front
        cell (see the tight case of :meth:`expand`); with ``first``, at most one."""
        tx, ty = t
        cells = self.cells
        tested: dict[tuple[Cell, tuple[Cell, ...]], bool] = {}
        out: list[Option] = []
        for code in kinds:
            for delta, adx, ady, rotation, other, faced in rows(code & PORT_MASK, sig):
                ok = tested.get((other, faced))
                if ok is None:
                    ok = tested[other, faced] = fits_zone(t, other, faced, cells, zone)
                if ok:
                    out.append((delta, code, tx + adx, ty + ady, rotation))
                    if first:
                        return out
        return out

    def collect(
        self, budget: int, key: frozenset[Placement], depth: int, jobs: list[tuple[Placement, ...]]
    ) -> bool:
        """Walk ``depth`` cards down from the node, appending the paths that reach that depth to
        ``jobs``; True when a closure turns up on the way (in :attr:`path`)."""
        self.budget.tick()
        result, _low, children = self.expand(budget, key)
        if result < 0:
            return True
        for p in children:
            record = self.push(p)
            if depth > 1:
                if self.collect(budget - 1, key | {p}, depth - 1, jobs):
                    return True
            else:
                jobs.append(tuple(self.path))
            self.pop(p, record)
        return False

    def expand(self, budget: int, key: frozenset[Placement]) -> tuple[int, int, list[Placement]]:
        """One node: ``(result, low, children)``. ``result`` is -1 when the table is closed, or
        a proven lower bound on the cards a closure needs when ``children`` is empty;
        otherwise the bound proven by the options already ruled out (:data:`NEVER` if none),
        with ``low`` the node's counting bound and ``children`` the placements still to
        search."""
        front = self.front
        short = self.missing() if self.required else 0
        if not front:
            if short:
                # Closed before the ladder (or the second super card) is down: no card can
                # be laid any more, so this line never reaches the goal.
                return self.closed(key, NEVER)
            return -1, 0, []
        lower = self.lower
        known = lower.get(key, 0)
        if known > budget:
            return known, known, []
        # Counting bounds, each valid whatever the budget (each required card is one more).
        low = max((len(front) + 1) // 2, short)
        need = min_cards_for_exits(tuple(self.classes), self.exits)
        if need is None:
            return self.closed(key, NEVER)
        low = max(low, need)
        if self.balance:
            skews = self.skews
            need = min_cards_for_balance((skews[1], skews[2], skews[3]), abs(self.balance))
            if need is None:
                return self.closed(key, NEVER)
            low = max(low, need)
        if low > budget:
            return self.closed(key, low)
        counts = self.counts
        kinds = tuple(sorted(c for c, n in counts.items() if n > 0))
        bounds = self.bounds
        # The most constrained front cell.
        best_cell: Cell | None = None
        best_sig: Signature = ()
        best_size = 1 << 30
        pairs: dict[Cell, int] = {}
        sigs: dict[Cell, Signature] = {}
        sizes: dict[Cell, int] = {}
        for t, fv in front.items():
            if bounds is not None and not inside(t, bounds):
                return self.closed(key, NEVER)
            sig = signature(self.rim, t, fv, bounds)
            size, sides = summary(kinds, sig)
            if size == 0:
                # Cells only fill up and cards only run out: this exit stays open for good.
                return self.closed(key, NEVER)
            pairs[t] = sides
            sigs[t] = sig
            sizes[t] = size
            if size < best_size:
                best_size = size
                best_cell = t
                best_sig = sig
        assert best_cell is not None
        # Covering bound (see cover_bound): every front cell needs a card of its own unless one
        # card covers it with an adjacent front cell.
        cover = cover_bound(pairs) if len(front) > 1 else 1
        if cover > low:
            low = cover
            if low > budget:
                return self.closed(key, low)
        result = NEVER
        if cover == budget:
            # Tight: exactly ``budget`` more cards can be used and ``cover`` of them are needed
            # to cover the front cells, so every card still laid covers a front cell, on the
            # front cell and (if it covers another cell) a neighbour on a side in ``pairs[t]``
            # (a card fits there now; cells only fill up, so no other side can fit later).
            # ``zone`` maps each such cell to the front cells whose card may lie on it. An
            # opening of a card facing a cell empty when it is laid must face a card laid later,
            # which covers another front cell: a placement opening onto an empty cell outside
            # the zone of the other front cells cannot be part of a closure of ``budget`` cards,
            # and a front cell with no placement left cannot be covered within the budget. The
            # placements dropped may still serve a larger budget: the bound this node proves is
            # then at most ``budget + 1``. (Placements are tested once per footprint: the cells
            # they cover and the cells their openings face.)
            zone: dict[Cell, list[Cell]] = {}
            for t, sides in pairs.items():
                zone.setdefault(t, []).append(t)
                tx, ty = t
                for side in range(4):
                    if sides >> side & 1:
                        dx, dy = STEP[side]
                        zone.setdefault((tx + dx, ty + dy), []).append(t)
            for _size, t in sorted((sizes[t], t) for t in front if t != best_cell):
                if not self.zone_options(t, sigs[t], kinds, zone, True):
                    return self.closed(key, budget + 1)
            best = self.zone_options(best_cell, best_sig, kinds, zone, False)
            result = budget + 1
        else:
            best = placements_at(best_cell, best_sig, kinds)
        best.sort()
        classes = self.classes
        cells = self.cells
        exits = self.exits
        children: list[Placement] = []
        for delta, code, x, y, rotation in best:
            mask = code & PORT_MASK
            k = mask.bit_count()
            # Forward check: bounds of the table after this placement, from its front cells
            # and exit count alone, before laying it.
            if exits + delta:
                bdx, bdy, faced = shape_info(mask, rotation)
                after = set(front)
                after.discard((x, y))
                after.discard((x + bdx, y + bdy))
                for dx, dy in faced:
                    n = (x + dx, y + dy)
                    if n not in cells:
                        after.add(n)
                classes[k] -= 1
                child = min_cards_for_exits(tuple(classes), exits + delta)
                classes[k] += 1
                if child is None:
                    continue  # a bound of NEVER: result is unchanged
                child = max(child, quick_cover(after))
                if child > budget - 1:
                    if child + 1 < result:
                        result = child + 1
                    continue
            children.append(Placement(code, x, y, rotation))
        return result, low, children

    def missing(self) -> int:
        """How many of the required groups no card laid so far belongs to."""
        counts, given = self.counts, self.given
        return sum(1 for group in self.required if all(counts[c] >= given[c] for c in group))

    def closed(self, key: frozenset[Placement], bound: int) -> tuple[int, int, list[Placement]]:
        """Record a leaf's proven bound in the memo; the :meth:`expand` triple of a leaf."""
        self.lower[key] = bound
        return bound, bound, []

    def dfs(self, budget: int, key: frozenset[Placement]) -> int:
        """Search the node reached by the cards ``key`` with ``budget`` cards left: -1 when a
        closure is found (in :attr:`path`), else a proven lower bound above ``budget``."""
        self.budget.tick()
        result, low, children = self.expand(budget, key)
        if result < 0:
            return -1
        for p in children:
            record = self.push(p)
            found = self.dfs(budget - 1, key | {p})
            if found < 0:
                return -1
            self.pop(p, record)
            if found + 1 < result:
                result = found + 1
        result = max(result, low, budget + 1)
        self.lower[key] = result
        return result
