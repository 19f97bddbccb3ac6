"""Playing games over the contract: policies, playouts and seeded simulations.

These work for every registered game; a game's own fast paths may do the same faster, but must
give the same games for the same seeds.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from banditsolve.core.protocol import CHANCE, TERMINAL, Game, Policy
from banditsolve.errors import IllegalActionError

S = TypeVar("S")
A = TypeVar("A")
T = TypeVar("T")

#: The most steps any game of the library takes; a playout longer than this is a bug.
MAX_STEPS = 1_000_000


@dataclass(frozen=True, slots=True)
class Step(Generic[S, A]):
    """One step of a game: who acted (a player number or :data:`CHANCE`), the action, the
    state after it."""

    actor: int
    action: A
    state: S


def random_policy(game: Game[S, A]) -> Policy[S, A]:
    """A policy that picks any legal action uniformly."""

    def policy(state: S, rng: random.Random) -> A:
        actions = game.legal_actions(state)
        if not actions:
            raise IllegalActionError("no legal action: the game is over")
        return actions[rng.randrange(len(actions))]

    return policy


def sample_chance(game: Game[S, A], state: S, rng: random.Random) -> A:
    """One chance outcome of ``state`` drawn with its exact probability (see
    :func:`draw_outcome`)."""
    return draw_outcome(game.chance_outcomes(state), rng)


def draw_outcome(outcomes: Sequence[tuple[T, Fraction]], rng: random.Random) -> T:
    """One of ``outcomes`` (value, probability) drawn with one ``rng.random()`` call.

    The draw is exact and cheap: ``rng.random()`` is ``m / 2**53``, and the outcome is the first
    whose cumulative probability exceeds it, compared in whole numbers over the common
    denominator (no Fraction arithmetic per outcome). The whole-number cumulative table of a
    tuple of outcomes is kept while that same tuple object is alive and drawn from again (games
    hand out one shared tuple per distribution, such as a roll of n dice), so a repeated draw
    is one binary search; the outcome drawn is the same either way.
    """
    denominator, cumulative = _cumulative(outcomes)
    # x < c / denominator  <=>  c > floor(m * denominator / 2**53), c a whole number.
    threshold = (int(rng.random() * _TWO_53) * denominator) >> 53
    index = bisect.bisect_right(cumulative, threshold)
    return outcomes[min(index, len(outcomes) - 1)][0]


#: Cumulative tables of recently drawn tuples, by ``id``; each entry keeps its tuple alive, so
#: an ``id`` is never reused while its entry exists.
_TABLES: dict[int, tuple[object, int, list[int]]] = {}
_MAX_TABLES = 512


def _cumulative(outcomes: Sequence[tuple[T, Fraction]]) -> tuple[int, list[int]]:
    """The common denominator of ``outcomes`` and their running whole-number sums."""
    entry = _TABLES.get(id(outcomes))
    if entry is not None and entry[0] is outcomes:
        return entry[1], entry[2]
    denominator = math.lcm(*(p.denominator for _, p in outcomes))
    running = 0
    cumulative = []
    for _, p in outcomes:
        running += p.numerator * (denominator // p.denominator)
        cumulative.append(running)
    if isinstance(outcomes, tuple):  # only an immutable sequence may be remembered
        if len(_TABLES) >= _MAX_TABLES:
            _TABLES.clear()
        _TABLES[id(outcomes)] = (outcomes, denominator, cumulative)
    return denominator, cumulative


_TWO_53 = float(2**53)


def playout(
    game: Game[S, A],
    state: S,
    policies: Sequence[Policy[S, A]] | Policy[S, A],
    rng: random.Random,
    *,
    max_steps: int = MAX_STEPS,
) -> Iterator[Step[S, A]]:
    """Play from ``state`` to the end, yielding every step. ``policies`` is one per player, or
    one for all. Chance outcomes are drawn by :func:`sample_chance`."""
    for _ in range(max_steps):
        player = game.current_player(state)
        if player == TERMINAL:
            return
        if player == CHANCE:
            action = sample_chance(game, state, rng)
        else:
            policy = policies[player] if isinstance(policies, Sequence) else policies
            action = policy(state, rng)
        state = game.apply(state, action)
        yield Step(player, action, state)
    raise RuntimeError(f"game did not end within {max_steps} steps")  # pragma: no cover


def simulate(
    game: Game[S, A],
    *,
    seed: int,
    players: int | None = None,
    options: Mapping[str, object] | None = None,
    policies: Sequence[Policy[S, A]] | Policy[S, A] | None = None,
) -> tuple[S, list[Step[S, A]]]:
    """A whole seeded game: ``(first state, steps)``. The same seed gives the same game."""
    rng = random.Random(seed)
    start = game.new_game(players, options, seed=seed)
    chosen = random_policy(game) if policies is None else policies
    return start, list(playout(game, start, chosen, rng))


def resolve_policies(game: Game[S, A], names: Sequence[str], players: int) -> list[Policy[S, A]]:
    """Policies by name, one per player (one name is used for every player)."""
    from banditsolve.errors import RuleOptionError

    known = game.policies()
    if len(names) not in (1, players):
        raise RuleOptionError(
            f"give one policy for all players or one per player ({players}), not {len(names)}"
        )
    out: list[Policy[S, A]] = []
    for name in names if len(names) == players else list(names) * players:
        if name not in known:
            raise RuleOptionError(
                f"unknown policy {name!r} for {game.title}: choose from {', '.join(known)}"
            )
        out.append(known[name])
    return out
