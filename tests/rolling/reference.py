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


#: A small edition with every trunk content (ambush, roll-again, bomb, nothing) on every symbol
#: but the hat, which has no bomb (a second empty trunk instead).
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
            for c in ("nothing", "nothing" if s == "hat" else "bomb", "ambush", "roll-again")
        ],
    },
    "tinyx edition",
)


def max_on_car_after_turn(state: object, car: int) -> int:
    """The most dice the player to move can have on car ``car`` when their turn is over, by
    walking every position the rules engine's actions reach (each once; no bound)."""
    from banditsolve.rolling.rules import _apply, legal_actions
    from banditsolve.rolling.state import State

    assert isinstance(state, State)
    q = state.to_move
    best = -1
    stack = [state]
    seen: set[State] = set()
    while stack:
        s = stack.pop()
        if s in seen:
            continue
        seen.add(s)
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


def chance_to_lay_with_reroll(n: int, symbol: str, k: int) -> Fraction:
    """A player with a group of ``symbol`` on the train rolls ``n`` dice and may roll any of them
    once more: the best is to keep every die showing the symbol or a joker and roll the rest
    again. The chance of ``k`` or more such dice, counting sequences one by one."""
    good_first: dict[int, int] = {}
    for seq in sequences(n):
        g = sum(1 for x in seq if x in (symbol, "J"))
        good_first[g] = good_first.get(g, 0) + 1
    total = Fraction(0)
    for g, ways in good_first.items():
        if g >= k:
            total += Fraction(ways, 6**n)
            continue
        m = n - g
        hits = sum(1 for seq in sequences(m) if sum(1 for x in seq if x in (symbol, "J")) >= k - g)
        total += Fraction(ways, 6**n) * Fraction(hits, 6**m)
    return total


def bomb_share(edition: object, symbol: int, seen: list[tuple[int, int, int]]) -> Fraction:
    """The chance that a face-down trunk of ``symbol`` is a bomb: bomb tiles of that symbol over
    all its tiles, less the tiles already seen, read from the edition's list."""
    from banditsolve.rolling.edition import CONTENTS, Edition

    assert isinstance(edition, Edition)
    tiles = [(t.symbol, t.value, t.content) for t in edition.trunks if t.symbol == symbol]
    for tile in seen:
        tiles.remove(tile)
    bombs = sum(1 for t in tiles if CONTENTS[t[2]] == "bomb")
    return Fraction(bombs, len(tiles))


def ambush_trunks(
    groups: dict[int, tuple[str, int]], trunks: dict[int, str]
) -> dict[tuple[int, int], int]:
    """For every pair of the player's cars, how many trunks swapping their groups carries off:
    the cars whose trunk symbol matches the group that lands there, three dice or more."""
    out: dict[tuple[int, int], int] = {}
    cars = sorted(groups)
    for i, a in enumerate(cars):
        for b in cars[i + 1 :]:
            swapped = {a: groups[b], b: groups[a]}
            out[a, b] = sum(
                1 for c, (sym, size) in swapped.items() if trunks.get(c) == sym and size >= 3
            )
    return out


def trunk_layings(
    gang: list[tuple[int, str, int]], roll: str, trunks: dict[int, str], cars: list[int]
) -> set[int]:
    """The cars whose trunk some laying of ``roll`` carries off, by listing every laying by hand:
    ``gang`` is the player's (car, symbol, size) front to back on the train ``cars`` (ids front
    to back); a rolled symbol of the gang joins its car or is kept; the new symbols, in any order
    and any subset, fill the cars in front of the gang one by one; jokers join any group."""
    symbols = {s for _, s, _ in gang}
    counts = {f: roll.count(f) for f in FACES}
    new = [s for s in "RMHBS" if counts[s] and s not in symbols]
    front = cars.index(gang[0][0])
    found: set[int] = set()
    for join in itertools.product([False, True], repeat=len(symbols)):
        joined = dict(zip(sorted(symbols), join, strict=True))
        for r in range(len(new) + 1):
            for order in itertools.permutations(new, r):
                if front - r < 0:
                    continue
                groups: dict[int, tuple[str, int]] = {}
                for car, s, size in gang:
                    groups[car] = (s, size + (counts[s] if joined[s] else 0))
                for j, s in enumerate(order):
                    groups[cars[front - 1 - j]] = (s, counts[s])
                for car, (s, size) in groups.items():
                    if trunks.get(car) == s and size + counts["J"] >= 3:
                        found.add(car)
    return found
