"""The table: an immutable value holding the laid cards, their open sides and the exits.

An *exit* is an opening that faces an empty cell. The table keeps, for every empty cell that
touches a card (the *rim*), which of its sides touch a card and which of those carry an
opening into it; the rim cells with an opening running in are the *front*. Rim and front are
updated locally on each placement, never recomputed from scratch, and legal placements are
searched only on front cells.

The one edge-matching rule of the game lives in :func:`fits`: a card's square may cover an
empty cell when every side of the cell that touches a card gets an opening exactly where the
touching card has one (opening meets opening, wall meets wall). :meth:`Table.placement_error`,
:func:`candidates`, :func:`can_fill` and the closure solvers all ask it (the hot loops through
the tables :data:`FITS` and :data:`EXIT_CHANGE`, built from it once).

Packed values (named masks below):

- a *cell value* (:attr:`Table.packed`): bits 0-3 the open sides (:data:`OPEN_MASK`), bits 4-5
  the side facing the card's other square (:data:`PARTNER_SHIFT`), :data:`FLASH_BIT` on a square
  without any port of its card, and from :data:`INDEX_SHIFT` up the index of the placement in
  :attr:`Table.history`;
- a *rim value* (:attr:`Table.rim`, :attr:`Table.front_rim`): bits 0-3 the sides from which an
  opening runs into the empty cell (:func:`rim_open`), bits 4-7 the sides that touch a card
  (:func:`rim_touch`, from :data:`RIM_TOUCH_SHIFT`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from banditsolve.core.limits import MAX_COORD
from banditsolve.core.text import plural, shown
from banditsolve.errors import ArgumentTypeError, IllegalActionError, InternalError
from banditsolve.tunnels.cards import PORT_MASK, CardLike, as_code, parse_ports
from banditsolve.tunnels.geometry import (
    SIDE_MASK,
    SIDE_NAMES,
    STEP,
    Cell,
    Orientation,
    Placement,
    normalise,
    opposite,
    orientation,
    shapes,
)

#: Cell value: the open sides of an occupied cell.
OPEN_MASK = SIDE_MASK
#: Cell value: the side facing the card's other square sits at this bit (2 bits).
PARTNER_SHIFT = 4
#: Cell value: set on the port-less square of a dead-end card (the flashlight).
FLASH_BIT = 1 << 6
#: Cell value: the placement's index in the history starts at this bit.
INDEX_SHIFT = 7
#: Rim value: the touching sides start at this bit (the open sides are bits 0-3).
RIM_TOUCH_SHIFT = 4
#: Rim value: every side touches a card.
RIM_WALLED = SIDE_MASK << RIM_TOUCH_SHIFT

def rim_open(rim: int) -> int:
    """The sides of an empty cell from which an opening runs into it."""
    return rim & SIDE_MASK


def rim_touch(rim: int) -> int:
    """The sides of an empty cell that touch a card."""
    return rim >> RIM_TOUCH_SHIFT


def rim_add(rim: int, side: int, opening: bool) -> int:
    """The rim value of an empty cell after a card comes to touch its side ``side``, with an
    opening towards the cell or a wall."""
    bit = 1 << side
    return rim | bit << RIM_TOUCH_SHIFT | (bit if opening else 0)


def mismatched_sides(open4: int, rim: int) -> int:
    """The sides where a square with open sides ``open4`` laid on an empty cell with rim value
    ``rim`` breaks the edge rule: an opening against a wall or a wall against an opening."""
    return (open4 ^ rim) & rim >> RIM_TOUCH_SHIFT


def fits(open4: int, rim: int) -> bool:
    """The edge-matching rule: a square with open sides ``open4`` may cover an empty cell with
    rim value ``rim`` (every touching side: opening meets opening, wall meets wall)."""
    return not mismatched_sides(open4, rim)


def exit_change(open4: int, rim: int) -> int:
    """The change in the number of exits when a square with open sides ``open4`` covers an
    empty cell with rim value ``rim`` (its openings onto free sides are new exits; the
    openings running into the cell are closed). The side towards the card's own other square
    never has an opening, so a card's change is the sum over its two squares."""
    return (open4 & ~rim_touch(rim) & SIDE_MASK).bit_count() - rim_open(rim).bit_count()


