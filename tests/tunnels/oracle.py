"""An independent, plain re-statement of the placement rules, for checking the engine.

Nothing here imports the engine's geometry or table: directions are vectors, a quarter turn
clockwise (y grows south) maps ``(dx, dy)`` to ``(-dy, dx)``, and legality is checked edge by
edge over every cell of a card.
"""

from __future__ import annotations

Vec = tuple[int, int]
Footprint = frozenset[tuple[Vec, frozenset[Vec]]]

WEST, NORTH, EAST, SOUTH = (-1, 0), (0, -1), (1, 0), (0, 1)
#: Port name -> (square, direction) in the reference frame; square 0 = A at the origin.
PORT_PLACES: dict[str, tuple[int, Vec]] = {
    "L": (0, WEST),
    "TL": (0, NORTH),
    "TR": (1, NORTH),
    "R": (1, EAST),
    "BR": (1, SOUTH),
    "BL": (0, SOUTH),
}
ORDER = ("L", "TL", "TR", "R", "BR", "BL")


def quarter(v: Vec, turns: int) -> Vec:
    for _ in range(turns % 4):
        v = (-v[1], v[0])
    return v


def ports_of(name: str) -> frozenset[str]:
    aliases = {"super6": "L+TL+TR+R+BR+BL", "super5": "TL+TR+R+BR+BL"}
    return frozenset(aliases.get(name, name).split("+"))


def footprint(name: str, x: int, y: int, rotation: int) -> Footprint:
    """The two cells covered and the open directions of each."""
    turns = rotation // 90
    b_off = quarter(EAST, turns)
    cells = [(x, y), (x + b_off[0], y + b_off[1])]
    opens: list[set[Vec]] = [set(), set()]
    for port in ports_of(name):
        square, direction = PORT_PLACES[port]
        opens[square].add(quarter(direction, turns))
    return frozenset((cells[i], frozenset(opens[i])) for i in range(2))


class PlainTable:
    """Cells mapped to (card number, open directions); cards in the order laid."""

    def __init__(self) -> None:
        self.cells: dict[Vec, tuple[int, frozenset[Vec]]] = {}
        self.count = 0

    def add(self, fp: Footprint) -> None:
        self.count += 1
        for cell, opens in fp:
            self.cells[cell] = (self.count, opens)

    def exits(self) -> set[tuple[Vec, Vec]]:
        out = set()
        for cell, (_, opens) in self.cells.items():
            for d in opens:
                if (cell[0] + d[0], cell[1] + d[1]) not in self.cells:
                    out.add((cell, d))
        return out


def is_legal(table: PlainTable, fp: Footprint) -> bool:
    """Both cells empty, every touching edge matching, at least one opening on an exit."""
    mine = dict(fp)
    if any(cell in table.cells for cell in mine):
        return False
    joined = False
    for cell, opens in mine.items():
        for d in (WEST, NORTH, EAST, SOUTH):
            n = (cell[0] + d[0], cell[1] + d[1])
            if n in mine or n not in table.cells:
                continue
            theirs = table.cells[n][1]
            back = (-d[0], -d[1])
            if (d in opens) != (back in theirs):
                return False
            if d in opens:
                joined = True
    return joined


def brute_force(table: PlainTable, name: str, margin: int = 2) -> set[Footprint]:
    """Every legal footprint of card ``name`` with square A in a window around the table."""
    xs = [c[0] for c in table.cells]
    ys = [c[1] for c in table.cells]
    found: set[Footprint] = set()
    for x in range(min(xs) - margin, max(xs) + margin + 1):
        for y in range(min(ys) - margin, max(ys) + margin + 1):
            for rotation in (0, 90, 180, 270):
                fp = footprint(name, x, y, rotation)
                if is_legal(table, fp):
                    found.add(fp)
    return found


def all_card_names() -> list[str]:
    """Port sets of size 1..4 up to a half turn, one name each (not necessarily canonical)."""
    half = {"L": "R", "R": "L", "TL": "BR", "BR": "TL", "TR": "BL", "BL": "TR"}
    seen: set[frozenset[str]] = set()
    names = []
    for bits in range(1, 64):
        ports = frozenset(p for i, p in enumerate(ORDER) if bits >> i & 1)
        if not 1 <= len(ports) <= 4 or ports in seen:
            continue
        seen.add(ports)
        seen.add(frozenset(half[p] for p in ports))
        names.append("+".join(p for p in ORDER if p in ports))
    return names
