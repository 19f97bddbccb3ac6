"""The forward checks of the exact closure search (:class:`ForwardCheck`): which placements at
a front cell are worth laying, decided before any is laid.

- :meth:`ForwardCheck.screen`: per placement, the child's exit count and colour balance
  (:func:`~banditsolve.tunnels.solvers.board.balance_after`) against the cards left, and a
  quick covering bound (:func:`~banditsolve.tunnels.solvers.bounds.quick_cover`); when that
  bound makes the child tight (its front cells need all the cards its budget allows), also
  :meth:`ForwardCheck.zone_dead`, the tight filter predicted;
- :meth:`ForwardCheck.zone_options`: the tight filter itself, at a node whose cover bound
  equals its budget: only placements whose openings face occupied cells or cells that a card
  covering *another* front cell can reach are kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from banditsolve.tunnels.cards import PORT_MASK
from banditsolve.tunnels.geometry import Cell, Placement
from banditsolve.tunnels.solvers.board import BALANCE_CHANGE, SKEW, Board, touches
from banditsolve.tunnels.solvers.bounds import (
    min_cards_for_balance,
    min_cards_for_exits,
    quick_cover,
)
from banditsolve.tunnels.solvers.inputs import Bounds, inside
from banditsolve.tunnels.solvers.options import (
    Option,
    Signature,
    fits_zone,
    rows,
    shape_info,
)
from banditsolve.tunnels.table import Table

#: The lower bound of a node from which no closure exists at all, whatever the budget.
NEVER = 1 << 20

#: The verdicts of :meth:`ForwardCheck.zone_options` per footprint ``(other, faced)`` at one
#: front cell, kept for another call on the same board and zone.
Tested = dict[tuple[Cell, tuple[Cell, ...]], bool]


class ForwardCheck(Board):
    """The board with its play area (``bounds``) and the forward checks of placements."""

    def __init__(self, table: Table, cards: Sequence[int], bounds: Bounds | None) -> None:
        super().__init__(table, cards)
        self.bounds = bounds
        #: The card types left less one type, per (types left, type): kept.
        self.without: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}

    def exits_need(self, k: int, exits: int) -> int:
        """The exit bound (:func:`~banditsolve.tunnels.solvers.bounds.min_cards_for_exits`)
        of a child with ``exits`` exits, after a card with ``k`` openings is laid
        (:data:`NEVER` when the cards left can never meet them)."""
        classes = self.classes
        classes[k] -= 1
        need = min_cards_for_exits(tuple(classes), exits)
        classes[k] += 1
        return NEVER if need is None else need

    def balance_need(self, s: int, balance: int) -> int:
        """The balance bound (:func:`~banditsolve.tunnels.solvers.bounds.min_cards_for_balance`)
        of a child of colour balance ``balance``, after a card of skew ``s`` is laid
        (:data:`NEVER` when the cards left can never meet it)."""
        skews = self.skews
        skews[s] -= 1
        need = min_cards_for_balance((skews[1], skews[2], skews[3]), abs(balance))
        skews[s] += 1
        return NEVER if need is None else need

    def screen(
        self, options: list[Option], budget: int, result: int
    ) -> tuple[int, list[Placement]]:
        """The forward check of ``options`` at a node with ``budget`` cards left: the
        placements that survive it, in order, and the bound proven by those it drops (the
        smallest of their children's bounds plus one, and ``result``).

        Per placement, before laying it: the child's exit bound, its colour balance (see
        :func:`~banditsolve.tunnels.solvers.board.balance_after`) and the cards left to meet
        it, and when those leave room, the child's quick cover bound; when that bound makes the
        child tight, :meth:`tight_dead`. (A child bound of :data:`NEVER` drops the placement
        and leaves ``result`` as it is.)"""
        options.sort()
        exits = self.exits
        balance = self.balance
        nfront = len(self.front)
        front_cells = set(self.front)
        change = BALANCE_CHANGE
        children: list[Placement] = []
        # The exit bound of the child per (openings k, delta); the balance bound per
        # (skew s, balance): each computed once per screen.
        exit_need: dict[tuple[int, int], int] = {}
        balance_need: dict[tuple[int, int], int] = {}
        for delta, code, x, y, rotation in options:
            if exits + delta:
                mask = code & PORT_MASK
                k = mask.bit_count()
                child = exit_need.get((k, delta), -1)
                if child == -1:
                    child = exit_need[k, delta] = self.exits_need(k, exits + delta)
                after_balance = balance + change[(x + y) & 1][mask]
                if after_balance:
                    s = SKEW[mask]
                    need = balance_need.get((s, after_balance), -1)
                    if need == -1:
                        need = balance_need[s, after_balance] = self.balance_need(
                            s, after_balance
                        )
                    if need > child:
                        child = need
                if child < budget:
                    bdx, bdy, faced = shape_info(mask, rotation)
                    if nfront + len(faced) >= budget:
                        # (The child's front has at most this many cells, its cover bound no
                        # more.)
                        cover = self._child_cover(
                            code, x, y, rotation, (bdx, bdy), faced, budget, front_cells
                        )
                        if cover > child:
                            child = cover
                if child > budget - 1:
                    if child + 1 < result:
                        result = child + 1
                    continue
            children.append(Placement(code, x, y, rotation))
        return result, children

    def _child_cover(
        self,
        code: int,
        x: int,
        y: int,
        rotation: int,
        second: Cell,
        faced: Sequence[Cell],
        budget: int,
        front_cells: set[Cell],
    ) -> int:
        """The quick cover bound of the child after laying ``code`` at ``(x, y, rotation)``
        (``second``: its other cell's offset; ``faced``: the offsets its openings face), at a
        node of front ``front_cells`` with ``budget`` cards left; ``budget`` when the child is
        tight and :meth:`tight_dead`."""
        cells = self.cells
        # The child's front cells: the node's, less the two covered, and the empty cells the
        # card opens onto.
        after = front_cells.copy()
        after.discard((x, y))
        after.discard((x + second[0], y + second[1]))
        opened = []
        for dx, dy in faced:
            n = (x + dx, y + dy)
            if n not in cells:
                after.add(n)
                opened.append(n)
        cover = quick_cover(after)
        if (
            cover == budget - 1
            and opened
            and self.tight_dead(code, x, y, rotation, after, opened)
        ):
            # A tight child with a front cell no card can cover within its budget: it needs
            # at least ``budget`` cards.
            cover = budget
        return cover

    def tight_dead(
        self, code: int, x: int, y: int, rotation: int, after: set[Cell], opened: list[Cell]
    ) -> bool:
        """:meth:`zone_dead` of the child after laying ``code`` at ``(x, y, rotation)``
        (front cells ``after``, ``opened`` those the card opens onto), with the card types
        left after that card."""
        kinds = self.kinds if self.kinds is not None else self.types_left()
        if self.counts[code] == 1:
            key = (kinds, code)
            left = self.without.get(key)
            if left is None:
                left = self.without[key] = tuple(c for c in kinds if c != code)
            kinds = left
        return self.zone_dead(code, x, y, rotation, after, kinds, opened)

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
        can cover within the budget: the tight case of the exact search's node, predicted
        before the child is laid, with a coarser zone.

        Sound: take a closure of the child within its budget and a front cell ``u``; the card
        ``q`` covering ``u`` fits the child's cards now (its edges facing them are the final
        table's) on cells empty now, so it is one of the placements at ``u`` (the rows of
        ``u``'s signature for the card types left). Every opening of ``q`` onto a cell ``n``
        empty now faces a card ``r != q`` of the closure in the final table; ``r`` covers some
        front cell ``v`` (every card does), ``v`` neither ``u`` nor ``q``'s other cell (those
        are ``q``'s), and ``r`` lies on ``v`` and a neighbour of ``v``, so ``n`` is ``v`` or one
        of its four neighbours. A front cell with no placement whose openings onto empty cells
        all lie there therefore has no closure within the budget. (The zone of the node's
        tight case keeps only the neighbours a card can pair ``v`` with; all four is a
        superset, so the test is weaker, never unsound.) The child's rim values are those
        :meth:`~banditsolve.tunnels.solvers.board.Board.lay` would leave: an empty cell next
        to the new card gains the card's touch bits on that side (the table's one rim update,
        :data:`~banditsolve.tunnels.table.TOUCH`), the card's own cells are occupied; a test
        checks the prediction against closures replayed by the oracle. Nothing is laid."""
        bdx, bdy, touch = touches(code & PORT_MASK, rotation)
        a = (x, y)
        b = (x + bdx, y + bdy)
        rim, cells, bounds = self.rim, self.cells, self.bounds
        rim_get, touch_get = rim.get, touch.get
        for t in opened:
            # The signature of t on the child's board.
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
            if not self.opens_in_zone(t, tuple(values), kinds, after, a, b):
                return True
        return False

    def opens_in_zone(
        self,
        t: Cell,
        sig: Signature,
        kinds: tuple[int, ...],
        after: set[Cell],
        a: Cell,
        b: Cell,
    ) -> bool:
        """Whether some placement of ``kinds`` covers ``t`` (of signature ``sig``, on the
        board after a card on ``a`` and ``b``, with front cells ``after``) opening only onto
        occupied cells or cells that are, or are next to, a front cell other than the two it
        covers (see :meth:`zone_dead`)."""
        cells = self.cells
        tx, ty = t
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
                    return True  # this shape opens only where a closure can serve it
        return False

    def zone_options(
        self,
        t: Cell,
        sig: Signature,
        kinds: tuple[int, ...],
        zone: dict[Cell, list[Cell]],
        first: bool,
        tested: Tested | None = None,
    ) -> list[Option]:
        """The options at ``t`` that open only onto occupied cells or the zone of another front
        cell (see the tight case of the exact search's node); with ``first``, at most one.
        ``tested`` keeps the verdict per footprint ``(other, faced)``, for another call at
        ``t`` on the same board and zone."""
        tx, ty = t
        cells = self.cells
        if tested is None:
            tested = {}
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
