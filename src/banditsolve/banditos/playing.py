"""Playing whole games: a seeded simulation loop over the pure rules."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from banditsolve.banditos.players import Player
from banditsolve.banditos.rules import Action, apply, sample_chance
from banditsolve.banditos.state import DEFAULT_OPTIONS, Options, State, initial_state


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a game: who acted (``"chance"`` or a player number), the action and the
    position after it."""

    actor: str | int
    action: Action
    state: State


def play(
    players: tuple[Player, Player],
    *,
    seed: int,
    options: Options = DEFAULT_OPTIONS,
    start: State | None = None,
    max_steps: int = 100_000,
) -> Iterator[Step]:
    """Play one game from ``start`` (default: a new game) to its end, yielding every step."""
    rng = random.Random(seed)
    state = initial_state(options) if start is None else start
    for _ in range(max_steps):
        if state.is_terminal:
            return
        if state.is_chance:
            action: Action = sample_chance(state, rng)
            actor: str | int = "chance"
        else:
            actor = state.to_move
            action = players[state.to_move](state, rng)
        state = apply(state, action)
        yield Step(actor, action, state)
    raise RuntimeError(f"game did not end within {max_steps} steps")  # pragma: no cover
