"""The fast Bandido simulator's own tables against the rules they are derived from.

The fast simulator (``play_game``/``simulate`` with the greedy policy) keeps its table in
mappings of its own and reads precomputed tables: the steps of a lay per card and rotation
(``lay_steps``, ``lay_keyed``), each front cell's signature and its row of least exit
changes (``least_row``), the least placements of a signature and card (``least_placed``), and
the cells walled on three sides, all by integer cell keys. Each is checked here against the
from-scratch definitions (``Table.place``, ``signature``, ``placements_with_delta``,
``creates_hole``) on seeded random tables, so that none of them can drift from the rule.
"""

from __future__ import annotations

import random

from banditsolve.tunnels import Table, legal_placements, load_deck
from banditsolve.tunnels.cards import KIND_INDEX, KIND_SHIFT, PORT_MASK, Deck
from banditsolve.tunnels.geometry import ROTATIONS, STEP, Cell, Placement
from banditsolve.tunnels.keyed import (
    FAST_CARDS,
    KEY_OFFSET,
    KEY_STEP,
    cell_key,
    celled,
    entry,
    hand_masks,
    key_cell,
    key_signature,
    keyed,
    lay_tracked,
    least_placed,
    walled,
    walls_hole,
)
from banditsolve.tunnels.simulate import simulate, simulate_generic
from banditsolve.tunnels.table import (
    NO_PLACEMENT,
    ROW_UNKNOWN,
    SIGNATURE_BITS,
    TOUCH_COUNT,
    creates_hole,
    least_change,
    least_row,
    placements_with_delta,
    rim_touch,
    signature,
)
from tests.profiles import scaled
from tests.tunnels.helpers import random_table

TYPES = load_deck().types


def _walled_cells(table: Table) -> tuple[dict[Cell, Cell], dict[Cell, int]]:
    """The cells walled on three sides, each with the cell on its open side, and how many
    walled cells each such open side's cell has: from the table's rim, by the rule."""
    three: dict[Cell, Cell] = {}
    danger: dict[Cell, int] = {}
    for (x, y), v in table.rim.items():
        open_sides = [d for d in range(4) if not rim_touch(v) >> d & 1]
        if len(open_sides) == 1:
            dx, dy = STEP[open_sides[0]]
            three[x, y] = (x + dx, y + dy)
            danger[x + dx, y + dy] = danger.get((x + dx, y + dy), 0) + 1
    return three, danger


def _keyed_walls(table: Table) -> tuple[dict[int, int], dict[int, int]]:
    three: dict[int, int] = {}
    danger: dict[int, int] = {}
    for c, v in table.rim.items():
        if TOUCH_COUNT[v] == 3:
            walled(three, danger, cell_key(c), v)
    return three, danger


def _celled_walls(
    three: dict[int, int], danger: dict[int, int]
) -> tuple[dict[Cell, Cell], dict[Cell, int]]:
    walls = {key_cell(c): key_cell(q) for c, q in three.items()}
    return walls, {key_cell(q): n for q, n in danger.items()}


def test_cell_keys_order_as_y_then_x_and_step_as_cells_do() -> None:
    """Keys round-trip, order as (y, x), and a cell's neighbours are one step of keys away,
    across the whole range a table of fewer than FAST_CARDS cards can reach."""
    reach = 2 * FAST_CARDS + 2
    assert reach < KEY_OFFSET
    rng = random.Random(5)
    ends = (-reach, reach)
    span = range(-reach, reach + 1)
    cells = [(rng.choice(span), rng.choice(span)) for _ in range(99)]
    cells += [(x, y) for x in ends for y in ends] + [(0, 0)]
    for c in cells:
        assert key_cell(cell_key(c)) == c
    assert sorted(cells, key=cell_key) == sorted(cells, key=lambda c: (c[1], c[0]))
    for x, y in cells:
        for side, (dx, dy) in enumerate(STEP):
            if -reach <= x + dx <= reach and -reach <= y + dy <= reach:
                assert cell_key((x + dx, y + dy)) - cell_key((x, y)) == KEY_STEP[side]
    # The greedy player's group entries order as greedy_policy sorts its placements.
    placed = [(rng.randrange(3), c, rng.choice(ROTATIONS)) for c in cells for _ in range(3)]
    entries = {entry(rank, cell_key(c), r): (rank, c[1], c[0], r) for rank, c, r in placed}
    assert [entries[e] for e in sorted(entries)] == sorted(entries.values())
    assert all(e < 1 << 30 for e in entries if entries[e][0] < 4)