def is_hole(rim: int) -> bool:
    """True for an empty cell walled in on all four sides with an exit running into it."""
    return rim & RIM_WALLED == RIM_WALLED and bool(rim_open(rim))


#: ``FITS[rim] >> open4 & 1`` is :func:`fits` (``open4`` 0..15, ``rim`` 0..255), for hot loops.
FITS: tuple[int, ...] = tuple(
    sum(1 << open4 for open4 in range(16) if fits(open4, rim)) for rim in range(256)
)
#: ``EXIT_CHANGE[open4 << 8 | rim]`` is :func:`exit_change`, for hot loops.
EXIT_CHANGE: tuple[int, ...] = tuple(
    exit_change(open4, rim) for open4 in range(16) for rim in range(256)
)
#: ``FITTING_RIMS[open4] >> rim & 1`` is :func:`fits` the other way round: the rim values a
#: square with open sides ``open4`` fits.
FITTING_RIMS: tuple[int, ...] = tuple(
    sum(1 << rim for rim in range(256) if fits(open4, rim)) for open4 in range(16)
)
#: ``IS_HOLE[rim]`` is :func:`is_hole`, for hot loops.
IS_HOLE: tuple[bool, ...] = tuple(is_hole(rim) for rim in range(256))
#: ``TOUCH[open4 << 2 | side]``: what :func:`rim_add` adds to the rim value of the empty cell
#: on side ``side`` of a square with open sides ``open4``.
TOUCH: tuple[int, ...] = tuple(
    rim_add(0, (side + 2) % 4, bool(open4 >> side & 1)) for open4 in range(16) for side in range(4)
)


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
    """An exit that can never be closed, with the reason: ``"hole"``, ``"outside"`` (the play
    area) or ``"unfillable"``."""

    exit: Exit
    reason: str


