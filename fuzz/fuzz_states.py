"""States of seeded random games, the ground of the fuzz targets: the action target reads
actions on :func:`sample`'s states, and ``run.py`` seeds the state readers' corpora with
:func:`walk`'s (shared by ``targets.py`` and ``run.py``)."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from banditsolve.core.play import sample_chance
from banditsolve.core.protocol import CHANCE, TERMINAL
from banditsolve.core.registry import load_game


@cache
def walk(name: str, seed: int, most: int = 600) -> tuple[tuple[Any, bool], ...]:
    """Every state of a seeded random game of ``name``, each with whether a player decides
    there (not chance, not over)."""
    game: Any = load_game(name)
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    out = []
    for _ in range(most):
        who = game.current_player(state)
        out.append((state, who not in (CHANCE, TERMINAL)))
        if who == TERMINAL:
            break
        if who == CHANCE:
            state = game.apply(state, sample_chance(game, state, rng))
        else:
            state = game.apply(state, rng.choice(game.legal_actions(state)))
    return tuple(out)


@cache
def sample(name: str, count: int = 12) -> tuple[Any, ...]:
    """About ``count`` states of one seeded game at which a player decides."""
    states = [s for s, decides in walk(name, 7) if decides]
    return tuple(states[:: max(1, len(states) // count)])
