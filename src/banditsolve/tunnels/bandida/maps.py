"""Bandida's map (BA-OBJ-5, BA-OBJ-6, BA-OPT-1..4): which sets of cards it may take off the
table, and the table laid again without them; the card graph it reads (cards touching edge to
edge, or joined through the tunnels: also the test of mode 3's junction, BA-MODE-4).

The removals are listed in a fixed order, by the order laid: every set of three whose removal
leaves one group of cards (else of two, else one, under ``map_short=as_many``), found without
trying every set: one search of the card graph without each card ``i`` finds its blocks
(biconnected parts) and cut vertices, and taking a second card ``j`` away then changes only the
block holding ``j`` (:class:`Without`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple, TypeVar

from banditsolve.tunnels.cards import card_kind, hand_code
from banditsolve.tunnels.geometry import Cell, Placement
from banditsolve.tunnels.state import Remove
from banditsolve.tunnels.table import INDEX_SHIFT, Table, lay

T = TypeVar("T")

#: Cards a map may never take off under ``map_removes=not_special`` (besides the start card and
#: the map just laid): the ladder and Bandido's super card.
KEEP_KINDS = frozenset({"ladder", "bandido_super"})


# -- the card graph ------------------------------------------------------------------------------


def links(table: Table, tunnels: bool) -> tuple[frozenset[int], ...]:
    """For each card of ``table.history``, the cards touching it edge to edge, or
    (``tunnels``) joined to it by an edge open on both sides."""
    out: list[set[int]] = [set() for _ in table.history]
    packed = table.packed
    for (x, y), v in packed.items():
        mine = v >> INDEX_SHIFT
        for side, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            w = packed.get((x + dx, y + dy))
            if w is None or w >> INDEX_SHIFT == mine:
                continue
            if tunnels and not (v >> side & 1):
                continue  # a wall (openings meet openings, BD-PLACE-2)
            out[mine].add(w >> INDEX_SHIFT)
    return tuple(frozenset(s) for s in out)


def reach(graph: Sequence[frozenset[int]], start: int, gone: frozenset[int]) -> set[int]:
    """The cards reached from ``start`` in ``graph`` without those of ``gone``."""
    seen = {start}
    todo = [start]
    while todo:
        for j in graph[todo.pop()]:
            if j not in seen and j not in gone:
                seen.add(j)
                todo.append(j)
    return seen


def joined(table: Table, codes: Sequence[int]) -> bool:
    """True when the cards with these codes (each on the table) and the start card are all in
    one tunnel network."""
    graph = links(table, True)
    wanted = {0} | {i for i, p in enumerate(table.history) if hand_code(p.card) in codes}
    if len(wanted) != 1 + len(codes):
        return False
    return wanted <= reach(graph, 0, frozenset())


def rebuilt(table: Table, removed: Sequence[Placement]) -> Table:
    """The table laid again without ``removed``, in the order laid (on one set of mappings:
    what :meth:`Table.place` card by card gives)."""
    gone = set(removed)
    kept = (table.history[0], *(p for p in table.history[1:] if p not in gone))
    cells: dict[Cell, int] = {}
    rim: dict[Cell, int] = {}
    front: dict[Cell, int] = {}
    for index, p in enumerate(kept):
        lay(cells, rim, front, p, index)
    return Table(cells, rim, front, kept)


# -- the removals --------------------------------------------------------------------------------


def bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Choices(NamedTuple):
    """The map's removals as rows ``(prefix, mask)``: the sets ``(*prefix, k)`` for every bit
    ``k`` of ``mask``, rows in order and ``k`` increasing (every set sorted, the sets in the
    order :func:`removals` lists them); ``size`` sets in all."""

    size: int
    rows: tuple[tuple[tuple[int, ...], int], ...]

    def each(self) -> Iterator[tuple[int, ...]]:
        """Every set, in order."""
        for prefix, mask in self.rows:
            for k in bits(mask):
                yield (*prefix, k)

    def nth(self, index: int) -> tuple[int, ...]:
        """The set at ``index`` (0 ≤ index < size)."""
        for prefix, mask in self.rows:
            count = mask.bit_count()
            if index < count:
                for k in bits(mask):
                    if not index:
                        return (*prefix, k)
                    index -= 1
            index -= count
        raise IndexError("no such removal")

    def holds(self, combo: tuple[int, ...]) -> bool:
        """True when the sorted set ``combo`` is one of the removals."""
        if not combo:
            return False
        prefix, k = combo[:-1], combo[-1]
        return any(p == prefix and mask >> k & 1 for p, mask in self.rows)


#: The removals of recent tables, by the placements in the order laid (tables holding the
#: same cards laid in another order can be equal, yet their indices differ).
_REMOVE_MEMO: dict[tuple[object, ...], tuple[Remove, ...]] = {}
_INDEX_MEMO: dict[tuple[object, ...], Choices] = {}
_REMOVAL_MEMO_LIMIT = 64


def _remember(memo: dict[tuple[object, ...], T], key: tuple[object, ...], value: T) -> None:
    if len(memo) >= _REMOVAL_MEMO_LIMIT:
        memo.clear()
    memo[key] = value


def removals(table: Table, removes: str, split: str, reopen: str, short: str) -> tuple[Remove, ...]:
    """BA-OBJ-6, BA-OPT-1..4: the map's removals on ``table`` under the readings ``removes``
    (``map_removes``), ``split``, ``reopen`` and ``short``, as actions in the fixed order."""
    key = (table.history, removes, split, reopen, short)
    found = _REMOVE_MEMO.get(key)
    if found is None:
        history = table.history
        found = tuple(
            Remove(tuple(history[i] for i in combo))
            for combo in removal_indices(table, removes, split, reopen, short).each()
        )
        _remember(_REMOVE_MEMO, key, found)
    return found


def removal_indices(table: Table, removes: str, split: str, reopen: str, short: str) -> Choices:
    """:func:`removals` as sets of indices into ``table.history``, in the same order (without
    building the actions). Memoised for recent tables."""
    key = (table.history, removes, split, reopen, short)
    found = _INDEX_MEMO.get(key)
    if found is None:
        found = search_removals(table, removes, split, reopen, short)
        _remember(_INDEX_MEMO, key, found)
    return found


class Graph:
    """The card graph a map's removals are checked on: each card's neighbours (``adjacent``,
    sorted; ``masks``: as bit masks) under the reading ``split`` (BA-OPT-2), each card's
    tunnel neighbours (``tunnels``, bit masks: BA-OPT-3), every card (``full``), and whether a
    removal may open a new exit (``forbidden``: ``map_reopen=forbidden``)."""

    __slots__ = ("adjacent", "forbidden", "full", "masks", "n", "tunnels")

    def __init__(self, table: Table, split: str, reopen: str) -> None:
        near = links(table, split == "tunnels")
        tunnel_links = near if split == "tunnels" else links(table, True)
        self.n = len(table.history)
        self.full = (1 << self.n) - 1
        self.forbidden = reopen == "forbidden"
        self.tunnels = [sum(1 << w for w in s) for s in tunnel_links]
        self.masks = [sum(1 << w for w in s) for s in near]
        self.adjacent = [tuple(sorted(s)) for s in near]

    def keeps(self, combo: tuple[int, ...]) -> bool:
        """BA-OPT-3: under ``map_reopen=forbidden``, no card kept has an opening facing a cell
        the removal of ``combo`` empties."""
        if not self.forbidden:
            return True
        gone = 0
        for v in combo:
            gone |= 1 << v
        return not any(self.tunnels[v] & ~gone for v in combo)


def removable(table: Table, removes: str, *, map_last: bool = True) -> list[int]:
    """BA-OPT-1: the indices of the cards a map may take off (never the start card nor
    Bandido's super card; under ``not_special`` neither the ladder nor the map just laid, the
    last card unless ``map_last`` is False: a map still to be laid)."""
    history = table.history
    last = len(history) - 1 if map_last else len(history)
    return [
        i
        for i in range(1, len(history))
        if card_kind(history[i].card) != "bandido_super"
        and (
            removes == "not_super"
            or (card_kind(history[i].card) not in KEEP_KINDS and i != last)
        )
    ]


def search_removals(table: Table, removes: str, split: str, reopen: str, short: str) -> Choices:
    """The map's removals (see :func:`removals`), searched: every set of three that leaves one
    group (BA-OBJ-6); with none, under ``short=as_many``, every pair, else every single card
    (BA-OPT-4)."""
    pool = removable(table, removes)
    graph = Graph(table, split, reopen)
    triples: list[tuple[tuple[int, ...], int]] = []
    total = 0
    whole_pairs: list[tuple[int, int]] = []
    alone = 0
    pool_mask = sum(1 << i for i in pool)
    cache = _BlockCache(graph.adjacent)
    for a, i in enumerate(pool):
        without = Without(graph, i, cache)
        if without.alone_ok:
            alone |= 1 << i
        total += _pairs_with(
            graph, cache, without, i, pool[a + 1 :], pool_mask, triples, whole_pairs
        )
    if triples or short == "none":
        return Choices(total, tuple(triples))
    return _fewer(graph, whole_pairs, alone)


def _pairs_with(
    graph: Graph,
    cache: _BlockCache,
    without: Without,
    i: int,
    js: list[int],
    pool_mask: int,
    triples: list[tuple[tuple[int, ...], int]],
    whole_pairs: list[tuple[int, int]],
) -> int:
    """For the card ``i`` (the table ``without`` it) and each later card ``j`` of the pool
    (``js``; all of it: ``pool_mask``): the pair appended to ``whole_pairs`` when it alone may
    go, and to ``triples`` with the third cards that may go with it (a mask); the count of
    the sets of three appended."""
    total = 0
    for j in js:
        bj = 1 << j
        later = pool_mask & ~((bj << 1) - 1)
        # The third cards that may go with i and j, and whether i and j alone may go: a
        # set {i, j, k} may go when the table without i and j is one group in which k is
        # no cut vertex, or two groups one of which is k alone.
        if without.cut_off:
            ks, whole = without.i_cuts(j, bj, later)
        elif without.count[j] >= 2:
            ks, whole = without.j_cuts(j, bj, later), False
        elif later:
            # j is no cut vertex; the cut vertices without i and j that matter to the
            # cards to come: those without i, and in j's block the cards in two blocks or
            # more once j is gone (Without.cut_without, inline: the common case).
            blk = without.block_of[j]
            if not later & blk:
                bad = without.cut
            elif blk.bit_count() == 2:
                bad = (without.cut & ~blk) | (without.cut3 & blk)
            else:
                inner = cache.cuts.get((blk, j))
                bad = without.cut | (cache.inner_cuts(blk, j) if inner is None else inner)
            ks, whole = later & ~bad, True
        else:
            ks, whole = 0, True
        if whole:
            whole_pairs.append((i, j))
        if graph.forbidden:
            ks &= sum(1 << k for k in bits(ks) if graph.keeps((i, j, k)))
        if ks:
            triples.append(((i, j), ks))
            total += ks.bit_count()
    return total


def _fewer(graph: Graph, whole_pairs: list[tuple[int, int]], alone: int) -> Choices:
    """BA-OPT-4 ``as_many``: with no set of three, the pairs that leave one group, else the
    single cards."""
    rows: dict[int, int] = {}
    for i, j in whole_pairs:
        if graph.keeps((i, j)):
            rows[i] = rows.get(i, 0) | 1 << j
    if rows:
        how_many = sum(m.bit_count() for m in rows.values())
        return Choices(how_many, tuple(((i,), m) for i, m in rows.items()))
    singles = sum(1 << i for i in bits(alone) if graph.keeps((i,)))
    return Choices(singles.bit_count(), (((), singles),) if singles else ())


class _BlockCache:
    """The graphs inside blocks and their cut vertices without one card, worked out once for
    the whole search (the same block is found again for every card ``i`` outside it)."""

    __slots__ = ("adjacent", "cuts", "within")

    def __init__(self, adjacent: Sequence[tuple[int, ...]]) -> None:
        self.adjacent = adjacent
        self.cuts: dict[tuple[int, int], int] = {}
        self.within: dict[int, list[tuple[int, ...]]] = {}

    def inner_cuts(self, blk: int, j: int) -> int:
        """The cut vertices of the block ``blk`` without its card ``j``."""
        key = (blk, j)
        found = self.cuts.get(key)
        if found is None:
            found = self.cuts[key] = block_cuts(self._within(blk), blk, j, self.cuts)
        return found

    def _within(self, blk: int) -> list[tuple[int, ...]]:
        """The card graph inside the block ``blk`` (a bit mask): each card's neighbours in it."""
        found = self.within.get(blk)
        if found is None:
            found = [
                tuple(w for w in near if blk >> w & 1) if blk >> v & 1 else ()
                for v, near in enumerate(self.adjacent)
            ]
            self.within[blk] = found
        return found


