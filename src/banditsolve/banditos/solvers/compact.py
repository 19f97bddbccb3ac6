"""The compact encoding of a Los Banditos position for the exact searches
(:mod:`~banditsolve.banditos.solvers.expectimax`, :mod:`~banditsolve.banditos.solvers.lasttile`).

**The compact state** is ``(tiles, stack, score0, score1, to_move, phase, hand, opening, bag)``:
``tiles`` the tiles in play as ``(value, side0, side1)`` with each side a sorted tuple of die
codes (``colour * 6 + value - 1``), ``phase`` 0 before the roll, 1 with the draw pending, 2 after
it, ``hand`` the sorted codes of the dice to place. The won tiles enter only through the two
scores, which are all the rules ever read of them. Values are exact fractions kept as pairs of
Python ints (:data:`Value`).

The encoding is canonical up to exact reductions of the rules, so that positions with the same
value share one entry of a search's table (LB-NOTE-3):

- *Slots.* No rule reads a tile's slot number: claims, give-ups, placements and resolution act on
  a tile whatever its place, and a tile turned up fills an empty place whichever it is (the
  lowest, LB-WIN-2), so only how many places are empty matters. The tiles are a sorted tuple.
- *Full sides.* A full side facing a partial one is replaced by the first full side with the
  same dice per colour and the same place among the partial side's completions
  (:func:`full_side_classes`): nothing else of it is ever read.
- *The last tile's colours.* With one tile in play and none face down, the two sides are the
  whole position, keyed with their colours renamed canonically (:func:`last_tile_key`): no rule
  names a colour (combinations ask only whether colours are equal, the claim proof counts dice
  per colour, the draw weighs colours by their counts in the bag).

Also here: the draws of the dice with integer weights (:func:`draws`, the rules' own table), the
dice per colour off a tile (:func:`off_tile`) and the claim check on die codes
(:func:`claim_safe`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from banditsolve.banditos.claim import BEST_RANK, RANK3, availability_index, build_table, side_index
from banditsolve.banditos.rules import draw_weights
from banditsolve.banditos.state import State

Side = tuple[int, ...]
#: ``(value, side0, side1)``; typed loosely so that ``tile[1 + player]`` needs no cast.
Tile = tuple[Any, ...]
Compact = tuple[
    tuple[Tile, ...], tuple[int, int, int], int, int, int, int, tuple[int, ...], bool,
    tuple[int, int, int, int],
]
#: A probability as an exact fraction ``(numerator, denominator)``.
Value = tuple[int, int]
ONE: Value = (1, 1)
NO_STACK = (0, 0, 0)
ZERO: Value = (0, 1)
WIN = 10


# -- full sides: only their rank's place among the other side's completions matters ----------
#
# A full side (three dice) is read by the rules in three ways only: its rank, against the
# opponent's side once that is full (LB-RESOLVE-1/2: the side full first wins ties) or against
# the best completion the opponent could still make (LB-CLAIM-2); and its dice per colour (the
# bag, LB-TURN-2, and the claim proof's availability, LB-OPT-1). Both rank comparisons are with a
# completion of the opponent's side as it is now (the side only grows until the tile is won). So
# two full sides with the same dice per colour, and with the same completions of the opponent's
# side ranked at or below them, are interchangeable: the search replaces a full side by the
# first (in code order) of its class, whenever the side becomes full or the opponent's side
# grows. Exact, like the slots: two states that differ only by such a replacement have the
# same value.

_TRIPLES: list[tuple[int, int, int]] = [
    (a, b, c) for a in range(24) for b in range(a, 24) for c in range(b, 24)
]
#: The representative of each full side, by the opponent's side (at most two dice).
_CANON: dict[Side, dict[Side, Side]] = {}
#: Each full side with its dice per colour (packed, two bits a colour) and its rank.
_TRIPLE_FACTS: list[tuple[Side, int, int]] = []


def _completion_ranks(theirs: Side) -> list[int]:
    """The ranks of every completion of ``theirs`` to three dice (any colours), sorted."""
    from itertools import combinations_with_replacement

    ranks = set()
    for extra in combinations_with_replacement(range(24), 3 - len(theirs)):
        full = sorted((*theirs, *extra))
        ranks.add(RANK3[full[0] * 576 + full[1] * 24 + full[2]])
    return sorted(ranks)


def full_side_classes(theirs: Side) -> dict[Side, Side]:
    """Each full side's representative against the opponent side ``theirs`` (0-2 dice)."""
    table = _CANON.get(theirs)
    if table is not None:
        return table
    from bisect import bisect_right

    completions = _completion_ranks(theirs)
    if not _TRIPLE_FACTS:
        for t in _TRIPLES:
            counts = [0, 0, 0, 0]
            for code in t:
                counts[code // 6] += 1
            _TRIPLE_FACTS.append(
                (t, counts[0] << 6 | counts[1] << 4 | counts[2] << 2 | counts[3],
                 RANK3[t[0] * 576 + t[1] * 24 + t[2]])
            )
    first: dict[int, Side] = {}
    table = {}
    for full, colours, rank3 in _TRIPLE_FACTS:
        cls = bisect_right(completions, rank3) << 8 | colours
        rep = first.get(cls)
        if rep is None:
            rep = first[cls] = full
        table[full] = rep
    _CANON[theirs] = table
    return table


def canonical_tile(tile: Tile) -> Tile:
    """``tile`` with a full side facing a partial one replaced by its representative."""
    value, a, b = tile
    if len(a) == 3 and len(b) < 3:
        return (value, full_side_classes(b)[a], b)
    if len(b) == 3 and len(a) < 3:
        return (value, a, full_side_classes(a)[b])
    return tile


def compact(state: State) -> Compact:
    """The compact form of a rules-engine state."""
    if not RANK3:
        build_table()
    tiles = tuple(
        sorted(
            canonical_tile(
                (
                    slot.value, tuple(d.code for d in slot.sides[0]),
                    tuple(d.code for d in slot.sides[1]),
                )
            )
            for slot in state.row
            if slot is not None
        )
    )
    s0, s1 = state.scores
    phase = 1 if state.roll_pending else 2 if state.rolled else 0
    return (
        tiles, state.stack, s0, s1, state.to_move, phase, tuple(d.code for d in state.hand),
        state.opening, state.bag,
    )

@lru_cache(maxsize=4096)
def draws(bag: tuple[int, int, int, int], count: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The draws from ``bag`` as sorted code tuples with their integer weights (the rules'
    own table, :func:`~banditsolve.banditos.rules.draw_weights`, in integers)."""
    drawn_dice, cumulative, _denominator = draw_weights(bag, count)
    out = []
    previous = 0
    for drawn, upto in zip(drawn_dice, cumulative, strict=True):
        out.append((tuple(d.code for d in drawn.dice), upto - previous))
        previous = upto
    return tuple(out)


#: The states after a game is won, by the winner (the rest of a finished game does not matter).
PLAYER0_WON: Compact = ((), (0, 0, 0), WIN, 0, 0, 0, (), False, (0, 0, 0, 0))
PLAYER1_WON: Compact = ((), (0, 0, 0), 0, WIN, 0, 0, (), False, (0, 0, 0, 0))


def code_counts(dice: Side) -> list[int]:
    """How many of the dice (codes) are of each colour."""
    counts = [0, 0, 0, 0]
    for code in dice:
        counts[code // 6] += 1
    return counts


def off_tile(dice: Side) -> tuple[int, int, int, int]:
    """Per colour, the dice not among ``dice`` (the dice on one tile): six of each colour in
    all (LB-COMP-1), so under ``strict`` the dice a claim's opponent may still get."""
    used = code_counts(dice)
    return (6 - used[0], 6 - used[1], 6 - used[2], 6 - used[3])


def claim_safe(mine: Side, theirs: Side, avail: tuple[int, int, int, int]) -> bool:
    """Whether the full side ``mine`` is a safe claim against ``theirs`` with ``avail`` dice
    per colour still to be had: one lookup of the opponent's best reachable rank."""
    safe: bool = BEST_RANK[side_index(theirs) << 8 | availability_index(avail)] <= RANK3[
        mine[0] * 576 + mine[1] * 24 + mine[2]
    ]
    return safe


def last_tile_key(mine: Side, theirs: Side) -> tuple[Side, Side]:
    """The two sides of the last tile with their colours renamed canonically: colours ordered
    by their exact signature (the values of their dice on each side), so that two colour
    renamings of one position get the same sides (colours with equal signatures lie alike, and
    exchanging them changes nothing); then a full side facing a partial one replaced by its
    class's representative (:func:`full_side_classes`). Exact (LB-NOTE-3): the bag is the rest
    of the 24 dice, renamed alike."""
    sig: tuple[list[int], list[int], list[int], list[int], list[int], list[int], list[int],
               list[int]] = ([], [], [], [], [], [], [], [])
    for code in mine:
        sig[code // 6].append(code % 6)
    for code in theirs:
        sig[4 + code // 6].append(code % 6)
    order = sorted(range(4), key=lambda c: (sig[c], sig[4 + c]))
    if order != [0, 1, 2, 3]:
        rename = [0, 0, 0, 0]
        for new, old in enumerate(order):
            rename[old] = new * 6
        mine = tuple(sorted([rename[c // 6] + c % 6 for c in mine]))
        theirs = tuple(sorted([rename[c // 6] + c % 6 for c in theirs]))
    if len(mine) == 3 and len(theirs) < 3:
        mine = full_side_classes(theirs)[mine]
    elif len(theirs) == 3 and len(mine) < 3:
        theirs = full_side_classes(mine)[theirs]
    return mine, theirs

