"""Two simple built-in players, for simulations and the ``play`` command.

- ``random``: any legal action, uniformly (it gives tiles away freely).
- ``greedy``: claims every tile it safely can (most valuable first), rolls, puts each die where
  its side's best reachable combination (weighted by the tile's value) gains most, gives up the
  cheapest tile only when a die has nowhere to go, then ends the turn.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from banditsolve.banditos.actions import Action, Claim, EndTurn, GiveUp, Place, Roll
from banditsolve.banditos.claim import best_completion
from banditsolve.banditos.combos import rank_codes
from banditsolve.banditos.rules import apply, legal_actions
from banditsolve.banditos.state import MAX_SIDE, State
from banditsolve.errors import IllegalActionError

Player = Callable[[State, random.Random], Action]


def random_player(state: State, rng: random.Random) -> Action:
    actions = legal_actions(state)
    if not actions:
        raise IllegalActionError("no legal action: the game is over")
    return rng.choice(actions)


def _potential(state: State, slot: int, codes: tuple[int, ...]) -> int:
    """The best rank the side could still reach (strict availability), or -1 if none."""
    tile = state.row[slot - 1]
    assert tile is not None
    avail = state.availability(slot, "strict")
    if len(codes) == MAX_SIDE:
        return rank_codes(codes[0], codes[1], codes[2])
    used = [0, 0, 0, 0]
    for code in codes:
        used[code // 6] += 1
    remaining = (
        max(0, avail[0] - used[0]),
        max(0, avail[1] - used[1]),
        max(0, avail[2] - used[2]),
        max(0, avail[3] - used[3]),
    )
    best = best_completion(codes, remaining)
    if best is None:
        return -1
    full = codes + best
    return rank_codes(full[0], full[1], full[2])


def greedy_player(state: State, rng: random.Random) -> Action:
    actions = legal_actions(state)
    if not actions:
        raise IllegalActionError("no legal action: the game is over")
    claims = [a for a in actions if isinstance(a, Claim)]
    if claims:
        return max(claims, key=lambda a: (state.row[a.slot - 1] or _NO_TILE).value)
    if any(isinstance(a, Roll) for a in actions):
        return Roll()
    places = [a for a in actions if isinstance(a, Place)]
    if places:
        return _best_place(state, places, rng)
    if state.hand and EndTurn() in actions:  # option LB-OPT-4: the dice go back to the bag
        return EndTurn()
    if state.hand:  # a die with nowhere to go: give up the cheapest tile
        return _cheapest_give(state, actions)
    return EndTurn()


def _best_place(state: State, places: list[Place], rng: random.Random) -> Place:
    """``greedy``'s placement: the one after which the side's best reachable combination,
    weighted by the tile's value, is highest (ties broken at random)."""
    me = state.to_move

    def gain(action: Place) -> tuple[float, float]:
        tile = state.row[action.slot - 1]
        assert tile is not None
        side = tuple(d.code for d in tile.side(me))
        after = _potential(state, action.slot, (*side, action.die.code))
        return (tile.value * after / 3584.0, rng.random())

    return max(places, key=gain)


def _cheapest_give(state: State, actions: list[Action]) -> Action:
    """The give-up among ``actions`` of the cheapest tile (the lowest slot among equals)."""
    gives = [a for a in actions if isinstance(a, GiveUp)]
    return min(gives, key=lambda a: ((state.row[a.slot - 1] or _NO_TILE).value, a.slot))


class _NoTile:
    value = 0


_NO_TILE = _NoTile()

def claim_aware_player(state: State, rng: random.Random) -> Action:
    """``claim-aware``: greedy, but it places a die where the tile can then be claimed at once
    (the most valuable such tile), and it avoids filling a side of three dice that cannot be
    claimed (the claim rule under the game's proof reading) while another placement remains;
    otherwise it plays as ``greedy``. A study's policy (not among :data:`PLAYERS`)."""
    actions = legal_actions(state)
    if any(isinstance(a, Claim | Roll) for a in actions):
        return greedy_player(state, rng)  # claim the best safe tile, or roll
    places = [a for a in actions if isinstance(a, Place)]
    if not places:
        return greedy_player(state, rng)
    me = state.to_move
    claimable: list[tuple[int, Place]] = []
    stuck: set[Action] = set()
    for action in places:
        after = apply(state, action)
        tile = after.row[action.slot - 1]
        if tile is None or len(tile.side(me)) < MAX_SIDE:
            continue
        if Claim(action.slot) in legal_actions(after):
            claimable.append((tile.value, action))
        else:
            stuck.add(action)
    if claimable:
        return max(claimable, key=lambda t: (t[0], -t[1].slot))[1]
    choice = greedy_player(state, rng)
    if choice in stuck:
        rest = [a for a in places if a not in stuck]
        if rest:
            return rest[rng.randrange(len(rest))]
    return choice


PLAYERS: dict[str, Player] = {"random": random_player, "greedy": greedy_player}
