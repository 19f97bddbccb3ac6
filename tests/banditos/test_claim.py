"""The exact claim check (LB-CLAIM-2, LB-OPT-1) against a plain enumeration of completions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given

from banditsolve.banditos import claim_verdict
from banditsolve.banditos.combos import rank
from banditsolve.banditos.dice import ALL_DICE, Die, colour_counts, parse_dice
from banditsolve.errors import BanditsolveError, NotationError, SolverError
from tests.banditos.reference import brute_force_safe, physical, reference_key
from tests.banditos.strategies import availability, dice_lists
from tests.rules import rules


def _check_witness(
    mine: list[Die], theirs: list[Die], avail: tuple[int, ...], witness: tuple[Die, ...]
) -> None:
    assert len(theirs) + len(witness) == 3
    used = colour_counts(witness)
    assert all(used[c] <= avail[c] for c in range(4)), (witness, avail)
    assert reference_key(tuple(theirs) + witness) > reference_key(mine)


@rules("LB-CLAIM-2")
@given(dice_lists(3, 3), dice_lists(0, 2), availability)
def test_verdict_equals_brute_force(
    mine: list[Die], theirs: list[Die], avail: tuple[int, int, int, int]
) -> None:
    avail = physical(mine, theirs, avail)
    verdict = claim_verdict(mine, theirs, avail)
    assert verdict.safe == brute_force_safe(mine, theirs, avail)
    if verdict.safe:
        assert verdict.witness is None
    else:
        assert verdict.witness is not None
        _check_witness(mine, theirs, avail, verdict.witness)


@rules("LB-CLAIM-2")
def test_verdict_equals_brute_force_on_thousands_of_cases() -> None:
    rng = random.Random(20261130)
    for _ in range(2000):
        mine = rng.choices(ALL_DICE, k=3)
        theirs = rng.choices(ALL_DICE, k=rng.randint(0, 2))
        scarce = rng.choice([0, 1, 2, 3, 6])
        avail = physical(mine, theirs, [rng.randint(0, scarce) for _ in range(4)])
        verdict = claim_verdict(mine, theirs, avail)
        assert verdict.safe == brute_force_safe(mine, theirs, avail), (mine, theirs, avail)
        if verdict.witness is not None:
            _check_witness(mine, theirs, avail, verdict.witness)


@rules("LB-CLAIM-2", "LB-RESOLVE-2")
def test_an_equal_completion_does_not_beat_the_claim() -> None:
    # The opponent can at best match a mixed straight 4-5-6 when no green die is left.
    mine = parse_dice("k4 r5 b6")
    theirs = parse_dice("g5 g6")
    assert claim_verdict(mine, theirs, {"k": 3, "r": 3, "b": 3}).safe
    unsafe = claim_verdict(mine, theirs, {"g": 1})
    assert not unsafe.safe
    assert unsafe.witness == parse_dice("g4")
    assert rank(unsafe.opponent_side or ()) > rank(mine)


@rules("LB-CLAIM-2")
def test_no_dice_left_means_no_completion() -> None:
    assert claim_verdict(parse_dice("k1 g2 r4"), parse_dice("b6"), (0, 0, 0, 1)).safe


@rules("LB-CLAIM-2")
def test_colour_three_of_a_kind_of_sixes_is_always_safe() -> None:
    sides: list[tuple[Die, ...]] = [(), parse_dice("r6 r6"), parse_dice("k5 k6")]
    for theirs in sides:
        mine = parse_dice("r6 r6 r6")
        assert claim_verdict(mine, theirs, physical(mine, theirs, (6, 6, 6, 6))).safe


@rules("LB-CLAIM-2")
def test_bad_claims_raise_library_errors() -> None:
    with pytest.raises(NotationError):
        claim_verdict(parse_dice("k1 k2"), [], (6, 6, 6, 6))
    with pytest.raises(NotationError):
        claim_verdict(parse_dice("k1 k2 k3"), parse_dice("r1 r2 r3"), (6, 6, 6, 6))
    with pytest.raises(NotationError):
        claim_verdict(parse_dice("k1 k2 k3"), [], (6, 6, 6))
    with pytest.raises(NotationError):
        claim_verdict(parse_dice("k1 k2 k3"), [], (6, -1, 6, 6))
    with pytest.raises(BanditsolveError):
        claim_verdict(parse_dice("k1 k2 k3"), [], {"x": 1})
    with pytest.raises(NotationError, match="at most 3 more"):
        claim_verdict(parse_dice("k1 k2 k3"), [], {"k": 4})
    with pytest.raises(SolverError):
        claim_verdict(parse_dice("k1 k2 k3"), [], (3, 6, 6, 6), backend="magic")  # type: ignore[arg-type]


@rules("LB-CLAIM-2")
def test_availability_forms_agree() -> None:
    mine, theirs = parse_dice("k4 r5 b6"), parse_dice("g5 g6")
    forms: list[object] = [(0, 1, 0, 0), {"g": 1}, [0, 1, 0, 0]]
    verdicts = {claim_verdict(mine, theirs, f).safe for f in forms}
    assert verdicts == {False}
