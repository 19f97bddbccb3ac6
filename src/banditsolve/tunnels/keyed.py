"""The fast Bandido simulator's table (:mod:`banditsolve.tunnels.fast`): cells as int keys, the
table's mappings by key changed in place card by card (:func:`lay_tracked`), each front cell's
local signature and least placements, and the cells where a card may wall an exit into a
one-cell hole."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from banditsolve.tunnels.cards import PORT_MASK
from banditsolve.tunnels.geometry import ROTATIONS, SIDE_MASK, STEP, Cell, orientation
from banditsolve.tunnels.state import GameState
from banditsolve.tunnels.table import (
    FLASH_BIT,
    INDEX_SHIFT,
    IS_HOLE,
    LEAST_ROWS,
    LOCAL_MEMO_LIMIT,
    NO_PLACEMENT,
    PARTNER_SHIFT,
    RIM_TOUCH_SHIFT,
    ROW_UNKNOWN,
    SIGNATURE_BITS,
    TOUCH,
    TOUCH_COUNT,
    least_change,
    least_row,
    local_placements,
)

#: The fast simulator's cells are ints: ``(x, y)`` is ``(y + KEY_OFFSET) * KEY_WIDTH + x +
#: KEY_OFFSET``, so the cell ``dx, dy`` away is ``dy * KEY_WIDTH + dx`` away, and keys order
#: as ``(y, x)`` does, while ``-KEY_OFFSET <= x, y < KEY_OFFSET``. Laid cards reach less than
#: ``2 * cards`` cells from the start, the cells read around them two more: a game of fewer than
#: :data:`FAST_CARDS` cards stays inside; every key stays a one-digit int. The width is not a
#: power of two so that the low bits of a key (a dict's first slot) mix x and y: cells of one
#: column would otherwise share a slot (measured on the tables of 40 games: 2.60 probes per key
#: for a width of 8192, 1.18 for this one, 1.40 for tuple cells).
KEY_OFFSET = 4000
KEY_WIDTH = 8192 + 27
FAST_CARDS = KEY_OFFSET // 2 - 2
#: Every key is below ``1 << KEY_SIZE``.
KEY_SIZE = 26
assert (2 * KEY_OFFSET) * KEY_WIDTH < 1 << KEY_SIZE
KEY_MASK = (1 << KEY_SIZE) - 1
#: A placement of the greedy player's group is one int, ``rank << RANK_SHIFT | key << 2 |
#: rotation index`` (:func:`entry`): ints order as ``(code, y, x, rotation)``, as
#: greedy_policy sorts them.
RANK_SHIFT = KEY_SIZE + 2


def entry(rank: int, key: int, rotation: int) -> int:
    """A group entry: the code of rank ``rank`` in the hand, square A at ``key``, turned
    ``rotation`` degrees."""
    return rank << RANK_SHIFT | key << 2 | rotation // 90


#: ``STEP`` as key offsets.
KEY_STEP = tuple(dy * KEY_WIDTH + dx for dx, dy in STEP)


def cell_key(cell: Cell) -> int:
    """The fast simulator's key of ``cell``."""
    return (cell[1] + KEY_OFFSET) * KEY_WIDTH + cell[0] + KEY_OFFSET


def key_cell(key: int) -> Cell:
    """The cell of a fast simulator's key."""
    y, x = divmod(key, KEY_WIDTH)
    return x - KEY_OFFSET, y - KEY_OFFSET


def keyed(cells: Mapping[Cell, int]) -> dict[int, int]:
    """A mapping of cells as one of keys."""
    w, o = KEY_WIDTH, KEY_OFFSET
    return {(y + o) * w + x + o: v for (x, y), v in cells.items()}


class CellOf(dict[int, Cell]):
    """The cell of each key (:func:`key_cell`), worked out once (emptied beyond
    :data:`~banditsolve.tunnels.table.LOCAL_MEMO_LIMIT` keys)."""

    __slots__ = ()

    def __missing__(self, key: int) -> Cell:
        if len(self) >= LOCAL_MEMO_LIMIT:
            self.clear()
        cell = self[key] = key_cell(key)
        return cell


CELL_OF = CellOf()


def celled(keys: Mapping[int, int]) -> dict[Cell, int]:
    """A mapping of keys as one of cells (in the same order)."""
    return dict(zip(map(CELL_OF.__getitem__, keys), keys.values(), strict=True))