class Without:
    """The card graph without card ``i``: what a depth-first search of it finds (the cards it
    leaves apart from the start card's group, each card's blocks, the cut vertices), and the
    third cards that may go with ``i`` and a second card ``j``."""

    __slots__ = (
        "alone_ok", "apart", "bi", "block_of", "cache", "count", "cut", "cut3", "cut_off",
        "graph", "size",
    )

    def __init__(self, graph: Graph, i: int, cache: _BlockCache) -> None:
        n = graph.n
        self.graph = graph
        self.cache = cache
        self.bi = bi = 1 << i
        reached, self.size, found, self.apart = blocks(graph.adjacent, bi, 0)
        self.alone_ok = reached == graph.full & ~bi
        # The cards the table without i leaves apart from the start card's group.
        self.cut_off = graph.full & ~bi & ~reached
        self.count = count = [0] * n
        self.block_of = block_of = [0] * n
        for blk in found:
            for v in bits(blk):
                count[v] += 1
                block_of[v] = blk
        cut = cut3 = 0
        for v in range(n):
            if count[v] >= 2:
                cut |= 1 << v
                if count[v] >= 3:
                    cut3 |= 1 << v
        self.cut, self.cut3 = cut, cut3

    def i_cuts(self, j: int, bj: int, later: int) -> tuple[int, bool]:
        """``i`` is a cut vertex: only a card or two hanging from it alone can go with it."""
        cut_off = self.cut_off
        if cut_off == bj:
            return later & ~self.cut, True
        if cut_off.bit_count() == 2 and cut_off & bj:
            other = cut_off & ~bj
            if not self.graph.masks[other.bit_length() - 1] & ~self.bi & ~bj:
                return later & other, False
            return 0, False
        if cut_off.bit_count() == 1 and self.count[j] < 2:
            return later & cut_off, False
        return 0, False

    def j_cuts(self, j: int, bj: int, later: int) -> int:
        """``j`` is a cut vertex: what it cuts off is its children below it."""
        below = self.apart.get(j, ())
        if len(below) == 1 and self.size[below[0]] == 1:
            k = below[0]
            if not self.graph.masks[k] & ~self.bi & ~bj:
                return later & 1 << k
        return 0


