"""The seven combinations of three dice and their total order (rules LB-COMBO-*).

``rank(dice)`` returns a :class:`Rank`, a small int whose natural order is the seeds' order:
category first, then the tie-breaks of that category. Equal ranks are ties, broken in the game
by whoever completed the side first.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from functools import cache
from typing import NewType

from banditsolve.banditos.dice import Die, expect_dice
from banditsolve.core.io import json_type
from banditsolve.core.text import shown
from banditsolve.errors import ArgumentTypeError, NotationError


class Category(IntEnum):
    """Combination categories, worst to best."""

    SINGLES = 0
    PAIR = 1
    COLOUR_PAIR = 2
    STRAIGHT = 3
    THREE_OF_A_KIND = 4
    COLOUR_STRAIGHT = 5
    COLOUR_THREE_OF_A_KIND = 6

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")


#: A combination's rank: ``category << 9 | a << 6 | b << 3 | c`` with the tie-break values
#: ``a, b, c`` (each 0-6, 0 when unused) in order of significance.
Rank = NewType("Rank", int)


def make_rank(category: Category, a: int = 0, b: int = 0, c: int = 0) -> Rank:
    return Rank(category << 9 | a << 6 | b << 3 | c)


def rank_category(rank: Rank) -> Category:
    return Category(rank >> 9)


def rank_values(rank: Rank) -> tuple[int, int, int]:
    return (rank >> 6) & 7, (rank >> 3) & 7, rank & 7


def rank_codes(d1: int, d2: int, d3: int) -> Rank:
    """Rank three dice given as codes ``colour * 6 + value - 1`` (the fast path)."""
    c1, v1 = divmod(d1, 6)
    c2, v2 = divmod(d2, 6)
    c3, v3 = divmod(d3, 6)
    v1 += 1
    v2 += 1
    v3 += 1
    # Sort values descending, keeping nothing else: categories below need only counts.
    if v1 < v2:
        v1, v2 = v2, v1
    if v2 < v3:
        v2, v3 = v3, v2
        if v1 < v2:
            v1, v2 = v2, v1
    same_colour = c1 == c2 == c3
    if v1 == v3:  # all three values equal
        return Rank((6 if same_colour else 4) << 9 | v1 << 6)
    if v1 - 1 == v2 and v2 - 1 == v3:
        return Rank((5 if same_colour else 3) << 9 | v1 << 6)
    if v1 == v2 or v2 == v3:
        pair = v2
        kicker = v3 if v1 == v2 else v1
        # Not three equal values, so two identical dice (same colour and value) are the pair:
        # a colour pair.
        coloured = d1 in (d2, d3) or d2 == d3
        return Rank((2 if coloured else 1) << 9 | pair << 6 | kicker << 3)
    return Rank(v1 << 6 | v2 << 3 | v3)


def rank(dice: Sequence[Die] | str) -> Rank:
    """The rank of exactly three dice (a sequence of :class:`Die`, or their text)."""
    dice = expect_dice(dice, "a combination")
    if len(dice) != 3:
        raise NotationError(f"a combination needs exactly three dice, got {len(dice)}")
    return rank_codes(dice[0].code, dice[1].code, dice[2].code)


@cache
def _ranks() -> frozenset[int]:
    """The rank of every three dice (built on first use)."""
    return frozenset(
        rank_codes(a, b, c) for a in range(24) for b in range(a, 24) for c in range(b, 24)
    )


def expect_rank(value: object) -> Rank:
    """``value`` if it is the rank of some three dice; refused otherwise (a wrong type as an
    :class:`ArgumentTypeError`, an int that no three dice rank as a :class:`NotationError`)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"a combination rank is a whole number, not {json_type(value)}")
    if value not in _ranks():
        raise NotationError(f"{shown(value)} is not the rank of any three dice")
    return Rank(value)


def describe(r: Rank) -> str:
    """A short English description, e.g. ``'colour pair of 5s, kicker 3'``."""
    r = expect_rank(r)
    category = rank_category(r)
    a, b, c = rank_values(r)
    if category in (Category.COLOUR_THREE_OF_A_KIND, Category.THREE_OF_A_KIND):
        return f"{category.label} of {a}s"
    if category in (Category.COLOUR_STRAIGHT, Category.STRAIGHT):
        return f"{category.label} {a - 2}-{a - 1}-{a}"
    if category in (Category.COLOUR_PAIR, Category.PAIR):
        return f"{category.label} of {a}s, kicker {b}"
    return f"singles {a}-{b}-{c}"
