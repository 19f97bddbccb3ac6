"""The endgame solver: exact answers against a plain expectimax, estimates labelled, limits."""

from __future__ import annotations

from fractions import Fraction

import pytest

from banditsolve.banditos.dice import Die
from banditsolve.banditos.notation import parse_position
from banditsolve.banditos.rules import Claim, Place, Roll, apply
from banditsolve.banditos.solvers.endgame import best_turn
from banditsolve.banditos.state import State
from banditsolve.core.limits import BANDITOS_BEST_TIME_LIMIT
from banditsolve.errors import SolverError
from tests.banditos.test_puzzles import plain_expectimax
from tests.rules import rules

LAST_TILE = "1:k6k6:r1/-/-/- - 3321:32211 0a"


@rules("LB-TURN-2", "LB-END-1")
def test_exact_answer_and_plan_match_a_plain_expectimax() -> None:
    state = parse_position(LAST_TILE)
    result = best_turn(state)
    assert result.method == "exact"
    assert result.complete
    assert not result.is_estimate
    memo: dict[State, Fraction] = {}
    assert result.probability == plain_expectimax(state, memo)
    assert result.actions == (Roll(),)
    assert result.plan is not None
    # The plan covers every roll, and each branch's value is the true value after that roll.
    total = Fraction(0)
    for outcome, p, sub in result.plan.branches:
        after = apply(apply(state, Roll()), outcome)
        assert sub.value == plain_expectimax(after, memo)
        total += p * sub.value
    assert total == result.probability
    assert "exact" in result.explain()


def test_rolled_state_gives_a_plain_sequence() -> None:
    state = parse_position(LAST_TILE.replace("0a", "0h:g5k6"))
    result = best_turn(state)
    assert result.actions[:2] == (Place(Die.parse("k6"), 1), Claim(1))
    assert result.probability == 1


@rules("LB-GIVE-1")
def test_monte_carlo_is_labelled_and_brackets_the_truth() -> None:
    state = parse_position(LAST_TILE)
    result = best_turn(state, method="monte-carlo", samples=150, seed=3)
    assert result.method == "monte-carlo"
    assert result.is_estimate
    assert result.samples == 150
    assert result.confidence_interval is not None
    low, high = result.confidence_interval
    # Only one decision exists (roll); greedy play after it finds the black 6 when it comes.
    assert result.actions == (Roll(),)
    assert low <= float(Fraction(79, 1260)) <= high
    assert "ESTIMATE" in result.explain()
    assert result.to_json()["estimate"] is True


def test_node_limit_falls_back_to_an_estimate() -> None:
    state = parse_position("1:k6k6:r1/1:g3:b5b5/-/- - 3321:3221 0h:k2g4")
    result = best_turn(state, node_limit=200, samples=5)
    assert result.method == "monte-carlo"
    assert "stopped after" in result.note
    assert result.nodes == 200  # the exact search stopped at its limit, every node counted


def test_time_limit_marks_best_so_far() -> None:
    state = parse_position(OPENING)
    result = best_turn(state, time_limit=0.3, samples=10_000)
    assert not result.complete
    assert result.method == "monte-carlo"
    assert result.elapsed < 30
    assert "BEST SO FAR" in result.explain()


#: Far from the end: the exact search cannot finish within a small budget.
OPENING = "3:k6:g1/2::/1::/1:: 112233 -:- 0h:r4b2"


def test_exact_method_stopped_by_the_node_limit_is_unknown_not_an_estimate() -> None:
    result = best_turn(parse_position(OPENING), node_limit=200, method="exact")
    assert result.is_unknown
    assert not result.is_estimate
    assert (result.method, result.complete, result.actions) == ("exact", False, ())
    assert result.probability is None
    assert result.samples is None
    assert result.candidates == ()
    assert "the node limit ran out (200 nodes)" in result.note
    text = result.explain()
    assert text.startswith("unknown: the exact search stopped after ")
    for word in ("ESTIMATE", "Monte Carlo", "time limit", "BEST SO FAR"):
        assert word not in text
    answer = result.to_answer()
    assert (answer.status, answer.answer, answer.certificate) == ("unknown", "unknown", None)
    assert answer.exit_code == 3
    assert answer.reason == result.note
    assert answer.limits == {"time_limit": BANDITOS_BEST_TIME_LIMIT, "node_limit": 200}
    doc = result.to_json()
    assert doc["probability"] is None
    assert doc["actions"] == []
    assert doc["complete"] is False


def test_exact_method_stopped_by_the_time_limit_names_the_whole_limit() -> None:
    # method="exact" gives the search the whole limit (no half kept for an estimate).
    result = best_turn(parse_position(OPENING), time_limit=0.3, node_limit=None, method="exact")
    assert result.is_unknown
    assert result.probability is None
    assert "the time limit ran out (0.3 s) before an answer was proven" in result.note
    # The whole limit, not the half "auto" keeps for its estimate (the search stops a little
    # short of it, to return within it: core.limits.TEARDOWN_SHARE).
    assert result.elapsed > 0.25


def test_exact_method_that_finishes_is_exact() -> None:
    result = best_turn(parse_position(LAST_TILE), method="exact")
    assert result.method == "exact"
    assert result.complete
    assert not result.is_unknown
    assert result.actions == (Roll(),)
    assert result.to_answer().status == "yes"


def test_auto_names_the_exact_searchs_share_of_the_time_limit() -> None:
    result = best_turn(parse_position(OPENING), time_limit=0.4, node_limit=None, samples=4)
    assert result.method == "monte-carlo"
    assert (
        "the exact search's share of the time limit (0.2 s of 0.4 s) ran out before an answer "
        "was proven; this is a Monte Carlo estimate"
    ) in result.note
    assert "the time limit ran out (0.2 s)" not in result.explain()
    assert "(0.2 s of 0.4 s)" in result.to_answer().reason


def test_bad_requests() -> None:
    with pytest.raises(SolverError):
        best_turn(parse_position("1:k6k6:r1/-/-/- - 3321:32211 0r"))
    with pytest.raises(SolverError):
        best_turn(parse_position(LAST_TILE), time_limit=0)
    with pytest.raises(SolverError):
        best_turn(parse_position(LAST_TILE), samples=0)
