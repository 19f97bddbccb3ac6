"""The tunnel games' built-in policy: :func:`greedy_policy` (BA-NOTE-5 for Bandida's choices)."""

from __future__ import annotations

import random

from banditsolve.core.protocol import Policy as CorePolicy
from banditsolve.errors import IllegalActionError
from banditsolve.tunnels.cards import PORT_MASK
from banditsolve.tunnels.geometry import SIDE_MASK, STEP, Cell, Placement
from banditsolve.tunnels.rules import (
    cards_to_lay,
    inside,
    legal_actions,
    random_choice,
    sample_chance,
)
from banditsolve.tunnels.state import Action, GameState
from banditsolve.tunnels.table import (
    RIM_TOUCH_SHIFT,
    SIGNATURE_BITS,
    TOUCH_COUNT,
    Table,
    creates_hole,
    local_placements,
    signature,
)

#: A policy of the tunnel game (the core contract's policy type).
Policy = CorePolicy[GameState, Action]

#: A placement found by :func:`greedy_policy`: ``(exit change, code, y, x, rotation, risky)``
#: (risky: it may wall an exit into a one-cell hole).
Found = tuple[int, int, int, int, int, bool]


def greedy_policy(state: GameState, rng: random.Random) -> Action:
    """A simple built-in policy: the placement leaving the fewest exits, avoiding holes.

    Ties are broken by ``rng``. With no placement, the only legal action (change or pass); a
    decision that is not a placement (Bandida's discards and map removals) is a uniformly
    random legal choice.
    """
    if state.is_chance:
        return sample_chance(state, rng)
    if state.outcome is not None:
        raise IllegalActionError("the game is over")
    choice = random_choice(state, rng)
    if choice is not None:
        return choice
    found = _found(state, cards_to_lay(state))
    best = _least_without_holes(state.table, found)
    if not best and found and state.options.hole != "illegal":
        _, code, y, x, r, _ = found[0]
        best = [Placement(code, x, y, r)]  # the first wall of the least group
    if not best:
        return legal_actions(state)[-1]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def _danger(table: Table) -> set[Cell]:
    """The cells whose covering may wall an exit into a hole: a card can do it only by
    covering the open side of an empty cell walled on three sides (a card touches a cell on
    one side at most)."""
    danger = set()
    for c, v in table.rim.items():
        if TOUCH_COUNT[v] == 3:
            dx, dy = STEP[(~v >> RIM_TOUCH_SHIFT & SIDE_MASK).bit_length() - 1]
            danger.add((c[0] + dx, c[1] + dy))
    return danger


def _found(state: GameState, hand: tuple[int, ...]) -> list[Found]:
    """Every placement of ``hand``, as :func:`~banditsolve.tunnels.table.candidates` finds them
    from the placements of each front cell's local signature, sorted."""
    table = state.table
    area = state.options.area
    rim = table.rim
    danger = _danger(table)
    keyed = [(code, (code & PORT_MASK) << SIGNATURE_BITS) for code in set(hand)]
    found: list[Found] = []
    for t in table.front_rim:
        tx, ty = t
        s = signature(rim, t)
        near = t in danger
        for code, k in keyed:
            for delta, adx, ady, r, odx, ody in local_placements(k | s):
                x, y = tx + adx, ty + ady
                if area is None or inside(Placement(code, x, y, r), area):
                    risky = near or (tx + odx, ty + ody) in danger
                    found.append((delta, code, y, x, r, risky))
    found.sort()
    return found


def _least_without_holes(table: Table, found: list[Found]) -> list[Placement]:
    """The placements of the least exit change that wall no exit into a hole (a placement
    that closes the last exit never does), group after group until one has some."""
    exits = table.exit_count
    i, n = 0, len(found)
    while i < n:
        delta = found[i][0]
        best: list[Placement] = []
        while i < n and found[i][0] == delta:
            _, code, y, x, r, risky = found[i]
            p = Placement(code, x, y, r)
            if not (risky and exits + delta > 0 and creates_hole(table, p)):
                best.append(p)
            i += 1
        if best:
            return best
    return []
