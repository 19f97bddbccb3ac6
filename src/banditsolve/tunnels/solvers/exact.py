"""The exact closure search on one mutable board (:class:`ExactSearch`).

The search is complete:

- it branches on ONE front cell (an empty cell faced by an exit): of the :data:`SCREEN_CELLS`
  front cells with the fewest (card type, placement) options, the one with the fewest options
  left after the forward check below (a screened cell with none left proves the node's bound);
  every front cell must be covered in any closure, and a
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
- before laying a card it checks the child's exit count, its colour balance (computed from the
  card and the colour of its square A's cell, :func:`balance_after`) against the cards left,
  and a quick covering bound (:func:`~banditsolve.tunnels.solvers.bounds.quick_cover`), so
  most dead ends are never laid; when that bound makes the child tight (its front cells need
  all the cards its budget allows), it also checks that each cell the card opens onto can be
  covered by a placement whose openings meet only occupied cells or cells that are, or are
  next to, a front cell other than the two the placement covers
  (:meth:`ExactSearch.zone_dead`, the tight filter predicted; in the tight case every cell is
  first checked for an empty zone before any is screened).
- (with :data:`SPLIT_REGIONS`, off by default) when the front falls into regions that no
  connected group of the cards left can span
  (:func:`split_front`), each region is searched alone on a board where the other regions'
  front cells are walled up (:meth:`ExactSearch.split`): the sum of the regions' minimums
  bounds the node (each region with all the cards left, a relaxation), and closures of the
  regions that together fit the cards left are laid as one closure (replayed by the rules
  engine first); when no such combination exists among every set of cards that closes each
  region (listed exhaustively, up to :data:`CLOSINGS_LIMIT` sets), the node needs more cards
  than it has.

The iterative deepening over budgets lives in :mod:`banditsolve.tunnels.solvers.closure`, the
sharing of a long level among processes in :mod:`banditsolve.tunnels.solvers.parallel`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from banditsolve.core.limits import Budget, Limits
from banditsolve.errors import IllegalActionError
from banditsolve.tunnels.cards import PORT_MASK, SQUARE_A_PORTS, SQUARE_B_PORTS
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
    CACHE_LIMIT,
    Option,
    Signature,
    fits_zone,
    free_need,
    placements_at,
    rows,
    shape_info,
    signature,
    summary,
)
from banditsolve.tunnels.table import TOUCH, Table

#: The lower bound of a node from which no closure exists at all, whatever the budget.
NEVER = 1 << 20
#: Whether the exact search splits fronts into regions (:meth:`ExactSearch.split`). Off: on
#: the closure benchmark's positions (same machine, same load) the split decided no position
#: the plain exact search missed within 1 s, and cost time on some (its region searches copy
#: the board); it stays sound and tested, to be switched on where regions are the rule.
SPLIT_REGIONS = False
#: The region searches a search keeps (see :meth:`ExactSearch.split`) are dropped past this many.
REGION_MEMO_LIMIT = 20_000
#: A region's closings are listed (see :meth:`ExactSearch.closings`) up to this many card sets.
CLOSINGS_LIMIT = 2_000
#: How many front cells (fewest options first) a node screens for the one to branch on (outside
#: the tight case). One: with the tight prediction in the forward check (:data:`ZONE_AHEAD`)
#: a screen costs more, and a second screened cell paid for itself no longer (regression
#: positions 7 and 23: 14 % fewer instructions under callgrind with one, 20 % more nodes).
SCREEN_CELLS = 1
#: The slack (cards beyond the cover bound) up to which a node keeps only the placements whose
#: openings the cards left can still close (see the tight case of :meth:`ExactSearch.expand`).
SLACK_FILTER = 0
#: Whether the forward check predicts the tight case of a child (:meth:`ExactSearch.zone_dead`).
#: On: on the hard positions the trees are about a third smaller and each node costs a little
#: more (benchmarks/results/closure.md).
ZONE_AHEAD = True


def balance_after(balance: int, mask: int, x: int, y: int) -> int:
    """The colour balance (:func:`~banditsolve.tunnels.solvers.bounds.colour_balance`) of the
    table after a card of port mask ``mask`` is laid with square A on ``(x, y)``, from the
    balance before.

    Every exit into the two cells covered goes away and every opening of the card onto an
    empty cell becomes an exit. An opening of square A faces a cell of the other colour than
    A's: it meets an exit into A (an exit whose front cell has A's colour, counted with A's
    sign) or becomes an exit into a cell of the other colour (counted with the other sign);
    the exits into A are exactly the openings of A facing cards (the edge rule), so A's part
    of the change is ``-sign(A)`` times its openings, and B's (the other colour)
    ``+sign(A)`` times its own: ``-sign(A) * (a - b)`` in all, with ``a``, ``b`` the
    openings on square A and B and ``sign`` +1 on cells of even ``x + y``."""
    return balance + _BALANCE_CHANGE[(x + y) & 1][mask & PORT_MASK]


#: Per port mask: its :func:`~banditsolve.tunnels.solvers.bounds.skew`.
_SKEW = tuple(skew(m) for m in range(64))
#: Per colour of square A's cell (``(x + y) & 1``), per port mask: the change of the colour
#: balance when the card is laid (see :func:`balance_after`).
_BALANCE_CHANGE = tuple(
    tuple(
        (1 if parity else -1)
        * ((m & SQUARE_A_PORTS).bit_count() - (m & SQUARE_B_PORTS).bit_count())
        for m in range(64)
    )
    for parity in (0, 1)
)


@cache
def _touches(mask: int, rotation: int) -> tuple[int, int, dict[Cell, int]]:
    """Square B's offset from square A of port mask ``mask`` laid at ``rotation``, and per
    neighbour of the card (relative to square A, the card's own cells left out) the touch
    bits :meth:`ExactSearch.lay` adds to its rim value (both squares' for a cell next to
    both; :data:`~banditsolve.tunnels.table.TOUCH`): :func:`_rim_steps` by neighbour."""
    bx, by, _open_a, _open_b, steps = _rim_steps(mask, rotation)
    out: dict[Cell, int] = {}
    for dx, dy, touch, _opens in steps:
        out[dx, dy] = out.get((dx, dy), 0) | touch
    return bx, by, out


@cache
def _rim_steps(
    mask: int, rotation: int
) -> tuple[int, int, int, int, tuple[tuple[int, int, int, bool], ...]]:
    """For :meth:`ExactSearch.lay` of port mask ``mask`` at ``rotation``: square B's offset
    from square A, the open sides of A and B, and per side of A then of B (in side order) that
    does not face the card's other cell, the neighbour's offset from A, the touch bits the
    neighbour's rim value gains (:data:`~banditsolve.tunnels.table.TOUCH`) and whether the
    card opens onto it."""
    o = orientation(mask, rotation)
    bx, by = o.b_step
    steps: list[tuple[int, int, int, bool]] = []
    for (cx, cy), open4 in (((0, 0), o.open_a), ((bx, by), o.open_b)):
        for side in range(4):
            dx, dy = STEP[side]
            n = (cx + dx, cy + dy)
            if n not in ((0, 0), (bx, by)):
                steps.append((n[0], n[1], TOUCH[open4 << 2 | side], bool(open4 >> side & 1)))
    return bx, by, o.open_a, o.open_b, tuple(steps)


class _TooMany(Exception):
    """More closings than asked for."""


#: What :meth:`ExactSearch.push` returns and :meth:`ExactSearch.pop` takes back: the two cells
#: laid, the rim entries changed (cell, old value or -1), the exit count and colour balance
#: before, and the card types left before with their option summaries (None: not listed).
Record = tuple[
    Cell,
    Cell,
    list[tuple[Cell, int]],
    int,
    int,
    tuple[int, ...] | None,
    dict[Signature, tuple[int, int]],
]


class RegionState:
    """A region's own search (:meth:`ExactSearch.region_search`) and what it has proven so
    far: ``floor``, a lower bound on the cards that close the region, and ``found``, the
    placements of a closure of ``floor`` cards once one turns up."""

    __slots__ = ("floor", "found", "listed", "search")

    def __init__(self, search: ExactSearch, floor: int) -> None:
        self.search = search
        self.floor = floor
        self.found: tuple[Placement, ...] | None = None
        self.listed: dict[int, list[tuple[Placement, ...]] | None] = {}

    def closings(self, cap: int) -> list[tuple[Placement, ...]] | None:
        """:meth:`ExactSearch.closings` of the region within ``cap`` cards (kept)."""
        if cap not in self.listed:
            self.listed[cap] = self.search.closings(cap, CLOSINGS_LIMIT)
        return self.listed[cap]


def split_front(front: Sequence[Cell], budget: int) -> list[list[Cell]] | None:
    """The front cells in groups no connected group of at most ``budget`` new cards can span
    (two front cells ``d`` steps apart need ``d + 1`` covered cells between them, so at least
    ``(d + 2) // 2`` cards); None when there is one group. Cells are linked when
    ``d <= 2 * budget - 1`` and the groups are the linked components."""
    reach = 2 * budget - 1
    cells = list(front)
    parent = list(range(len(cells)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, (ax, ay) in enumerate(cells):
        for j in range(i + 1, len(cells)):
            bx, by = cells[j]
            if abs(ax - bx) + abs(ay - by) <= reach:
                ri, rj = root(i), root(j)
                if ri != rj:
                    parent[ri] = rj
    groups: dict[int, list[Cell]] = {}
    for i, c in enumerate(cells):
        groups.setdefault(root(i), []).append(c)
    if len(groups) < 2:
        return None
    return sorted((sorted(g) for g in groups.values()), key=lambda g: (len(g), g))


def span_cost(groups: Sequence[Sequence[Cell]]) -> int:
    """The fewest cards of one connected group of new cards that covers front cells of two
    of ``groups``: ``(d + 2) // 2`` for the closest two cells of different groups."""
    best = NEVER
    for i, g in enumerate(groups):
        for h in groups[i + 1 :]:
            for ax, ay in g:
                for bx, by in h:
                    cost = (abs(ax - bx) + abs(ay - by) + 2) // 2
                    if cost < best:
                        best = cost
    return best


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
        self.records: list[Record] = []
        self.table = table
        #: Placements laid before the search starts (a region's search starts from a node of
        #: another search: see :meth:`region_search`); certificates replay them first.
        self.prefix: tuple[Placement, ...] = ()
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
        #: The card types left (None: to be listed again) and the option summaries of front
        #: cells per signature for those types (see :func:`summary`), kept per set of types.
        self.kinds: tuple[int, ...] | None = None
        self.sums: dict[Signature, tuple[int, int]] = {}
        self.sums_by_kinds: dict[tuple[int, ...], dict[Signature, tuple[int, int]]] = {}
        #: The summary of each given card type alone, per signature (summed over the types
        #: left when a set of types meets a signature for the first time).
        self.per_type: dict[Signature, dict[int, tuple[int, int]]] = {}
        #: Whether nodes split their front into independent regions (see :meth:`split`):
        #: :data:`SPLIT_REGIONS`, never with required cards.
        self.regions = SPLIT_REGIONS and not self.required
        #: Region searches kept between deepening levels: (node key, region) -> search.
        self.region_memo: dict[tuple[frozenset[Placement], frozenset[Cell]], RegionState] = {}

    @property
    def nodes(self) -> int:
        """Nodes searched so far (by this process and the workers it waited for)."""
        return self.budget.nodes

    def run(self, budget: int) -> tuple[Placement, ...] | int:
        """The placements of a closure with at most ``budget`` cards, or a proven lower bound
        (greater than ``budget``) on the cards any closure needs."""
        self.path, self.records = [], []
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
        x, y = p.x, p.y
        bdx, bdy, open_a, open_b, steps = _rim_steps(p.card & PORT_MASK, p.rotation)
        a = (x, y)
        b = (x + bdx, y + bdy)
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
        cells[a] = open_a
        cells[b] = open_b
        # Each side of the card that does not face its other cell (see _rim_steps).
        for dx, dy, touch, opens in steps:
            n = (x + dx, y + dy)
            if n in cells:
                continue
            old = rim.get(n, -1)
            undo.append((n, old))
            v = (old if old > 0 else 0) | touch
            if opens:
                exits += 1
                balance += -1 if (x + dx + y + dy) & 1 else 1
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
        counts = self.counts
        kinds, sums = self.kinds, self.sums
        counts[p.card] -= 1
        if not counts[p.card]:
            self.kinds = None
        self.classes[mask.bit_count()] -= 1
        self.skews[_SKEW[mask]] -= 1
        exits, balance = self.exits, self.balance
        a, b, undo = self.lay(p)
        self.path.append(p)
        record = (a, b, undo, exits, balance, kinds, sums)
        self.records.append(record)
        return record

    def pop(self, p: Placement, record: Record) -> None:
        """Undo :meth:`push` (the card types left and their summaries come back as they were,
        not listed again)."""
        a, b, undo, exits, balance, kinds, sums = record
        self.lift(a, b, undo)
        self.exits, self.balance = exits, balance
        mask = p.card & PORT_MASK
        self.counts[p.card] += 1
        self.kinds, self.sums = kinds, sums
        self.classes[mask.bit_count()] += 1
        self.skews[_SKEW[mask]] += 1
        self.path.pop()
        self.records.pop()

    def unwind(self) -> None:
        """Lift every card of :attr:`path` (a closure found is left laid by :meth:`dfs`)."""
        while self.path:
            self.pop(self.path[-1], self.records[-1])

    # -- independent regions ----------------------------------------------------------------

    def region_search(self, stones: Sequence[Cell]) -> ExactSearch:
        """A search of the board as it is now with the front cells ``stones`` walled up: an
        occupied cell without openings on each (its exits no longer count, and no card may
        cover it or open onto it). It shares this search's limits and node count, starts
        with the cards left here, and has no required cards."""
        sub = object.__new__(ExactSearch)
        sub.counts = Counter({c: n for c, n in self.counts.items() if n > 0})
        sub.given = Counter(sub.counts)
        sub.required = ()
        sub.bounds = self.bounds
        sub.budget = self.budget
        sub.lower = {}
        sub.path = []
        sub.records = []
        sub.table = self.table
        sub.prefix = (*self.prefix, *self.path)
        cells = dict(self.cells)
        rim = dict(self.rim)
        front = dict(self.front)
        for t in stones:
            rim.pop(t, None)
            front.pop(t, None)
            cells[t] = 0
        for tx, ty in stones:
            for side, (dx, dy) in enumerate(STEP):
                n = (tx + dx, ty + dy)
                if n in cells:
                    continue
                v = rim.get(n, 0) | TOUCH[side]  # a wall (no opening) on that side
                rim[n] = v
                if v & SIDE_MASK:
                    front[n] = v
        sub.cells, sub.rim, sub.front = cells, rim, front
        sub.exits = sum((v & SIDE_MASK).bit_count() for v in front.values())
        balance = 0
        for (tx, ty), v in front.items():
            k = (v & SIDE_MASK).bit_count()
            balance += -k if (tx + ty) & 1 else k
        sub.balance = balance
        sub.classes = [0] * 7
        sub.skews = [0] * 4
        for c, k in sub.counts.items():
            sub.classes[(c & PORT_MASK).bit_count()] += k
            sub.skews[skew(c)] += k
        sub.regions = self.regions
        sub.region_memo = {}
        sub.kinds = None
        sub.sums = {}
        sub.sums_by_kinds = self.sums_by_kinds
        return sub

    def split(self, key: frozenset[Placement], budget: int, groups: list[list[Cell]]) -> int:
        """Bound a node whose front falls into ``groups`` that no connected group of at most
        ``budget`` new cards spans (:func:`split_front`); -1 after laying a closure.

        In a closure the new cards fall into groups of cards joined by neighbouring cells.
        Each such group alone is a legal closure of the exits it covers: the cards an opening
        faces, and the card a laid card joins, are its neighbours, so in the same group; and
        a group covering front cells of two regions needs :func:`span_cost` cards. With none
        such, the groups of each region close that region on a board where the other
        regions' front cells are walled up (no group of the region touches them), so the
        cards needed are at least the sum of each region's own minimum (each searched with
        all the cards left, a relaxation), and at least the span cost otherwise: the bound
        returned holds whatever the budget. When each region closes within the budget and
        their closures together use no more cards than are left, laying them all is a
        closure (checked by the rules engine before it is laid)."""
        span = span_cost(groups)
        memo = self.region_memo
        if len(memo) > REGION_MEMO_LIMIT:
            memo.clear()
        states: list[RegionState] = []
        for g in groups:
            region = frozenset(g)
            state = memo.get((key, region))
            if state is None:
                stones = [t for t in self.front if t not in region]
                state = RegionState(self.region_search(stones), max(1, (len(g) + 1) // 2))
                memo[key, region] = state
            states.append(state)
        total = sum(st.floor for st in states)
        for st in states:
            if total > budget:
                break
            cap = budget - (total - st.floor)
            while st.found is None and st.floor <= cap:
                found = st.search.run(st.floor)
                if isinstance(found, tuple):
                    st.found = found
                    st.search.unwind()
                else:
                    st.floor = max(st.floor + 1, found)
            total = sum(s.floor for s in states)
        bound = min(total, span)
        if total > budget or any(st.found is None for st in states):
            return bound
        # Each region closes within the budget on its own: look for one closure per region
        # that together fit the cards left, first among the minimal closures found, then
        # among every set of cards that closes each region within what the others leave.
        choices: list[list[tuple[Placement, ...]]] = [[st.found or ()] for st in states]
        laid = self.combine(choices, budget)
        if laid is None:
            choices = []
            for st in states:
                cap = budget - (total - st.floor)
                listed = st.closings(cap)
                if listed is None:
                    return bound  # too many to list: the node is searched as a whole
                choices.append(listed)
            laid = self.combine(choices, budget)
            if laid is None:
                # No closure of any region fits beside closures of the others within the
                # budget, so none of the whole table does (the groups of a closure are
                # closures of their regions).
                return max(bound, budget + 1) if span > budget else bound
        try:
            final = self.table.place_all((*self.prefix, *self.path, *laid))
        except IllegalActionError:
            return bound
        if final.exit_count:
            return bound
        for p in laid:
            self.push(p)
        return -1

    def combine(
        self, choices: list[list[tuple[Placement, ...]]], budget: int
    ) -> list[Placement] | None:
        """One closure per region from ``choices`` (per region, closures as placements), with
        at most ``budget`` cards in all and no more of a card than are left; None if none."""
        left = Counter({c: n for c, n in self.counts.items() if n > 0})
        order = sorted(range(len(choices)), key=lambda i: len(choices[i]))
        picked: list[tuple[Placement, ...]] = []

        def walk(i: int, room: int) -> bool:
            if i == len(order):
                return True
            for closure in choices[order[i]]:
                if len(closure) > room:
                    continue
                use = Counter(p.card for p in closure)
                if any(n > left[c] for c, n in use.items()):
                    continue
                left.subtract(use)
                picked.append(closure)
                if walk(i + 1, room - len(closure)):
                    return True
                picked.pop()
                left.update(use)
            return False

        if not walk(0, budget):
            return None
        return [p for closure in picked for p in closure]

    def closings(self, budget: int, limit: int) -> list[tuple[Placement, ...]] | None:
        """One closure of this search's board per set of cards (as a multiset) that closes it
        with at most ``budget`` cards: every such set appears (the search below is the exact
        search without its stop at the first closure, so complete for every closure within
        the budget); None when there are more than ``limit`` of them."""
        found: dict[tuple[int, ...], tuple[Placement, ...]] = {}
        seen: dict[frozenset[Placement], int] = {}
        regions, self.regions = self.regions, False
        self.path, self.records = [], []

        def walk(b: int, key: frozenset[Placement]) -> None:
            self.budget.tick()
            if seen.get(key, -1) >= b:
                return  # the same cards laid in another order, searched with as many left
            seen[key] = b
            result, _low, children = self.expand(b, key)
            if result < 0:
                cards = tuple(sorted(p.card for p in self.path))
                if cards not in found:
                    found[cards] = tuple(self.path)
                    if len(found) > limit:
                        raise _TooMany
                return
            for p in children:
                record = self.push(p)
                try:
                    walk(b - 1, key | {p})
                finally:
                    self.pop(p, record)

        try:
            walk(budget, frozenset())
        except _TooMany:
            return None
        finally:
            self.regions = regions
        return list(found.values())

    # -- the search -------------------------------------------------------------------------

    def zone_options(
        self,
        t: Cell,
        sig: Signature,
        kinds: tuple[int, ...],
        zone: dict[Cell, list[Cell]],
        first: bool,
        slack: int = 0,
        tested: dict[tuple[Cell, tuple[Cell, ...]], bool] | None = None,
    ) -> list[Option]:
        """The options at ``t`` whose openings onto empty cells outside the zone of every other
        front cell need at most ``slack`` cards (:func:`free_need`; with no slack, the options
        that open only onto occupied cells or that zone: see the tight case of
        :meth:`expand`); with ``first``, at most one. ``tested`` keeps the verdict per
        footprint ``(other, faced)``, for another call at ``t`` on the same board and zone."""
        tx, ty = t
        cells = self.cells
        if tested is None:
            tested = {}
        out: list[Option] = []
        for code in kinds:
            for delta, adx, ady, rotation, other, faced in rows(code & PORT_MASK, sig):
                ok = tested.get((other, faced))
                if ok is None:
                    if slack:
                        ok = free_need(t, other, faced, cells, zone) <= slack
                    else:
                        ok = fits_zone(t, other, faced, cells, zone)
                    tested[other, faced] = ok
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
        low = (len(front) + 1) // 2
        if short > low:
            low = short
        need = min_cards_for_exits(tuple(self.classes), self.exits)
        if need is None:
            return self.closed(key, NEVER)
        if need > low:
            low = need
        balance = self.balance
        if balance:
            skews = self.skews
            need = min_cards_for_balance(
                (skews[1], skews[2], skews[3]), balance if balance > 0 else -balance
            )
            if need is None:
                return self.closed(key, NEVER)
            if need > low:
                low = need
        if low > budget:
            return self.closed(key, low)
        counts = self.counts
        kinds = self.kinds
        if kinds is None:
            kinds = self.kinds = tuple(sorted(c for c, n in counts.items() if n > 0))
            self.sums = self.sums_by_kinds.setdefault(kinds, {})
        sums = self.sums
        bounds = self.bounds
        pairs: dict[Cell, int] = {}
        # (options, cell, signature) per front cell: sorted, the fewest options first (cells
        # are distinct, so signatures are never compared).
        order: list[tuple[int, Cell, Signature]] = []
        rim = self.rim
        for t, fv in front.items():
            if bounds is None:
                # signature() inlined: the front cell's rim value and its neighbours'.
                tx, ty = t
                sig: Signature = (
                    fv,
                    rim.get((tx, ty - 1), 0),
                    rim.get((tx + 1, ty), 0),
                    rim.get((tx, ty + 1), 0),
                    rim.get((tx - 1, ty), 0),
                )
            elif not inside(t, bounds):
                return self.closed(key, NEVER)
            else:
                sig = signature(rim, t, fv, bounds)
            got = sums.get(sig)
            if got is None:
                if len(sums) > CACHE_LIMIT:
                    sums.clear()
                per = self.per_type.get(sig)
                if per is None:
                    if len(self.per_type) > CACHE_LIMIT:
                        self.per_type.clear()
                    per = self.per_type[sig] = {code: summary((code,), sig) for code in self.given}
                size = sides = 0
                for code in kinds:
                    n, more = per[code]
                    size += n
                    sides |= more
                got = sums[sig] = size, sides
            size, sides = got
            if size == 0:
                # Cells only fill up and cards only run out: this exit stays open for good.
                return self.closed(key, NEVER)
            pairs[t] = sides
            order.append((size, t, sig))
        order.sort()
        # Covering bound (see cover_bound): every front cell needs a card of its own unless one
        # card covers it with an adjacent front cell.
        cover = cover_bound(pairs) if len(front) > 1 else 1
        if cover > low:
            low = cover
            if low > budget:
                return self.closed(key, low)
        if self.regions and budget > 1 and len(front) > 1:
            groups = split_front(list(front), budget)
            if groups is not None:
                split = self.split(key, budget, groups)
                if split < 0:
                    return -1, 0, []
                if split > budget:
                    return self.closed(key, split)
                low = max(low, split)
        result = NEVER
        slack = budget - cover
        if slack <= SLACK_FILTER:
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
            # First every cell for an empty zone (the cheap test, and most of these nodes'
            # end), then the screens. (The footprints tested at a cell are kept between the
            # two passes: the board and the zone are the same.)
            tested: list[dict[tuple[Cell, tuple[Cell, ...]], bool]] = []
            for _size, t, sig in order:
                seen: dict[tuple[Cell, tuple[Cell, ...]], bool] = {}
                tested.append(seen)
                if not self.zone_options(t, sig, kinds, zone, True, slack, seen):
                    return self.closed(key, budget + 1)
            best_children: list[Placement] | None = None
            for (_size, t, sig), seen in zip(order, tested, strict=True):
                if best_children is not None and len(best_children) <= 1:
                    break  # the rest were only checked for an empty zone
                options = self.zone_options(t, sig, kinds, zone, False, slack, seen)
                bound, kids = self.screen(options, budget, budget + 1)
                if not kids:
                    return self.closed(key, max(bound, low))
                if best_children is None or len(kids) < len(best_children):
                    best_children, result = kids, bound
            assert best_children is not None
            return result, low, best_children
        # Every front cell's options, screened by the forward check, from the fewest options
        # up: a cell none of whose options survives proves the node's bound, and the cell
        # with the fewest survivors is the one branched on (each front cell is covered by
        # some card of every closure, and that card may be laid first).
        best_children = None
        result = NEVER
        for _size, t, sig in order[:SCREEN_CELLS]:
            bound, kids = self.screen(placements_at(t, sig, kinds), budget, NEVER)
            if not kids:
                return self.closed(key, max(bound, low))
            if best_children is None or len(kids) < len(best_children):
                best_children, result = kids, bound
                if len(kids) <= 1:
                    break
        assert best_children is not None
        return result, low, best_children

    def screen(
        self, options: list[Option], budget: int, result: int
    ) -> tuple[int, list[Placement]]:
        """The forward check of ``options`` at a node with ``budget`` cards left: the
        placements that survive it, in order, and the bound proven by those it drops (the
        smallest of their children's bounds plus one, and ``result``)."""
        options.sort()
        front = self.front
        classes = self.classes
        cells = self.cells
        exits = self.exits
        balance = self.balance
        skews = self.skews
        nfront = len(front)
        front_cells = set(front)
        change = _BALANCE_CHANGE
        children: list[Placement] = []
        # The exit bound of the child per (openings k, delta), from the classes left after a
        # card with k openings; the balance bound per (skew s, balance), from the skews left
        # after a card of skew s: (skews[1], skews[2], skews[3]).
        exit_need: dict[tuple[int, int], int | None] = {}
        balance_need: dict[tuple[int, int], int | None] = {}
        kinds = self.kinds
        if kinds is None:
            kinds = tuple(sorted(c for c, n in self.counts.items() if n > 0))
        kinds_left: dict[int, tuple[int, ...]] = {}  # the card types left after a card
        for delta, code, x, y, rotation in options:
            # Forward check: bounds of the table after this placement, from its front cells,
            # exit count and colour balance alone, before laying it.
            if exits + delta:
                mask = code & PORT_MASK
                k = mask.bit_count()
                child = exit_need.get((k, delta), -1)
                if child == -1:
                    classes[k] -= 1
                    child = exit_need[k, delta] = min_cards_for_exits(tuple(classes), exits + delta)
                    classes[k] += 1
                if child is None:
                    continue  # a bound of NEVER: result is unchanged
                # The child's colour balance (see balance_after) and the cards left to meet it.
                after_balance = balance + change[(x + y) & 1][mask]
                if after_balance:
                    s = _SKEW[mask]
                    need = balance_need.get((s, after_balance), -1)
                    if need == -1:
                        skews[s] -= 1
                        need = balance_need[s, after_balance] = min_cards_for_balance(
                            (skews[1], skews[2], skews[3]),
                            after_balance if after_balance > 0 else -after_balance,
                        )
                        skews[s] += 1
                    if need is None:
                        continue  # a bound of NEVER
                    if need > child:
                        child = need
                bdx, bdy, faced = shape_info(mask, rotation)
                if child < budget and nfront + len(faced) >= budget:
                    # (The child's front has at most this many cells, its cover bound no more.)
                    after = front_cells.copy()
                    after.discard((x, y))
                    after.discard((x + bdx, y + bdy))
                    opened = []
                    for dx, dy in faced:
                        n = (x + dx, y + dy)
                        if n not in cells:
                            after.add(n)
                            opened.append(n)
                    cover = quick_cover(after)
                    if cover > child:
                        child = cover
                    if cover == budget - 1 and opened and ZONE_AHEAD:
                        after_kinds = kinds_left.get(code)
                        if after_kinds is None:
                            after_kinds = kinds_left[code] = (
                                kinds
                                if self.counts[code] > 1
                                else tuple(c for c in kinds if c != code)
                            )
                        if self.zone_dead(code, x, y, rotation, after, after_kinds, opened):
                            # A tight child with a front cell no card can cover within its
                            # budget (see zone_dead): it needs at least ``budget`` cards.
                            child = budget
                if child > budget - 1:
                    if child + 1 < result:
                        result = child + 1
                    continue
            children.append(Placement(code, x, y, rotation))
        return result, children

    def zone_dead(
        self,
        code: int,
        x: int,
        y: int,
        rotation: int,
        after: set[Cell],
        kinds: tuple[int, ...],
        opened: list[Cell],
    ) -> bool:
        """Whether the table after laying ``code`` at ``(x, y, rotation)`` (the child: front
        cells ``after``, card types left ``kinds``), taken as *tight* (every card of any closure
        of it within its budget covers one of its front cells: the caller has proven that the
        child's front cells need at least that many covering cards,
        :func:`~banditsolve.tunnels.solvers.bounds.quick_cover`), has a front cell among
        ``opened`` (the empty cells the card opens onto) that no placement of the cards left
        can cover within the budget: the tight case of :meth:`expand`, predicted before the
        child is laid, with a coarser zone.

        Sound: take a closure of the child within its budget and a front cell ``u``; the card
        ``q`` covering ``u`` fits the child's cards now (its edges facing them are the final
        table's) on cells empty now, so it is one of the placements at ``u`` (the rows of
        ``u``'s signature for the card types left). Every opening of ``q`` onto a cell ``n``
        empty now faces a card ``r != q`` of the closure in the final table; ``r`` covers some
        front cell ``v`` (every card does), ``v`` neither ``u`` nor ``q``'s other cell (those
        are ``q``'s), and ``r`` lies on ``v`` and a neighbour of ``v``, so ``n`` is ``v`` or one
        of its four neighbours. A front cell with no placement whose openings onto empty cells
        all lie there therefore has no closure within the budget. (The zone of :meth:`expand`
        keeps only the neighbours a card can pair ``v`` with; all four is a superset, so the
        test is weaker, never unsound.) The child's rim values are those :meth:`lay` would
        leave: an empty cell next to the new card gains the card's touch bits on that side
        (the table's one rim update, :data:`~banditsolve.tunnels.table.TOUCH`), the card's own
        cells are occupied; a test checks the prediction against closures replayed by the
        oracle. Nothing is laid."""
        bdx, bdy, touch = _touches(code & PORT_MASK, rotation)
        a = (x, y)
        b = (x + bdx, y + bdy)
        rim, cells, bounds = self.rim, self.cells, self.bounds
        rim_get, touch_get = rim.get, touch.get
        for t in opened:
            tx, ty = t
            values = []
            for c in (t, (tx, ty - 1), (tx + 1, ty), (tx, ty + 1), (tx - 1, ty)):
                if c in cells or c in (a, b):
                    values.append(0)
                elif bounds is not None and not inside(c, bounds):
                    if c == t:
                        return True  # an exit out of the play area: never closed
                    values.append(-1)
                else:
                    values.append(rim_get(c, 0) | touch_get((c[0] - x, c[1] - y), 0))
            sig: Signature = tuple(values)
            fits = False
            for kind in kinds:
                for _d, _x, _y, _r, (ox, oy), faced in rows(kind & PORT_MASK, sig):
                    ob = (tx + ox, ty + oy)
                    for fx, fy in faced:
                        nx, ny = tx + fx, ty + fy
                        n = (nx, ny)
                        if n in cells or n in (a, b):
                            continue
                        for w in (n, (nx, ny - 1), (nx + 1, ny), (nx, ny + 1), (nx - 1, ny)):
                            if w in after and w != t and w != ob:
                                break
                        else:
                            break  # an opening no card covering another front cell can meet
                    else:
                        fits = True  # this shape opens only where a closure can serve it
                        break
                if fits:
                    break
            if not fits:
                return True
        return False

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
