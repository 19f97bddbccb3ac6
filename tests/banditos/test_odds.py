"""Exact completion odds against plain enumerations written here."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from banditsolve.banditos.combos import rank
from banditsolve.banditos.dice import ALL_DICE, Colour, Die, parse_dice
from banditsolve.banditos.notation import parse_position
from banditsolve.banditos.solvers.odds import colour_draws, completion_odds, completion_odds_at
from banditsolve.errors import BanditsolveError, IllegalActionError, SolverError
from tests.banditos.reference import odds_by_colour_sequences, physical, reference_key
from tests.rules import rules


def odds_by_labelled_dice(
    mine: tuple[Die, ...], theirs: tuple[Die, ...], bag: tuple[int, ...]
) -> tuple[Fraction, Fraction, Fraction]:
    """Every ordered draw of distinct physical dice from the bag, times every roll: all equally
    likely."""
    physical = [c for c in range(4) for _ in range(bag[c])]
    need = 3 - len(theirs)
    claim = reference_key(mine)
    counts = [0, 0, 0]
    total = 0
    for picked in itertools.permutations(range(len(physical)), need):
        for values in itertools.product(range(1, 7), repeat=need):
            side = theirs + tuple(
                Die(Colour(physical[i]), v) for i, v in zip(picked, values, strict=True)
            )
            key = reference_key(side)
            counts[0 if key > claim else 1 if key == claim else 2] += 1
            total += 1
    return Fraction(counts[0], total), Fraction(counts[1], total), Fraction(counts[2], total)


small_bags = st.tuples(*(st.integers(0, 2) for _ in range(4))).filter(lambda b: sum(b) >= 3)
bags = st.tuples(*(st.integers(0, 6) for _ in range(4))).filter(lambda b: sum(b) >= 3)
three = st.lists(st.sampled_from(ALL_DICE), min_size=3, max_size=3).map(tuple)
sides = st.lists(st.sampled_from(ALL_DICE), min_size=0, max_size=2).map(tuple)


@rules("LB-TURN-2")
@given(mine=three, theirs=sides, bag=small_bags)
def test_odds_match_labelled_dice_enumeration(
    mine: tuple[Die, ...], theirs: tuple[Die, ...], bag: tuple[int, int, int, int]
) -> None:
    bag = physical(mine, theirs, bag)
    assume(sum(bag) >= 3 - len(theirs))
    odds = completion_odds(mine, theirs, bag)
    assert (odds.above, odds.equal, odds.below) == odds_by_labelled_dice(mine, theirs, bag)


@rules("LB-TURN-2", "LB-COMBO-1")
@given(mine=three, theirs=sides, bag=bags)
def test_odds_match_colour_sequence_enumeration(
    mine: tuple[Die, ...], theirs: tuple[Die, ...], bag: tuple[int, int, int, int]
) -> None:
    bag = physical(mine, theirs, bag)
    assume(sum(bag) >= 3 - len(theirs))
    odds = completion_odds(mine, theirs, bag)
    assert odds.above + odds.equal + odds.below == 1
    assert (odds.above, odds.equal, odds.below) == odds_by_colour_sequences(mine, theirs, bag)
    # A rank gives the same answer as the dice.
    assert completion_odds(rank(mine), theirs, bag) == odds


@given(bag=bags, count=st.integers(0, 3))
def test_colour_draw_probabilities_sum_to_one(bag: tuple[int, int, int, int], count: int) -> None:
    draws = colour_draws(bag, count)
    assert sum(p for _, p in draws) == 1
    assert all(p > 0 for _, p in draws)


def test_known_small_cases() -> None:
    # Opponent holds r6 r6; one red and one green die in the bag. Claim: colour straight 4-5-6.
    # Beating it needs a red 6 (colour three-of-a-kind): 1/2 (red) * 1/6.
    odds = completion_odds(parse_dice("k4k5k6"), parse_dice("r6r6"), (0, 1, 1, 0))
    assert odds.above == Fraction(1, 12)
    assert odds.equal == 0
    # A full side is just compared.
    odds = completion_odds(parse_dice("k4k5k6"), parse_dice("g1g2g4"), (0, 0, 0, 0))
    assert (odds.above, odds.equal, odds.below) == (Fraction(0), Fraction(0), Fraction(1))
    odds = completion_odds(parse_dice("k4k5k6"), parse_dice("g1g1g1"), (0, 0, 0, 0))
    assert odds.above == 1


def test_completion_odds_at_a_state() -> None:
    state = parse_position("3:k4k5k6:r6r6/2:r1r1r1:r2/1::/2:: 111233 -:- 0a")
    odds = completion_odds_at(state, 1)
    assert odds.theirs == parse_dice("r6r6")
    assert odds.bag == state.bag
    expected = odds_by_colour_sequences(parse_dice("k4k5k6"), parse_dice("r6r6"), state.bag)
    assert (odds.above, odds.equal, odds.below) == expected
    assert odds.above == 0  # no red left in the bag
    # Player 1's side is not full.
    with pytest.raises(IllegalActionError):
        completion_odds_at(state, 1, player=1)
    with pytest.raises(IllegalActionError):
        completion_odds_at(state, 4)


def test_bad_input_is_a_library_error() -> None:
    with pytest.raises(SolverError):
        completion_odds(parse_dice("k4k5k6"), (), (1, 1, 0, 0))
    with pytest.raises(BanditsolveError):
        completion_odds(parse_dice("k4k5k6"), (), (1, 1, 0))
    with pytest.raises(BanditsolveError):
        completion_odds(parse_dice("k4k5"), (), (6, 6, 6, 6))
    with pytest.raises(BanditsolveError):
        completion_odds(99999, (), (6, 6, 6, 6))