@dataclass(frozen=True, slots=True, eq=False)
class Table:
    """Cards on the table. Immutable: :meth:`place` returns a new table.

    Two tables are equal when they hold the same cards the same way (the sets of normalised
    placements), laid from the same first card and with the same card laid last, whatever order
    the others were laid in: in Bandida the last card decides what happens next (the map just
    laid may not be taken off, a dynamite's phase follows a dynamite), and a map never takes off
    the first card, so tables with another first or last card can have other futures.

    ``packed`` maps occupied cells to their cell values, ``rim`` the empty cells touching a
    card to their rim values, ``front_rim`` the rim cells an exit runs into (see the module
    notes for the packing). These mappings are shared, never change, and must not be changed.
    """

    packed: Mapping[Cell, int]
    rim: Mapping[Cell, int]
    front_rim: Mapping[Cell, int]
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
        mine, theirs = self.history, other.history
        return (
            len(mine) == len(theirs)
            and mine[-1:] == theirs[-1:]
            and mine[:1] == theirs[:1]
            and set(mine) == set(theirs)
        )

    def __hash__(self) -> int:
        return hash((frozenset(self.history), self.history[:1], self.history[-1:]))

    def __len__(self) -> int:
        return len(self.history)

    @property
    def cells(self) -> dict[Cell, int]:
        """Occupied cells mapped to their open sides (bit ``d`` for side ``d``: N, E, S, W)."""
        return {c: v & OPEN_MASK for c, v in self.packed.items()}

    def is_occupied(self, cell: Cell) -> bool:
        """True when a card covers ``cell``."""
        return cell in self.packed

    def open_sides(self, cell: Cell) -> int:
        """Open mask of an occupied cell (0 for an empty cell)."""
        return self.packed.get(cell, 0) & OPEN_MASK

    def owner(self, cell: Cell) -> int | None:
        """Index in :attr:`history` of the placement covering ``cell``, or None."""
        v = self.packed.get(cell)
        return None if v is None else v >> INDEX_SHIFT

    def partner_side(self, cell: Cell) -> int | None:
        """Side of an occupied cell that faces the other square of its card."""
        v = self.packed.get(cell)
        return None if v is None else (v >> PARTNER_SHIFT) & 3

    def is_flashlight(self, cell: Cell) -> bool:
        """True on the port-less square of a dead-end card."""
        return bool(self.packed.get(cell, 0) & FLASH_BIT)

    @property
    def exits(self) -> frozenset[Exit]:
        """Every opening that faces an empty cell."""
        return frozenset(e for t, fv in self.front_rim.items() for e in _exits_into(t, fv))

    @property
    def exit_count(self) -> int:
        """Number of exits."""
        return sum(rim_open(fv).bit_count() for fv in self.front_rim.values())

    @property
    def front(self) -> dict[Cell, tuple[int, int]]:
        """Empty cells faced by exits: ``cell -> (touching sides, sides with an opening in)``."""
        return {c: (rim_touch(fv), rim_open(fv)) for c, fv in self.front_rim.items()}

    def holes(self) -> tuple[Cell, ...]:
        """Empty cells walled in on all four sides by cards, with an exit running into them."""
        return tuple(sorted(c for c, fv in self.front_rim.items() if is_hole(fv)))

    def bounds(self) -> tuple[int, int, int, int]:
        """``(min_x, min_y, max_x, max_y)`` of occupied cells (``(0, 0, 0, 0)`` when empty)."""
        if not self.packed:
            return 0, 0, 0, 0
        xs = [c[0] for c in self.packed]
        ys = [c[1] for c in self.packed]
        return min(xs), min(ys), max(xs), max(ys)

    def cards(self) -> tuple[int, ...]:
        """Codes of the cards on the table, in the order laid."""
        return tuple(p.card for p in self.history)

    def _repr_svg_(self) -> str:
        view = _PICTURES.get("svg")
        if view is None:  # pragma: no cover - the package imports render, which registers it
            raise InternalError("no table picture is registered: import banditsolve.tunnels")
        return view(self)

    def __str__(self) -> str:
        view = _PICTURES.get("ascii")
        if view is None:  # pragma: no cover - as for _repr_svg_
            return f"Table of {len(self.history)} cards, {self.exit_count} exits"
        return view(self)

    def __repr__(self) -> str:
        """One line: the number of cards and exits, and the first placements laid."""
        shown_ = " ".join(map(str, self.history[:REPR_PLACEMENTS]))
        more = " ..." if len(self.history) > REPR_PLACEMENTS else ""
        cards = plural(len(self.history), "card")
        return f"<Table of {cards}, {plural(self.exit_count, 'exit')}: {shown_}{more}>"

    # -- placing ------------------------------------------------------------------------------

    def placement_error(self, placement: Placement) -> str | None:
        """Why ``placement`` may not be laid here, or None when it is legal.

        Legal: both cells empty, every touching edge matching (:func:`fits`) and, unless the
        table is empty, at least one opening joining an exit.
        """
        cells = self.packed
        o = orientation(placement.card & PORT_MASK, placement.rotation)
        a = (placement.x, placement.y)
        b = (a[0] + o.b_step[0], a[1] + o.b_step[1])
        for cell in (a, b):
            v = cells.get(cell)
            if v is not None:
                return f"cell {cell} is already covered by placement {(v >> INDEX_SHIFT) + 1}"
        if not cells:
            return None
        joined = False
        for square, cell, open4 in ((0, a, o.open_a), (1, b, o.open_b)):
            rim = self.rim.get(cell, 0)
            wrong = mismatched_sides(open4, rim)
            if wrong:
                side = (wrong & -wrong).bit_length() - 1
                dx, dy = STEP[side]
                other = (cells[cell[0] + dx, cell[1] + dy] >> INDEX_SHIFT) + 1
                port = o.port_at[square][side]
                if open4 >> side & 1:
                    return f"opening {port} faces the wall of placement {other}"
                return f"the wall at {port} faces an opening of placement {other}"
            joined = joined or bool(open4 & rim_open(rim))
        if not joined:
            return "no opening joins an exit of the tunnel network"
        return None

    def is_legal(self, placement: Placement) -> bool:
        """True when ``placement`` may be laid on this table."""
        return self.placement_error(placement) is None

    def place(self, placement: Placement, *, check: bool = True) -> Table:
        """The table after laying ``placement``; :class:`IllegalActionError` if it is illegal.

        With ``check=False`` the placement must already be normalised and legal (the solvers'
        fast path: nothing is checked).
        """
        p = placement
        if check:
            p = normalise(placement.card, placement.x, placement.y, placement.rotation)
            error = self.placement_error(p)
            if error is not None:
                raise IllegalActionError(
                    f"placement {len(self.history) + 1} ({p.describe()}): {error}"
                )
        cells = dict(self.packed)
        rim = dict(self.rim)
        front = dict(self.front_rim)
        lay(cells, rim, front, p, len(self.history))
        return Table(cells, rim, front, (*self.history, p))

    def place_all(self, placements: Iterable[Placement]) -> Table:
        """Lay placements in order; an error names the placement by its number (1 = first)."""
        table = self
        for p in placements:
            table = table.place(p)
        return table


