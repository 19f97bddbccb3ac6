"""An independent re-statement of Bandida's map (BA-OBJ-5, BA-OBJ-6, BA-OPT-1..4) and of the
holes a line may make before a map mends them (BA-OPT-14), on the oracle's plain table, for
checking closure certificates that lay maps.

Nothing here uses the engine's removal search: the cards a map may take are found by trying
every set of three (else two, else one) and a breadth-first search of the cards left, under
each reading of the options (:data:`DEFAULTS`: ``not_special``, ``edges``, ``allowed``,
``as_many``; ``hole`` ``loses``, which lets a line wall an exit into a one-cell hole while a
map may still take a neighbour off; under the other two readings no winning line does).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from banditsolve.tunnels import Closure, Placement, Table
from banditsolve.tunnels.cards import card_name
from tests.tunnels.oracle import (
    EAST,
    NORTH,
    SOUTH,
    WEST,
    Footprint,
    PlainTable,
    footprint,
    is_legal,
)

KEEP = ("ladder", "bandido_super")

#: A reading of each map option, by name.
Readings = dict[str, str]
DEFAULTS: Readings = {
    "map_removes": "not_special",
    "map_split": "edges",
    "map_reopen": "allowed",
    "map_short": "as_many",
    "hole": "loses",
}


def holes(t: PlainTable) -> set[tuple[int, int]]:
    """The empty cells an exit runs into with all four neighbours on the table."""
    out = set()
    for cell, d in t.exits():
        e = (cell[0] + d[0], cell[1] + d[1])
        if all((e[0] + a, e[1] + b) in t.cells for a, b in (WEST, NORTH, EAST, SOUTH)):
            out.add(e)
    return out


def makes_hole(before: PlainTable, p: Placement) -> bool:
    """True when laying ``p`` leaves a one-cell hole that was not there before."""
    after = PlainTable()
    for fp in before.cells.items():
        after.cells[fp[0]] = fp[1]
    after.add(fp_of(p))
    return bool(holes(after) - holes(before))


def fp_of(p: Placement) -> Footprint:
    """The oracle's footprint of a placement of any card kind (the kind has no openings)."""
    return footprint(card_name(p.card).split(":")[0], p.x, p.y, p.rotation)


def kind_of(code: int) -> str:
    name = card_name(code)
    return name.split(":")[1] if ":" in name else ""


def kind(p: Placement) -> str:
    return kind_of(p.card)


class MapTable:
    """The oracle's plain table with each card's placement, so that cards can be taken off."""

    def __init__(self, laid: Iterable[Placement]) -> None:
        self.cards: list[Placement] = list(laid)
        self.fps = [fp_of(p) for p in self.cards]

    def plain(self, without: Iterable[int] = ()) -> PlainTable:
        gone = set(without)
        t = PlainTable()
        for i, fp in enumerate(self.fps):
            if i not in gone:
                t.add(fp)
        return t

    def graph(self, tunnels: bool = False) -> list[set[int]]:
        """Each card's neighbours: the cards touching it edge to edge (``tunnels``: through an
        edge open on both sides)."""
        owner = {cell: i for i, fp in enumerate(self.fps) for cell, _opens in fp}
        opens = {cell: o for fp in self.fps for cell, o in fp}
        near: list[set[int]] = [set() for _ in self.cards]
        for cell, i in owner.items():
            for d in (WEST, NORTH, EAST, SOUTH):
                n = (cell[0] + d[0], cell[1] + d[1])
                j = owner.get(n)
                if j is None or j == i:
                    continue
                if tunnels and not (d in opens[cell] and (-d[0], -d[1]) in opens[n]):
                    continue
                near[i].add(j)
        return near

    def removals(self, readings: Readings = DEFAULTS) -> list[frozenset[int]]:
        """Every set the map just laid (the last card) may take off under ``readings``
        (BA-OPT-1..4): three if any set of three may go, else two, else one, else none
        (``as_many``; ``none``: three or none); the cards left one group (BA-OBJ-6: touching
        edge to edge, or joined through the tunnels); under ``forbidden`` no card left with
        an opening onto a card taken off; never the start card nor Bandido's super card, and
        under ``not_special`` neither the ladder nor the map just laid."""
        last = len(self.cards) - 1
        keep = KEEP if readings["map_removes"] == "not_special" else ("bandido_super",)
        pool = [
            i
            for i in range(1, last + 1)
            if kind(self.cards[i]) not in keep
            and (i != last or readings["map_removes"] == "not_super")
        ]
        near = self.graph(readings["map_split"] == "tunnels")
        joined = self.graph(True)

        def allowed(gone: set[int]) -> bool:
            if readings["map_reopen"] == "forbidden" and any(
                j not in gone for i in gone for j in joined[i]
            ):
                return False
            seen = {0}
            todo = [0]
            while todo:
                for j in near[todo.pop()]:
                    if j not in seen and j not in gone:
                        seen.add(j)
                        todo.append(j)
            return len(seen) == len(self.cards) - len(gone)

        sizes = (3, 2, 1) if readings["map_short"] == "as_many" else (3,)
        for size in sizes:
            found = [frozenset(c) for c in combinations(pool, size) if allowed(set(c))]
            if found:
                return found
        return []

    def without(self, gone: Iterable[int]) -> MapTable:
        out = set(gone)
        return MapTable(p for i, p in enumerate(self.cards) if i not in out)

    def take_off(self, gone: Sequence[Placement]) -> None:
        keep = [p for p in self.cards if p not in set(gone)]
        assert len(keep) == len(self.cards) - len(gone), "a card taken off is not on the table"
        self.cards = keep
        self.fps = [fp_of(p) for p in keep]


