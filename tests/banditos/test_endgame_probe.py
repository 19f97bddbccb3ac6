"""The compact search's probe for certain wins (``CompactSearch.sure``) against the plain
expectimax of the rules engine: it says yes exactly when the reference value is a certain win for
that player, and the search's values with the probe on, off, or cut short by a tiny allowance are
the reference's, under every rule option."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

import pytest

from banditsolve.banditos.solvers.compact import compact
from banditsolve.banditos.solvers.endgame import CompactSolver
from banditsolve.banditos.solvers.expectimax import CompactSearch
from banditsolve.banditos.state import Options, State
from tests.banditos.test_endgame_compact import OPTIONS, endgame_positions
from tests.banditos.test_puzzles import plain_expectimax
from tests.profiles import scaled
from tests.rules import rules


@contextmanager
def _deep() -> Iterator[None]:
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


@rules("LB-NOTE-3", "LB-END-1", "LB-CLAIM-2", "LB-TURN-6", "LB-OPT-1", "LB-OPT-4")
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o.changed() or "default"))
def test_the_probe_finds_exactly_the_certain_wins_of_the_reference(options: Options) -> None:
    """For either player, ``sure`` (with no limit on its allowance, in a search that has no
    exact values memoised) holds exactly when the reference gives that player probability 1."""
    with _deep():
        memo: dict[State, Fraction] = {}
        answers = {True: 0, False: 0}
        for state in endgame_positions(scaled(8, 40), 20261205, options, max_tiles=2):
            expected = plain_expectimax(state, memo)
            for player in (0, 1):
                search = CompactSearch(options, probe=False)
                search.probe_allowance = 10**9
                sure = search._sure_within(compact(state), player)
                certain = expected == (1 if player == 0 else 0)
                assert sure == certain, (state.notation(), player)
                answers[sure] += 1
        assert answers[True]
        assert answers[False]


@rules("LB-END-1", "LB-TURN-5")
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o.changed() or "default"))
def test_values_with_the_probe_on_off_and_cut_short_are_the_reference(options: Options) -> None:
    """The probe only decides when a certain win is proven; cut short by its allowance it
    decides nothing. Every way gives the reference value (two tiles) and the same values as
    the search without the probe (three tiles)."""
    with _deep():
        memo: dict[State, Fraction] = {}
        on = CompactSolver(options=options)
        off = CompactSolver(options=options, probe=False)
        short = CompactSolver(options=options)
        short.search.probe_allowance = 3
        assert on.search.probe
        assert not off.search.probe
        for state in endgame_positions(scaled(5, 25), 20261206, options, max_tiles=2):
            expected = plain_expectimax(state, memo)
            assert on.value(state) == expected, state.notation()
            assert off.value(state) == expected, state.notation()
            assert short.value(state) == expected, state.notation()
        for state in endgame_positions(scaled(2, 8), 20261207, options, max_tiles=3):
            assert on.value(state) == off.value(state) == short.value(state), state.notation()
        assert any(on.search.sure_memo), "the probe was not used"
