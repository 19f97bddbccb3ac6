"""Pictures: the ASCII drawing and the SVG show every die and tile of the position."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given

from banditsolve.banditos.combos import describe, rank
from banditsolve.banditos.notation import parse_position
from banditsolve.banditos.state import State
from tests.banditos.test_notation import reachable_states
from tests.rules import rules

SVG = "{http://www.w3.org/2000/svg}"


@rules("LB-NOTE-1")
@given(reachable_states())
def test_svg_is_well_formed_and_shows_every_die(state: State) -> None:
    root = ET.fromstring(state._repr_svg_())
    assert root.tag == f"{SVG}svg"
    titles = [t.text or "" for t in root.iter(f"{SVG}title")]
    dice = sorted(t for t in titles if len(t) == 2)
    expected = sorted(str(d) for d in state.dice_on_tiles() + state.hand)
    assert dice == expected
    tiles = sorted(t for t in titles if t.startswith("tile worth"))
    assert tiles == sorted(f"tile worth {s.value}" for _, s in state.tiles_in_play())


@rules("LB-NOTE-1")
@given(reachable_states())
def test_ascii_shows_scores_and_every_side(state: State) -> None:
    text = state.ascii()
    assert f"P0 {state.scores[0]} " in text
    assert f"P1 {state.scores[1]} " in text
    for number, tile in state.tiles_in_play():
        line = next(x for x in text.splitlines() if x.startswith(f"  {number}   "))
        for side in tile.sides:
            for die in side:
                assert str(die) in line
    assert all(line == line.rstrip() for line in text.splitlines())


def _full_sides(state: State) -> list[str]:
    """The title of each full side of a tile in play, sorted."""
    return sorted(
        f"player {p}'s side is full: {describe(rank(tile.sides[p]))}"
        for _, tile in state.tiles_in_play()
        for p in (0, 1)
        if len(tile.sides[p]) == 3
    )


@rules("LB-NOTE-1")
@given(reachable_states())
def test_svg_shows_the_bag_the_full_sides_and_the_hand_only_when_held(state: State) -> None:
    root = ET.fromstring(state.svg())
    titles = [t.text or "" for t in root.iter(f"{SVG}title")]
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    colours = ("black", "green", "red", "blue")
    bag = " ".join(f"{n} {c}" for c, n in zip(colours, state.bag, strict=True))
    assert f"bag: {bag}" in titles
    full = _full_sides(state)
    assert sorted(t for t in titles if "side is full" in t) == full
    assert sum(t.startswith("full: ") for t in texts) == len(full)
    placing = [t for t in texts if t.endswith(" to place:")]
    assert placing == ([f"player {state.to_move} to place:"] if state.hand else [])
    assert not any("hand:" in t for t in texts)


def test_svg_escapes_by_construction() -> None:
    state = parse_position("3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0h:k5")
    root = ET.fromstring(state.svg())  # well-formed, and the combination names are drawn
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "full: straight 4-5-6" in texts
    assert "full: colour straight 1-2-3" in texts
    assert "player 0 to place:" in texts


@rules("LB-OPT-1", "LB-OPT-4")
def test_pictures_name_the_rule_options_that_are_not_the_default() -> None:
    plain = parse_position("1::/2::/3::/1:k1: 112233 -:- 1a")
    assert "rule options" not in plain.ascii()
    assert "rule options" not in plain.svg()
    both = parse_position("1::/2::/3::/1:k1: 112233 -:- 1a proof=bag unplaceable=return")
    assert both.ascii().splitlines()[-1] == "rule options: proof=bag unplaceable=return"
    texts = [t.text for t in ET.fromstring(both.svg()).iter(f"{SVG}text")]
    assert "rule options: proof=bag unplaceable=return" in texts
