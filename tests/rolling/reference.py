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
        # jokers never go alone: without a group of the symbol to join, none of them count
        most = rolled + jokers if has_group or (can_start and rolled > 0) else 0
        if most >= k:
            good += 1
    return Fraction(good, 6**n)


def most_laid_by_search(state: object, symbol: int) -> int:
    """After a roll (phase attack): the most dice of ``symbol`` (its rolled dice and jokers) the
    player to move can surely lay this turn, by walking every order of the rules engine's
    ``lay`` and ``joker`` actions (rerolls left out) and adding up what each one lays: a ``lay``
    of the symbol lays every rolled die of it, a joker on the wagon of the player's group of the
    symbol is one more. A trunk opened on the way counts at its worst tile."""
    from banditsolve.rolling.rules import (
        Joker,
        Lay,
        Reroll,
        apply_unchecked,
        chance_outcomes,
        legal_actions,
    )
    from banditsolve.rolling.state import State

    assert isinstance(state, State)
    assert state.phase == "attack"
    p = state.to_move
    memo: dict[State, int] = {}

    def more(s: State) -> int:
        if s in memo:
            return memo[s]
        if s.is_terminal or s.to_move != p:
            out = 0
        elif s.is_chance:
            out = min(more(apply_unchecked(s, a)) for a, _ in chance_outcomes(s))
        elif s.phase != "attack":
            out = 0
        else:
            out = 0
            for a in legal_actions(s):
                gain = 0
                if isinstance(a, Reroll):
                    continue
                if isinstance(a, Lay) and a.symbol == symbol:
                    gain = s.roll[symbol] + s.mroll[symbol]
                elif isinstance(a, Joker):
                    wagon = s.wagon(a.wagon)
                    g = None if wagon is None else wagon.groups[p]
                    gain = int(g is not None and g.symbol == symbol)
                out = max(out, gain + more(apply_unchecked(s, a)))
        memo[s] = out
        return out

    return more(state)


def lay_chances_by_sequences(state: object, symbol: int) -> list[Fraction]:
    """From the start of a turn: for each ``k`` from 0 to the dice rolled plus one, the chance
    that the roll lets the player lay ``k`` or more dice of ``symbol``, counting the ``6**n``
    ordered rolls one by one and searching each one's layings with :func:`most_laid_by_search`."""
    from banditsolve.rolling.rules import Roll, Rolled, apply_unchecked
    from banditsolve.rolling.state import State

    assert isinstance(state, State)
    assert state.phase == "start"
    at = apply_unchecked(state, Roll(0))
    n = at.airborne[0]
    most: dict[tuple[int, ...], int] = {}
    good = [0] * (n + 2)
    for seq in sequences(n):
        faces = tuple(seq.count(f) for f in FACES)
        if faces not in most:
            most[faces] = most_laid_by_search(apply_unchecked(at, Rolled(faces)), symbol)
        for k in range(n + 2):
            if most[faces] >= k:
                good[k] += 1
    return [Fraction(g, 6**n) for g in good]


def safe_from_empty_opponent(dice: int, distance: int, mine: int, need: int) -> bool:
    """Two players; no trunks; the opponent has nothing on the train and rolls all ``dice``.
    Their first group goes on the rearmost wagon and each new symbol one wagon forward, so to put
    dice on a wagon ``distance`` wagons in front of the rear they need ``distance`` other symbols
    first (one die each): at most ``dice - distance`` dice reach it, and only if
    ``distance <= 4`` (five symbols). The wagon stays mine if I meet its number and they cannot
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


def max_on_wagon_after_turn(state: object, wagon: int) -> int:
    """The most dice the player to move can have on wagon ``wagon`` when their turn is over, by
    walking every position the rules engine's actions reach (each once; no bound)."""
    from banditsolve.rolling.rules import apply_unchecked, legal_actions
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
            c = s.wagon(wagon)
            best = max(best, 0 if c is None else c.count(q))
            continue
        c = s.wagon(wagon)
        if c is None:  # taken outright by q (all their dice were there)
            best = max(best, 99)
            continue
        stack.extend(apply_unchecked(s, a) for a in legal_actions(s))
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
    """For every pair of the player's wagons, how many trunks swapping their groups carries off:
    the wagons whose trunk symbol matches the group that lands there, three dice or more."""
    out: dict[tuple[int, int], int] = {}
    wagons = sorted(groups)
    for i, a in enumerate(wagons):
        for b in wagons[i + 1 :]:
            swapped = {a: groups[b], b: groups[a]}
            out[a, b] = sum(
                1 for c, (sym, size) in swapped.items() if trunks.get(c) == sym and size >= 3
            )
    return out


def trunk_layings(
    gang: list[tuple[int, str, int]], roll: str, trunks: dict[int, str], wagons: list[int]
) -> set[int]:
    """The wagons whose trunk some laying of ``roll`` carries off, by listing every laying by hand:
    ``gang`` is the player's (wagon, symbol, size) front to back on the train ``wagons`` (ids front
    to back); a rolled symbol of the gang joins its wagon or is kept; the new symbols, in any order
    and any subset, fill the wagons in front of the gang one by one; jokers join any group."""
    symbols = {s for _, s, _ in gang}
    counts = {f: roll.count(f) for f in FACES}
    new = [s for s in "RMHBS" if counts[s] and s not in symbols]
    front = wagons.index(gang[0][0])
    found: set[int] = set()
    for join in itertools.product([False, True], repeat=len(symbols)):
        joined = dict(zip(sorted(symbols), join, strict=True))
        for r in range(len(new) + 1):
            for order in itertools.permutations(new, r):
                if front - r < 0:
                    continue
                groups = _laid_groups(gang, counts, joined, order, wagons[:front])
                found |= _carried(groups, trunks, counts["J"])
    return found


def _laid_groups(
    gang: list[tuple[int, str, int]], counts: dict[str, int], joined: dict[str, bool],
    order: tuple[str, ...], ahead: list[int],
) -> dict[int, tuple[str, int]]:
    """Each wagon's (symbol, size) of the gang after one laying: a ``joined`` symbol's dice join
    its wagon, the new symbols in ``order`` fill the wagons ``ahead`` of the gang from the back."""
    groups: dict[int, tuple[str, int]] = {}
    for wagon, s, size in gang:
        groups[wagon] = (s, size + (counts[s] if joined[s] else 0))
    for j, s in enumerate(order):
        groups[ahead[len(ahead) - 1 - j]] = (s, counts[s])
    return groups


def _carried(groups: dict[int, tuple[str, int]], trunks: dict[int, str], jokers: int) -> set[int]:
    """The wagons whose trunk symbol matches their group, three dice or more with the jokers."""
    found: set[int] = set()
    for wagon, (s, size) in groups.items():
        if trunks.get(wagon) == s and size + jokers >= 3:
            found.add(wagon)
    return found