#: The placements ``repr(table)`` lists.
REPR_PLACEMENTS = 3

#: The pictures of a table (``"ascii"``, ``"svg"``), as :func:`register_pictures` registered.
_PICTURES: dict[str, Callable[[Table], str]] = {}


def register_pictures(ascii: Callable[[Table], str], svg: Callable[[Table], str]) -> None:
    """Make ``str(table)`` draw ``ascii(table)`` and ``table._repr_svg_()`` draw ``svg(table)``
    (:mod:`banditsolve.tunnels.render` registers its pictures when it loads; the package
    imports it)."""
    _PICTURES["ascii"] = ascii
    _PICTURES["svg"] = svg


def lay(
    cells: dict[Cell, int], rim: dict[Cell, int], front: dict[Cell, int], p: Placement, index: int
) -> None:
    """Lay the normalised legal placement ``p``, the ``index``-th card, on a table's own
    mappings (cell values, rim, front), changing them in place: :meth:`Table.place` on copies,
    and the simulators on mappings of their own."""
    o = orientation(p.card & PORT_MASK, p.rotation)
    ax, ay = p.x, p.y
    bx, by = ax + o.b_step[0], ay + o.b_step[1]
    shifted = index << INDEX_SHIFT
    va = o.open_a | (o.b_side << PARTNER_SHIFT) | shifted
    vb = o.open_b | (((o.b_side + 2) & 3) << PARTNER_SHIFT) | shifted
    cells[ax, ay] = va if o.open_a else va | FLASH_BIT
    cells[bx, by] = vb if o.open_b else vb | FLASH_BIT
    rim.pop((ax, ay), None)
    rim.pop((bx, by), None)
    front.pop((ax, ay), None)
    front.pop((bx, by), None)
    get = rim.get
    for cx, cy, touch, px, py in ((ax, ay, o.open_a << 2, bx, by), (bx, by, o.open_b << 2, ax, ay)):
        for side, (dx, dy) in enumerate(STEP):
            n = (cx + dx, cy + dy)
            if (cx + dx == px and cy + dy == py) or n in cells:
                continue
            v = get(n, 0) | TOUCH[touch | side]
            rim[n] = v
            if v & SIDE_MASK:
                front[n] = v


def _exits_into(t: Cell, fv: int) -> Iterator[Exit]:
    tx, ty = t
    need = rim_open(fv)
    for side in range(4):
        if need >> side & 1:
            dx, dy = STEP[side]
            yield Exit(tx + dx, ty + dy, opposite(side))


def _touched(table: Table, o: Orientation, a: Cell, b: Cell) -> Iterator[tuple[Cell, int]]:
    """The rim cells a card laid with orientation ``o`` on the empty cells ``a`` and ``b``
    touches, each with its new rim value (the one rim update of the game)."""
    cells = table.packed
    rim = table.rim
    for (cx, cy), open4, partner in ((a, o.open_a, b), (b, o.open_b, a)):
        touch = open4 << 2
        for side, (dx, dy) in enumerate(STEP):
            n = (cx + dx, cy + dy)
            if n == partner or n in cells:
                continue
            yield n, rim.get(n, 0) | TOUCH[touch | side]


