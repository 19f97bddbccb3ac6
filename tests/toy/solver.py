"""The toy's one question: the chance that the player to move wins with perfect play of
everyone (each player maximises their own chance; an exact expectimax over the die)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from tests.toy.rules import apply, chance_outcomes, legal_actions, outcome
from tests.toy.state import State, Take


@cache
def values(state: State) -> tuple[Fraction, ...]:
    """Each player's chance of winning from ``state`` (exact)."""
    done = outcome(state)
    if done is not None:
        return tuple(Fraction(r).limit_denominator() for r in done.returns)
    if state.is_chance:
        total = [Fraction(0)] * state.players
        for action, p in chance_outcomes(state):
            for i, v in enumerate(values(apply(state, action))):
                total[i] += p * v
        return tuple(total)
    return max((values(apply(state, a)) for a in legal_actions(state)),
               key=lambda v: v[state.to_move])


def best_take(state: State) -> tuple[Take, Fraction]:
    """The best take of the player to move (after their roll) and their chance with it."""
    me = state.to_move
    takes = [a for a in legal_actions(state) if isinstance(a, Take)]
    options = [(values(apply(state, a))[me], a) for a in takes]
    return max(options, key=lambda t: (t[0], -t[1].count))[::-1]