def keys_fit(state: GameState) -> bool:
    """True when every card of ``state`` laid in a line stays within the fast simulator's keys."""
    return len(state.table) + len(state.pile) + sum(map(len, state.hands)) < FAST_CARDS


def key_signature(rim: Mapping[int, int], k: int) -> int:
    """:func:`~banditsolve.tunnels.table.signature` of the cell of key ``k``."""
    get = rim.get
    return (
        get(k, 0)
        | get(k - KEY_WIDTH, 0) << 8
        | get(k + 1, 0) << 16
        | get(k + KEY_WIDTH, 0) << 24
        | get(k - 1, 0) << 32
    )


def least_placed(key: int) -> tuple[tuple[int, int], ...]:
    """The placements of :func:`~banditsolve.tunnels.table.local_placements` ``(key)`` whose
    exit change is the least, in its order, each as ``(4 * offset of square A + rotation
    index, offset of the other cell)`` in keys (added to 4 * a cell's key, the first is an
    :func:`entry` of rank 0)."""
    found = local_placements(key)
    return tuple(
        (4 * (ady * KEY_WIDTH + adx) + r // 90, ody * KEY_WIDTH + odx)
        for d, adx, ady, r, odx, ody in found
        if d == found[0][0]
    )


#: Every distinct :func:`least_placed` set, and each set's index there. Never emptied: the sets
#: depend only on the shape of the cards about one cell (a few hundred), and a row keeps the
#: index (entry ``ROW_PLACES + mask`` of a :func:`~banditsolve.tunnels.table.least_row`).
PLACE_SETS: list[tuple[tuple[int, int], ...]] = []
PLACE_INDEX: dict[tuple[tuple[int, int], ...], int] = {}
ROW_PLACES = PORT_MASK + 1


def least_placed_index(key: int) -> int:
    """The index of ``least_placed(key)`` in :data:`PLACE_SETS` (added if new)."""
    least = least_placed(key)
    i = PLACE_INDEX.get(least)
    if i is None:
        i = PLACE_INDEX[least] = len(PLACE_SETS)
        PLACE_SETS.append(least)
    return i


HandMasks = tuple[tuple[int, ...], list[int], dict[int, int], dict[int, list[int]]]
#: ``HAND_MASKS[hand]``: a sorted hand's codes without repeats, its port masks without repeats,
#: for each mask the rank of its first code (shifted by ``RANK_SHIFT``), and for each mask of
#: more than one code the ranks of the others (none in the Bandido box: one code per mask).
HAND_MASKS: dict[tuple[int, ...], HandMasks] = {}


def hand_masks(hand: tuple[int, ...]) -> HandMasks:
    """The entry of :data:`HAND_MASKS` for ``hand`` (worked out and kept; emptied beyond
    :data:`~banditsolve.tunnels.table.LOCAL_MEMO_LIMIT` hands)."""
    codes = tuple(dict.fromkeys(hand))
    first: dict[int, int] = {}
    more: dict[int, list[int]] = {}
    for rank, code in enumerate(codes):
        m = code & PORT_MASK
        # The entry of the code at key 0 unturned: gather adds ``key << 2`` and the rotation
        # index to it, which is entry(rank, key, rotation).
        if m in first:
            more.setdefault(m, []).append(entry(rank, 0, 0))
        else:
            first[m] = entry(rank, 0, 0)
    if len(HAND_MASKS) >= LOCAL_MEMO_LIMIT:
        HAND_MASKS.clear()
    found = HAND_MASKS[hand] = codes, list(first), first, more
    return found


def fits_fast(fsig: dict[int, int], frow: dict[int, list[int]], codes: Iterable[int]) -> bool:
    """True when a card of ``codes`` can be laid on the table whose front cells have the
    signatures ``fsig`` and the rows ``frow`` (no play area, holes allowed)."""
    masks = {code & PORT_MASK for code in codes}
    for t, row in frow.items():
        for m in masks:
            d = row[m]
            if d == ROW_UNKNOWN:
                d = row[m] = least_change(m << SIGNATURE_BITS | fsig[t])
            if d != NO_PLACEMENT:
                return True
    return False


def walls_hole(rim: dict[int, int], three: dict[int, int], code: int, a: int, r: int) -> bool:
    """:func:`creates_hole` for laying ``code`` with square A at key ``a`` turned rotation index
    ``r`` (``ROTATIONS[r]``), from the
    cells walled on three sides (``three``, each with the cell on its open side; all by key): a
    hole appears exactly where a square of the card covers such a cell's open side, the other
    square does not cover the cell itself, and an opening then runs into it."""
    steps = LAY_KEYED[(code & PORT_MASK) << 2 | r] or lay_keyed(code & PORT_MASK, r)
    get = three.get
    # The sides of a square that do not face the other square: the neighbour's offset, its
    # square's offset, and whether the card opens that side.
    for h, square, opens in steps[4]:
        h += a
        q = get(h)
        if q is not None and q == a + square and (opens or rim[h] & SIDE_MASK):
            return True
    return False


#: One side of a laid card's square (see :func:`lay_steps`).
LaySide = tuple[int, int, int, int, int, tuple[tuple[int, int, int], ...]]


@cache
def lay_steps(mask: int, rotation: int) -> tuple[int, int, int, int, tuple[LaySide, ...]]:
    """What laying port mask ``mask`` turned ``rotation`` does around it, from
    :func:`~banditsolve.tunnels.geometry.orientation` and :data:`~banditsolve.tunnels.table.TOUCH`
    (as :func:`~banditsolve.tunnels.table.lay`): square B's offset from A, the cell values of A
    and B without the index, and for each side of a square that does not face the other
    square: the square (0 = A, 1 = B), the neighbour's offset from A, what the card adds to its
    rim value, the shift of the neighbour's signature byte that faces the square, and the
    neighbour's other three neighbours (offsets from it, and the shift of their byte facing it)."""
    o = orientation(mask, rotation)
    bdx, bdy = o.b_step
    va = o.open_a | (o.b_side << PARTNER_SHIFT)
    vb = o.open_b | (((o.b_side + 2) & 3) << PARTNER_SHIFT)
    sides: list[LaySide] = []
    for square, (cx, cy), open4, partner in (
        (0, (0, 0), o.open_a, o.b_side),
        (1, (bdx, bdy), o.open_b, (o.b_side + 2) & 3),
    ):
        for side, (dx, dy) in enumerate(STEP):
            if side == partner:
                continue
            facing = (side + 2) & 3
            around = tuple(
                (STEP[d][0], STEP[d][1], 8 * (((d + 2) & 3) + 1)) for d in range(4) if d != facing
            )
            sides.append(
                (square, cx + dx, cy + dy, TOUCH[open4 << 2 | side], 8 * (facing + 1), around)
            )
    return (
        bdx,
        bdy,
        va if o.open_a else va | FLASH_BIT,
        vb if o.open_b else vb | FLASH_BIT,
        tuple(sides),
    )


#: One side of a laid card's square in keys (see :func:`lay_keyed`).
KeyedSide = tuple[int, int, int, int, tuple[tuple[int, int], ...]]


KeyedSteps = tuple[int, int, int, tuple[KeyedSide, ...], tuple[tuple[int, int, int], ...]]
#: ``LAY_KEYED[mask << 2 | r]``: :func:`lay_keyed` of ``mask`` turned ``ROTATIONS[r]``, or None
#: until worked out.
LAY_KEYED: list[KeyedSteps | None] = [None] * ((PORT_MASK + 1) << 2)


def lay_keyed(mask: int, r: int) -> KeyedSteps:
    """:func:`lay_steps` of ``mask`` turned ``ROTATIONS[r]`` with offsets as key offsets:
    square B's offset from A, the cell values of A and B, for each side ``(square,
    neighbour's offset from A, rim added, shift back, ((offset from the neighbour, shift),
    ...))``, and the same sides for :func:`walls_hole`: ``(neighbour's offset, its square's
    offset, 1 if the card opens that side else 0)``. Kept in :data:`LAY_KEYED`."""
    bdx, bdy, va, vb, sides = lay_steps(mask, ROTATIONS[r])
    w = KEY_WIDTH
    b = bdy * w + bdx
    steps = LAY_KEYED[mask << 2 | r] = (
        b,
        va,
        vb,
        tuple(
            (square, ndy * w + ndx, add, back, tuple((uy * w + ux, sh) for ux, uy, sh in around))
            for square, ndx, ndy, add, back, around in sides
        ),
        tuple(
            (ndy * w + ndx, b if square else 0, 1 if add & SIDE_MASK else 0)
            for square, ndx, ndy, add, _, _ in sides
        ),
    )
    return steps


def lay_tracked(
    packed: dict[int, int],
    rim: dict[int, int],
    front: dict[int, int],
    fsig: dict[int, int],
    frow: dict[int, list[int]],
    three: dict[int, int],
    danger: dict[int, int],
    code: int,
    a: int,
    r: int,
    index: int,
) -> bool:
    """:func:`~banditsolve.tunnels.table.lay` of ``code`` with square A at key ``a`` turned
    ``ROTATIONS[r]`` on mappings by cell key, keeping the front signatures ``fsig``, their rows
    ``frow`` (:func:`~banditsolve.tunnels.table.least_row`) and the walled cells (``three``,
    ``danger``) up to date. True when the card walls an exit into a one-cell hole."""
    covered, sides = _lay_squares(packed, rim, front, fsig, frow, three, danger, code, a, r, index)
    hole = False
    fresh: list[int] = []
    fget = fsig.get
    rget = rim.get
    row_get = LEAST_ROWS.get
    for square, n, add, shift_back, around in sides:
        n += a
        if n in packed:
            continue
        old = rget(n, 0)
        v = old | add
        rim[n] = v
        change = old ^ v
        if v & SIDE_MASK:
            front[n] = v
            s = fget(n)
            if s is None:
                fresh.append(n)
            else:
                s ^= change ^ (covered[square] << shift_back)
                fsig[n] = s
                frow[n] = row_get(s) or least_row(s)
        for u, shift in around:
            u += n
            s = fget(u)
            if s is not None:
                s ^= change << shift
                fsig[u] = s
                frow[u] = row_get(s) or least_row(s)
        count = TOUCH_COUNT[v]
        if count == 3:
            walled(three, danger, n, v)
        elif count == 4:
            unwalled(three, danger, n)
            hole = hole or IS_HOLE[v]
    for n in fresh:
        # key_signature(rim, n), inline
        s = (
            rget(n, 0)
            | rget(n - KEY_WIDTH, 0) << 8
            | rget(n + 1, 0) << 16
            | rget(n + KEY_WIDTH, 0) << 24
            | rget(n - 1, 0) << 32
        )
        fsig[n] = s
        frow[n] = row_get(s) or least_row(s)
    return hole


def _lay_squares(
    packed: dict[int, int],
    rim: dict[int, int],
    front: dict[int, int],
    fsig: dict[int, int],
    frow: dict[int, list[int]],
    three: dict[int, int],
    danger: dict[int, int],
    code: int,
    a: int,
    r: int,
    index: int,
) -> tuple[tuple[int, int], tuple[KeyedSide, ...]]:
    """The first part of :func:`lay_tracked`: the card's two squares taken off the rim, the
    front and the walled cells, and packed; their rim values before, and the card's sides."""
    bk, va, vb, sides, _ = LAY_KEYED[(code & PORT_MASK) << 2 | r] or lay_keyed(
        code & PORT_MASK, r
    )
    b = a + bk
    covered = (rim.pop(a, 0), rim.pop(b, 0))
    front.pop(a, None)
    front.pop(b, None)
    fsig.pop(a, None)
    fsig.pop(b, None)
    frow.pop(a, None)
    frow.pop(b, None)
    if three:
        if a in three:
            unwalled(three, danger, a)
        if b in three:
            unwalled(three, danger, b)
    shifted = index << INDEX_SHIFT
    packed[a] = va | shifted
    packed[b] = vb | shifted
    return covered, sides


def walled(three: dict[int, int], danger: dict[int, int], cell: int, rim: int) -> None:
    """Note the empty cell of key ``cell`` walled on three sides (rim value ``rim``) and its
    open side's neighbour."""
    q = cell + KEY_STEP[(~rim >> RIM_TOUCH_SHIFT & SIDE_MASK).bit_length() - 1]
    three[cell] = q
    danger[q] = danger.get(q, 0) + 1


def unwalled(three: dict[int, int], danger: dict[int, int], cell: int) -> None:
    """Forget ``cell`` (covered, or walled on its fourth side)."""
    q = three.pop(cell, None)
    if q is not None:
        if danger[q] == 1:
            del danger[q]
        else:
            danger[q] -= 1
