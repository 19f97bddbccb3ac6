"""Cards, names, half turns, quarter turns and the deck data."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from banditsolve.core.limits import MAX_CARD_COPIES, MAX_DECK_CARDS
from banditsolve.errors import BanditsolveError, DataError, NotationError
from banditsolve.tunnels import (
    PORTS,
    Placement,
    card_name,
    half_turn,
    is_dead_end,
    load_deck,
    normalise,
    parse_card,
)
from banditsolve.tunnels.cards import KINDS, deck_from_json, parse_ports
from tests.rules import rules
from tests.tunnels.oracle import footprint

port_sets = st.sets(st.sampled_from(PORTS), min_size=1, max_size=6)
HALF = {"L": "R", "R": "L", "TL": "BR", "BR": "TL", "TR": "BL", "BL": "TR"}


def name_of(ports: set[str]) -> str:
    return "+".join(p for p in PORTS if p in ports)


@rules("BD-GEOM-3")
@given(port_sets)
def test_half_turn_maps_l_r_tl_br_tr_bl(ports: set[str]) -> None:
    turned = {HALF[p] for p in ports}
    assert half_turn(parse_ports(name_of(ports))) == parse_ports(name_of(turned))
    # Both names denote the same card type.
    assert parse_card(name_of(ports)) == parse_card(name_of(turned))
    # Half turn twice is the identity on masks.
    mask = sum(1 << PORTS.index(p) for p in ports)
    assert half_turn(half_turn(mask)) == mask
    assert half_turn(mask) == sum(1 << PORTS.index(HALF[p]) for p in ports)


@rules("BD-GEOM-1", "BD-GEOM-2")
@given(port_sets, st.integers(-5, 5), st.integers(-5, 5), st.sampled_from([0, 90, 180, 270]))
def test_four_quarter_turns_are_the_identity(ports: set[str], x: int, y: int, rot: int) -> None:
    name = name_of(ports)
    start = footprint(name, x, y, rot)
    fp = start
    current = rot
    for _ in range(4):
        current = (current + 90) % 360
        fp = footprint(name, x, y, current)
    assert fp == start
    # The engine's placement covers exactly the oracle's cells with the oracle's openings.
    p = normalise(parse_ports(name), x, y, rot)
    (a, b), (oa, ob) = p.cells, p.open_sides()
    vec = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}
    engine = {(a, frozenset(vec[d] for d in range(4) if oa >> d & 1)),
              (b, frozenset(vec[d] for d in range(4) if ob >> d & 1))}
    assert frozenset(engine) == start


@rules("BD-GEOM-2", "BD-GEOM-3")
@given(port_sets, st.integers(-5, 5), st.integers(-5, 5), st.sampled_from([0, 90, 180, 270]))
def test_half_turn_about_the_card_is_the_same_placement(
    ports: set[str], x: int, y: int, rot: int
) -> None:
    name = name_of(ports)
    turned = name_of({HALF[p] for p in ports})
    fp = footprint(name, x, y, rot)
    b = next(c for c, _ in fp if c != (x, y))
    assert footprint(turned, b[0], b[1], (rot + 180) % 360) == fp
    assert normalise(parse_ports(name), x, y, rot) == normalise(
        parse_ports(turned), b[0], b[1], (rot + 180) % 360
    )


@rules("BD-GEOM-3")
def test_names_canonical_and_aliases() -> None:
    assert card_name(parse_card("R+BR")) == "L+TL"
    assert card_name(parse_card("BR+R")) == "L+TL"
    assert card_name(parse_card("BL")) == "TR"
    assert card_name(parse_card("TR+BR")) == "TL+BL"
    assert card_name(parse_card("super6")) == "L+TL+TR+R+BR+BL"
    assert card_name(parse_card("super5")) == "TL+TR+R+BR+BL"
    assert parse_card("L+TL+TR+BR+BL") == parse_card("super5")
    for bad in ["", "X", "L+L", "L+", "l", "L:unicorn"]:
        with pytest.raises(NotationError):
            parse_card(bad)


@rules("BD-DECK-1", "BD-DECK-2")
def test_deck_has_69_cards_in_31_types_with_21_dead_ends() -> None:
    deck = load_deck()
    cards = deck.cards()
    assert len(cards) == 69
    assert deck.size == 69
    assert len(set(cards)) == 31
    # The 31 types are exactly the port sets of size 1..4 up to a half turn.
    sets = {frozenset(p for p in PORTS if m >> PORTS.index(p) & 1) for m in range(1, 64)}
    classes = {
        frozenset({s, frozenset(HALF[p] for p in s)}) for s in sets if 1 <= len(s) <= 4
    }
    assert len(classes) == 31
    assert {frozenset(card_name(c).split("+")) for c in cards} <= set().union(*classes)
    dead = [c for c in cards if is_dead_end(c)]
    assert len(dead) == 21
    counts = Counter(cards)
    expected_dead = {"L", "TL", "TR", "L+TL", "L+BL", "TL+BL", "L+TL+BL"}
    assert {card_name(c) for c in counts if is_dead_end(c)} == expected_dead
    assert all(counts[c] == (3 if is_dead_end(c) else 2) for c in counts)
    assert all(1 <= (c & 63).bit_count() <= 4 for c in cards)


@rules("BD-DECK-3")
def test_super_card_sides() -> None:
    deck = load_deck()
    assert deck.super_card("super6") == 63
    five = deck.super_card("super5")
    assert "L" not in card_name(five).split("+")
    assert (five & 63).bit_count() == 5
    with pytest.raises(DataError):
        deck.super_card("super7")
    assert load_deck() is load_deck()  # loaded once


@rules("BD-DECK-2", "BD-DECK-4")
def test_another_edition_from_a_file(tmp_path: Path) -> None:
    doc = load_deck().to_json()
    cards = doc["cards"]
    assert isinstance(cards, list)
    cards[0] = {"card": "L", "count": 2, "kind": "tunnel"}
    cards.append({"card": "L", "count": 1, "kind": "ladder"})
    cards.append({"card": "L+TL+R+BL", "count": 1, "kind": "backpack"})
    doc["edition"] = "bandida"
    path = tmp_path / "bandida.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    deck = load_deck(path)
    assert deck.edition == "bandida"
    assert deck.size == 70
    ladder = parse_card("L:ladder")
    assert deck.count(ladder) == 1
    assert deck.count("L") == 2
    assert card_name(ladder) == "L:ladder"
    assert KINDS[ladder >> 6] == "ladder"
    # A special card has the geometry of its ports.
    plain = Placement(parse_card("L"), 0, 0, 0)
    assert Placement(ladder, 0, 0, 0).open_sides() == plain.open_sides()


@rules("BD-DECK-2")
@pytest.mark.parametrize(
    "doc",
    [
        [],
        {"edition": "x"},
        {"edition": "x", "super": {"s": "L"}, "cards": [{"card": "L", "count": 0}]},
        {"edition": "x", "super": {"s": "L"}, "cards": [{"card": "Q", "count": 1}]},
        {"edition": "x", "super": {"s": "L"}, "cards": [{"card": "L", "count": 1, "kind": "?"}]},
        {"edition": "x", "super": {"s": "L"}, "cards": [{"card": "L", "count": 1}] * 2},
    ],
)
def test_malformed_deck_data_is_refused(doc: object) -> None:
    with pytest.raises(DataError):
        deck_from_json(doc)


def test_missing_edition_is_a_library_error(tmp_path: Path) -> None:
    with pytest.raises(BanditsolveError):
        load_deck("nosuchedition")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(DataError):
        load_deck(bad)


@rules("BD-DECK-2", "BD-DECK-3")
def test_check_counts_refuses_surplus_copies_and_a_second_super_card() -> None:
    deck = load_deck()
    ell = parse_card("L")
    deck.check_counts([ell] * 3, "here")
    with pytest.raises(NotationError, match=r"here: 4 copies of L, but the bandido deck has 3"):
        deck.check_counts([ell] * 4, "here")
    deck.check_counts([ell] * 4, "here", hypothetical=True)
    for side in ("super6", "super5"):
        with pytest.raises(NotationError, match=r"super card .* only at the start of the table"):
            deck.check_counts([ell, parse_card(side)], "pile", hypothetical=True)
    with pytest.raises(NotationError, match="not a card of the bandido deck"):
        deck.check_counts([parse_card("L:ladder")], "hand 1")
    with pytest.raises(NotationError, match="not a card code"):
        deck.check_counts(["L"], "hand 1")  # type: ignore[list-item]


@rules("BD-DECK-2")
def test_deck_files_are_read_safely(tmp_path: Path) -> None:
    good = load_deck().to_json()
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(good), encoding="utf-8")
    assert load_deck(path) == load_deck()
    for data, pattern in (
        (b"\xef\xbb\xbf" + json.dumps(good).encode(), "byte-order mark"),
        (json.dumps(good).encode() + b"\xe9", "not UTF-8"),
        (b"", "empty"),
        (b"[" * 1000, "deeper"),
    ):
        path.write_bytes(data)
        with pytest.raises(DataError, match=pattern):
            load_deck(path)
    for name in ("puzzles", "x" * 5000, "../bandido", "nosuch"):
        with pytest.raises(DataError) as caught:
            load_deck(name)
        assert len(str(caught.value)) < 200
    with pytest.raises(NotationError) as caught2:
        parse_card("L+" + "Q" * 5000)
    assert len(str(caught2.value)) < 200


@rules("BD-DECK-2")
def test_a_deck_file_is_bounded_in_copies_and_in_cards(tmp_path: Path) -> None:
    """A deck of absurd counts is refused in one line before anything is built from it (a
    count of 10**12 once took 11 s and then ran out of memory)."""
    path = tmp_path / "deck.json"

    def write(counts: list[int]) -> None:
        doc = json.loads(json.dumps(load_deck().to_json()))
        firsts = doc["cards"][: len(counts)]
        doc["cards"] = [{**e, "count": n} for e, n in zip(firsts, counts, strict=True)]
        path.write_text(json.dumps(doc), encoding="utf-8")

    for count, pattern in ((10**12, "more than 999 copies"), (MAX_CARD_COPIES + 1, "999")):
        write([count, 1])
        with pytest.raises(DataError, match=pattern) as caught:
            load_deck(path)
        assert "\n" not in str(caught.value)
    write([MAX_CARD_COPIES] * 10)
    with pytest.raises(DataError, match=f"more than {MAX_DECK_CARDS} in a deck"):
        load_deck(path)
    write([MAX_CARD_COPIES] * 4)
    assert load_deck(path).size == 4 * MAX_CARD_COPIES
