"""Can the tunnel still close? Closure of a table with a given multiset of cards.

A *closure* is a choice of some of the given cards and an order of laying them, each placement
legal when laid (BD-PLACE-1..3), that leaves no exit (BD-CLOSE-1). Hands and turns play no part,
so "impossible" proves that no game can be won from the table with these cards.

Three answers, never a guess (:class:`Closure`): ``closable`` with the placements in a legal
order (the certificate), ``impossible`` with the reason, or ``unknown`` when a time or node
limit ran out.

The exact search (``backend="exact"``) is complete:

- it branches on ONE front cell (an empty cell faced by an exit), the one with the fewest
  (card type, placement) options; every front cell must be covered in any closure, and a
  placement covering a front cell now is legal at any later time too (its other edges only meet
  cards that are also there in the final table), so it may be laid first: exploring every way to
  cover that cell is exhaustive;
- it works on card *types* with counts, never on individual cards;
- it lays and lifts cards on one mutable board (never copying the table) and keeps the exit
  count, the colour balance and the remaining cards per class up to date as it goes;
- every node returns a proven lower bound on the cards any closure from it needs (the largest of
  its bounds below, or one more than the smallest bound of its branching cell's children); the
  memo keeps that bound per set of cards added (which fixes the table and the remaining
  multiset), and the deepening skips every budget below the root's proven bound;
- it prunes a branch when a front cell has no option left (a hole, a cell outside the play area,
  or a cell no remaining type fits: dead exits only stay dead), and by two counting bounds: a card
  with ``k`` openings changes the number of exits by ``k - 2m`` (``m`` openings meeting exits), so
  the cards used must have at least as many openings as there are exits, with the same parity; and
  a card covers at most two front cells, and two only when they are adjacent and one remaining
  card type fits both (:func:`cover_bound`: front cells less a maximum matching); the colour
  balance (:func:`colour_balance`) must be met by the cards' signed skews; when the cover
  bound equals the budget, every card still laid covers a front cell, so only placements whose
  openings face occupied cells or cells that a card covering *another* front cell can reach are
  kept;
- before laying a card it checks the child's exit count and a quick covering bound
  (:func:`_quick_cover`), so most dead ends are never laid;
- a level of the deepening that promises to be long (the previous one took ``SPLIT_AFTER``
  seconds) is shared among forked processes (``workers``), each searching whole subtrees two
  cards below the root in a fixed order, so the answer never depends on timing.

:func:`plain_search` is the baseline: a depth-first search over every card and every legal
placement, without memo or bounds (complete but slow), used by the tests and the benchmark.
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from banditsolve.errors import IllegalActionError, SolverError
from banditsolve.tunnels.cards import (
    FULL,
    SQUARE_A_PORTS,
    SQUARE_B_PORTS,
    CardLike,
    as_code,
    card_name,
)
from banditsolve.tunnels.geometry import (
    SIDE_NAMES,
    STEP,
    Cell,
    Placement,
    opposite,
    orientation,
    shape_rows,
)
from banditsolve.tunnels.table import Table, legal_placements

Status = Literal["closable", "impossible", "unknown"]
Bounds = tuple[int, int, int, int]
BACKENDS = ("auto", "exact", "cpsat", "z3", "plain")

#: Default limit of one solve, in seconds.
DEFAULT_TIME_LIMIT = 10.0


@dataclass(frozen=True, slots=True)
class SearchStats:
    """Effort of one solve: search nodes (or solver branches), wall seconds, and the solver's
    deterministic time where it reports one (CP-SAT)."""

    nodes: int = 0
    seconds: float = 0.0
    deterministic_time: float | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"nodes": self.nodes, "seconds": round(self.seconds, 6)}
        if self.deterministic_time is not None:
            out["deterministic_time"] = round(self.deterministic_time, 6)
        return out


@dataclass(frozen=True, slots=True)
class Closure:
    """The answer to "can this table be closed with these cards?".

    ``placements`` (when closable) lists the cards laid, in a legal order, leaving no exit.
    ``minimum`` is True only for a closable answer proven to use the fewest cards possible
    (never for impossible or unknown ones); ``reason`` says why in words.
    """

    status: Status
    placements: tuple[Placement, ...] = ()
    reason: str = ""
    backend: str = "exact"
    stats: SearchStats = field(default_factory=SearchStats)
    minimum: bool = False

    @property
    def cards(self) -> int:
        """Number of cards of the certificate."""
        return len(self.placements)

    def to_json(self) -> dict[str, object]:
        """``{"status", "placements": [{"card", "x", "y", "rotation"}...], "reason", ...}``."""
        return {
            "status": self.status,
            "placements": [
                {"card": card_name(p.card), "x": p.x, "y": p.y, "rotation": p.rotation}
                for p in self.placements
            ],
            "reason": self.reason,
            "cards": len(self.placements),
            "minimum": self.minimum,
            "backend": self.backend,
            "stats": self.stats.to_json(),
        }


# -- inputs -------------------------------------------------------------------------------------


def plural(n: int, word: str) -> str:
    """``"1 card"``, ``"2 cards"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _table_of(position: object) -> Table:
    if isinstance(position, Table):
        return position
    table = getattr(position, "table", None)
    if isinstance(table, Table):
        return table
    raise SolverError("a closure question needs a Table or a Position")