def replay_with_maps(table: Table, result: Closure, readings: Readings = DEFAULTS) -> MapTable:
    """Lay the certificate on the oracle's table: every placement legal when laid on a table
    with exits; after each map that leaves exits, the removal named, which must be one the map
    allows by the oracle's own count (and none named when it allows none); no exit at the
    end. The final table."""
    t = MapTable(table.history)
    after = {r.after: tuple(r.cards) for r in result.removals}
    if 0 in after:
        assert kind(t.cards[-1]) == "map"
        _check_removal(t, after.pop(0), readings)
    for n, p in enumerate(result.placements, 1):
        plain = t.plain()
        assert plain.exits(), f"{p} is laid on a closed table"
        assert is_legal(plain, fp_of(p)), f"{p} is not legal when laid"
        if readings.get("hole", "loses") != "loses":
            assert not makes_hole(plain, p), f"{p} walls an exit into a hole"
        t.cards.append(p)
        t.fps.append(fp_of(p))
        if kind(p) == "map" and t.plain().exits():
            _check_removal(t, after.pop(n, ()), readings)
        else:
            assert n not in after, f"a removal after {p}, which is no map leaving exits"
    assert not after
    assert not t.plain().exits()
    return t


def _check_removal(t: MapTable, gone: tuple[Placement, ...], readings: Readings) -> None:
    allowed = t.removals(readings)
    if not allowed:
        assert not gone, "the map may take nothing off"
        return
    index = {p: i for i, p in enumerate(t.cards)}
    assert all(p in index for p in gone), "a card taken off is not on the table"
    assert frozenset(index[p] for p in gone) in allowed, f"the map may not take off {gone}"
    t.take_off(gone)


def placements_of(t: MapTable, code: int, no_holes: bool = False) -> list[Placement]:
    """Every legal placement of the card ``code`` (one per footprint), by trying each cell
    around the table and each quarter turn (``no_holes``: none that makes a hole)."""
    plain = t.plain()
    name = card_name(code).split(":")[0]
    xs = [c[0] for c in plain.cells]
    ys = [c[1] for c in plain.cells]
    seen: set[Footprint] = set()
    out = []
    for x in range(min(xs) - 2, max(xs) + 3):
        for y in range(min(ys) - 2, max(ys) + 3):
            for rotation in (0, 90, 180, 270):
                fp = footprint(name, x, y, rotation)
                if fp not in seen and is_legal(plain, fp):
                    seen.add(fp)
                    out.append(Placement(code, x, y, rotation))
    return [p for p in out if not (no_holes and makes_hole(plain, p))]


def brute_close(table: Table, cards: Sequence[int], readings: Readings = DEFAULTS) -> bool:
    """Oracle: can some line of ``cards`` (in any order, maps with every removal the oracle
    allows) leave no exit? Every line is tried, failures remembered by the table's cards and
    the cards left."""
    failed: set[tuple[object, ...]] = set()
    no_holes = readings.get("hole", "loses") != "loses"

    def key(t: MapTable, left: tuple[int, ...]) -> tuple[object, ...]:
        marks = (kind(p) for p in t.cards)
        firsts = (i == 0 for i in range(len(t.cards)))
        return (frozenset(zip(t.fps, marks, firsts, strict=False)), left)

    def openings(code: int) -> int:
        return len(card_name(code).split(":")[0].split("+"))

    def search(t: MapTable, left: tuple[int, ...]) -> bool:
        exits = len(t.plain().exits())
        if not exits:
            return True
        if not any(kind_of(c) == "map" for c in left) and sum(map(openings, left)) < exits:
            # Each card laid joins an exit and adds its other openings: the exits can drop by
            # no more than the openings laid.
            return False
        k = key(t, left)
        if k in failed:
            return False
        for code in sorted(set(left)):
            rest = list(left)
            rest.remove(code)
            after = tuple(rest)
            for p in placements_of(t, code, no_holes):
                laid = MapTable([*t.cards, p])
                if kind(p) == "map" and laid.plain().exits():
                    options = laid.removals(readings)
                    for gone in options or [frozenset()]:
                        if search(laid.without(gone), after):
                            return True
                elif search(laid, after):
                    return True
        failed.add(k)
        return False

    return search(MapTable(table.history), tuple(sorted(cards)))