def test_the_greedy_groups_entries_are_the_hands_ranks_composed_as_entry_says() -> None:
    """What gather adds up for a placement (the hand's base entry of the card's mask from
    hand_masks, the key shifted by two, the rotation index) is entry of the card's rank in
    the hand's codes without repeats, and the entries order as (code, y, x, rotation)."""
    rng = random.Random(11)
    cells = [(rng.randrange(-40, 41), rng.randrange(-40, 41)) for _ in range(30)]
    ladder = KIND_INDEX["ladder"] << KIND_SHIFT
    for _ in range(200):
        # Some hands hold two codes of one port mask (a Bandida ladder beside a plain card).
        hand = [rng.choice(TYPES) for _ in range(rng.randrange(1, 4))]
        if rng.random() < 0.5:
            hand.append(rng.choice(hand) & PORT_MASK | ladder)
        codes, masks, first, more = hand_masks(tuple(sorted(hand)))
        assert codes == tuple(sorted(set(hand)))
        assert sorted(masks) == sorted({c & PORT_MASK for c in hand})
        bases: dict[int, int] = {base: m for m, base in first.items()}
        for m, extra in more.items():
            for base in extra:
                bases[base] = m
        assert len(bases) == len(codes)
        composed: dict[int, tuple[int, int, int, int]] = {}
        for base, m in bases.items():
            rank = next(i for i, c in enumerate(codes) if entry(i, 0, 0) == base)
            assert codes[rank] & PORT_MASK == m
            for c in cells:
                for r in ROTATIONS:
                    e = base + (cell_key(c) << 2) + r // 90
                    assert e == entry(rank, cell_key(c), r)
                    composed[e] = (codes[rank], c[1], c[0], r)
        assert [composed[e] for e in sorted(composed)] == sorted(composed.values())


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
                packed = keyed(table.packed)
                rim = keyed(table.rim)
                front = keyed(table.front_rim)
                fsig = {t: key_signature(rim, t) for t in front}
                frow = {t: least_row(s) for t, s in fsig.items()}
                three, danger = _keyed_walls(table)
                hole = lay_tracked(
                    packed, rim, front, fsig, frow, three, danger, p.card, cell_key((p.x, p.y)),
                    ROTATIONS.index(p.rotation), len(table),
                )
                after = table.place(p)
                assert celled(packed) == dict(after.packed), p
                assert celled(rim) == dict(after.rim), p
                assert celled(front) == dict(after.front_rim), p
                assert celled(fsig) == {t: signature(after.rim, t) for t in after.front_rim}, p
                assert all(frow[t] is least_row(s) for t, s in fsig.items()), p
                assert set(frow) == set(fsig), p
                assert _celled_walls(three, danger) == _walled_cells(after), p
                assert hole == creates_hole(table, p), p
                checked += 1
    assert checked > 100


def test_walls_hole_is_creates_hole() -> None:
    """The greedy player's hole test from the walled cells equals creates_hole for every legal
    placement of every card type."""
    holes = checked = 0
    for seed in _seeds():
        table = random_table(1000 + seed, 10 + seed % 40)
        three, _ = _keyed_walls(table)
        rim = keyed(table.rim)
        for code in TYPES:
            for p in legal_placements(table, code):
                expected = creates_hole(table, p)
                a, r = cell_key((p.x, p.y)), ROTATIONS.index(p.rotation)
                assert walls_hole(rim, three, p.card, a, r) == expected, p
                holes += expected
                checked += 1
    assert checked > 1000
    assert holes > 0


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


def test_least_placements_are_the_legal_placements_of_least_change() -> None:
    """For every card type: the placements least_placed gives from the front cells whose
    least change is the table's least (moved to each cell by key) are exactly the card's
    legal placements of that change, and each covers its front cell and the other cell it
    names."""
    checked = 0
    for seed in _seeds():
        table = random_table(3000 + seed, seed % 45)
        sigs = {cell_key(t): signature(table.rim, t) for t in table.front_rim}
        for code in TYPES:
            mask = code & PORT_MASK
            legal = placements_with_delta(table, code)
            if not legal:
                continue
            least = min(d for _, d in legal)
            expected = {(p.x, p.y, p.rotation) for p, d in legal if d == least}
            found: set[tuple[int, int, int]] = set()
            for k, s in sigs.items():
                key = mask << SIGNATURE_BITS | s
                if least_change(key) != least:
                    continue
                for ar, o in least_placed(key):
                    x, y = key_cell(k + (ar >> 2))
                    r = ROTATIONS[ar & 3]
                    cells = set(Placement(code, x, y, r).cells)
                    assert cells == {key_cell(k), key_cell(k + o)}, (k, code)
                    found.add((x, y, r))
            assert found == expected, (seed, code)
            checked += len(found)
    assert checked > 100


def test_codes_sharing_a_port_mask_play_the_games_of_the_generic_path() -> None:
    """A deck where some codes share a port mask (a tunnel and the same ports with another
    kind): every state of the fast simulator's games equals the generic path's, so each such
    code gets its own placements in the greedy player's group, in code order."""
    box = load_deck()
    other = KIND_INDEX["ladder"] << KIND_SHIFT
    counts = (*box.counts, *((code | other, n) for code, n in box.counts[:12]))
    deck = Deck(box.edition, counts, box.super_sides)
    for seed in range(scaled(10, 40)):
        assert simulate(2, seed, deck=deck) == simulate_generic(2, seed, deck=deck), seed
