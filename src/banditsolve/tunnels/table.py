"""The table: an immutable value holding the laid cards, their open sides and the exits.

An *exit* is an opening that faces an empty cell. The table keeps, for every empty cell that
some exit faces (a *front* cell), which of its sides touch a card and which of those carry an
opening into it. This front is updated locally on each placement, never recomputed from scratch,
and legal placements are searched only on front cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from banditsolve.errors import IllegalActionError
from banditsolve.tunnels.cards import FULL, CardLike, as_code, card_name, parse_ports
from banditsolve.tunnels.geometry import (
    SIDE_NAMES,
    STEP,
    Cell,
    Placement,
    normalise,
    opposite,
    orientation,
    shape_rows,
    shapes,
)

# A cell's packed value: bits 0-3 open sides, bits 4-5 the side facing the card's other square,
# bit 6 set on a square without any port of its card (a flashlight square), bits 7+ the index
# of the placement in the history.
_PARTNER_SHIFT = 4
_FLASH_BIT = 1 << 6
_INDEX_SHIFT = 7


class Exit(NamedTuple):
    """An opening facing an empty cell: the occupied cell ``(x, y)`` and the open ``side``."""

    x: int
    y: int
    side: int

    @property
    def target(self) -> Cell:
        """The empty cell the opening faces."""
        dx, dy = STEP[self.side]
        return self.x + dx, self.y + dy

    def __str__(self) -> str:
        return f"({self.x}, {self.y}) {SIDE_NAMES[self.side]}"


class DeadExit(NamedTuple):
    """An exit that can never be closed, with the reason: ``"hole"`` or ``"unfillable"``."""

    exit: Exit
    reason: str


@dataclass(frozen=True, slots=True, eq=False)
class Table:
    """Cards on the table. Immutable: :meth:`place` returns a new table.

    Equality and hashing compare the set of (normalised) placements, so two tables that hold
    the same cards the same way are equal whatever order the cards were laid in.
    """

    _cells: Mapping[Cell, int]
    _rim: Mapping[Cell, int]
    _front: Mapping[Cell, int]
    history: tuple[Placement, ...]

    @staticmethod
    def empty() -> Table:
        """A table with no card."""
        return Table({}, {}, {}, ())

    @staticmethod
    def start(super_card: CardLike = "super6", x: int = 0, y: int = 0, rotation: int = 0) -> Table:
        """A table holding only the super card (or any first card) at ``(x, y)``."""
        raw = parse_ports(super_card) if isinstance(super_card, str) else as_code(super_card)
        return Table.empty().place(normalise(raw, x, y, rotation))

    # -- reading ------------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return len(self.history) == len(other.history) and set(self.history) == set(other.history)

    def __hash__(self) -> int:
        return hash(frozenset(self.history))

    def __len__(self) -> int:
        return len(self.history)

    @property
    def cells(self) -> dict[Cell, int]:
        """Occupied cells mapped to their open sides (bit ``d`` for side ``d``: N, E, S, W)."""
        return {c: v & 15 for c, v in self._cells.items()}

    def is_occupied(self, cell: Cell) -> bool:
        """True when a card covers ``cell``."""
        return cell in self._cells

    def open_sides(self, cell: Cell) -> int:
        """Open mask of an occupied cell (0 for an empty cell)."""
        return self._cells.get(cell, 0) & 15

    def owner(self, cell: Cell) -> int | None:
        """Index in :attr:`history` of the placement covering ``cell``, or None."""
        v = self._cells.get(cell)
        return None if v is None else v >> _INDEX_SHIFT

    def partner_side(self, cell: Cell) -> int | None:
        """Side of an occupied cell that faces the other square of its card."""
        v = self._cells.get(cell)
        return None if v is None else (v >> _PARTNER_SHIFT) & 3

    def is_flashlight(self, cell: Cell) -> bool:
        """True on the port-less square of a dead-end card."""
        return bool(self._cells.get(cell, 0) & _FLASH_BIT)

    @property
    def exits(self) -> frozenset[Exit]:
        """Every opening that faces an empty cell."""
        out: list[Exit] = []
        for (tx, ty), fv in self._front.items():
            need = fv & 15
            for side in range(4):
                if need >> side & 1:
                    dx, dy = STEP[side]
                    out.append(Exit(tx + dx, ty + dy, opposite(side)))
        return frozenset(out)

    @property
    def exit_count(self) -> int:
        """Number of exits."""
        return sum((fv & 15).bit_count() for fv in self._front.values())

    @property
    def front(self) -> dict[Cell, tuple[int, int]]:
        """Empty cells faced by exits: ``cell -> (touching sides, sides with an opening in)``."""
        return {c: (fv >> 4, fv & 15) for c, fv in self._front.items()}

    def holes(self) -> tuple[Cell, ...]:
        """Empty cells walled in on all four sides by cards, with an exit running into them."""
        return tuple(sorted(c for c, fv in self._front.items() if fv >> 4 == 15))

    def bounds(self) -> tuple[int, int, int, int]:
        """``(min_x, min_y, max_x, max_y)`` of occupied cells (``(0, 0, 0, 0)`` when empty)."""
        if not self._cells:
            return 0, 0, 0, 0
        xs = [c[0] for c in self._cells]
        ys = [c[1] for c in self._cells]
        return min(xs), min(ys), max(xs), max(ys)

    def cards(self) -> tuple[int, ...]:
        """Codes of the cards on the table, in the order laid."""
        return tuple(p.card for p in self.history)

    def _repr_svg_(self) -> str:
        from banditsolve.tunnels.render import svg

        return svg(self)

    def __str__(self) -> str:
        from banditsolve.tunnels.render import ascii_art

        return ascii_art(self)

    # -- placing ------------------------------------------------------------------------------

    def placement_error(self, placement: Placement) -> str | None:
        """Why ``placement`` may not be laid here, or None when it is legal."""
        cells = self._cells
        o = orientation(placement.card & FULL, placement.rotation)
        a = (placement.x, placement.y)
        b = (a[0] + o.b_step[0], a[1] + o.b_step[1])
        for cell in (a, b):
            v = cells.get(cell)
            if v is not None:
                return f"cell {cell} is already covered by placement {(v >> _INDEX_SHIFT) + 1}"
        if not cells:
            return None
        joined = False
        for square, cell, open4, inner in ((0, a, o.open_a, o.b_side), (1, b, o.open_b, -1)):
            if inner < 0:
                inner = opposite(o.b_side)
            for side in range(4):
                if side == inner:
                    continue
                dx, dy = STEP[side]
                v = cells.get((cell[0] + dx, cell[1] + dy))
                if v is None:
                    continue
                mine = open4 >> side & 1
                theirs = v >> opposite(side) & 1
                port = o.port_at[square][side]
                other = (v >> _INDEX_SHIFT) + 1
                if mine and not theirs:
                    return f"opening {port} faces the wall of placement {other}"
                if theirs and not mine:
                    return f"the wall at {port} faces an opening of placement {other}"
                if mine:
                    joined = True
        if not joined:
            return "no opening joins an exit of the tunnel network"
        return None

    def is_legal(self, placement: Placement) -> bool:
        """True when ``placement`` may be laid on this table."""
        return self.placement_error(placement) is None

    def place(self, placement: Placement) -> Table:
        """The table after laying ``placement``; :class:`IllegalActionError` if it is illegal."""
        p = normalise(placement.card, placement.x, placement.y, placement.rotation)
        error = self.placement_error(p)
        if error is not None:
            raise IllegalActionError(f"placement {len(self.history) + 1} ({p}): {error}")
        return self._place(p)

    def _place(self, p: Placement) -> Table:
        """Lay a normalised, legal placement (no checks)."""
        o = orientation(p.card & FULL, p.rotation)
        a = (p.x, p.y)
        b = (a[0] + o.b_step[0], a[1] + o.b_step[1])
        index = len(self.history) << _INDEX_SHIFT
        cells = dict(self._cells)
        rim = dict(self._rim)
        front = dict(self._front)
        va = o.open_a | (o.b_side << _PARTNER_SHIFT) | index
        vb = o.open_b | (opposite(o.b_side) << _PARTNER_SHIFT) | index
        if not o.open_a:
            va |= _FLASH_BIT
        if not o.open_b:
            vb |= _FLASH_BIT
        cells[a] = va
        cells[b] = vb
        for cell in (a, b):
            rim.pop(cell, None)
            front.pop(cell, None)
        for cell, open4 in ((a, o.open_a), (b, o.open_b)):
            cx, cy = cell
            for side in range(4):
                dx, dy = STEP[side]
                n = (cx + dx, cy + dy)
                if n in cells:
                    continue
                bit = 1 << ((side + 2) & 3)
                v = rim.get(n, 0) | (bit << 4)
                if open4 >> side & 1:
                    v |= bit
                rim[n] = v
                if v & 15:
                    front[n] = v
        return Table(cells, rim, front, (*self.history, p))

    def place_all(self, placements: Iterable[Placement]) -> Table:
        """Lay placements in order; an error names the placement by its number (1 = first)."""
        table = self
        for p in placements:
            table = table.place(p)
        return table


def _candidates(table: Table, mask: int) -> Iterator[tuple[int, int, int, int]]:
    """Yield ``(x, y, rotation, exit_delta)`` of every legal placement of port mask ``mask``.

    ``mask`` must be canonical. Each placement is yielded once. ``exit_delta`` is the change in
    the number of exits the placement makes.
    """
    rim = table._rim
    front = table._front
    for t, fv in front.items():
        known = fv >> 4
        need = fv & 15
        tx, ty = t
        closed_t = need.bit_count()
        for t_open, side, o_open, odx, ody, adx, ady, rotation in shape_rows(mask):
            if known >> side & 1 or (t_open ^ need) & known:
                continue
            o = (tx + odx, ty + ody)
            ov = rim.get(o, 0)
            o_need = ov & 15
            if o_need and o < t:
                continue  # found when the loop reaches ``o``
            o_known = ov >> 4
            if (o_open ^ o_need) & o_known:
                continue
            opened = (t_open & ~known).bit_count() + (o_open & ~o_known).bit_count()
            yield tx + adx, ty + ady, rotation, opened - closed_t - o_need.bit_count()


def legal_placements(table: Table, card: CardLike) -> tuple[Placement, ...]:
    """Every legal placement of ``card`` on ``table``, sorted by ``(y, x, rotation)``.

    Legal: both cells empty, every touching edge matching (opening to opening, wall to wall)
    and at least one opening joining an exit. Each physical placement appears once, normalised.
    """
    code = as_code(card)
    found = [Placement(code, x, y, r) for x, y, r, _ in _candidates(table, code & FULL)]
    found.sort(key=_order)
    return tuple(found)


def _order(p: Placement) -> tuple[int, int, int]:
    return p.y, p.x, p.rotation


def placements_with_delta(table: Table, card: CardLike) -> list[tuple[Placement, int]]:
    """Legal placements of ``card`` with the change in the number of exits each makes."""
    code = as_code(card)
    found = sorted((y, x, r, d) for x, y, r, d in _candidates(table, code & FULL))
    return [(Placement(code, x, y, r), d) for y, x, r, d in found]


def has_legal_placement(table: Table, card: CardLike) -> bool:
    """True when ``card`` can be laid somewhere."""
    code = as_code(card)
    return next(_candidates(table, code & FULL), None) is not None


def creates_hole(table: Table, placement: Placement) -> bool:
    """True when laying ``placement`` walls an exit into a one-cell hole."""
    o = orientation(placement.card & FULL, placement.rotation)
    a = (placement.x, placement.y)
    b = (a[0] + o.b_step[0], a[1] + o.b_step[1])
    cells = table._cells
    rim = table._rim
    for cell, open4, inner in ((a, o.open_a, o.b_side), (b, o.open_b, (o.b_side + 2) & 3)):
        cx, cy = cell
        for side in range(4):
            if side == inner:
                continue
            dx, dy = STEP[side]
            n = (cx + dx, cy + dy)
            if n in cells:
                continue
            bit = 1 << ((side + 2) & 3)
            v = rim.get(n, 0) | (bit << 4)
            if open4 >> side & 1:
                v |= bit
            if v >> 4 == 15 and v & 15:
                return True
    return False


def can_fill(table: Table, cell: Cell, cards: Iterable[int]) -> bool:
    """True when some card of ``cards`` could be laid now covering the empty front ``cell``."""
    if cell in table._cells:
        return False
    fv = table._rim.get(cell, 0)
    known, need = fv >> 4, fv & 15
    for code in set(cards):
        for s in shapes(code & FULL):
            if known >> s.side & 1 or (s.t_open ^ need) & known:
                continue
            dx, dy = STEP[s.side]
            o = (cell[0] + dx, cell[1] + dy)
            ov = table._rim.get(o, 0)
            if (s.o_open ^ (ov & 15)) & (ov >> 4):
                continue
            return True
    return False


def dead_exits(table: Table, remaining: Iterable[int] | None = None) -> tuple[DeadExit, ...]:
    """Exits that can never be closed, sorted.

    ``"hole"``: the exit runs into a one-cell hole walled in by cards (no card can cover it).
    ``"unfillable"``: no card of ``remaining`` (the cards still to come) fits the faced cell now;
    since cells only fill up, none ever will. Without ``remaining`` only holes are reported.
    """
    pool = None if remaining is None else {c & FULL for c in remaining}
    out: list[DeadExit] = []
    for t, fv in table._front.items():
        if fv >> 4 == 15:
            reason = "hole"
        elif pool is not None and not can_fill(table, t, pool):
            reason = "unfillable"
        else:
            continue
        need = fv & 15
        for side in range(4):
            if need >> side & 1:
                dx, dy = STEP[side]
                out.append(DeadExit(Exit(t[0] + dx, t[1] + dy, opposite(side)), reason))
    return tuple(sorted(out))


def describe_placement(p: Placement) -> str:
    """``NAME at (x, y) rot R``."""
    return f"{card_name(p.card)} at ({p.x}, {p.y}) rot {p.rotation}"