def _cards_of(position: object, cards: Iterable[CardLike] | None) -> tuple[int, ...]:
    if cards is None:
        remaining = getattr(position, "remaining", None)
        if remaining is None:
            raise SolverError("give the cards to close with (a table alone has no remaining cards)")
        cards = remaining
    if isinstance(cards, str):
        raise SolverError(f"cards must be a list of card names, not the string {cards!r}")
    return tuple(sorted(as_code(c) for c in cards))


def _check_bounds(bounds: Bounds | None, table: Table) -> Bounds | None:
    if bounds is None:
        return None
    if len(bounds) != 4 or not all(isinstance(v, int) for v in bounds):
        raise SolverError("bounds must be (min_x, min_y, max_x, max_y), four integers")
    x0, y0, x1, y1 = bounds
    if x0 > x1 or y0 > y1:
        raise SolverError(f"empty play area {bounds}")
    for x, y in table.cells:
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            raise SolverError(f"cell ({x}, {y}) of the table lies outside the play area {bounds}")
    return x0, y0, x1, y1


def _count(value: object, least: int) -> bool:
    """True for an int (not a bool) of at least ``least``."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def _check_limits(
    max_cards: object, time_limit: object, nodes: object, workers: object = None
) -> None:
    if max_cards is not None and not _count(max_cards, 0):
        raise SolverError(f"max_cards must be a non-negative integer, not {max_cards!r}")
    if time_limit is not None and not (
        isinstance(time_limit, int | float) and not isinstance(time_limit, bool) and time_limit > 0
    ):
        raise SolverError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
    if nodes is not None and not _count(nodes, 1):
        raise SolverError(f"node_limit must be a positive integer, not {nodes!r}")
    if workers is not None and not _count(workers, 1):
        raise SolverError(f"workers must be a positive integer, not {workers!r}")


def _inside(cell: Cell, bounds: Bounds | None) -> bool:
    if bounds is None:
        return True
    return bounds[0] <= cell[0] <= bounds[2] and bounds[1] <= cell[1] <= bounds[3]


# -- counting bounds ----------------------------------------------------------------------------


def port_classes(cards: Iterable[int]) -> tuple[int, int, int, int, int, int, int]:
    """How many of ``cards`` have 0..6 openings."""
    out = [0] * 7
    for c in cards:
        out[(c & FULL).bit_count()] += 1
    return (out[0], out[1], out[2], out[3], out[4], out[5], out[6])


@cache
def min_cards_for_exits(classes: tuple[int, ...], exits: int) -> int | None:
    """The fewest cards (from ``classes[k]`` cards with ``k`` openings) whose openings add up to
    at least ``exits`` with the parity of ``exits``; None when no choice does.

    Valid lower bound: a card with ``k`` openings, ``m`` of them meeting exits, changes the
    number of exits by ``k - 2m >= -k``; summing to ``-exits`` needs ``sum k >= exits`` and
    ``sum k = exits (mod 2)``. The best sum of ``n`` cards with a given parity is the ``n``
    largest, or that with one card swapped for an unused one of the other parity.
    """
    values = [k for k in range(len(classes) - 1, -1, -1) for _ in range(classes[k])]
    if exits == 0:
        return 0
    total = len(values)
    for n in range(1, total + 1):
        used, unused = values[:n], values[n:]
        best = sum(used)
        if best < exits:
            continue
        if (best - exits) % 2 == 0:
            return n
        loss = min(
            (v - w for v in set(used) for w in set(unused) if (v - w) % 2 and v > w),
            default=None,
        )
        if loss is not None and best - loss >= exits:
            return n
    return None


def _skew(code: int) -> int:
    """``|a - b|``: the openings on a card's square A less those on square B, in size."""
    mask = code & FULL
    return abs((mask & SQUARE_A_PORTS).bit_count() - (mask & SQUARE_B_PORTS).bit_count())


def colour_balance(table: Table) -> int:
    """Exits into front cells with even ``x + y`` less exits into the others.

    Colour the cells like a chessboard. Two facing openings lie on cells of opposite colours,
    so on a table without exits the openings on even cells equal those on odd cells. On the
    current table the openings that face cards pair up the same way, and an exit into an even
    cell lies on an odd cell; so the cards a closure adds must carry ``colour_balance`` more
    openings on even cells than on odd ones. A card's two squares have opposite colours, so a
    card adds ``+-(a - b)`` (``a``, ``b`` its openings on square A and B) to that difference:
    the ``|a - b|`` of the cards used, with signs, must add up to the balance.
    """
    out = 0
    for (tx, ty), fv in table._front.items():
        n = (fv & 15).bit_count()
        out += -n if (tx + ty) & 1 else n
    return out


@cache
def min_cards_for_balance(skews: tuple[int, int, int], balance: int) -> int | None:
    """The fewest cards, from ``skews[i - 1]`` cards with ``|a - b| = i``, whose ``|a - b|``
    with signs chosen freely add up to ``balance`` (see :func:`colour_balance`); None when none
    do. An exact 0/1 knapsack over the cards, one at a time: ``best[v]`` is the fewest cards
    seen so far whose signed skews add up to ``v``."""
    if balance == 0:
        return 0
    best: dict[int, int] = {0: 0}
    for i, count in enumerate(skews):
        value = i + 1
        for _ in range(count):
            nxt = dict(best)
            for total, used in best.items():
                for v in (total + value, total - value):
                    if nxt.get(v, 1 << 30) > used + 1:
                        nxt[v] = used + 1
            best = nxt
    return best.get(balance)