class Cover(NamedTuple):
    """One way a card covers a given front cell ``t`` whose own edges fit (see :func:`covers`):
    the other cell lies at ``(other_dx, other_dy)`` from ``t`` and gets the open sides
    ``other_open``, which fit a rim value ``ov`` there when ``other_fits >> ov & 1``;
    ``t_change`` is :func:`exit_change` on ``t``; square A lies at ``(a_dx, a_dy)`` from ``t``,
    laid at ``rotation``; ``side`` is the side of ``t`` the other cell lies on."""

    other_dx: int
    other_dy: int
    other_fits: int
    other_open: int
    t_change: int
    a_dx: int
    a_dy: int
    rotation: int
    side: int


_COVERS: dict[int, tuple[Cover, ...]] = {}


def covers(mask: int, rim: int) -> tuple[Cover, ...]:
    """The shapes of a card with canonical port mask ``mask`` that may cover an empty cell
    with rim value ``rim`` as far as that cell goes: the other cell free (its side does not
    touch a card) and every edge of the cell fitting (:func:`fits`). Cached."""
    key = mask << 8 | rim
    found = _COVERS.get(key)
    if found is None:
        touch = rim_touch(rim)
        found = tuple(
            Cover(
                *STEP[s.side],
                FITTING_RIMS[s.o_open],
                s.o_open,
                exit_change(s.t_open, rim),
                *s.a_step,
                s.rotation,
                s.side,
            )
            for s in shapes(mask)
            if not touch >> s.side & 1 and fits(s.t_open, rim)
        )
        _COVERS[key] = found
    return found


def candidates(table: Table, mask: int) -> Iterator[tuple[int, int, int, int]]:
    """Yield ``(x, y, rotation, exit_delta)`` of every legal placement of port mask ``mask``.

    ``mask`` must be canonical. Each placement is yielded once (a card covering two front
    cells is found from the smaller one). ``exit_delta`` is the change in the number of exits
    the placement makes.
    """
    rim = table.rim
    for t, fv in table.front_rim.items():
        tx, ty = t
        # A placement's first square lies within ±MAX_COORD (BD-NOTE-1): only a front cell
        # next to that edge can be covered from beyond it.
        edge = abs(tx) >= MAX_COORD or abs(ty) >= MAX_COORD
        for odx, ody, o_fits, o_open, t_change, adx, ady, rotation, _ in covers(mask, fv):
            o = (tx + odx, ty + ody)
            ov = rim.get(o, 0)
            if not o_fits >> ov & 1 or (ov & SIDE_MASK and o < t):
                continue
            if edge and max(abs(tx + adx), abs(ty + ady)) > MAX_COORD:
                continue
            yield tx + adx, ty + ady, rotation, t_change + EXIT_CHANGE[o_open << 8 | ov]


def legal_placements(table: Table, card: CardLike) -> tuple[Placement, ...]:
    """Every legal placement of ``card`` on ``table``, sorted by ``(y, x, rotation)``.

    Legal: both cells empty, every touching edge matching (opening to opening, wall to wall)
    and at least one opening joining an exit. Each physical placement appears once, normalised.
    """
    if not isinstance(table, Table):
        raise ArgumentTypeError(f"legal placements are asked of a Table, not {shown(table)}")
    code = as_code(card)
    found = [Placement(code, x, y, r) for x, y, r, _ in candidates(table, code & PORT_MASK)]
    found.sort(key=_order)
    return tuple(found)


def _order(p: Placement) -> tuple[int, int, int]:
    return p.y, p.x, p.rotation


def placements_with_delta(table: Table, card: CardLike) -> list[tuple[Placement, int]]:
    """Legal placements of ``card`` with the change in the number of exits each makes."""
    code = as_code(card)
    found = sorted((y, x, r, d) for x, y, r, d in candidates(table, code & PORT_MASK))
    return [(Placement(code, x, y, r), d) for y, x, r, d in found]


