"""The closure search's own copies of the table's rules, checked against independent ones.

The exact search lays and lifts cards on mutable dicts (for speed) and reads the placements at
a front cell from cached rows; both must agree with the oracle's plain re-statement of the
rules and with the engine's immutable table on random boards."""

from __future__ import annotations

import random

from banditsolve.core.limits import Limits
from banditsolve.tunnels import Table, card_name, legal_placements, load_deck
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.solvers.bounds import colour_balance
from banditsolve.tunnels.solvers.exact import ExactSearch, balance_after
from banditsolve.tunnels.solvers.inputs import Bounds
from banditsolve.tunnels.solvers.options import options_at
from tests.profiles import scaled
from tests.rules import rules
from tests.tunnels.helpers import plain_copy, random_table, to_footprint
from tests.tunnels.oracle import brute_force, is_legal


def same_board(search: ExactSearch, table: Table) -> None:
    """The search's mutable board equals the table (cells, rim, front, balance), and its exit
    count and front cells are the oracle's."""
    assert search.cells == table.cells
    assert search.rim == dict(table.rim)
    assert search.front == dict(table.front_rim)
    assert search.balance == colour_balance(table)
    exits = plain_copy(table).exits()
    assert search.exits == len(exits)
    assert set(search.front) == {(x + dx, y + dy) for (x, y), (dx, dy) in exits}


@rules("BD-PLACE-1", "BD-PLACE-2", "BD-PLACE-3")
def test_mutable_board_mirrors_the_table_on_random_boards() -> None:
    """Random legal cards laid with ExactSearch.push and Table.place give the same board at
    every step, and popping them all restores the start exactly."""
    types = load_deck().types
    for seed in range(scaled(40, 120)):
        rng = random.Random(seed)
        start = random_table(seed, rng.randrange(0, 6), rng.choice(("super6", "super5")))
        search = ExactSearch(start, list(types) * 3, None, Limits())
        table = start
        laid: list[tuple[Placement, object]] = []
        for _ in range(8):
            options = [p for c in rng.sample(types, 6) for p in legal_placements(table, c)]
            if not options:
                break
            p = rng.choice(options)
            before = search.balance
            laid.append((p, search.push(p)))
            table = table.place(p)
            same_board(search, table)
            # The forward check's balance of the child, before laying it, is the table's.
            assert balance_after(before, p.card, p.x, p.y) == colour_balance(table)
        for p, record in reversed(laid):
            search.pop(p, record)  # type: ignore[arg-type]
        same_board(search, start)
        assert search.path == []


@rules("BD-PLACE-1", "BD-PLACE-2", "BD-PLACE-3")
def test_options_at_front_cells_are_the_legal_placements() -> None:
    """Every option the search reads at the front cells is legal by the oracle, the options of
    all front cells together are every legal placement (a legal card joins an exit, so it
    covers a front cell), and each option's exit change is the oracle's."""
    types = load_deck().types
    for seed in range(scaled(25, 80)):
        rng = random.Random(1000 + seed)
        table = random_table(1000 + seed, rng.randrange(0, 7))
        plain = plain_copy(table)
        before = len(plain.exits())
        for code in rng.sample(types, 5):
            found = {
                (Placement(c, x, y, r), delta)
                for t in table.front
                for delta, c, x, y, r in options_at(table, t, [code])
            }
            footprints = {to_footprint(p) for p, _ in found}
            assert footprints == brute_force(plain, card_name(code))
            for p, delta in found:
                fp = to_footprint(p)
                assert is_legal(plain, fp)
                after = plain_copy(table)
                after.add(fp)
                assert len(after.exits()) - before == delta


def test_options_respect_the_play_area() -> None:
    """With a play area, the options at a front cell are those without one whose two cells
    both lie in the area (and a front cell outside the area has none)."""
    types = load_deck().types
    for seed in range(10):
        table = random_table(2000 + seed, 3)
        x0, y0, x1, y1 = table.bounds()
        area: Bounds = (x0 - 1, y0, x1 + 1, y1 + 1)

        def inside(cell: tuple[int, int], area: Bounds = area) -> bool:
            return area[0] <= cell[0] <= area[2] and area[1] <= cell[1] <= area[3]

        kept = 0
        for t in table.front:
            bounded = set(options_at(table, t, types, area))
            free = options_at(table, t, types)
            within = {o for o in free if all(inside(c) for c, _ in to_footprint(Placement(*o[1:])))}
            assert bounded == (within if inside(t) else set())
            kept += len(bounded)
        assert kept
