"""The mutable board of the exact closure search (:class:`Board`) and its bookkeeping.

The search lays and lifts cards on one mutable copy of the table, never copying it, and keeps
up to date as it goes: the exit count, the colour balance
(:func:`~banditsolve.tunnels.solvers.bounds.colour_balance`), the cards left per type, per
class (openings) and per skew, and the card types left with their option summaries. The rim
values change by the table's one rim update (:data:`~banditsolve.tunnels.table.TOUCH`); a
test lays random boards both ways and compares them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from banditsolve.tunnels.cards import PORT_MASK, SQUARE_A_PORTS, SQUARE_B_PORTS
from banditsolve.tunnels.geometry import SIDE_MASK, STEP, Cell, Placement, orientation
from banditsolve.tunnels.solvers.bounds import colour_balance, skew
from banditsolve.tunnels.solvers.options import Signature
from banditsolve.tunnels.table import TOUCH, Table

#: Per port mask: its :func:`~banditsolve.tunnels.solvers.bounds.skew`.
SKEW = tuple(skew(m) for m in range(64))
#: Per colour of square A's cell (``(x + y) & 1``), per port mask: the change of the colour
#: balance when the card is laid (see :func:`balance_after`).
BALANCE_CHANGE = tuple(
    tuple(
        (1 if parity else -1)
        * ((m & SQUARE_A_PORTS).bit_count() - (m & SQUARE_B_PORTS).bit_count())
        for m in range(64)
    )
    for parity in (0, 1)
)


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
    return balance + BALANCE_CHANGE[(x + y) & 1][mask & PORT_MASK]


@cache
def touches(mask: int, rotation: int) -> tuple[int, int, dict[Cell, int]]:
    """Square B's offset from square A of port mask ``mask`` laid at ``rotation``, and per
    neighbour of the card (relative to square A, the card's own cells left out) the touch
    bits :meth:`Board.lay` adds to its rim value (both squares' for a cell next to both;
    :data:`~banditsolve.tunnels.table.TOUCH`): :func:`_rim_steps` by neighbour."""
    bx, by, _open_a, _open_b, steps = _rim_steps(mask, rotation)
    out: dict[Cell, int] = {}
    for dx, dy, touch, _opens in steps:
        out[dx, dy] = out.get((dx, dy), 0) | touch
    return bx, by, out


@cache
def _rim_steps(
    mask: int, rotation: int
) -> tuple[int, int, int, int, tuple[tuple[int, int, int, bool], ...]]:
    """For :meth:`Board.lay` of port mask ``mask`` at ``rotation``: square B's offset from
    square A, the open sides of A and B, and per side of A then of B (in side order) that does
    not face the card's other cell, the neighbour's offset from A, the touch bits the
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


#: What :meth:`Board.push` returns and :meth:`Board.pop` takes back: the two cells laid, the
#: rim entries changed (cell, old value or -1), the exit count and colour balance before, and
#: the card types left before with their option summaries (None: not listed).
Record = tuple[
    Cell,
    Cell,
    list[tuple[Cell, int]],
    int,
    int,
    tuple[int, ...] | None,
    dict[Signature, tuple[int, int]],
]


class Board:
    """The table as mutable dicts (cells, rim values, front cells) with the cards left, laid
    and lifted card by card (:meth:`push`, :meth:`pop`); :attr:`path` holds the cards laid."""

    def __init__(self, table: Table, cards: Sequence[int]) -> None:
        self.counts: Counter[int] = Counter(cards)
        self.given: Counter[int] = Counter(cards)
        self.path: list[Placement] = []
        self.records: list[Record] = []
        self.table = table
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
        #: cells per signature for those types (see
        #: :func:`~banditsolve.tunnels.solvers.options.summary`), kept per set of types.
        self.kinds: tuple[int, ...] | None = None
        self.sums: dict[Signature, tuple[int, int]] = {}
        self.sums_by_kinds: dict[tuple[int, ...], dict[Signature, tuple[int, int]]] = {}

    def types_left(self) -> tuple[int, ...]:
        """The card types of which a card is left, in order (not kept)."""
        return tuple(sorted(c for c, n in self.counts.items() if n > 0))

    def kinds_left(self) -> tuple[int, ...]:
        """:meth:`types_left`, kept in :attr:`kinds` with their summaries in :attr:`sums`
        until a type runs out."""
        kinds = self.kinds
        if kinds is None:
            kinds = self.kinds = self.types_left()
            self.sums = self.sums_by_kinds.setdefault(kinds, {})
        return kinds

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
        self.skews[SKEW[mask]] -= 1
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
        self.skews[SKEW[mask]] += 1
        self.path.pop()
        self.records.pop()
