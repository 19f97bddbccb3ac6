"""The placements that can cover one front cell, for the closure solvers.

A front cell (an empty cell faced by an exit) and its four neighbours' rim values make up its
*signature* (:func:`signature`): all a placement over the cell depends on. The rows of
placements per (card type, signature) are cached, so the search asks the edge rule once per
local situation, not once per node. The edge rule itself is the table's one predicate
(:func:`~banditsolve.tunnels.table.fits`, through :func:`~banditsolve.tunnels.table.covers`
and :data:`~banditsolve.tunnels.table.EXIT_CHANGE`); nothing here restates it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from banditsolve.tunnels.cards import PORT_MASK
from banditsolve.tunnels.geometry import STEP, Cell, orientation
from banditsolve.tunnels.solvers.inputs import Bounds, inside
from banditsolve.tunnels.table import EXIT_CHANGE, Table, covers

#: One option at a front cell: ``(delta, code, x, y, rotation)``, ``delta`` the change in the
#: number of exits.
Option = tuple[int, int, int, int, int]
#: One row per placement of a card covering a front cell: ``(delta, a_dx, a_dy, rotation,
#: other, faced)`` with square A, the other cell covered and the cells its openings face, all
#: relative to the front cell.
Row = tuple[int, int, int, int, Cell, tuple[Cell, ...]]
Signature = tuple[int, ...]

#: The caches below are cleared when they grow past this many entries.
CACHE_LIMIT = 500_000

_VALID: dict[tuple[int, Signature], tuple[tuple[int, int, int, int], ...]] = {}
_ROWS: dict[tuple[int, Signature], tuple[Row, ...]] = {}
_SIDES: dict[tuple[int, Signature], int] = {}
_SUMMARY: dict[tuple[tuple[int, ...], Signature], tuple[int, int]] = {}


def signature(rim: Mapping[Cell, int], t: Cell, fv: int, bounds: Bounds | None) -> Signature:
    """Front cell ``t``'s rim value ``fv``, then per side the rim value of its neighbour (0 when
    none, -1 when outside the play area): all a placement over ``t`` depends on."""
    tx, ty = t
    if bounds is None:
        return (
            fv,
            rim.get((tx, ty - 1), 0),
            rim.get((tx + 1, ty), 0),
            rim.get((tx, ty + 1), 0),
            rim.get((tx - 1, ty), 0),
        )
    out = [fv]
    for dx, dy in STEP:
        o = (tx + dx, ty + dy)
        out.append(rim.get(o, 0) if inside(o, bounds) else -1)
    return tuple(out)


def valid_rows(mask: int, sig: Signature) -> tuple[tuple[int, int, int, int], ...]:
    """Shapes of port mask ``mask`` covering a front cell with signature ``sig``:
    ``(delta, a_dx, a_dy, rotation)`` each, ``delta`` the change in the number of exits. A
    shape is kept when the table's edge rule lets it cover the front cell (:func:`covers`) and
    its other cell (inside the play area)."""
    key = (mask, sig)
    found = _VALID.get(key)
    if found is not None:
        return found
    out: list[tuple[int, int, int, int]] = []
    for c in covers(mask, sig[0]):
        ov = sig[1 + c.side]
        if ov < 0 or not c.other_fits >> ov & 1:
            continue
        out.append((c.t_change + EXIT_CHANGE[c.other_open << 8 | ov], c.a_dx, c.a_dy, c.rotation))
    result = tuple(out)
    if len(_VALID) > CACHE_LIMIT:
        _VALID.clear()
    _VALID[key] = result
    return result


def rows(mask: int, sig: Signature) -> tuple[Row, ...]:
    """:func:`valid_rows` of ``mask`` at a front cell with signature ``sig``, each with its
    footprint (the other cell it covers and the cells its openings face)."""
    key = (mask, sig)
    found = _ROWS.get(key)
    if found is not None:
        return found
    out = []
    for delta, adx, ady, rotation in valid_rows(mask, sig):
        bdx, bdy, faced = shape_info(mask, rotation)
        other = (adx, ady) if (adx, ady) != (0, 0) else (adx + bdx, ady + bdy)
        rel = tuple((adx + fx, ady + fy) for fx, fy in faced)
        out.append((delta, adx, ady, rotation, other, rel))
    result = tuple(out)
    if len(_ROWS) > CACHE_LIMIT:
        _ROWS.clear()
    _ROWS[key] = result
    return result


def pair_sides(mask: int, sig: Signature) -> int:
    """The 4-bit set of sides ``s`` of a front cell with signature ``sig`` such that a card of
    port mask ``mask`` can cover the cell together with its neighbour on side ``s``."""
    key = (mask, sig)
    found = _SIDES.get(key)
    if found is not None:
        return found
    out = 0
    for _delta, adx, ady, rotation in valid_rows(mask, sig):
        bdx, bdy, _faced = shape_info(mask, rotation)
        ox, oy = (adx, ady) if (adx, ady) != (0, 0) else (bdx, bdy)
        out |= 1 << STEP.index((ox, oy))
    if len(_SIDES) > CACHE_LIMIT:
        _SIDES.clear()
    _SIDES[key] = out
    return out


def summary(types: tuple[int, ...], sig: Signature) -> tuple[int, int]:
    """``(options, pair sides)`` of a front cell with signature ``sig`` for card ``types``."""
    key = (types, sig)
    found = _SUMMARY.get(key)
    if found is not None:
        return found
    size = 0
    sides = 0
    for code in types:
        size += len(valid_rows(code & PORT_MASK, sig))
        sides |= pair_sides(code & PORT_MASK, sig)
    if len(_SUMMARY) > CACHE_LIMIT:
        _SUMMARY.clear()
    _SUMMARY[key] = size, sides
    return size, sides


@cache
def shape_info(mask: int, rotation: int) -> tuple[int, int, tuple[Cell, ...]]:
    """``(bdx, bdy, faced)`` of a card laid with square A at the origin: square B's offset and
    the cells its openings face."""
    o = orientation(mask, rotation)
    b = o.b_step
    faced = []
    for (cx, cy), open4 in (((0, 0), o.open_a), (b, o.open_b)):
        for side in range(4):
            if open4 >> side & 1:
                dx, dy = STEP[side]
                faced.append((cx + dx, cy + dy))
    return b[0], b[1], tuple(faced)


def placements_at(t: Cell, sig: Signature, types: Iterable[int]) -> list[Option]:
    """Every option placing one of ``types`` over front cell ``t`` with signature ``sig``."""
    tx, ty = t
    return [
        (delta, code, tx + adx, ty + ady, rotation)
        for code in types
        for delta, adx, ady, rotation, _other, _faced in rows(code & PORT_MASK, sig)
    ]


def options_at(
    table: Table, t: Cell, types: Iterable[int], bounds: Bounds | None = None
) -> list[Option]:
    """Every ``(delta, code, x, y, rotation)`` placing one of ``types`` over front cell ``t``."""
    fv = table.front_rim.get(t)
    if fv is None or not inside(t, bounds):
        return []
    return placements_at(t, signature(table.rim, t, fv, bounds), types)


def fits_zone(
    t: Cell,
    other: Cell,
    faced: tuple[Cell, ...],
    cells: Mapping[Cell, int],
    zone: dict[Cell, list[Cell]],
) -> bool:
    """True when a card covering front cell ``t`` and ``t + other`` with openings facing
    ``t + faced`` opens only onto occupied cells or cells in the zone of another front cell."""
    tx, ty = t
    b = (tx + other[0], ty + other[1])
    for fx, fy in faced:
        n = (tx + fx, ty + fy)
        if n in cells:
            continue
        owners = zone.get(n)
        if owners is None:
            return False
        for u in owners:
            if u != t and u != b:
                break
        else:
            return False
    return True