def lower_bound(table: Table, cards: Sequence[int], bounds: Bounds | None = None) -> int | None:
    """A lower bound on the cards any closure needs (None: no choice of ``cards`` can close)."""
    exits = table.exit_count
    need = min_cards_for_exits(port_classes(cards), exits)
    if need is None:
        return None
    return max(need, (len(table._front) + 1) // 2, front_cover(table, cards, bounds))


def front_cover(table: Table, cards: Iterable[int], bounds: Bounds | None = None) -> int:
    """:func:`cover_bound` of the table's front cells with the card types of ``cards``."""
    types = {c & FULL for c in cards}
    pairs: dict[Cell, int] = {}
    for t, fv in table._front.items():
        sides = 0
        if _inside(t, bounds):
            sig = _signature(table._rim, t, fv, bounds)
            for mask in types:
                sides |= _pair_sides(mask, sig)
        pairs[t] = sides
    return cover_bound(pairs)


# -- options at a front cell ---------------------------------------------------------------------

Option = tuple[int, int, int, int, int]  # delta, code, x, y, rotation
_VALID: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, int, int, int], ...]] = {}


def _valid_rows(mask: int, sig: tuple[int, ...]) -> tuple[tuple[int, int, int, int], ...]:
    """Shapes of ``mask`` covering a front cell with local signature ``sig``:
    ``(delta, a_dx, a_dy, rotation)`` each. The signature is the cell's packed front value and,
    per side, the packed rim value of the neighbour (-1 when it may not be used)."""
    key = (mask, sig)
    found = _VALID.get(key)
    if found is not None:
        return found
    fv = sig[0]
    known, need = fv >> 4, fv & 15
    rows: list[tuple[int, int, int, int]] = []
    for t_open, side, o_open, _odx, _ody, adx, ady, rotation in shape_rows(mask):
        if known >> side & 1 or (t_open ^ need) & known:
            continue
        ov = sig[1 + side]
        if ov < 0:
            continue
        o_need, o_known = ov & 15, ov >> 4
        if (o_open ^ o_need) & o_known:
            continue
        opened = (t_open & ~known).bit_count() + (o_open & ~o_known).bit_count()
        rows.append((opened - need.bit_count() - o_need.bit_count(), adx, ady, rotation))
    result = tuple(rows)
    if len(_VALID) > 500_000:
        _VALID.clear()
    _VALID[key] = result
    return result


#: One row per placement of a card covering a front cell: ``(delta, a_dx, a_dy, rotation,
#: other, faced)`` with square A, the other cell covered and the cells its openings face, all
#: relative to the front cell.
Row = tuple[int, int, int, int, Cell, tuple[Cell, ...]]
_ROWS: dict[tuple[int, tuple[int, ...]], tuple[Row, ...]] = {}


def _rows(mask: int, sig: tuple[int, ...]) -> tuple[Row, ...]:
    """:func:`_valid_rows` of ``mask`` at a front cell with signature ``sig``, each with its
    footprint (the other cell it covers and the cells its openings face)."""
    key = (mask, sig)
    found = _ROWS.get(key)
    if found is not None:
        return found
    rows = []
    for delta, adx, ady, rotation in _valid_rows(mask, sig):
        bdx, bdy, faced = _shape_info(mask, rotation)
        other = (adx, ady) if (adx, ady) != (0, 0) else (adx + bdx, ady + bdy)
        rel = tuple((adx + fx, ady + fy) for fx, fy in faced)
        rows.append((delta, adx, ady, rotation, other, rel))
    out = tuple(rows)
    if len(_ROWS) > 500_000:
        _ROWS.clear()
    _ROWS[key] = out
    return out


def _fits_zone(
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


_SIDES: dict[tuple[int, tuple[int, ...]], int] = {}


def _pair_sides(mask: int, sig: tuple[int, ...]) -> int:
    """The 4-bit set of sides ``s`` of a front cell with signature ``sig`` such that a card of
    port mask ``mask`` can cover the cell together with its neighbour on side ``s``."""
    key = (mask, sig)
    found = _SIDES.get(key)
    if found is not None:
        return found
    fv = sig[0]
    known, need = fv >> 4, fv & 15
    out = 0
    for t_open, side, o_open, _odx, _ody, _adx, _ady, _rotation in shape_rows(mask):
        if known >> side & 1 or (t_open ^ need) & known:
            continue
        ov = sig[1 + side]
        if ov < 0 or (o_open ^ (ov & 15)) & (ov >> 4):
            continue
        out |= 1 << side
    if len(_SIDES) > 500_000:
        _SIDES.clear()
    _SIDES[key] = out
    return out


_SUMMARY: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, int]] = {}


def _summary(types: tuple[int, ...], sig: tuple[int, ...]) -> tuple[int, int]:
    """``(options, pair sides)`` of a front cell with signature ``sig`` for card ``types``."""
    key = (types, sig)
    found = _SUMMARY.get(key)
    if found is not None:
        return found
    size = 0
    sides = 0
    for code in types:
        size += len(_valid_rows(code & FULL, sig))
        sides |= _pair_sides(code & FULL, sig)
    if len(_SUMMARY) > 500_000:
        _SUMMARY.clear()
    _SUMMARY[key] = size, sides
    return size, sides


