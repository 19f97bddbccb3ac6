"""Independent reference computations for Rolling Bandits tests (not the code under test).

Everything here counts dice sequences one by one (6**n of them) or uses closed forms worked out
by hand from the rules, never the engine's roll tables or searches.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from banditsolve.rolling.edition import parse_edition

FACES = "RMHBSJ"

#: A small edition for fast exhaustive tests: three dice per colour.
TINY = parse_edition(
    {
        "name": "tiny",
        "dice_per_colour": 3,
        "locomotive": {"need": 3, "points": 3},
        "wagons": [
            {"need": 1, "points": 1, "count": 4},
            {"need": 2, "points": 2, "count": 5},
        ],
        "trunks": [
            {"symbol": s, "value": 1, "content": c}
            for s in ("revolver", "mask", "hat", "boot", "horseshoe")
            for c in ("nothing", "bomb")
        ],
    },
    "tiny edition",
)


def sequences(n: int) -> itertools.product[tuple[str, ...]]:
    return itertools.product(FACES, repeat=n)


def roll_distribution(n: int) -> dict[str, Fraction]:
    """Every ordered roll of ``n`` dice counted by its sorted letters."""
    counts: dict[str, int] = {}
    for seq in sequences(n):
        key = "".join(sorted(seq, key=FACES.index)) or "-"
        counts[key] = counts.get(key, 0) + 1
    return {k: Fraction(v, 6**n) for k, v in counts.items()}


def chance_to_lay(n: int, symbol: str, k: int, has_group: bool, can_start: bool) -> Fraction:
    """Chance that ``n`` dice give ``k`` dice of ``symbol`` to lay (the symbol itself plus
    jokers), when the player already has the symbol on the train (``has_group``) or may start a
    new group (``can_start``)."""
    good = 0
    for seq in sequences(n):
        rolled = seq.count(symbol)
        jokers = seq.count("J")
        if (has_group or (can_start and rolled > 0)) and rolled + jokers >= k:
            good += 1
    return Fraction(good, 6**n)


def safe_from_empty_opponent(dice: int, distance: int, mine: int, need: int) -> bool:
    """Two players; no trunks; the opponent has nothing on the train and rolls all ``dice``.
    Their first group goes on the rearmost car and each new symbol one car forward, so to put
    dice on a car ``distance`` cars in front of the rear they need ``distance`` other symbols
    first (one die each): at most ``dice - distance`` dice reach it, and only if
    ``distance <= 4`` (five symbols). The car stays mine if I meet its number and they cannot
    reach my count."""
    if mine < need:
        return False
    if distance > 4 or distance >= dice:
        return True
    return dice - distance < mine


#: A small edition with every trunk content (ambush, roll-again, bomb, nothing) on every symbol.
TINY_TRUNKS = parse_edition(
    {
        "name": "tinyx",
        "dice_per_colour": 3,
        "locomotive": {"need": 3, "points": 3},
        "wagons": [
            {"need": 1, "points": 1, "count": 4},
            {"need": 2, "points": 2, "count": 5},
        ],
        "trunks": [
            {"symbol": s, "value": 1, "content": c}
            for s in ("revolver", "mask", "hat", "boot", "horseshoe")
            for c in ("nothing", "bomb", "ambush", "roll-again")
        ],
    },
    "tinyx edition",
)


def max_on_car_after_turn(state: object, car: int) -> int:
    """The most dice the player to move can have on car ``car`` when their turn is over, by
    walking every line of the rules engine's actions (no sharing, no bound)."""
    from banditsolve.rolling.rules import _apply, legal_actions
    from banditsolve.rolling.state import State

    assert isinstance(state, State)
    q = state.to_move
    best = -1
    stack = [state]
    while stack:
        s = stack.pop()
        if s.is_terminal or s.to_move != q:
            c = s.car(car)
            best = max(best, 0 if c is None else c.count(q))
            continue
        c = s.car(car)
        if c is None:  # taken outright by q (all their dice were there)
            best = max(best, 99)
            continue
        stack.extend(_apply(s, a) for a in legal_actions(s))
    return best