def has_legal_placement(table: Table, card: CardLike) -> bool:
    """True when ``card`` can be laid somewhere."""
    code = as_code(card)
    return next(candidates(table, code & PORT_MASK), None) is not None


def creates_hole(table: Table, placement: Placement) -> bool:
    """True when laying ``placement`` walls an exit into a one-cell hole."""
    o = orientation(placement.card & PORT_MASK, placement.rotation)
    a = (placement.x, placement.y)
    b = (a[0] + o.b_step[0], a[1] + o.b_step[1])
    return any(IS_HOLE[v] for _, v in _touched(table, o, a, b))


Area = tuple[int, int, int, int]


def _in(cell: Cell, area: Area | None) -> bool:
    return area is None or (area[0] <= cell[0] <= area[2] and area[1] <= cell[1] <= area[3])


def can_fill(
    table: Table, cell: Cell, cards: Iterable[int], area: Area | None = None
) -> bool:
    """True when some card of ``cards`` could be laid now covering the empty ``cell`` (both
    of its cells inside the play area ``(min_x, min_y, max_x, max_y)``, if one is given)."""
    if cell in table.packed or not _in(cell, area):
        return False
    rim = table.rim
    fv = rim.get(cell, 0)
    cx, cy = cell
    for code in set(cards):
        for c in covers(code & PORT_MASK, fv):
            other = (cx + c.other_dx, cy + c.other_dy)
            if c.other_fits >> rim.get(other, 0) & 1 and _in(other, area):
                return True
    return False


def dead_exits(
    table: Table, remaining: Iterable[int] | None = None, area: Area | None = None
) -> tuple[DeadExit, ...]:
    """Exits that can never be closed, sorted.

    ``"hole"``: the exit runs into a one-cell hole walled in by cards (no card can cover it).
    ``"outside"``: the exit faces a cell outside the play area ``area`` (when one is given).
    ``"unfillable"``: no card of ``remaining`` (the cards still to come) fits the faced cell now
    (inside the area); since cells only fill up, none ever will. Without ``remaining`` only
    holes and cells outside are reported.
    """
    pool = None if remaining is None else {c & PORT_MASK for c in remaining}
    out: list[DeadExit] = []
    for t, fv in table.front_rim.items():
        if rim_touch(fv) == SIDE_MASK:
            reason = "hole"
        elif not _in(t, area):
            reason = "outside"
        elif pool is not None and not can_fill(table, t, pool, area):
            reason = "unfillable"
        else:
            continue
        out.extend(DeadExit(e, reason) for e in _exits_into(t, fv))
    return tuple(sorted(out))


# -- the local view of an empty cell, for hot loops (the simulators) ----------------------------
#
# Whether a card may cover a front cell ``t`` with its square on ``t``, and the change in exits
# it makes, depend only on the rim values of ``t`` and of its four neighbours (the other square
# lies on one of them; an occupied neighbour counts 0, and a side of ``t`` touching a card is
# never the other square's side, see :func:`covers`). Packed into one int, that is the cell's
# *signature*; the placements it allows are the same wherever the cell lies, so they are worked
# out once per signature and card.

#: The neighbour on side ``d`` of a cell sits at bits ``8 * (d + 1)`` of a signature.
SIGNATURE_BITS = 40
#: ``TOUCH_COUNT[rim]``: how many sides of an empty cell touch a card.
TOUCH_COUNT: tuple[int, ...] = tuple(rim_touch(rim).bit_count() for rim in range(256))


def signature(rim: Mapping[Cell, int], cell: Cell) -> int:
    """The signature of an empty cell: its rim value in bits 0-7, then the rim values of its
    neighbours on sides N, E, S, W, 8 bits each (0 for a cell that is not on the rim)."""
    x, y = cell
    get = rim.get
    return (
        get(cell, 0)
        | get((x, y - 1), 0) << 8
        | get((x + 1, y), 0) << 16
        | get((x, y + 1), 0) << 24
        | get((x - 1, y), 0) << 32
    )


