"""Exact odds of a completion: how likely the opponent's side ends above, equal to or below a
combination, when it is filled from the bag as the game draws (rule LB-TURN-2).

The opponent's missing dice come out of the bag one after another, colours without replacement
in proportion to the dice of each colour left, each value 1-6 equally likely. The odds are
exact :class:`~fractions.Fraction` values summing to 1.

This answers "what if the side is filled straight from the bag as it is now": it ignores the
dice drawn meanwhile for other tiles and the dice that come back to the bag when tiles are won.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement, product
from math import factorial

from banditsolve.banditos.answers import odds_ascii, odds_svg
from banditsolve.banditos.combos import Rank, describe, expect_rank, rank, rank_codes
from banditsolve.banditos.dice import (
    COLOURS,
    DICE_PER_COLOUR,
    Die,
    colour_counts,
    expect_dice,
    format_dice,
)
from banditsolve.banditos.rules import full_side
from banditsolve.banditos.state import MAX_SIDE, expect_state
from banditsolve.core.answer import Answer
from banditsolve.core.io import json_type
from banditsolve.core.text import shown
from banditsolve.errors import ArgumentTypeError, NotationError, SolverError


@dataclass(frozen=True, slots=True)
class CompletionOdds:
    """The exact chances that the opponent's completed side ranks above, equal to or below the
    combination ``claim``."""

    claim: Rank
    theirs: tuple[Die, ...]
    bag: tuple[int, int, int, int]
    above: Fraction
    equal: Fraction
    below: Fraction

    @property
    def not_above(self) -> Fraction:
        """The chance that the combination holds (ties go to whoever completed first)."""
        return self.equal + self.below

    def explain(self) -> str:
        def pct(p: Fraction) -> str:
            return f"{float(p) * 100:.2f}%"

        side = format_dice(self.theirs) or "nothing"
        return (
            f"opponent completing [{side}] from the bag (k g r b = "
            f"{' '.join(str(n) for n in self.bag)}) against {describe(self.claim)}:\n"
            f"  above {self.above} ({pct(self.above)})\n"
            f"  equal {self.equal} ({pct(self.equal)})\n"
            f"  below {self.below} ({pct(self.below)})"
        )

    def ascii(self) -> str:
        """The odds drawn in text: one bar per outcome (see
        :func:`~banditsolve.banditos.answers.odds_ascii`)."""
        return odds_ascii(self)

    def svg(self) -> str:
        """The odds as an SVG bar chart (see :func:`~banditsolve.banditos.answers.odds_svg`)."""
        return odds_svg(self)

    def _repr_svg_(self) -> str:
        return self.svg()

    def to_json(self) -> dict[str, object]:
        return {
            "claim": describe(self.claim),
            "claim_rank": int(self.claim),
            "theirs": [str(d) for d in self.theirs],
            "bag": dict(zip("kgrb", self.bag, strict=True)),
            "above": str(self.above),
            "equal": str(self.equal),
            "below": str(self.below),
            "above_float": float(self.above),
            "equal_float": float(self.equal),
            "below_float": float(self.below),
        }

    def to_answer(self) -> Answer:
        """The shared answer shape: always yes/``"exact"``; the fractions (as text) in
        ``details``."""
        return Answer(
            game="banditos",
            question="odds",
            status="yes",
            answer="exact",
            reason=_one_line(self.explain()),
            details={
                "claim": describe(self.claim),
                "theirs": [str(d) for d in self.theirs],
                "bag": dict(zip("kgrb", self.bag, strict=True)),
                "above": str(self.above),
                "equal": str(self.equal),
                "below": str(self.below),
            },
        )


def colour_draws(
    bag: tuple[int, int, int, int], count: int
) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every multiset of ``count`` colours drawn without replacement from ``bag``, with its
    exact probability."""
    total = sum(bag)
    if count > total:
        raise SolverError(f"the bag holds {total} dice, {count} are needed")
    # Ordered draws: total * (total-1) * ... ; a multiset with multiplicities m_c is drawn in
    # count!/prod(m_c!) orders, each with probability prod(bag_c falling m_c) / total falling.
    denominator = 1
    for i in range(count):
        denominator *= total - i
    out: list[tuple[tuple[int, ...], Fraction]] = []
    for colours in combinations_with_replacement(range(4), count):
        numerator = factorial(count)
        for c in range(4):
            m = colours.count(c)
            if m > bag[c]:
                numerator = 0
                break
            numerator //= factorial(m)
            for i in range(m):
                numerator *= bag[c] - i
        if numerator:
            out.append((colours, Fraction(numerator, denominator)))
    return out


