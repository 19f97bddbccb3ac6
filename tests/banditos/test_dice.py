"""Dice and their notation (LB-COMP-1)."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from banditsolve.banditos.dice import ALL_DICE, Colour, Die, format_dice, parse_dice
from banditsolve.errors import BanditsolveError, NotationError
from tests.banditos.strategies import dice_lists
from tests.rules import rules


@rules("LB-COMP-1")
def test_twenty_four_faces_four_colours() -> None:
    assert len(ALL_DICE) == 24
    assert [c.letter for c in Colour] == ["k", "g", "r", "b"]
    assert Die.parse("r5") == Die(Colour.RED, 5)
    assert str(Die(Colour.BLACK, 1)) == "k1"


@rules("LB-COMP-1")
@given(dice_lists(0, 6))
def test_dice_lists_round_trip(dice: list[Die]) -> None:
    assert list(parse_dice(format_dice(dice))) == dice
    assert list(parse_dice(format_dice(dice, sep=""))) == dice


@rules("LB-COMP-1")
@pytest.mark.parametrize("text", ["", "r", "r7", "x5", "r0", "5r", "r55", "rr"])
def test_bad_dice_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        Die.parse(text)


@rules("LB-COMP-1")
def test_dice_built_directly_are_checked() -> None:
    assert Die("r", 5) == Die(2, 5) == Die.parse("r5")  # type: ignore[arg-type]
    for colour, value in [("x", 5), (4, 1), (-1, 1), (None, 1), ("r", 0), ("r", 7)]:
        with pytest.raises(NotationError):
            Die(colour, value)  # type: ignore[arg-type]


@rules("LB-COMP-1")
@given(st.text(max_size=12))
def test_dice_reader_raises_only_library_errors(text: str) -> None:
    with contextlib.suppress(BanditsolveError):
        parse_dice(text)
