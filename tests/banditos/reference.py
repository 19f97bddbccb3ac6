"""Plain, independent restatements of the Los Banditos rules, written for the tests only.

Nothing here imports the code under test except the ``Die`` value type.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

from banditsolve.banditos.dice import ALL_DICE, Colour, Die

CATEGORY_ORDER = [
    "singles",
    "pair",
    "colour pair",
    "straight",
    "three of a kind",
    "colour straight",
    "colour three of a kind",
]


def reference_key(dice: Sequence[Die]) -> tuple[int, ...]:
    """Category index, then the tie-break values, straight from the rulebook's wording."""
    values = sorted((d.value for d in dice), reverse=True)
    colours = {d.colour for d in dice}
    one_colour = len(colours) == 1
    all_same_value = len(set(values)) == 1
    consecutive = values[0] - values[1] == 1 and values[1] - values[2] == 1
    if all_same_value and one_colour:
        return (CATEGORY_ORDER.index("colour three of a kind"), values[0])
    if consecutive and one_colour:
        return (CATEGORY_ORDER.index("colour straight"), values[0])
    if all_same_value:
        return (CATEGORY_ORDER.index("three of a kind"), values[0])
    if consecutive:
        return (CATEGORY_ORDER.index("straight"), values[0])
    for a, b in itertools.combinations(range(3), 2):
        if dice[a].value == dice[b].value:
            third = next(d for k, d in enumerate(dice) if k not in (a, b))
            same_colour = dice[a].colour == dice[b].colour
            name = "colour pair" if same_colour else "pair"
            return (CATEGORY_ORDER.index(name), dice[a].value, third.value)
    return (CATEGORY_ORDER.index("singles"), *values)


def completions(theirs: Sequence[Die], available: Sequence[int]) -> list[tuple[Die, ...]]:
    """Every multiset of dice that fills ``theirs`` to three, within the colour counts."""
    need = 3 - len(theirs)
    out = []
    for extra in itertools.combinations_with_replacement(ALL_DICE, need):
        per_colour = [0, 0, 0, 0]
        for die in extra:
            per_colour[die.colour] += 1
        if all(per_colour[c] <= available[c] for c in range(4)):
            out.append(extra)
    return out


def brute_force_safe(
    mine: Sequence[Die], theirs: Sequence[Die], available: Sequence[int]
) -> bool:
    """A claim is safe when no completion of the opponent's side beats it strictly."""
    claim = reference_key(mine)
    return all(
        reference_key(tuple(theirs) + extra) <= claim for extra in completions(theirs, available)
    )


def odds_by_colour_sequences(
    mine: tuple[Die, ...], theirs: tuple[Die, ...], bag: tuple[int, ...]
) -> tuple[Fraction, Fraction, Fraction]:
    """Colours drawn one by one (probability by what is left), values uniform."""
    need = 3 - len(theirs)
    claim = reference_key(mine)
    out = [Fraction(0)] * 3
    for colours in itertools.product(range(4), repeat=need):
        left = list(bag)
        p = Fraction(1)
        for c in colours:
            if left[c] == 0:
                p = Fraction(0)
                break
            p *= Fraction(left[c], sum(left))
            left[c] -= 1
        if not p:
            continue
        for values in itertools.product(range(1, 7), repeat=need):
            side = theirs + tuple(Die(Colour(c), v) for c, v in zip(colours, values, strict=True))
            key = reference_key(side)
            out[0 if key > claim else 1 if key == claim else 2] += p / 6**need
    return out[0], out[1], out[2]


def physical(
    mine: Sequence[Die], theirs: Sequence[Die], available: Sequence[int]
) -> tuple[int, int, int, int]:
    """``available`` capped so that no colour has more than six dice in all."""
    shown = [0, 0, 0, 0]
    for die in (*mine, *theirs):
        shown[die.colour] += 1
    capped = [min(available[c], 6 - shown[c]) for c in range(4)]
    return (capped[0], capped[1], capped[2], capped[3])
