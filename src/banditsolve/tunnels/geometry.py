"""Cells, sides, rotations and placements.

Cells are ``(x, y)`` with ``x`` growing east and ``y`` growing south. Sides of a cell are
numbered ``N=0, E=1, S=2, W=3``; a quarter turn clockwise adds one. A cell's *open mask* is the
4-bit set of its sides that carry an opening.

A placement lays a card with its square A on cell ``(x, y)`` turned ``rotation`` degrees
clockwise about A (0, 90, 180 or 270): square B lies east, south, west or north of A.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from banditsolve.errors import NotationError
from banditsolve.tunnels.cards import (
    PORT_MASK,
    PORTS,
    canonical,
    card_name,
    half_turn,
    is_symmetric,
)

Cell = tuple[int, int]

N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = ("N", "E", "S", "W")
#: A 4-bit set of sides (bit ``d`` for side ``d``): every side.
SIDE_MASK = 0b1111
#: Unit step of each side.
STEP: tuple[Cell, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
ROTATIONS = (0, 90, 180, 270)

#: Each port in the reference frame: (square, side) with square 0 = A, 1 = B.
PORT_PLACE: tuple[tuple[int, int], ...] = ((0, W), (0, N), (1, N), (1, E), (1, S), (0, S))


def opposite(side: int) -> int:
    """The side facing ``side`` across an edge."""
    return (side + 2) % 4


def turn_side(side: int, quarters: int) -> int:
    """``side`` turned ``quarters`` quarter turns clockwise."""
    return (side + quarters) % 4


def turn_open(open4: int, quarters: int) -> int:
    """A 4-bit open mask turned ``quarters`` quarter turns clockwise."""
    q = quarters % 4
    return ((open4 << q) | (open4 >> (4 - q))) & SIDE_MASK


@dataclass(frozen=True, slots=True)
class Orientation:
    """A card port mask at one rotation: square B's offset and each square's open sides."""

    mask: int
    rotation: int
    b_step: Cell
    b_side: int  # side of A that faces B
    open_a: int
    open_b: int
    # For messages: which port (name) sits on (square, absolute side).
    port_at: tuple[tuple[str | None, ...], tuple[str | None, ...]]


@cache
def orientation(mask: int, rotation: int) -> Orientation:
    """Precomputed geometry of a port mask laid at ``rotation``."""
    if rotation not in ROTATIONS:
        raise NotationError(f"rotation must be one of 0, 90, 180, 270, not {rotation!r}")
    q = rotation // 90
    opens = [0, 0]
    names: list[list[str | None]] = [[None] * 4, [None] * 4]
    for i, (square, side) in enumerate(PORT_PLACE):
        absolute = turn_side(side, q)
        names[square][absolute] = PORTS[i]
        if mask >> i & 1:
            opens[square] |= 1 << absolute
    b_side = turn_side(E, q)
    return Orientation(
        mask & PORT_MASK,
        rotation,
        STEP[b_side],
        b_side,
        opens[0],
        opens[1],
        (tuple(names[0]), tuple(names[1])),
    )


class Placement(NamedTuple):
    """A card laid on the table: card code, the cell of square A, rotation in degrees.

    Placements are kept normalised (see :func:`normalise`): the card is the canonical code,
    and a card that a half turn maps to itself has rotation 0 or 90, so that two placements
    are equal exactly when they cover the same cells with the same openings. (An immutable
    named tuple rather than a dataclass: generation creates millions of them.)
    """

    card: int
    x: int
    y: int
    rotation: int

    @property
    def name(self) -> str:
        """The card's canonical name."""
        return card_name(self.card)

    @property
    def cells(self) -> tuple[Cell, Cell]:
        """Cells of square A and square B."""
        o = orientation(self.card & PORT_MASK, self.rotation)
        return (self.x, self.y), (self.x + o.b_step[0], self.y + o.b_step[1])

    def open_sides(self) -> tuple[int, int]:
        """Open masks (N, E, S, W bits) of square A and square B."""
        o = orientation(self.card & PORT_MASK, self.rotation)
        return o.open_a, o.open_b

    def __str__(self) -> str:
        """The placement notation ``NAME@x,y,r`` (the canonical name, normalised)."""
        return f"{self.name}@{self.x},{self.y},{self.rotation}"

    def describe(self) -> str:
        """In words: ``NAME at (x, y) rot R``."""
        return f"{self.name} at ({self.x}, {self.y}) rot {self.rotation}"


def normalise(card: int, x: int, y: int, rotation: int) -> Placement:
    """The normal form of laying card ``card`` (any of its two names' masks) with A at (x, y)."""
    if rotation not in ROTATIONS:
        raise NotationError(f"rotation must be one of 0, 90, 180, 270, not {rotation!r}")
    mask = card & PORT_MASK
    kind = card & ~PORT_MASK
    canon = canonical(mask)
    if canon != mask:
        # The same physical card named from its other end: square B becomes square A.
        dx, dy = orientation(mask, rotation).b_step
        x, y, rotation, mask = x + dx, y + dy, (rotation + 180) % 360, half_turn(mask)
    if is_symmetric(mask) and rotation >= 180:
        dx, dy = orientation(mask, rotation).b_step
        x, y, rotation = x + dx, y + dy, rotation - 180
    return Placement(mask | kind, x, y, rotation)


@dataclass(frozen=True, slots=True)
class Shape:
    """One way a card can cover a given cell ``t``: as seen from ``t``.

    ``t_open`` is the open mask on ``t``; the card's other cell lies on side ``side`` of ``t``
    with open mask ``o_open``; ``a_step`` is square A's offset from ``t``; ``rotation`` as laid.
    """

    t_open: int
    side: int
    o_open: int
    a_step: Cell
    rotation: int


@cache
def shapes(mask: int) -> tuple[Shape, ...]:
    """The distinct ways a card with canonical port mask ``mask`` can cover one given cell."""
    seen: set[tuple[int, int, int]] = set()
    out: list[Shape] = []
    for rotation in ROTATIONS:
        o = orientation(mask, rotation)
        # t is square A.
        key = (o.open_a, o.b_side, o.open_b)
        if key not in seen:
            seen.add(key)
            p = normalise(mask, 0, 0, rotation)
            out.append(Shape(o.open_a, o.b_side, o.open_b, (p.x, p.y), p.rotation))
        # t is square B: A lies on the opposite side of B.
        a_side = opposite(o.b_side)
        key = (o.open_b, a_side, o.open_a)
        if key not in seen:
            seen.add(key)
            p = normalise(mask, *STEP[a_side], rotation)
            out.append(Shape(o.open_b, a_side, o.open_a, (p.x, p.y), p.rotation))
    return tuple(out)
