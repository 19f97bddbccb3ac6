"""The bundled puzzles: every answer re-derived independently (RB-ODDS-1, RB-SAFE-1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from banditsolve.rolling.edition import LETTERS
from banditsolve.rolling.puzzles import Puzzle, load_puzzles
from banditsolve.rolling.solvers.safety import is_safe
from banditsolve.rolling.solvers.turn import chance_to_lay
from tests.rolling import reference
from tests.rules import rules

PUZZLES = load_puzzles()


def test_there_are_twenty_puzzles() -> None:
    assert len(PUZZLES) >= 20
    assert {p.question for p in PUZZLES} == {"lay", "safe"}
    assert {p.answer for p in PUZZLES if p.question == "safe"} == {"safe", "unsafe"}


@rules("RB-ODDS-1")
@pytest.mark.parametrize("puzzle", [p for p in PUZZLES if p.question == "lay"], ids=lambda p: p.id)
def test_lay_puzzles(puzzle: Puzzle) -> None:
    state = puzzle.state()
    me = state.to_move
    n = 7 - sum(g.size for c in state.train if (g := c.groups[me]) is not None)
    symbols = [LETTERS[g.symbol] for c in state.train if (g := c.groups[me]) is not None]
    gang_front = min(i for i, c in enumerate(state.train) if c.groups[me] is not None)
    expected = reference.chance_to_lay(n, puzzle.symbol, puzzle.k, puzzle.symbol in symbols,
                                       gang_front > 0)
    assert Fraction(puzzle.answer) == expected
    assert chance_to_lay(state, LETTERS.index(puzzle.symbol), puzzle.k) == expected


@rules("RB-SAFE-1")
@pytest.mark.parametrize("puzzle", [p for p in PUZZLES if p.question == "safe"], ids=lambda p: p.id)
def test_safe_puzzles(puzzle: Puzzle) -> None:
    state = puzzle.state()
    car = state.car(puzzle.car)
    assert car is not None
    group = car.groups[puzzle.player]
    assert group is not None
    distance = len(state.train) - 1 - state.index(puzzle.car)
    expected = reference.safe_from_empty_opponent(7, distance, group.size, car.need)
    assert puzzle.answer == ("safe" if expected else "unsafe")
    verdict = is_safe(state, puzzle.car, puzzle.player, time_limit=30)
    assert verdict.safe is expected