@lru_cache(maxsize=8192)
def _odds(
    claim: int, theirs: tuple[int, ...], bag: tuple[int, int, int, int]
) -> tuple[Fraction, Fraction, Fraction]:
    need = MAX_SIDE - len(theirs)
    above = equal = Fraction(0)
    faces = 6**need
    for colours, p in colour_draws(bag, need):
        n_above = n_equal = 0
        for values in product(range(6), repeat=need):
            codes = theirs + tuple(c * 6 + v for c, v in zip(colours, values, strict=True))
            r = rank_codes(codes[0], codes[1], codes[2])
            if r > claim:
                n_above += 1
            elif r == claim:
                n_equal += 1
        above += p * Fraction(n_above, faces)
        equal += p * Fraction(n_equal, faces)
    return above, equal, 1 - above - equal


def completion_odds(
    mine_or_rank: Sequence[Die] | str | int,
    theirs: Sequence[Die] | str,
    bag: Sequence[int],
) -> CompletionOdds:
    """The exact odds that ``theirs`` (0-3 dice), completed from ``bag`` (dice per colour,
    k g r b), ranks above, equal to or below ``mine_or_rank`` (three dice, or a
    :data:`~banditsolve.banditos.combos.Rank`). Dice may be given as text (``"k4 r5 b6"``)."""
    mine: tuple[Die, ...] = ()
    if isinstance(mine_or_rank, int) and not isinstance(mine_or_rank, bool):
        claim = expect_rank(mine_or_rank)
    else:
        mine = expect_dice(mine_or_rank, "the combination's dice")
        claim = rank(mine)
    theirs_t = tuple(sorted(expect_dice(theirs, "the opponent's dice")))
    if len(theirs_t) > MAX_SIDE:
        raise NotationError(f"a side holds at most three dice, got {len(theirs_t)}")
    if (
        isinstance(bag, str | bytes | bytearray | Mapping)
        or not isinstance(bag, Sequence)
        or any(isinstance(n, bool) or not isinstance(n, int) for n in bag)
    ):
        raise ArgumentTypeError(
            f"the bag is four counts (black, green, red, blue), not {json_type(bag)}"
        )
    if len(bag) != 4 or any(not 0 <= n <= DICE_PER_COLOUR for n in bag):
        raise NotationError(
            f"the bag is four counts from 0 to {DICE_PER_COLOUR} (black, green, red, blue), "
            f"not {shown(bag)}"
        )
    bag_t = (bag[0], bag[1], bag[2], bag[3])
    on_tile = colour_counts(mine + theirs_t)
    for colour in COLOURS:
        if on_tile[colour] + bag_t[colour] > DICE_PER_COLOUR:
            raise NotationError(
                f"{on_tile[colour]} {colour.name.lower()} dice lie on this tile and "
                f"{bag_t[colour]} in the bag, but the game has only {DICE_PER_COLOUR}"
            )
    above, equal, below = _odds(int(claim), tuple(d.code for d in theirs_t), bag_t)
    return CompletionOdds(claim, theirs_t, bag_t, above, equal, below)


def completion_odds_at(state: object, slot: object, player: object = None) -> CompletionOdds:
    """The odds for a tile of ``state``: ``player``'s (default: the player to move) three dice
    on ``slot`` against the opponent's side filled from the bag."""
    position = expect_state(state)
    mine, theirs = full_side(position, slot, player, "comparison of odds")
    return completion_odds(mine, theirs, position.bag)


def _one_line(text: str) -> str:
    head, *rest = text.splitlines()
    return head + " " + ", ".join(line.strip() for line in rest)