def block_cuts(
    adjacent: Sequence[tuple[int, ...]], blk: int, j: int, memo: dict[tuple[int, int], int]
) -> int:
    """The cut vertices (a bit mask) of the block ``blk`` (biconnected, three cards or more;
    ``adjacent``: the graph inside it) without its card ``j``. A card with two neighbours in
    the block lies on a chain of such cards between two cards with more: without it, the
    chain hangs as two paths from its ends off the block without the whole chain (the same
    for every card of the chain, searched once, ``memo``)."""
    near = adjacent[j]
    bj = 1 << j
    if len(near) != 2:
        return articulations(adjacent, blk & ~bj, bj)
    sides: list[tuple[list[int], int]] = []
    for start in near:
        path: list[int] = []
        before, v = j, start
        while v != j and len(adjacent[v]) == 2:
            path.append(v)
            first, second = adjacent[v]
            before, v = v, second if first == before else first
        if v == j:  # the block is a cycle: without j, a path
            return blk & ~bj & ~(1 << near[0]) & ~(1 << near[1])
        sides.append((path, v))
    chain = bj
    extra = 0
    for path, end in sides:
        for v in path:
            chain |= 1 << v
        if path:
            # A path hanging from ``end``: it and every card of it but the far tip cut.
            extra |= 1 << end
            for v in path[1:]:
                extra |= 1 << v
    key = (blk, -chain)
    base = memo.get(key)
    if base is None:
        base = articulations(adjacent, blk & ~chain, chain)
        memo[key] = base
    return base | extra