def cover_bound(pairs: dict[Cell, int]) -> int:
    """The fewest cards that cover every front cell: ``F - v`` where ``F`` front cells are the
    keys of ``pairs`` and ``v`` is a maximum matching of the graph joining ``t`` to its neighbour
    on each side in ``pairs[t]`` that is also a front cell (the pairs one card can cover).

    Sound: in a closure every front cell is covered (an exit still faces it otherwise), each
    by one card; a card covers two cells, so it covers two front cells only when they are
    adjacent and it fits both, i.e. the cards covering two front cells form a matching of that
    graph, and at least ``F - v`` distinct cards are needed. The graph is bipartite (cells by
    the colour of ``x + y``), so augmenting paths from one colour give ``v`` exactly.
    """
    adj: dict[Cell, list[Cell]] = {}
    for t, sides in pairs.items():
        if (t[0] + t[1]) & 1 or not sides:
            continue
        nbrs = []
        for side in range(4):
            if sides >> side & 1:
                dx, dy = STEP[side]
                u = (t[0] + dx, t[1] + dy)
                if u in pairs:
                    nbrs.append(u)
        if nbrs:
            adj[t] = nbrs
    match: dict[Cell, Cell] = {}

    def augment(t: Cell, seen: set[Cell]) -> bool:
        for u in adj[t]:
            if u in seen:
                continue
            seen.add(u)
            v = match.get(u)
            if v is None or augment(v, seen):
                match[u] = t
                return True
        return False

    matched = 0
    for t in adj:
        if augment(t, set()):
            matched += 1
    return len(pairs) - matched


def _signature(rim: Mapping[Cell, int], t: Cell, fv: int, bounds: Bounds | None) -> tuple[int, ...]:
    """Front cell ``t``'s packed front value, then per side the rim value of its neighbour
    (0 when none, -1 when outside the play area): all a placement over ``t`` depends on."""
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
        out.append(rim.get(o, 0) if _inside(o, bounds) else -1)
    return tuple(out)


def _placements(t: Cell, sig: tuple[int, ...], types: Iterable[int]) -> list[Option]:
    """Every option placing one of ``types`` over front cell ``t`` with signature ``sig``."""
    tx, ty = t
    return [
        (delta, code, tx + adx, ty + ady, rotation)
        for code in types
        for delta, adx, ady, rotation, _other, _faced in _rows(code & FULL, sig)
    ]


def options_at(
    table: Table, t: Cell, types: Iterable[int], bounds: Bounds | None = None
) -> list[Option]:
    """Every ``(delta, code, x, y, rotation)`` placing one of ``types`` over front cell ``t``."""
    fv = table._front.get(t)
    if fv is None or not _inside(t, bounds):
        return []
    return _placements(t, _signature(table._rim, t, fv, bounds), types)


def _describe_exit(t: Cell, fv: int) -> str:
    need = fv & 15
    for side in range(4):
        if need >> side & 1:
            dx, dy = STEP[side]
            return f"the exit at ({t[0] + dx}, {t[1] + dy}) {SIDE_NAMES[opposite(side)]}"
    return f"the exit into ({t[0]}, {t[1]})"


def static_reason(
    table: Table, cards: Sequence[int], bounds: Bounds | None = None, max_cards: int | None = None
) -> str | None:
    """A reason why no closure exists that needs no search, or None.

    Checked: an exit into a one-cell hole; an exit facing a cell outside the play area; an exit
    facing a cell no given card type can fill; the counting bounds; ``max_cards``.
    """
    types = sorted(set(cards))
    for t, fv in sorted(table._front.items()):
        where = _describe_exit(t, fv)
        if fv >> 4 == 15:
            return f"{where} runs into the one-cell hole {t}: no card can ever fill it"
        if not _inside(t, bounds):
            return f"{where} faces the cell {t}, outside the play area"
        if not options_at(table, t, types, bounds):
            return f"{where} faces the cell {t}, which none of the given card types can fill"
    exits = table.exit_count
    classes = port_classes(cards)
    need = min_cards_for_exits(classes, exits)
    if need is None:
        openings = sum(k * n for k, n in enumerate(classes))
        if openings < exits:
            return (
                f"the {plural(len(cards), 'card')} have {plural(openings, 'opening')} in all, "
                f"fewer than the {plural(exits, 'exit')} they would have to absorb"
            )
        return (
            f"every card changes the exit count by its openings minus twice those it joins: "
            f"no choice of the {plural(len(cards), 'card')} has openings adding up to at "
            f"least {exits} with the parity of the exit count"
        )
    balance = colour_balance(table)
    skew = [0, 0, 0, 0]
    for c in cards:
        skew[_skew(c)] += 1
    if min_cards_for_balance((skew[1], skew[2], skew[3]), abs(balance)) is None:
        return (
            "colouring the cells like a chessboard, facing openings lie on opposite colours, so "
            f"the cards added must carry {abs(balance)} more openings on one colour than on "
            "the other, and no choice of the given cards (each adding plus or minus its "
            "openings on one square less those on the other) does"
        )
    front = len(table._front)
    if max_cards is not None:
        if need > max_cards:
            return (
                f"at least {plural(need, 'card')} are needed to absorb "
                f"{plural(exits, 'exit')} (max {max_cards})"
            )
        if (front + 1) // 2 > max_cards:
            return f"{front} cells face exits and a card covers at most two (max {max_cards})"
        cover = front_cover(table, types, bounds)
        if cover > max_cards:
            return (
                f"{front} cells face exits and a card covers two of them only when they are "
                f"adjacent and one card fits both: at least {cover} cards (max {max_cards})"
            )
    return None


# -- the exact search ----------------------------------------------------------------------------


class _Limit(Exception):
    pass


#: Seconds a level of the exact search must have taken before the next one is shared among
#: processes (see :meth:`_Exact.run_split`).
SPLIT_AFTER = 0.25

