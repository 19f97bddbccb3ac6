"""Pictures: the ASCII drawing and the SVG show every die and tile of the position."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given

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
    assert f"P0 {state.scores[0]} " in text and f"P1 {state.scores[1]} " in text
    for number, tile in state.tiles_in_play():
        line = next(x for x in text.splitlines() if x.startswith(f"  {number}   "))
        for side in tile.sides:
            for die in side:
                assert str(die) in line
    assert all(line == line.rstrip() for line in text.splitlines())
