"""The toy's policies."""

from __future__ import annotations

import random

from tests.toy.rules import legal_actions
from tests.toy.state import Action, State, Take


def greedy(state: State, rng: random.Random) -> Action:
    """Take the last counters when the roll allows it, else one."""
    actions = legal_actions(state)
    takes = [a for a in actions if isinstance(a, Take)]
    if takes and takes[-1].count == state.pile:
        return takes[-1]
    return takes[0] if takes else actions[rng.randrange(len(actions))]
