"""``core.play.draw_outcome`` draws exactly: the outcome is the first whose cumulative
probability exceeds ``rng.random()``, computed here with Fractions, whether or not the
outcomes' cumulative table was remembered from an earlier draw."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from banditsolve.core.play import draw_outcome


def reference(outcomes: list[tuple[int, Fraction]], x: float) -> int:
    """The first outcome whose running probability exceeds ``x``, in exact Fractions."""
    exact = Fraction(x)
    running = Fraction(0)
    for value, p in outcomes:
        running += p
        if running > exact:
            return value
    return outcomes[-1][0]


@st.composite
def distributions(draw: st.DrawFn) -> list[tuple[int, Fraction]]:
    weights = draw(st.lists(st.integers(1, 10**6), min_size=1, max_size=40))
    total = sum(weights)
    return [(i, Fraction(w, total)) for i, w in enumerate(weights)]


@given(outcomes=distributions(), seed=st.integers(0, 2**32))
def test_draw_matches_the_exact_reference(outcomes: list[tuple[int, Fraction]], seed: int) -> None:
    shared = tuple(outcomes)
    rng = random.Random(seed)
    mirror = random.Random(seed)
    for _ in range(20):
        # The same tuple each time (its table remembered), and a fresh list (never remembered).
        got = draw_outcome(shared, rng)
        x = mirror.random()
        assert got == reference(outcomes, x)
        assert draw_outcome(list(outcomes), random.Random(seed)) == draw_outcome(
            list(outcomes), random.Random(seed)
        )


def test_a_remembered_table_is_not_reused_for_another_tuple() -> None:
    """Tuples made and dropped one after another (their ids may be reused) each draw by their
    own probabilities."""
    rng = random.Random(7)
    mirror = random.Random(7)
    for n in range(2, 300):
        outcomes = tuple((i, Fraction(i + 1, n * (n + 1) // 2)) for i in range(n))
        for _ in range(5):
            assert draw_outcome(outcomes, rng) == reference(list(outcomes), mirror.random())
        del outcomes


def test_edge_of_the_cumulative_sums() -> None:
    """x just below and at a cumulative boundary picks the outcomes on either side."""

    class Fixed(random.Random):
        def __init__(self, x: float) -> None:
            super().__init__(0)
            self.x = x

        def random(self) -> float:
            return self.x

    halves = ((0, Fraction(1, 2)), (1, Fraction(1, 2)))
    assert draw_outcome(halves, Fixed(0.5 - 2**-53)) == 0
    assert draw_outcome(halves, Fixed(0.5)) == 1
    assert draw_outcome(halves, Fixed(0.0)) == 0
    assert draw_outcome(halves, Fixed(1 - 2**-53)) == 1
