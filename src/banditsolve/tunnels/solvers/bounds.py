"""Lower bounds on the cards a closure needs, and reasons that need no search.

- Counting and parity (:func:`min_cards_for_exits`): a card with ``k`` openings changes the
  number of exits by ``k - 2m`` (``m`` openings meeting exits).
- Colour balance (:func:`colour_balance`, :func:`min_cards_for_balance`): colour the cells like
  a chessboard; facing openings lie on opposite colours.
- Covering (:func:`cover_bound`, :func:`front_cover`, :func:`quick_cover`): every front cell
  needs a card, and one card covers two front cells only when they are adjacent and it fits
  both.
- :func:`static_reason`: why no closure exists, when that needs no search.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from banditsolve.core.text import plural
from banditsolve.tunnels.cards import PORT_MASK, SQUARE_A_PORTS, SQUARE_B_PORTS
from banditsolve.tunnels.geometry import SIDE_NAMES, STEP, Cell, opposite
from banditsolve.tunnels.solvers.inputs import Bounds, inside
from banditsolve.tunnels.solvers.options import options_at, pair_sides, signature
from banditsolve.tunnels.table import Table, is_hole, rim_open


def port_classes(cards: Iterable[int]) -> tuple[int, int, int, int, int, int, int]:
    """How many of ``cards`` have 0..6 openings."""
    out = [0] * 7
    for c in cards:
        out[(c & PORT_MASK).bit_count()] += 1
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


def skew(code: int) -> int:
    """``|a - b|``: the openings on a card's square A less those on square B, in size."""
    mask = code & PORT_MASK
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
    for (tx, ty), fv in table.front_rim.items():
        n = rim_open(fv).bit_count()
        out += -n if (tx + ty) & 1 else n
    return out


@cache
def min_cards_for_balance(skews: tuple[int, int, int], balance: int) -> int | None:
    """The fewest cards, from ``skews[i - 1]`` cards with ``|a - b| = i``, whose ``|a - b|``
    with signs chosen freely add up to ``balance`` (see :func:`colour_balance`); None when none
    do. A fewest choice takes ``p1``, ``p2``, ``p3`` cards of each skew with one sign each (two
    of one skew with opposite signs cancel, two cards for nothing), so it is the least
    ``|p1| + |p2| + |p3|`` with ``p1 + 2 p2 + 3 p3 = balance``. Nor does it hold any of these
    groups, which add up to 0 and would be taken out: ``+3 +3 -2 -2 -2``, ``+3 -1 -1 -1``,
    ``+2 -1 -1`` (or with the signs turned). So ``p3`` and ``p2`` lie within ``balance + 6``
    of 0, and a double loop over them finds it (a knapsack over the cards took minutes on
    thousands of cards)."""
    b = abs(balance)
    if b == 0:
        return 0
    c1, c2, c3 = skews
    reach = b + 6
    best: int | None = None
    for p3 in range(-min(c3, reach), min(c3, reach) + 1):
        for p2 in range(-min(c2, reach), min(c2, reach) + 1):
            p1 = b - 3 * p3 - 2 * p2
            if abs(p1) <= c1:
                n = abs(p1) + abs(p2) + abs(p3)
                if best is None or n < best:
                    best = n
    return best


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


def quick_cover(front: set[Cell]) -> int:
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


def front_cover(table: Table, cards: Iterable[int], bounds: Bounds | None = None) -> int:
    """:func:`cover_bound` of the table's front cells with the card types of ``cards``."""
    types = {c & PORT_MASK for c in cards}
    pairs: dict[Cell, int] = {}
    for t, fv in table.front_rim.items():
        sides = 0
        if inside(t, bounds):
            sig = signature(table.rim, t, fv, bounds)
            for mask in types:
                sides |= pair_sides(mask, sig)
        pairs[t] = sides
    return cover_bound(pairs)


def lower_bound(table: Table, cards: Sequence[int], bounds: Bounds | None = None) -> int | None:
    """A lower bound on the cards any closure needs (None: no choice of ``cards`` can close)."""
    exits = table.exit_count
    need = min_cards_for_exits(port_classes(cards), exits)
    if need is None:
        return None
    return max(need, (len(table.front_rim) + 1) // 2, front_cover(table, cards, bounds))


def describe_exit(t: Cell, fv: int) -> str:
    """The first exit into front cell ``t`` (rim value ``fv``), in words."""
    need = rim_open(fv)
    for side in range(4):
        if need >> side & 1:
            dx, dy = STEP[side]
            return f"the exit at ({t[0] + dx}, {t[1] + dy}) {SIDE_NAMES[opposite(side)]}"
    return f"the exit into ({t[0]}, {t[1]})"


def _too_few_openings(cards: int, openings: int, exits: int) -> str:
    """Why ``cards`` cards with ``openings`` openings in all cannot absorb ``exits`` exits."""
    have, they = ("the card has", "it") if cards == 1 else (f"the {cards} cards have", "they")
    return (
        f"{have} {plural(openings, 'opening')} in all, fewer than the"
        f" {plural(exits, 'exit')} {they} would have to absorb"
    )


def static_reason(
    table: Table, cards: Sequence[int], bounds: Bounds | None = None, max_cards: int | None = None
) -> str | None:
    """A reason why no closure exists that needs no search, or None.

    Checked: an exit into a one-cell hole; an exit facing a cell outside the play area; an exit
    facing a cell no given card type can fill; the counting bounds; ``max_cards``.
    """
    types = sorted(set(cards))
    for t, fv in sorted(table.front_rim.items()):
        where = describe_exit(t, fv)
        if is_hole(fv):
            return f"{where} runs into the one-cell hole {t}: no card can ever fill it"
        if not inside(t, bounds):
            return f"{where} faces the cell {t}, outside the play area"
        if not options_at(table, t, types, bounds):
            return f"{where} faces the cell {t}, which none of the given card types can fill"
    exits = table.exit_count
    classes = port_classes(cards)
    need = min_cards_for_exits(classes, exits)
    if need is None:
        openings = sum(k * n for k, n in enumerate(classes))
        if openings < exits:
            return _too_few_openings(len(cards), openings, exits)
        return (
            f"every card changes the exit count by its openings minus twice those it joins: "
            f"no choice of the {plural(len(cards), 'card')} has openings adding up to at "
            f"least {exits} with the parity of the exit count"
        )
    balance = colour_balance(table)
    skews = [0, 0, 0, 0]
    for c in cards:
        skews[skew(c)] += 1
    if min_cards_for_balance((skews[1], skews[2], skews[3]), abs(balance)) is None:
        return (
            "colouring the cells like a chessboard, facing openings lie on opposite colours, so "
            f"the cards added must carry {abs(balance)} more openings on one colour than on "
            "the other, and no choice of the given cards (each adding plus or minus its "
            "openings on one square less those on the other) does"
        )
    front = len(table.front_rim)
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
