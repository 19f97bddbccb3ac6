"""The table: legal placements against a plain brute force, incremental exits, perft, leaflet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from banditsolve.errors import IllegalActionError
from banditsolve.tunnels import (
    Placement,
    Table,
    card_name,
    creates_hole,
    dead_exits,
    legal_placements,
    load_deck,
    normalise,
    parse_card,
)
from banditsolve.tunnels.cards import parse_ports
from tests.rules import rules
from tests.tunnels.helpers import plain_copy, random_table, to_footprint
from tests.tunnels.oracle import PlainTable, all_card_names, brute_force, footprint, is_legal

GOLDEN = json.loads((Path(__file__).parent / "data" / "perft_opening.json").read_text())["perft"]
NAMES = all_card_names()
VEC = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}


@rules("BD-PLACE-1", "BD-PLACE-2", "BD-PLACE-3", "BD-PLACE-4")
@given(
    st.integers(0, 10_000),
    st.integers(0, 14),
    st.sampled_from(["super6", "super5"]),
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=3),
)
def test_generated_placements_equal_the_brute_force(
    seed: int, cards: int, side: str, names: list[str]
) -> None:
    table = random_table(seed, cards, side)
    plain = plain_copy(table)
    for name in names:
        generated = legal_placements(table, name)
        footprints = [to_footprint(p) for p in generated]
        # Every generated placement is legal by the plain check, and listed once.
        assert all(is_legal(plain, fp) for fp in footprints)
        assert len(set(footprints)) == len(footprints)
        # Every legal placement is generated.
        assert set(footprints) == brute_force(plain, name)
        # The engine's own single-placement check agrees.
        assert all(table.is_legal(p) for p in generated)


@rules("BD-PLACE-4")
@given(st.integers(0, 10_000), st.integers(0, 30), st.sampled_from(["super6", "super5"]))
def test_incremental_exits_equal_a_recomputation(seed: int, cards: int, side: str) -> None:
    table = random_table(seed, cards, side)
    plain = plain_copy(table)
    engine = {((e.x, e.y), VEC[e.side]) for e in table.exits}
    assert engine == plain.exits()
    assert table.exit_count == len(plain.exits())


@rules("BD-PLACE-4", "BD-DECK-3", "BD-SETUP-1")
@pytest.mark.parametrize("side", ["super6", "super5"])
def test_perft_from_the_opening_matches_golden_data(side: str) -> None:
    table = Table.start(side)
    counts = {card_name(c): len(legal_placements(table, c)) for c in load_deck().types}
    assert counts == {card_name(parse_card(n)): v for n, v in GOLDEN[side].items()}


@rules("BD-PLACE-4")
def test_golden_data_is_the_brute_force() -> None:
    for side in ("super6", "super5"):
        plain = PlainTable()
        plain.add(footprint(side, 0, 0, 0))
        assert {n: len(brute_force(plain, n)) for n in NAMES} == GOLDEN[side]


@rules("BD-PLACE-4")
def test_perft_numbers_derived_by_hand() -> None:
    # A single-opening card L has its opening at the far end from square B: for each exit of the
    # super card there is exactly one way to close it (the card pointing away), so one placement
    # per exit: 6 on the 6-exit side, 5 on the 5-exit side.
    assert GOLDEN["super6"]["L"] == 6
    assert GOLDEN["super5"]["L"] == 5
    # The straight L+R is symmetric: again one per exit.
    assert GOLDEN["super6"]["L+R"] == 6
    assert GOLDEN["super5"]["L+R"] == 5
    # TL (opening on the long side of A): closing a north or south exit puts square B beside the
    # target, towards the other exit of that row on one side only -> one way for each of the four
    # long-side exits with B pointing outwards (the other way puts B's wall on a super card exit);
    # the west and east exits each allow one way (B beside, rotation 90 or 270).
    # 6-exit side: 2 (north) + 2 (south) - 2 (B on the neighbouring exit) + 2 (ends) = 4.
    assert GOLDEN["super6"]["TL"] == 4
    # 5-exit side: the west end is closed, so 3.
    assert GOLDEN["super5"]["TL"] == 3


@rules("BD-PLACE-2")
def test_tunnel_against_a_wall_is_refused() -> None:
    # The leaflet's first mistake: an opening may not run into a card's wall.
    table = Table.start("super5")  # west end of the super card is a wall
    # A straight L+R lying west of the super card, its R end against the wall.
    p = normalise(parse_card("L+R"), -2, 0, 0)
    assert not table.is_legal(p)
    with pytest.raises(IllegalActionError, match=r"placement 2 \(L\+R at \(-2, 0\) rot 0\)"):
        table.place(p)
    with pytest.raises(IllegalActionError, match="opening R faces the wall of placement 1"):
        table.place(p)
    # And a wall may not close an opening of another card.
    wall = normalise(parse_card("L"), -2, 0, 0)  # closed east end facing... nothing: not joined
    with pytest.raises(IllegalActionError, match="joins"):
        table.place(wall)
    six = Table.start("super6")
    blocked = normalise(parse_card("TL"), -2, 0, 0)  # its wall R faces the open L end
    with pytest.raises(IllegalActionError, match="wall at R faces an opening of placement 1"):
        six.place(blocked)


@rules("BD-PLACE-2")
def test_all_neighbours_must_match_not_only_one() -> None:
    # The leaflet's second mistake: a card fitting the card it extends but not another neighbour.
    # Card 2 closes the super card's north-west exit, pointing its single opening south; its
    # east side at (0, -1) is a wall.
    table = Table.start("super6").place(normalise(parse_ports("L"), 0, -1, 270))
    # L+BL on (1, -1)-(2, -1): BL meets the super card's TR opening below (fits the card it
    # extends), but L faces card 2's wall on the west.
    bad = normalise(parse_ports("L+BL"), 1, -1, 0)
    with pytest.raises(IllegalActionError, match="opening L faces the wall of placement 2"):
        table.place(bad)
    # With a wall on that side instead it fits.
    good = normalise(parse_ports("BL"), 1, -1, 0)
    assert table.is_legal(good)
    assert good in legal_placements(table, "BL")
    assert bad not in legal_placements(table, "L+BL")


@rules("BD-PLACE-1")
def test_overlap_is_refused() -> None:
    table = Table.start()
    with pytest.raises(IllegalActionError, match="already covered by placement 1"):
        table.place(Placement(parse_card("L"), 1, 0, 0))


def hole_table() -> Table:
    return Table.start("super6").place_all(
        [
            normalise(parse_card("L+BR"), -1, -1, 0),
            normalise(parse_card("TL"), -2, -1, 90),
            normalise(parse_card("TR"), -1, 1, 0),
        ]
    )


@rules("BD-PLACE-5", "BD-END-4")
def test_one_cell_hole_is_recognised() -> None:
    table = hole_table()
    assert table.holes() == ((-1, 0),)
    dead = dead_exits(table)
    assert [(d.exit.x, d.exit.y, d.exit.side, d.reason) for d in dead] == [(0, 0, 3, "hole")]
    # The last card walled the hole in: that placement is flagged as creating it.
    before = Table.start("super6").place_all(list(table.history[1:3]))
    assert before.holes() == ()
    assert creates_hole(before, table.history[3])
    assert not any(creates_hole(before, p) for p in legal_placements(before, "L+R")
                   if p.cells[0] != (-1, 0) and (-1, 1) not in p.cells)


@rules("BD-PLACE-5")
def test_unfillable_exit_is_dead() -> None:
    table = Table.start("super6")
    every = load_deck().cards()
    assert dead_exits(table, every) == ()
    # With only cards whose openings cannot face the west exit...: nothing remaining at all.
    assert {d.reason for d in dead_exits(table, [])} == {"unfillable"}
    assert len(dead_exits(table, [])) == 6
    # With only TL cards left: TL closes an exit with square B beside the target; for the
    # exits into (1, -1) and (0, 1) square B would land on the other exit's cell with a wall
    # against an opening, so those two exits can never be closed (4 of 6 closable, see perft).
    dead = dead_exits(table, [parse_card("TL")])
    assert [(d.exit.x, d.exit.y, d.exit.side) for d in dead] == [(0, 0, 2), (1, 0, 0)]
    assert {d.reason for d in dead} == {"unfillable"}


@rules("BD-PLACE-4")
def test_table_is_an_immutable_value() -> None:
    start = Table.start()
    p = legal_placements(start, "L")[0]
    after = start.place(p)
    assert len(start) == 1
    assert len(after) == 2
    assert start.exit_count == 6
    assert after != start
    assert hash(after) == hash(Table.start().place(p))
    with pytest.raises(AttributeError):
        after.history = ()  # type: ignore[misc]


def test_one_edge_rule_agrees_with_the_open_and_touching_sides() -> None:
    from banditsolve.tunnels.table import FITS, fits, rim_add

    for rim in range(256):
        for open4 in range(16):
            touch, need = rim >> 4, rim & 15
            expected = all(
                (open4 >> s & 1) == (need >> s & 1) for s in range(4) if touch >> s & 1
            )
            assert fits(open4, rim) == expected == bool(FITS[rim] >> open4 & 1)
    assert rim_add(0, 2, True) == 0b0100_0100
    assert rim_add(0, 2, False) == 0b0100_0000