#: can_close goes straight to the whole budget once a level of the deepening has cost this many
#: nodes and at most JUMP_GAP levels are left (see :func:`_exact`).
JUMP_NODES = 500
JUMP_GAP = 2

#: The lower bound of a node from which no closure exists at all, whatever the budget.
_NEVER = 1 << 20


class _Exact:
    """One exact search; ``run(budget)`` may be called with growing budgets (memo kept).

    The search works on a mutable copy of the table (laid and lifted again on the way back,
    never copied) and keeps the exit count, the colour balance and the counts per class of the
    remaining cards up to date as it goes. Each node returns a proven lower bound on the cards
    any closure from it needs (``-1`` once a closure is found): the largest of its counting
    bounds, or one more than the smallest bound among the children of its branching cell. The
    memo keeps that bound per set of cards laid, so a later, larger budget skips every node
    already known to need more, and a node that can never close is never searched twice.
    """

    def __init__(
        self,
        table: Table,
        cards: Sequence[int],
        bounds: Bounds | None,
        time_limit: float | None,
        node_limit: int | None,
    ) -> None:
        self.counts: Counter[int] = Counter(cards)
        self.bounds = bounds
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.node_limit = node_limit
        self.nodes = 0
        self.lower: dict[frozenset[Placement], int] = {}
        self.path: list[Placement] = []
        self.cells: dict[Cell, int] = {c: v & 15 for c, v in table._cells.items()}
        self.rim: dict[Cell, int] = dict(table._rim)
        self.front: dict[Cell, int] = dict(table._front)
        self.exits = table.exit_count
        self.balance = colour_balance(table)
        self.classes = [0] * 7
        self.skews = [0] * 4
        for c in cards:
            self.classes[(c & FULL).bit_count()] += 1
            self.skews[_skew(c)] += 1

    def run(self, budget: int) -> tuple[Placement, ...] | int:
        """The placements of a closure with at most ``budget`` cards, or a proven lower bound
        (greater than ``budget``) on the cards any closure needs."""
        self.path = []
        found = self._dfs(budget, frozenset())
        if found < 0:
            return tuple(self.path)
        return found

    # -- the mutable board ------------------------------------------------------------------

    def _lay(self, p: Placement) -> tuple[Cell, Cell, list[tuple[Cell, int]]]:
        o = orientation(p.card & FULL, p.rotation)
        a = (p.x, p.y)
        b = (p.x + o.b_step[0], p.y + o.b_step[1])
        cells, rim, front = self.cells, self.rim, self.front
        undo: list[tuple[Cell, int]] = []
        exits, balance = self.exits, self.balance
        for cell in (a, b):
            old = rim.pop(cell, -1)
            undo.append((cell, old))
            if old > 0 and old & 15:
                del front[cell]
                lost = (old & 15).bit_count()
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
                bit = 1 << ((side + 2) & 3)
                v = (old if old > 0 else 0) | (bit << 4)
                if open4 >> side & 1:
                    v |= bit
                    exits += 1
                    balance += -1 if (n[0] + n[1]) & 1 else 1
                if v & 15:
                    front[n] = v
                rim[n] = v
        self.exits, self.balance = exits, balance
        return a, b, undo

    def _lift(self, a: Cell, b: Cell, undo: list[tuple[Cell, int]]) -> None:
        rim, front = self.rim, self.front
        for cell, old in reversed(undo):
            if old < 0:
                rim.pop(cell, None)
                front.pop(cell, None)
            else:
                rim[cell] = old
                if old & 15:
                    front[cell] = old
                else:
                    front.pop(cell, None)
        del self.cells[a]
        del self.cells[b]

    def _zone_options(
        self,
        t: Cell,
        sig: tuple[int, ...],
        kinds: tuple[int, ...],
        zone: dict[Cell, list[Cell]],
        first: bool,
    ) -> list[Option]:
        """The options at ``t`` that open only onto occupied cells or the zone of another front
        cell (see the tight case of :meth:`_expand`); with ``first``, at most one."""
        tx, ty = t
        cells = self.cells
        tested: dict[tuple[Cell, tuple[Cell, ...]], bool] = {}
        out: list[Option] = []
        for code in kinds:
            for delta, adx, ady, rotation, other, faced in _rows(code & FULL, sig):
                ok = tested.get((other, faced))
                if ok is None:
                    ok = tested[other, faced] = _fits_zone(t, other, faced, cells, zone)
                if ok:
                    out.append((delta, code, tx + adx, ty + ady, rotation))
                    if first:
                        return out
        return out

    # -- the search -------------------------------------------------------------------------

    def run_split(self, budget: int, workers: int) -> tuple[Placement, ...] | int:
        """:meth:`run` with the subtrees two cards below the root searched by ``workers``
        forked processes (each inherits the board and the memo). The subtrees are taken in a
        fixed order and the first closure in that order is returned, so the answer and the
        certificate do not depend on timing. The bound returned is ``budget + 1``."""
        global _SPLIT
        self.path = []
        jobs: list[tuple[Placement, ...]] = []
        if self._collect(budget, frozenset(), 2, jobs):
            return tuple(self.path)
        if not jobs:
            return budget + 1
        import multiprocessing  # only here: forking is the exception, and the import costs

        _SPLIT = self
        try:
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                for status, path, nodes in pool.imap(_split_job, [(j, budget) for j in jobs]):
                    self.nodes += nodes
                    if status == "closed":
                        return path
                    if status == "limit":
                        raise _Limit
        finally:
            _SPLIT = None
        return budget + 1

    def _collect(
        self, budget: int, key: frozenset[Placement], depth: int, jobs: list[tuple[Placement, ...]]
    ) -> bool:
        """Walk ``depth`` cards down from the node, appending the paths that reach that depth to
        ``jobs``; True when a closure turns up on the way (in :attr:`path`)."""
        self._tick()
        result, _low, children = self._expand(budget, key)
        if result < 0:
            return True
        for p in children:
            record = self._push(p)
            if depth > 1:
                if self._collect(budget - 1, key | {p}, depth - 1, jobs):
                    return True
            else:
                jobs.append(tuple(self.path))
            self._pop(p, record)
        return False

    def _expand(self, budget: int, key: frozenset[Placement]) -> tuple[int, int, list[Placement]]:
        """One node: ``(result, low, children)``. ``result`` is -1 when the table is closed, or
        a proven lower bound on the cards a closure needs when ``children`` is empty;
        otherwise the bound proven by the options already ruled out (``_NEVER`` if none), with
        ``low`` the node's counting bound and ``children`` the placements still to search."""
        front = self.front
        if not front:
            return -1, 0, []
        lower = self.lower
        known = lower.get(key, 0)
        if known > budget:
            return known, known, []
        # Counting bounds, each valid whatever the budget.
        low = (len(front) + 1) // 2
        need = min_cards_for_exits(tuple(self.classes), self.exits)
        if need is None:
            return self._closed(key, _NEVER)
        low = max(low, need)
        if self.balance:
            skews = self.skews
            need = min_cards_for_balance((skews[1], skews[2], skews[3]), abs(self.balance))
            if need is None:
                return self._closed(key, _NEVER)
            low = max(low, need)
        if low > budget:
            return self._closed(key, low)
        counts = self.counts
        kinds = tuple(sorted(c for c, n in counts.items() if n > 0))
        bounds = self.bounds
        # The most constrained front cell.
        best_cell: Cell | None = None
        best_sig: tuple[int, ...] = ()
        best_size = 1 << 30
        pairs: dict[Cell, int] = {}
        sigs: dict[Cell, tuple[int, ...]] = {}
        sizes: dict[Cell, int] = {}
        for t, fv in front.items():
            if bounds is not None and not _inside(t, bounds):
                return self._closed(key, _NEVER)
            sig = _signature(self.rim, t, fv, bounds)
            size, sides = _summary(kinds, sig)
            if size == 0:
                # Cells only fill up and cards only run out: this exit stays open for good.
                return self._closed(key, _NEVER)
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
                return self._closed(key, low)
        result = _NEVER
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
                if not self._zone_options(t, sigs[t], kinds, zone, True):
                    return self._closed(key, budget + 1)
            best = self._zone_options(best_cell, best_sig, kinds, zone, False)
            result = budget + 1
        else:
            best = _placements(best_cell, best_sig, kinds)
        best.sort()
        classes = self.classes
        cells = self.cells
        exits = self.exits
        children: list[Placement] = []
        for delta, code, x, y, rotation in best:
            mask = code & FULL
            k = mask.bit_count()
            # Forward check: bounds of the table after this placement, from its front cells
            # and exit count alone, before laying it.
            if exits + delta:
                bdx, bdy, faced = _shape_info(mask, rotation)
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
                    continue  # a bound of _NEVER: result is unchanged
                child = max(child, _quick_cover(after))
                if child > budget - 1:
                    if child + 1 < result:
                        result = child + 1
                    continue
            children.append(Placement(code, x, y, rotation))
        return result, low, children

    def _closed(self, key: frozenset[Placement], bound: int) -> tuple[int, int, list[Placement]]:
        self.lower[key] = bound
        return bound, bound, []

    def _push(self, p: Placement) -> tuple[Cell, Cell, list[tuple[Cell, int]], int, int]:
        """Lay ``p`` on the board and take its card from the counts; the undo record."""
        mask = p.card & FULL
        self.counts[p.card] -= 1
        self.classes[mask.bit_count()] -= 1
        self.skews[_skew(mask)] -= 1
        exits, balance = self.exits, self.balance
        a, b, undo = self._lay(p)
        self.path.append(p)
        return a, b, undo, exits, balance

    def _pop(
        self, p: Placement, record: tuple[Cell, Cell, list[tuple[Cell, int]], int, int]
    ) -> None:
        a, b, undo, exits, balance = record
        self._lift(a, b, undo)
        self.exits, self.balance = exits, balance
        mask = p.card & FULL
        self.counts[p.card] += 1
        self.classes[mask.bit_count()] += 1
        self.skews[_skew(mask)] += 1
        self.path.pop()

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 255 == 0:
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise _Limit
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _Limit

    def _dfs(self, budget: int, key: frozenset[Placement]) -> int:
        self._tick()
        result, low, children = self._expand(budget, key)
        if result < 0:
            return -1
        for p in children:
            record = self._push(p)
            found = self._dfs(budget - 1, key | {p})
            if found < 0:
                return -1
            self._pop(p, record)
            if found + 1 < result:
                result = found + 1
        result = max(result, low, budget + 1)
        self.lower[key] = result
        return result


