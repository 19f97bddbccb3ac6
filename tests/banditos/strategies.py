"""Hypothesis strategies for Los Banditos."""

from __future__ import annotations

from hypothesis import strategies as st

from banditsolve.banditos.dice import ALL_DICE, Die

dice = st.sampled_from(ALL_DICE)


def dice_lists(min_size: int, max_size: int) -> st.SearchStrategy[list[Die]]:
    return st.lists(dice, min_size=min_size, max_size=max_size)


availability = st.tuples(*(st.integers(0, 6) for _ in range(4)))