LocalPlacement = tuple[int, int, int, int, int, int]
#: The memo of :func:`local_placements`, by key (hot loops read it with ``.get``).
LOCAL_PLACEMENTS: dict[int, tuple[LocalPlacement, ...]] = {}
#: ``LEAST_CHANGES[key]``: the least exit change of ``local_placements(key)`` (its first
#: entry's), or :data:`NO_PLACEMENT` when there is none; filled by :func:`local_placements`
#: beside its memo.
LEAST_CHANGES: dict[int, int] = {}
#: :func:`least_change` of a key that allows no placement (more than any exit change).
NO_PLACEMENT = 99
#: The memo of :func:`local_placements` is emptied when it grows beyond this many entries.
LOCAL_MEMO_LIMIT = 200_000


def local_placements(key: int) -> tuple[LocalPlacement, ...]:
    """The placements :func:`candidates` finds from a front cell, by ``key = mask <<``
    :data:`SIGNATURE_BITS` ``| signature``: ``(exit_delta, a_dx, a_dy, rotation, o_dx, o_dy)``
    with square A at ``(a_dx, a_dy)`` from the cell and the card's other cell at
    ``(o_dx, o_dy)``, by increasing ``exit_delta``. Memoised."""
    found = LOCAL_PLACEMENTS.get(key)
    if found is not None:
        return found
    mask = key >> SIGNATURE_BITS
    out: list[LocalPlacement] = []
    for c in covers(mask, key & 0xFF):
        ov = key >> (8 * (c.side + 1)) & 0xFF
        # A card covering two front cells is found from the smaller one (see candidates):
        # the other cell is smaller exactly when it lies north or west.
        if not c.other_fits >> ov & 1 or (ov & SIDE_MASK and c.side in (0, 3)):
            continue
        delta = c.t_change + EXIT_CHANGE[c.other_open << 8 | ov]
        out.append((delta, c.a_dx, c.a_dy, c.rotation, c.other_dx, c.other_dy))
    out.sort(key=_first)
    found = tuple(out)
    if len(LOCAL_PLACEMENTS) >= LOCAL_MEMO_LIMIT:
        LOCAL_PLACEMENTS.clear()
        LEAST_CHANGES.clear()
    LOCAL_PLACEMENTS[key] = found
    LEAST_CHANGES[key] = found[0][0] if found else NO_PLACEMENT
    return found


#: ``LEAST_ROWS[sig]``: the row of :func:`least_row` (hot loops read it with ``.get``).
LEAST_ROWS: dict[int, list[int]] = {}
#: An entry of a :func:`least_row` not worked out yet (less than any exit change, so that the
#: least of a few entries shows it).
ROW_UNKNOWN = -128


def least_row(sig: int) -> list[int]:
    """The least exit changes of the front cells with signature ``sig``, card by card: entry
    ``mask`` (a canonical port mask, 0..63) is ``least_change(mask << SIGNATURE_BITS | sig)``,
    or :data:`ROW_UNKNOWN` until asked (the hot loops fill it in with :func:`least_change`).
    Entries ``PORT_MASK + 1 + mask`` are :data:`ROW_UNKNOWN` for a hot loop to fill with a memo
    of its own about that key (the fast simulator: the index of its least placements).
    One shared list per signature, so a loop holding a front cell's row reads a card's least
    change by index, without hashing. Memoised (emptied when it grows beyond
    :data:`LOCAL_MEMO_LIMIT` rows)."""
    row = LEAST_ROWS.get(sig)
    if row is None:
        if len(LEAST_ROWS) >= LOCAL_MEMO_LIMIT:
            LEAST_ROWS.clear()
        row = LEAST_ROWS[sig] = [ROW_UNKNOWN] * (2 * (PORT_MASK + 1))
    return row


def least_change(key: int) -> int:
    """The least exit change among ``local_placements(key)`` (:data:`NO_PLACEMENT` when it
    allows none). Memoised beside :func:`local_placements`: the hot loops read ``LEAST_CHANGES``
    directly and call this on a miss."""
    least = LEAST_CHANGES.get(key)
    if least is None:
        local_placements(key)
        least = LEAST_CHANGES[key]
    return least


def _first(entry: LocalPlacement) -> int:
    return entry[0]
