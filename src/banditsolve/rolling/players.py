"""Built-in policies for Rolling Bandits: ``random`` and ``greedy``.

- ``random``: any legal action, uniformly.
- ``greedy``: takes back its rearmost group when it has fewer than 3 dice to roll and would not
  steal that wagon; rolls every mercenary it has; picks the action whose resulting
  position is worth most by :func:`heuristic` (points taken, points it would steal now, trunks,
  dice on the train), the first in the legal order on ties.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from banditsolve.errors import IllegalActionError
from banditsolve.rolling.rules import (
    Action,
    Reroll,
    Roll,
    TakeBack,
    apply_unchecked,
    edition_of,
    legal_actions,
)
from banditsolve.rolling.state import State

Player = Callable[[State, random.Random], Action]


def random_player(state: State, rng: random.Random) -> Action:
    actions = legal_actions(state)
    if not actions:
        raise IllegalActionError("no legal action: the game is over")
    return actions[rng.randrange(len(actions))]


def heuristic(state: State, player: int) -> float:
    """A rough worth of ``state`` for ``player``: points, plus the points of wagons they would
    steal now, plus a little per die on the train and per die they lead by."""
    value = float(state.score(player))
    for wagon in state.train:
        mine = wagon.count(player)
        if not mine:
            continue
        if state.stealer(wagon) == player:
            value += wagon.points * 0.9
        others = max((wagon.count(q) for q in range(state.players) if q != player), default=0)
        value += 0.05 * mine + 0.1 * max(0, mine - others) / max(1, wagon.need)
    return value


def greedy_player(state: State, rng: random.Random) -> Action:
    actions = legal_actions(state)
    if not actions:
        raise IllegalActionError("no legal action: the game is over")
    p = state.to_move
    if state.phase == "start":
        gang = state.gang(p)
        available = edition_of(state).dice_per_colour - state.on_train(p)[0]
        if gang and available < 3 and state.stealer(state.train[gang[-1]]) != p:
            return TakeBack()
        rolls = [a for a in actions if isinstance(a, Roll)]
        return rolls[-1]
    best: Action | None = None
    best_value = float("-inf")
    for action in actions:
        if isinstance(action, TakeBack | Reroll):
            continue
        after = apply_unchecked(state, action)
        value = heuristic(after, p)
        if value > best_value + 1e-9:
            best, best_value = action, value
    return best if best is not None else actions[-1]


PLAYERS: dict[str, Player] = {"random": random_player, "greedy": greedy_player}
