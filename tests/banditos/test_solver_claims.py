"""The three claim backends (exact, CP-SAT, Z3) agree with a plain brute force and with each
other, on thousands of generated cases, and every witness really beats the claim."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Sequence

import pytest

from banditsolve.banditos.claim import Backend, ClaimVerdict
from banditsolve.banditos.dice import ALL_DICE, Die, parse_dice
from banditsolve.banditos.notation import parse_position
from banditsolve.banditos.solvers.claims import claim_verdict, claim_verdict_at
from banditsolve.banditos.state import ProofOption
from banditsolve.errors import SolverError
from tests.banditos.reference import brute_force_safe, physical, reference_key
from tests.rules import rules

Case = tuple[tuple[Die, ...], tuple[Die, ...], tuple[int, int, int, int]]

#: Colour scarcity profiles, from no die left to plenty: the range each colour's count is drawn
#: from.
SCARCITY = [(0, 0), (0, 1), (0, 2), (1, 3), (0, 6), (3, 6), (6, 6)]


def generated_cases(count: int, seed: int) -> list[Case]:
    """Cases covering every count of opponent dice (0, 1, 2) and every scarcity profile; claims
    are biased towards strong combinations so that both verdicts are common."""
    rng = random.Random(seed)
    cases: list[Case] = []
    for i in range(count):
        n_theirs = i % 3
        low, high = SCARCITY[(i // 3) % len(SCARCITY)]
        avail = (
            rng.randint(low, high),
            rng.randint(low, high),
            rng.randint(low, high),
            rng.randint(low, high),
        )
        first = rng.choice(ALL_DICE)
        style = rng.randrange(4)
        if style == 0:  # random dice
            mine = (first, rng.choice(ALL_DICE), rng.choice(ALL_DICE))
        elif style == 1:  # equal values
            v = first.value
            mine = (first, Die(rng.choice(ALL_DICE).colour, v), rng.choice(ALL_DICE))
        elif style == 2:  # a run in one colour or not
            top = rng.randint(3, 6)
            col = first.colour
            mine = (Die(col, top), Die(col, top - 1), Die(rng.choice(ALL_DICE).colour, top - 2))
        else:  # one colour, one value
            mine = (first, first, Die(rng.choice(ALL_DICE).colour, first.value))
        theirs = tuple(rng.choice(ALL_DICE) for _ in range(n_theirs))
        if rng.random() < 0.3 and n_theirs == 2:  # twins and near-runs for the opponent
            theirs = (theirs[0], Die(theirs[0].colour, max(1, theirs[0].value - rng.randint(0, 1))))
        cases.append((mine, theirs, physical(mine, theirs, avail)))
    return cases


def assert_witness_valid(verdict: ClaimVerdict, avail: Sequence[int]) -> None:
    """A witness fills the side to three dice within the availability and beats the claim."""
    assert verdict.witness is not None
    witness = verdict.witness
    assert len(verdict.theirs) + len(witness) == 3
    for colour in range(4):
        assert sum(1 for d in witness if d.colour == colour) <= avail[colour]
    assert reference_key(verdict.theirs + witness) > reference_key(verdict.mine)


def check_against_brute_force(cases: list[Case], backend: Backend) -> int:
    unsafe = 0
    for mine, theirs, avail in cases:
        verdict = claim_verdict(mine, theirs, avail, backend=backend)
        expected = brute_force_safe(mine, theirs, avail)
        assert verdict.safe == expected, (backend, mine, theirs, avail, verdict)
        assert verdict.backend == backend
        if verdict.safe:
            assert verdict.witness is None
        else:
            unsafe += 1
            assert_witness_valid(verdict, avail)
    return unsafe


def test_generated_cases_cover_every_opponent_count_and_scarcity() -> None:
    cases = generated_cases(900, seed=1)
    assert {len(t) for _, t, _ in cases} == {0, 1, 2}
    assert any(sum(a) == 0 for _, _, a in cases)
    assert any(a == physical(m, t, (6, 6, 6, 6)) for m, t, a in cases)  # nothing scarce
    safe = sum(brute_force_safe(m, t, a) for m, t, a in cases)
    assert 0.2 * len(cases) < safe < 0.8 * len(cases)  # both verdicts are common


@rules("LB-CLAIM-2", "LB-OPT-1")
def test_exact_backend_matches_brute_force_on_thousands_of_cases() -> None:
    unsafe = check_against_brute_force(generated_cases(3000, seed=11), "exact")
    assert unsafe > 300


@rules("LB-CLAIM-2")
@pytest.mark.parametrize("backend", ["cpsat", "z3"])
def test_solver_backends_match_brute_force(backend: Backend) -> None:
    unsafe = check_against_brute_force(generated_cases(420, seed=23), backend)
    assert unsafe > 50


@rules("LB-CLAIM-2", "LB-COMBO-1")
@pytest.mark.slow
@pytest.mark.parametrize("backend", ["cpsat", "z3"])
def test_solver_backends_match_brute_force_long(backend: Backend) -> None:
    check_against_brute_force(generated_cases(4200, seed=97), backend)


@rules("LB-CLAIM-2")
def test_three_backends_give_identical_verdicts() -> None:
    for mine, theirs, avail in generated_cases(300, seed=5):
        backends: tuple[Backend, ...] = ("exact", "cpsat", "z3")
        verdicts = [claim_verdict(mine, theirs, avail, backend=b) for b in backends]
        assert len({v.safe for v in verdicts}) == 1, verdicts
        for v in verdicts:
            assert v.mine == mine
            assert v.theirs == theirs
            if not v.safe:
                assert_witness_valid(v, avail)


@rules("LB-COMBO-2", "LB-COMBO-3", "LB-COMBO-4", "LB-COMBO-5", "LB-COMBO-6", "LB-COMBO-7")
@pytest.mark.parametrize("backend", ["cpsat", "z3"])
def test_every_claim_category_against_every_single_opponent_die(backend: Backend) -> None:
    """One claim per category (and tie-break extremes) against an opponent holding each of a
    spread of single dice, plenty or no dice of that colour left."""
    claims = ["k6k6k6", "r1r1r1", "g4g5g6", "b1b2b3", "k5g5r5", "k1g2b3", "r4r4k6",
              "g2g2b1", "r6k6b5", "k1g1b2", "k6g5b3", "k1g2b4"]
    singles = [parse_dice(t) for t in ("g6", "k1", "r3", "b5")]
    availabilities = [(6, 6, 6, 6), (0, 2, 0, 2), (1, 0, 0, 0)]
    for text in claims:
        mine = parse_dice(text)
        for theirs in singles:
            for wanted in availabilities:
                avail = physical(mine, theirs, wanted)
                verdict = claim_verdict(mine, theirs, avail, backend=backend)
                assert verdict.safe == brute_force_safe(mine, theirs, avail), (text, theirs, avail)
                if not verdict.safe:
                    assert_witness_valid(verdict, avail)


@rules("LB-CLAIM-2", "LB-RESOLVE-2")
@pytest.mark.parametrize("backend", ["exact", "cpsat", "z3"])
def test_a_tie_does_not_make_a_claim_unsafe(backend: Backend) -> None:
    # The opponent can at best equal a colour three-of-a-kind of 6s: safe.
    verdict = claim_verdict(parse_dice("k6k6k6"), (), (3, 6, 6, 6), backend=backend)
    assert verdict.safe
    # One notch lower and the opponent's colour three-of-a-kind of 6s beats it.
    verdict = claim_verdict(parse_dice("k5k5k5"), (), (0, 0, 3, 0), backend=backend)
    assert not verdict.safe
    assert verdict.witness == parse_dice("r6r6r6")


@rules("LB-CLAIM-2", "LB-OPT-1")
@pytest.mark.parametrize("backend", ["cpsat", "z3"])
def test_claim_verdict_at_a_state_under_both_proof_options(backend: Backend) -> None:
    # Player 0 holds a colour straight; the opponent holds two red sixes. Under "strict" a third
    # red six could still come back to the bag, so the claim is unsafe; every red die not on
    # this tile is on slot 2, so under "bag" no red die is in the bag: safe.
    state = parse_position("3:k4k5k6:r6r6/2:r1r1r1:r2/1::/2:: 111233 -:- 0a")
    assert state.bag[2] == 0
    assert not claim_verdict_at(state, 1, proof="strict").safe
    assert claim_verdict_at(state, 1, proof="bag").safe
    proofs: tuple[ProofOption, ...] = ("strict", "bag")
    for proof in proofs:
        exact = claim_verdict_at(state, 1, proof=proof)
        other = claim_verdict_at(state, 1, proof=proof, backend=backend)
        assert exact.safe == other.safe
        avail = state.availability(1, proof)
        assert other.safe == brute_force_safe(exact.mine, exact.theirs, avail)
        if not other.safe:
            assert_witness_valid(other, avail)


@pytest.mark.parametrize("backend", ["cpsat", "z3"])
def test_impossible_completion_is_safe(backend: Backend) -> None:
    # No die at all is left for the opponent: they can never complete, whatever the claim.
    mine, theirs = parse_dice("k1g2b4"), parse_dice("r6")
    verdict = claim_verdict(mine, theirs, (0, 0, 0, 0), backend=backend)
    assert verdict.safe
    assert verdict.witness is None


def test_bad_limits_are_solver_errors() -> None:
    from banditsolve.banditos.solvers import cpsat, z3model

    mine, theirs = parse_dice("k1g2b4"), parse_dice("r6")
    with pytest.raises(SolverError):
        cpsat.solve_claim(mine, theirs, (1, 1, 1, 1), time_limit=0)
    with pytest.raises(SolverError):
        z3model.solve_claim(mine, theirs, (1, 1, 1, 1), time_limit=0)


def test_cpsat_reports_its_statistics() -> None:
    from banditsolve.banditos.solvers import cpsat

    verdict, stats = cpsat.solve_claim(parse_dice("k1g2b4"), parse_dice("r6"), (1, 1, 1, 1))
    assert not verdict.safe
    assert stats.status in ("OPTIMAL", "FEASIBLE")
    assert stats.wall_time >= 0
    assert stats.variables > 0
    assert stats.constraints > 0


def test_importing_the_game_loads_no_solver_library() -> None:
    code = (
        "import sys, banditsolve.banditos, banditsolve.banditos.claim, banditsolve.z3typed;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ortools', 'z3')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
