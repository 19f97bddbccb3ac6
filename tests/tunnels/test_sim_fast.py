"""The fast Bandido simulator's own tables against the rules they are derived from.

The fast simulator (``play_game``/``simulate`` with the greedy policy) keeps its table in
mappings of its own and reads precomputed tables: the steps of a lay per card and rotation
(``_lay_steps``), each front cell's signature and its row of least exit changes
(``least_row``), and the cells walled on three sides. Each is checked here against the
from-scratch definitions (``Table.place``, ``signature``, ``placements_with_delta``,
``creates_hole``) on seeded random tables, so that none of them can drift from the rule.
"""

from __future__ import annotations

import random

from banditsolve.tunnels import Table, legal_placements, load_deck
from banditsolve.tunnels.cards import PORT_MASK
from banditsolve.tunnels.game import _lay_tracked, _walled, _walls_hole
from banditsolve.tunnels.geometry import Cell
from banditsolve.tunnels.table import (
    NO_PLACEMENT,
    ROW_UNKNOWN,
    SIGNATURE_BITS,
    TOUCH_COUNT,
    creates_hole,
    least_change,
    least_row,
    placements_with_delta,
    signature,
)
from tests.profiles import scaled
from tests.tunnels.helpers import random_table

TYPES = load_deck().types


def _walled_cells(table: Table) -> tuple[dict[Cell, Cell], dict[Cell, int]]:
    three: dict[Cell, Cell] = {}
    danger: dict[Cell, int] = {}
    for c, v in table.rim.items():
        if TOUCH_COUNT[v] == 3:
            _walled(three, danger, c, v)
    return three, danger


def _seeds() -> range:
    return range(scaled(8, 40))


def test_the_tracked_lay_keeps_every_mapping_as_table_place_makes_it() -> None:
    """Every legal placement on random tables: the cell values, rim and front equal those of
    Table.place; each front cell's kept signature is its signature from scratch and its row
    is that signature's; the walled cells are those of the new table; the hole flag is
    creates_hole."""
    checked = 0
    for seed in _seeds():
        rng = random.Random(seed)
        table = random_table(seed, rng.randrange(0, 30))
        for code in rng.sample(TYPES, 6):
            for p in legal_placements(table, code):
                packed = dict(table.packed)
                rim = dict(table.rim)
                front = dict(table.front_rim)
                fsig = {t: signature(rim, t) for t in front}
                frow = {t: least_row(s) for t, s in fsig.items()}
                three, danger = _walled_cells(table)
                hole = _lay_tracked(packed, rim, front, fsig, frow, three, danger, p, len(table))
                after = table.place(p)
                assert packed == dict(after.packed), p
                assert rim == dict(after.rim), p
                assert front == dict(after.front_rim), p
                assert fsig == {t: signature(after.rim, t) for t in after.front_rim}, p
                assert all(frow[t] is least_row(s) for t, s in fsig.items()), p
                assert set(frow) == set(fsig), p
                assert (three, danger) == _walled_cells(after), p
                assert hole == creates_hole(table, p), p
                checked += 1
    assert checked > 100


def test_walls_hole_is_creates_hole() -> None:
    """The greedy player's hole test from the walled cells equals creates_hole for every legal
    placement of every card type."""
    holes = checked = 0
    for seed in _seeds():
        table = random_table(1000 + seed, 10 + seed % 40)
        three, _ = _walled_cells(table)
        for code in TYPES:
            for p in legal_placements(table, code):
                expected = creates_hole(table, p)
                assert _walls_hole(dict(table.rim), three, p.card, p.y, p.x, p.rotation) == (
                    expected
                ), p
                holes += expected
                checked += 1
    assert checked > 1000 and holes > 0


def test_least_changes_are_those_of_the_legal_placements() -> None:
    """For every card type, the least of the front cells' least changes (each cell's row) is
    the least exit change among the card's legal placements (NO_PLACEMENT when none)."""
    for seed in _seeds():
        table = random_table(2000 + seed, seed % 45)
        sigs = [signature(table.rim, t) for t in table.front_rim]
        for code in TYPES:
            mask = code & PORT_MASK
            found = [least_change(mask << SIGNATURE_BITS | s) for s in sigs]
            for s, d in zip(sigs, found, strict=True):
                row = least_row(s)
                assert row[mask] in (ROW_UNKNOWN, d)
                row[mask] = d
            deltas = [d for _, d in placements_with_delta(table, code)]
            assert min(found, default=NO_PLACEMENT) == min(deltas, default=NO_PLACEMENT)