def articulations(adjacent: Sequence[tuple[int, ...]], members: int, gone: int) -> int:
    """The cut vertices (a bit mask) of the connected graph on the cards ``members`` (bit
    mask; ``adjacent`` lists no card outside ``members`` but those of ``gone``, a bit mask):
    Tarjan's low links from the lowest card, iteratively."""
    n = len(adjacent)
    root = (members & -members).bit_length() - 1
    disc = [0] * n
    for g in bits(gone):
        disc[g] = n + 2
    low = [0] * n
    disc[root] = low[root] = 1
    clock = 2
    found = 0
    children = 0
    stack = [(root, iter(adjacent[root]))]
    while stack:
        v, neighbours = stack[-1]
        for w in neighbours:
            dw = disc[w]
            if not dw:
                disc[w] = low[w] = clock
                clock += 1
                stack.append((w, iter(adjacent[w])))
                break
            if dw < low[v]:
                low[v] = dw
        else:
            stack.pop()
            if stack:
                u = stack[-1][0]
                lv = low[v]
                if lv < low[u]:
                    low[u] = lv
                if u == root:
                    children += 1
                elif lv >= disc[u]:
                    found |= 1 << u
    if children >= 2:
        found |= 1 << root
    return found


def blocks(
    adjacent: Sequence[tuple[int, ...]], gone: int, root: int
) -> tuple[int, list[int], list[int], dict[int, list[int]]]:
    """A depth-first search of the card graph without the cards of ``gone`` (a bit mask) from
    ``root``: the cards reached (a bit mask), the size of each card's subtree, the blocks
    (biconnected parts, as bit masks: a card in two or more is a cut vertex) and, for each
    card that cuts some off, its children whose subtrees it cuts off. Tarjan's low links,
    iteratively (the tree edge back to the parent may count in a low link: a child's low
    link is at least its parent's discovery time exactly when it is without it)."""
    n = len(adjacent)
    disc = [0] * n
    for g in bits(gone):
        disc[g] = n + 2  # never entered, never lowers a low link
    low = [0] * n
    size = [1] * n
    apart: dict[int, list[int]] = {}
    disc[root] = low[root] = 1
    clock = 2
    reached = 1 << root
    trail = [root]
    found: list[int] = []
    stack = [(root, iter(adjacent[root]))]
    while stack:
        v, neighbours = stack[-1]
        for w in neighbours:
            dw = disc[w]
            if not dw:
                disc[w] = low[w] = clock
                clock += 1
                reached |= 1 << w
                trail.append(w)
                stack.append((w, iter(adjacent[w])))
                break
            if dw < low[v]:
                low[v] = dw
        else:
            stack.pop()
            if stack:
                u = stack[-1][0]
                size[u] += size[v]
                lv = low[v]
                if lv < low[u]:
                    low[u] = lv
                if lv >= disc[u]:
                    blk = 1 << u
                    while True:
                        x = trail.pop()
                        blk |= 1 << x
                        if x == v:
                            break
                    found.append(blk)
                    if u in apart:
                        apart[u].append(v)
                    else:
                        apart[u] = [v]
    return reached, size, found, apart