#: The search a forked worker of :meth:`_Exact.run_split` continues (set just before forking).
_SPLIT: _Exact | None = None


def _split_job(job: tuple[tuple[Placement, ...], int]) -> tuple[str, tuple[Placement, ...], int]:
    """In a worker process: search the subtree below ``prefix`` with the budget left;
    ``("closed", path, nodes)``, ``("open", (), nodes)`` or ``("limit", (), nodes)``."""
    prefix, budget = job
    search = _SPLIT
    assert search is not None
    before = search.nodes
    search.path = []
    records = [(p, search._push(p)) for p in prefix]
    try:
        found = search._dfs(budget - len(prefix), frozenset(prefix))
    except _Limit:
        return "limit", (), search.nodes - before
    if found < 0:
        return "closed", tuple(search.path), search.nodes - before
    for p, record in reversed(records):
        search._pop(p, record)
    return "open", (), search.nodes - before


def default_workers() -> int:
    """How many processes the exact search may use: the machine's cores (at most 4) where
    forking is safe (a "fork" start method, one thread, not a daemon process), else 1."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    if threading.active_count() != 1 or multiprocessing.current_process().daemon:
        return 1
    return max(1, min(4, os.cpu_count() or 1))


@cache
def _shape_info(mask: int, rotation: int) -> tuple[int, int, tuple[Cell, ...]]:
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


def _quick_cover(front: set[Cell]) -> int:
    """A weaker but cheap :func:`cover_bound`: front cells less an upper bound on any matching
    of neighbouring front cells (the fewer, by colour, of the cells with a front neighbour)."""
    even = odd = 0
    for cx, cy in front:
        if (
            (cx, cy - 1) in front
            or (cx + 1, cy) in front
            or (cx, cy + 1) in front
            or (cx - 1, cy) in front
        ):
            if (cx + cy) & 1:
                odd += 1
            else:
                even += 1
    return len(front) - min(even, odd)


def _certify(table: Table, placements: Sequence[Placement]) -> tuple[Placement, ...]:
    """Replay placements through the engine; raise if any is illegal or exits remain."""
    t = table
    for p in placements:
        t = t.place(p)
    if t.exit_count:
        raise IllegalActionError("internal error: a closure certificate leaves exits")
    return tuple(placements)


def _exact(
    table: Table,
    cards: tuple[int, ...],
    *,
    max_cards: int | None,
    minimum: bool,
    bounds: Bounds | None,
    time_limit: float | None,
    node_limit: int | None,
    workers: int = 1,
) -> Closure:
    start = time.perf_counter()
    budget = len(cards) if max_cards is None else min(max_cards, len(cards))

    def stats(nodes: int) -> SearchStats:
        return SearchStats(nodes, time.perf_counter() - start)

    if not table.exit_count:
        return Closure("closable", (), "the table has no exit", "exact", stats(0), True)
    reason = static_reason(table, cards, bounds, budget)
    if reason is not None:
        return Closure("impossible", (), reason, "exact", stats(0))
    search = _Exact(table, cards, bounds, time_limit, node_limit)
    low = lower_bound(table, cards, bounds) or 1
    try:
        # Iterative deepening on the number of cards, for both questions: the shallowest
        # closure is found long before a deep search would wander its way there, and the
        # bounds proven at each level stay memoised for the next (a level the proven bound
        # already rules out is skipped). A closure found this way is also the minimum, since
        # every smaller budget was ruled out. For can_close alone, once a level has cost
        # JUMP_NODES nodes and at most JUMP_GAP levels remain, the search goes straight to the
        # whole budget (the last level costs several times all those below it); the closure it
        # finds is a proven minimum only when it has as few cards as the proven bound. Both
        # choices depend on node counts, never on time, so the answer is the same everywhere.
        # A level is shared among ``workers`` processes once the previous one took long
        # enough (SPLIT_AFTER seconds) to be worth the forks; never with a node limit, whose
        # count must not depend on the machine.
        b = floor = low
        last = 0.0
        while b <= budget:
            level = time.perf_counter()
            before = search.nodes
            if workers > 1 and node_limit is None and last >= SPLIT_AFTER:
                found = search.run_split(b, workers)
            else:
                found = search.run(b)
            last = time.perf_counter() - level
            if isinstance(found, tuple):
                n = len(found)
                if n == low:
                    why = f"{n} cards close it; counting bounds rule out fewer"
                elif n == floor:
                    why = f"{n} cards close it; an exhaustive search proved that fewer cannot"
                else:
                    why = f"{n} cards close it; at least {floor} are needed"
                return Closure(
                    "closable",
                    _certify(table, found),
                    why,
                    "exact",
                    stats(search.nodes),
                    n == floor,
                )
            floor = max(b + 1, found)
            b = floor
            if (
                not minimum
                and b < budget <= b + JUMP_GAP - 1
                and search.nodes - before >= JUMP_NODES
            ):
                b = budget
    except _Limit:
        return Closure(
            "unknown",
            (),
            _limit_reason(time_limit, node_limit, search.nodes),
            "exact",
            stats(search.nodes),
        )
    limit = "" if budget == len(cards) else f" with at most {budget} cards"
    return Closure(
        "impossible",
        (),
        f"an exhaustive search found no closure{limit}",
        "exact",
        stats(search.nodes),
    )


def _limit_reason(time_limit: float | None, node_limit: int | None, nodes: int) -> str:
    if node_limit is not None and nodes > node_limit:
        return f"the node limit ran out ({plural(node_limit, 'node')}) before an answer was proven"
    return f"the time limit ran out ({time_limit or 0:g} s) before an answer was proven"


# -- the plain baseline ---------------------------------------------------------------------------


def plain_search(
    position: object,
    cards: Iterable[CardLike] | None = None,
    *,
    max_cards: int | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    node_limit: int | None = None,
) -> Closure:
    """The baseline: depth-first over every remaining card type and every legal placement, in
    any order, with no memo and no bound but the card budget. Complete, and slow."""
    table = _table_of(position)
    codes = _cards_of(position, cards)
    _check_limits(max_cards, time_limit, node_limit)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    counts = Counter(codes)
    budget = len(codes) if max_cards is None else min(max_cards, len(codes))
    path: list[Placement] = []
    nodes = 0

    def dfs(t: Table, left: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes & 255 == 0 and deadline is not None and time.perf_counter() > deadline:
            raise _Limit
        if node_limit is not None and nodes > node_limit:
            raise _Limit
        if not t.exit_count:
            return True
        if left == 0:
            return False
        for code in sorted(counts):
            if counts[code] <= 0:
                continue
            for p in legal_placements(t, code):
                counts[code] -= 1
                path.append(p)
                if dfs(t._place(p), left - 1):
                    counts[code] += 1
                    return True
                path.pop()
                counts[code] += 1
        return False

    try:
        found = dfs(table, budget)
    except _Limit:
        return Closure(
            "unknown",
            (),
            _limit_reason(time_limit, node_limit, nodes),
            "plain",
            SearchStats(nodes, time.perf_counter() - start),
        )
    spent = SearchStats(nodes, time.perf_counter() - start)
    if found:
        return Closure("closable", _certify(table, path), "found by plain search", "plain", spent)
    return Closure("impossible", (), f"plain search exhausted ({nodes} nodes)", "plain", spent)


# -- public entry points --------------------------------------------------------------------------


def can_close(
    position: object,
    cards: Iterable[CardLike] | None = None,
    *,
    max_cards: int | None = None,
    backend: str = "auto",
    bounds: Bounds | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    node_limit: int | None = None,
    workers: int | None = None,
) -> Closure:
    """Can ``position`` (a Position or a Table) be closed with some of ``cards``?

    ``cards`` defaults to the position's remaining cards. ``max_cards`` caps how many may be
    used; ``bounds`` = ``(min_x, min_y, max_x, max_y)`` limits the play area (inclusive).
    ``backend`` is ``"auto"``, ``"exact"``, ``"cpsat"``, ``"z3"`` or ``"plain"``.
    ``workers`` is how many processes a long exact search may share its work among (None:
    :func:`default_workers`; 1: never fork). The answer does not depend on it.
    """
    return _solve(
        position, cards, max_cards, backend, bounds, time_limit, node_limit, False, workers
    )


def min_cards_to_close(
    position: object,
    cards: Iterable[CardLike] | None = None,
    *,
    max_cards: int | None = None,
    backend: str = "auto",
    bounds: Bounds | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    node_limit: int | None = None,
    workers: int | None = None,
) -> Closure:
    """The fewest cards that close ``position``, with a certificate and ``minimum=True`` once
    it is proven that fewer cannot. ``impossible`` when no closure exists (within
    ``max_cards``). Arguments as for :func:`can_close`."""
    return _solve(
        position, cards, max_cards, backend, bounds, time_limit, node_limit, True, workers
    )


def _solve(
    position: object,
    cards: Iterable[CardLike] | None,
    max_cards: int | None,
    backend: str,
    bounds: Bounds | None,
    time_limit: float | None,
    node_limit: int | None,
    minimum: bool,
    workers: int | None = None,
) -> Closure:
    if backend not in BACKENDS:
        raise SolverError(f"unknown closure backend {backend!r} (one of {', '.join(BACKENDS)})")
    table = _table_of(position)
    codes = _cards_of(position, cards)
    _check_limits(max_cards, time_limit, node_limit, workers)
    area = _check_bounds(bounds, table)
    if backend == "plain":
        if minimum or area is not None:
            raise SolverError("the plain baseline answers only can_close on an unbounded table")
        return plain_search(
            table, codes, max_cards=max_cards, time_limit=time_limit, node_limit=node_limit
        )
    if backend in ("cpsat", "z3") and node_limit is not None:
        raise SolverError("node_limit applies to the exact and plain searches, not to " + backend)
    if backend == "cpsat":
        from banditsolve.tunnels.closure_cpsat import solve_cpsat

        return solve_cpsat(table, codes, max_cards, area, time_limit, minimum)
    if backend == "z3":
        from banditsolve.tunnels.closure_z3 import solve_z3

        return solve_z3(table, codes, max_cards, area, time_limit, minimum)
    # exact and auto: the exact search is complete for every case and the fastest on all the
    # benchmark's sizes; "auto" falls back to CP-SAT for the time left when it gives up on a
    # case that CP-SAT models completely (a small card budget).
    start = time.perf_counter()
    result = _exact(
        table,
        codes,
        max_cards=max_cards,
        minimum=minimum,
        bounds=area,
        time_limit=time_limit,
        node_limit=node_limit,
        workers=default_workers() if workers is None else workers,
    )
    if backend == "exact" or result.status != "unknown":
        return result
    budget = len(codes) if max_cards is None else min(max_cards, len(codes))
    left = None if time_limit is None else time_limit - (time.perf_counter() - start)
    # (Not when a node limit stopped it: the solver could not honour that limit.)
    if budget <= 8 and node_limit is None and (left is None or left > 0.5):
        from banditsolve.tunnels.closure_cpsat import solve_cpsat

        second = solve_cpsat(table, codes, max_cards, area, left, minimum)
        if second.status != "unknown":
            return second
    return result
