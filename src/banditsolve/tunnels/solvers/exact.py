"""The exact closure search on one mutable board (:class:`ExactSearch`): the node, its bounds
and the choice of the front cell it branches on, the memo and the depth-first search.

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

The iterative deepening over budgets lives in :mod:`banditsolve.tunnels.solvers.closure`, the
sharing of a long level among processes in :mod:`banditsolve.tunnels.solvers.parallel`.
The mutable board lives in :mod:`banditsolve.tunnels.solvers.board`, the forward checks of
placements in :mod:`banditsolve.tunnels.solvers.forward`.
"""

from __future__ import annotations

from collections.abc import Sequence

from banditsolve.core.limits import Budget, Limits
from banditsolve.tunnels.geometry import STEP, Cell, Placement
from banditsolve.tunnels.solvers.board import balance_after
from banditsolve.tunnels.solvers.bounds import (
    cover_bound,
    min_cards_for_balance,
    min_cards_for_exits,
)
from banditsolve.tunnels.solvers.forward import NEVER, ForwardCheck, Tested
from banditsolve.tunnels.solvers.inputs import Bounds, inside
from banditsolve.tunnels.solvers.options import (
    CACHE_LIMIT,
    Signature,
    placements_at,
    signature,
    summary,
)
from banditsolve.tunnels.table import Table

__all__ = ["NEVER", "SCREEN_CELLS", "ExactSearch", "balance_after"]

#: How many front cells (fewest options first) a node screens for the one to branch on (outside
#: the tight case). One: with the tight prediction in the forward check
#: (:meth:`~banditsolve.tunnels.solvers.forward.ForwardCheck.tight_dead`) a screen costs
#: more, and a second screened cell paid for itself no longer (regression positions 7 and 23:
#: 14 % fewer instructions under callgrind with one, 20 % more nodes).
SCREEN_CELLS = 1

#: A front cell as a node orders them: (its options, the cell, its signature).
FrontCell = tuple[int, Cell, Signature]
#: What :meth:`ExactSearch.expand` returns: ``(result, low, children)``.
Node = tuple[int, int, list[Placement]]


