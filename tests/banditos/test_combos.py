"""The seven combinations and their order (LB-COMBO-*), checked against a plain restatement."""

from __future__ import annotations

import itertools

from hypothesis import given

from banditsolve.banditos.combos import Category, describe, rank, rank_category
from banditsolve.banditos.dice import ALL_DICE, Die, parse_dice
from tests.banditos.reference import CATEGORY_ORDER, reference_key
from tests.banditos.strategies import dice_lists
from tests.rules import rules

ALL_TRIPLES = list(itertools.combinations_with_replacement(ALL_DICE, 3))


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@rules("LB-COMBO-1", "LB-COMBO-2", "LB-COMBO-3", "LB-COMBO-4", "LB-COMBO-5", "LB-COMBO-6",
       "LB-COMBO-7", "LB-COMBO-8")
def test_category_of_every_triple_matches_the_rulebook() -> None:
    for triple in ALL_TRIPLES:
        expected = CATEGORY_ORDER[reference_key(triple)[0]]
        assert rank_category(rank(triple)).label == expected, triple


@rules("LB-COMBO-1")
@given(dice_lists(3, 3), dice_lists(3, 3))
def test_rank_order_is_the_rulebook_order(a: list[Die], b: list[Die]) -> None:
    ra, rb = rank(a), rank(b)
    ka, kb = reference_key(a), reference_key(b)
    assert _sign(ra - rb) == _sign((ka > kb) - (ka < kb))


@rules("LB-COMBO-1")
def test_rank_is_a_total_order_consistent_with_ties() -> None:
    # Equal ranks exactly when the rulebook sees a tie, over a sample of pairs of all triples.
    sample = ALL_TRIPLES[::7]
    by_rank: dict[int, set[tuple[int, ...]]] = {}
    for triple in sample:
        by_rank.setdefault(rank(triple), set()).add(reference_key(triple))
    assert all(len(keys) == 1 for keys in by_rank.values())
    ordered = sorted(by_rank)
    refs = [next(iter(by_rank[r])) for r in ordered]
    assert refs == sorted(refs)


@rules("LB-COMBO-1")
@given(dice_lists(3, 3))
def test_rank_ignores_the_order_of_the_dice(dice: list[Die]) -> None:
    assert len({rank(p) for p in itertools.permutations(dice)}) == 1


@rules("LB-COMBO-2", "LB-COMBO-3", "LB-COMBO-4", "LB-COMBO-5")
def test_rulebook_examples() -> None:
    # Three 6s of one colour beat three 5s of one colour; 6-5-4 beats 5-4-3.
    assert rank(parse_dice("r6 r6 r6")) > rank(parse_dice("r5 r5 r5"))
    assert rank(parse_dice("k6 g5 r4")) > rank(parse_dice("k5 g4 r3"))
    assert rank(parse_dice("r4 r6 r5")) > rank(parse_dice("k6 k6 g6"))  # colour straight > trips
    assert rank(parse_dice("k1 g1 b1")) > rank(parse_dice("k6 g5 r4"))  # trips > straight


@rules("LB-COMBO-6", "LB-COMBO-7", "LB-COMBO-8")
def test_pair_and_singles_tie_breaks() -> None:
    assert rank(parse_dice("r2 r2 k1")) > rank(parse_dice("g6 b6 k5"))  # colour pair > pair
    assert rank(parse_dice("g6 b6 k1")) > rank(parse_dice("g5 b5 k6"))  # pair value first
    assert rank(parse_dice("g5 b5 k6")) > rank(parse_dice("r5 k5 b4"))  # then the third die
    assert rank(parse_dice("k6 g4 r1")) > rank(parse_dice("k5 g4 r2"))  # highest first
    assert rank(parse_dice("k6 g4 r2")) > rank(parse_dice("k6 g3 r2"))  # then second
    assert rank(parse_dice("k6 g4 r2")) > rank(parse_dice("b6 r4 g1"))  # then third
    assert rank(parse_dice("k6 g4 r2")) == rank(parse_dice("b6 r4 g2"))  # colours never count


@rules("LB-OPT-2")
def test_straights_never_wrap() -> None:
    assert rank_category(rank(parse_dice("k6 g1 r2"))) == Category.SINGLES
    assert rank_category(rank(parse_dice("r5 r6 r1"))) == Category.SINGLES
    assert describe(rank(parse_dice("k1 g2 r3"))) == "straight 1-2-3"
