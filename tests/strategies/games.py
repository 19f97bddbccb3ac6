"""Random legal games of any registered game, played through the game contract only.

:func:`play` records every state a seeded random game visits; :func:`reachable_states` is a
hypothesis strategy over such states. Nothing here knows one game from another.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

import banditsolve
from banditsolve.core.play import sample_chance
from banditsolve.core.protocol import CHANCE, TERMINAL

#: A random game longer than this is taken as a game that never ends (a bug).
MAX_STEPS = 20_000


def names() -> tuple[str, ...]:
    """Every registered game, as the registry lists it."""
    return banditsolve.games()


@dataclass
class Visit:
    """One state of a random game: the state, who was to act, the action taken (None at the
    end)."""

    state: Any
    actor: int
    action: Any = None


@dataclass
class Trace:
    """A seeded random game: its seed, player count and every state visited in order."""

    seed: int
    players: int | None
    options: Mapping[str, object]
    visits: list[Visit] = field(default_factory=list)

    @property
    def last(self) -> Any:
        return self.visits[-1].state


def player_counts(game: Any) -> tuple[int, ...]:
    return tuple(range(game.min_players, game.max_players + 1))


def play(
    game: Any,
    seed: int,
    *,
    players: int | None = None,
    options: Mapping[str, object] | None = None,
    max_steps: int = MAX_STEPS,
    stop_at: int | None = None,
    mix: bool = False,
    seeded_setup: bool = True,
) -> Trace:
    """A random legal game: uniform over ``legal_actions`` at player nodes, chance drawn with
    its probabilities (``core.play.sample_chance``). Raises ``AssertionError`` if it does not end
    within ``max_steps``. With ``stop_at`` the game stops (unfinished) after that many
    states. With ``mix`` the game's other built-in policies choose most moves (random
    games of some games end early; their stronger policies reach deeper states); a policy's
    choice that is not legal is ignored here (the contract's policy check reports it).
    Without ``seeded_setup`` the game starts with ``seed=None``, so that a game which settles
    its hidden set-up from the seed plays it out as chance nodes instead."""
    rng = random.Random(seed)
    others = [p for n, p in game.policies().items() if n != "random"] if mix else []
    trace = Trace(seed, players, dict(options or {}))
    state = game.new_game(players, options, seed=seed if seeded_setup else None)
    for _ in range(max_steps):
        actor = game.current_player(state)
        visit = Visit(state, actor)
        trace.visits.append(visit)
        if actor == TERMINAL or (stop_at is not None and len(trace.visits) >= stop_at):
            return trace
        if actor == CHANCE:
            action = sample_chance(game, state, rng)
        else:
            actions = game.legal_actions(state)
            action = actions[rng.randrange(len(actions))]
            if others and rng.random() < 0.8:
                choice = rng.choice(others)(state, random.Random(rng.random()))
                if any(choice == a for a in actions):
                    action = choice
        visit.action = action
        state = game.apply(state, action)
    raise AssertionError(f"{game.name}: seed {seed} did not end within {max_steps} steps")


def seeded_games(game: Any, count: int, *, first_seed: int = 0) -> list[Trace]:
    """``count`` random games at seeds ``first_seed...``, cycling over the allowed player
    counts; every other game mixes in the game's own policies, and every third starts
    without a seed (its set-up drawn at chance nodes)."""
    counts = player_counts(game)
    return [
        play(
            game,
            seed,
            players=counts[seed % len(counts)],
            mix=seed % 2 == 1,
            seeded_setup=seed % 3 != 2,
        )
        for seed in range(first_seed, first_seed + count)
    ]


def reachable_states(game: Any, *, max_depth: int = 400) -> st.SearchStrategy[Any]:
    """A state some random legal game of ``game`` reaches (seed and depth drawn)."""

    counts = player_counts(game)

    def build(seed: int, depth: int) -> Any:
        return play(game, seed, players=counts[seed % len(counts)], stop_at=depth + 1).last

    return st.builds(build, st.integers(0, 2**32 - 1), st.integers(0, max_depth))
