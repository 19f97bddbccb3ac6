"""Hypothesis strategies for Los Banditos."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from banditsolve.banditos.dice import ALL_DICE, Die
from banditsolve.banditos.game import GAME
from banditsolve.banditos.rules import Action
from banditsolve.banditos.state import DEFAULT_OPTIONS, Options, State, initial_state
from banditsolve.core.play import playout
from banditsolve.core.protocol import Policy

dice = st.sampled_from(ALL_DICE)


def dice_lists(min_size: int, max_size: int) -> st.SearchStrategy[list[Die]]:
    return st.lists(dice, min_size=min_size, max_size=max_size)


availability = st.tuples(*(st.integers(0, 6) for _ in range(4)))


def played_states(
    policies: tuple[Policy[State, Action], Policy[State, Action]],
    *,
    seed: int,
    options: Options = DEFAULT_OPTIONS,
) -> list[State]:
    """Every state after each step of one seeded game (``core.play.playout`` over ``GAME``)."""
    start = initial_state(options)
    return [step.state for step in playout(GAME, start, policies, random.Random(seed))]
