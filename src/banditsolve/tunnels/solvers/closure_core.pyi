"""Types of the compiled closure core (csrc/closure/module.cpp); called only through
banditsolve.tunnels.solvers.compiled, which checks every argument first."""

from collections.abc import Sequence
from typing import TypedDict

class Answer(TypedDict):
    status: str
    placements: list[tuple[int, int, int, int]]
    lower_bound: int
    never: bool
    nodes: int
    stopped: str
    budget: int
    memo_entries: int
    memo_bytes: int
    removals: list[tuple[int, list[int]]]

#: The map move's data: each type's kind flags, the table's cards ``(ax, ay, bx, by, kind
#: flags)`` in the order laid, the five readings' flags (the map's four, then the hole's),
#: the goal (0 close, 1 ladder, 2 join).
MapData = tuple[
    Sequence[int],
    Sequence[tuple[int, int, int, int, int]],
    tuple[int, int, int, int, int],
    int,
]

NEVER: int

def solve(
    cells: Sequence[tuple[int, int, int]],
    types: Sequence[tuple[int, int]],
    required: Sequence[Sequence[int]],
    bounds: tuple[int, int, int, int] | None,
    max_cards: int,
    first_budget: int,
    node_limit: int,
    time_limit: float,
    cancel: bytearray | None,
    maps: MapData | None = None,
) -> Answer: ...
def removals(cells: Sequence[tuple[int, int, int]], maps: MapData) -> list[list[int]]: ...