class ExactSearch(ForwardCheck):
    """One exact search; :meth:`run` may be called with growing budgets (memo kept).

    The search works on a mutable copy of the table (laid and lifted again on the way back,
    never copied: :class:`~banditsolve.tunnels.solvers.board.Board`) and keeps the exit count,
    the colour balance and the counts per class of the remaining cards up to date as it goes.
    Each node returns a proven lower bound on the cards any closure from it needs (``-1``
    once a closure is found): the largest of its counting bounds, or one more than the
    smallest bound among the children of its branching cell. The memo keeps that bound per
    set of cards laid, so a later, larger budget skips every node already known to need more,
    and a node that can never close is never searched twice. :meth:`tick` raises
    :class:`~banditsolve.core.limits.LimitReached` when a limit runs out.
    """

    def __init__(
        self,
        table: Table,
        cards: Sequence[int],
        bounds: Bounds | None,
        limits: Limits,
        required: Sequence[frozenset[int]] = (),
    ) -> None:
        super().__init__(table, cards, bounds)
        #: Groups of codes of which at least one card must be laid (a Bandida mode's goal:
        #: the ladder, the second super card); a closed table without them is a dead end.
        self.required = tuple(required)
        self.budget = Budget(limits, check_every=32)  # (a node takes ~0.1 ms: the limit to ~3 ms)
        self.lower: dict[frozenset[Placement], int] = {}
        #: The summary of each given card type alone, per signature (summed over the types
        #: left when a set of types meets a signature for the first time).
        self.per_type: dict[Signature, dict[int, tuple[int, int]]] = {}

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

    def missing(self) -> int:
        """How many of the required groups no card laid so far belongs to."""
        counts, given = self.counts, self.given
        return sum(1 for group in self.required if all(counts[c] >= given[c] for c in group))

    def closed(self, key: frozenset[Placement], bound: int) -> Node:
        """Record a leaf's proven bound in the memo; the :meth:`expand` triple of a leaf."""
        self.lower[key] = bound
        return bound, bound, []

    def expand(self, budget: int, key: frozenset[Placement]) -> Node:
        """One node: ``(result, low, children)``. ``result`` is -1 when the table is closed, or
        a proven lower bound on the cards a closure needs when ``children`` is empty;
        otherwise the bound proven by the options already ruled out (:data:`NEVER` if none),
        with ``low`` the node's counting bound and ``children`` the placements still to
        search."""
        front = self.front
        if not front:
            if self.required and self.missing():
                # Closed before the ladder (or the second super card) is down: no card can
                # be laid any more, so this line never reaches the goal.
                return self.closed(key, NEVER)
            return -1, 0, []
        known = self.lower.get(key, 0)
        if known > budget:
            return known, known, []
        low = self.counting_bound()
        if low > budget:
            return self.closed(key, low)
        kinds = self.kinds
        if kinds is None:
            kinds = self.kinds_left()
        pairs: dict[Cell, int] = {}
        order = self.front_cells(kinds, pairs)
        if order is None:
            # Cells only fill up and cards only run out: this exit stays open for good.
            return self.closed(key, NEVER)
        # Covering bound (see cover_bound): every front cell needs a card of its own unless one
        # card covers it with an adjacent front cell.
        cover = cover_bound(pairs) if len(front) > 1 else 1
        if cover > low:
            low = cover
            if low > budget:
                return self.closed(key, low)
        if budget <= cover:
            result, children = self.tight_children(order, pairs, kinds, budget)
        else:
            result, children = self.loose_children(order, kinds, budget)
        if not children:
            return self.closed(key, max(result, low))
        return result, low, children

    def counting_bound(self) -> int:
        """The node's counting bounds, each valid whatever the budget: half its front cells,
        its exits with their parity, its colour balance, its required cards (one each);
        :data:`NEVER` when the cards left can never meet the exits or the balance."""
        low = (len(self.front) + 1) // 2
        if self.required:
            short = self.missing()
            if short > low:
                low = short
        need = min_cards_for_exits(tuple(self.classes), self.exits)
        if need is None:
            return NEVER
        if need > low:
            low = need
        balance = self.balance
        if balance:
            skews = self.skews
            need = min_cards_for_balance(
                (skews[1], skews[2], skews[3]), balance if balance > 0 else -balance
            )
            if need is None:
                return NEVER
            if need > low:
                low = need
        return low

    def front_cells(self, kinds: tuple[int, ...], pairs: dict[Cell, int]) -> list[FrontCell] | None:
        """The front cells, the fewest options first (cells are distinct, so signatures are
        never compared), with ``pairs`` filled: per front cell, the sides on which a card of
        ``kinds`` can cover it with its neighbour. None when a front cell can never be
        covered (outside the play area, or no option left)."""
        sums = self.sums
        bounds = self.bounds
        rim = self.rim
        order: list[FrontCell] = []
        for t, fv in self.front.items():
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
                return None
            else:
                sig = signature(rim, t, fv, bounds)
            got = sums.get(sig)
            if got is None:
                got = self.summarise(sig, kinds)
            size, sides = got
            if size == 0:
                return None
            pairs[t] = sides
            order.append((size, t, sig))
        order.sort()
        return order

    def summarise(self, sig: Signature, kinds: tuple[int, ...]) -> tuple[int, int]:
        """``(options, pair sides)`` of a front cell of signature ``sig`` for the card types
        ``kinds`` (:func:`~banditsolve.tunnels.solvers.options.summary`, summed from each
        given type's own), kept in :attr:`sums`."""
        sums = self.sums
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
        return got

    def tight_children(
        self,
        order: list[FrontCell],
        pairs: dict[Cell, int],
        kinds: tuple[int, ...],
        budget: int,
    ) -> tuple[int, list[Placement]]:
        """The children of a tight node, and the bound proven by the options ruled out.

        Tight: exactly ``budget`` more cards can be used and ``cover`` of them are needed to
        cover the front cells, so every card still laid covers a front cell, on the front cell
        and (if it covers another cell) a neighbour on a side in ``pairs[t]`` (a card fits
        there now; cells only fill up, so no other side can fit later). ``zone`` maps each
        such cell to the front cells whose card may lie on it. An opening of a card facing a
        cell empty when it is laid must face a card laid later, which covers another front
        cell: a placement opening onto an empty cell outside the zone of the other front cells
        cannot be part of a closure of ``budget`` cards, and a front cell with no placement
        left cannot be covered within the budget. The placements dropped may still serve a
        larger budget: the bound this node proves is then at most ``budget + 1``. (Placements
        are tested once per footprint: the cells they cover and the cells their openings
        face.)"""
        zone: dict[Cell, list[Cell]] = {}
        for t, sides in pairs.items():
            zone.setdefault(t, []).append(t)
            tx, ty = t
            for side in range(4):
                if sides >> side & 1:
                    dx, dy = STEP[side]
                    zone.setdefault((tx + dx, ty + dy), []).append(t)
        # First every cell for an empty zone (the cheap test, and most of these nodes' end),
        # then the screens. (The footprints tested at a cell are kept between the two passes:
        # the board and the zone are the same.)
        tested: list[Tested] = []
        for _size, t, sig in order:
            seen: Tested = {}
            tested.append(seen)
            if not self.zone_options(t, sig, kinds, zone, True, seen):
                return budget + 1, []
        best_children: list[Placement] | None = None
        result = NEVER
        for (_size, t, sig), seen in zip(order, tested, strict=True):
            if best_children is not None and len(best_children) <= 1:
                break  # the rest were only checked for an empty zone
            options = self.zone_options(t, sig, kinds, zone, False, seen)
            bound, kids = self.screen(options, budget, budget + 1)
            if not kids:
                return bound, []
            if best_children is None or len(kids) < len(best_children):
                best_children, result = kids, bound
        assert best_children is not None
        return result, best_children

    def loose_children(
        self, order: list[FrontCell], kinds: tuple[int, ...], budget: int
    ) -> tuple[int, list[Placement]]:
        """The children of a node that is not tight, and the bound proven by the options
        ruled out: every front cell's options (the first :data:`SCREEN_CELLS` cells), screened
        by the forward check, from the fewest options up: a cell none of whose options
        survives proves the node's bound, and the cell with the fewest survivors is the one
        branched on (each front cell is covered by some card of every closure, and that card
        may be laid first)."""
        best_children: list[Placement] | None = None
        result = NEVER
        for _size, t, sig in order[:SCREEN_CELLS]:
            bound, kids = self.screen(placements_at(t, sig, kinds), budget, NEVER)
            if not kids:
                return bound, []
            if best_children is None or len(kids) < len(best_children):
                best_children, result = kids, bound
                if len(kids) <= 1:
                    break
        assert best_children is not None
        return result, best_children
