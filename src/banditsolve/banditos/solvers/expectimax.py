"""The exact expectimax of :mod:`~banditsolve.banditos.solvers.endgame` on a compact state.

The search runs on plain tuples of small ints instead of :class:`~banditsolve.banditos.state.State`
values, with its own move generation and moves that check nothing (the rules engine has checked
the position it starts from, and every move it makes is legal by construction), the claim table of
:mod:`banditsolve.banditos.claim` for every claim, and exact rational values kept as pairs of
Python ints (numerator, denominator), reduced once per chance node: no
:class:`~fractions.Fraction` object is made inside the search.

**The compact state** is ``(tiles, stack, score0, score1, to_move, phase, hand, opening, bag)``:
``tiles`` the tiles in play as ``(value, side0, side1)`` with each side a sorted tuple of die
codes (``colour * 6 + value - 1``), ``phase`` 0 before the roll, 1 with the draw pending, 2 after
it, ``hand`` the sorted codes of the dice to place. The won tiles enter only through the two
scores, which are all the rules ever read of them.

**The transposition table** maps a canonical key of each state to its exact value and lives as
long as the solver (every question asked of one solver shares it). Two symmetries of the rules
make the key canonical up to them; both are exact, so two states with the same key have the same
value:

- *Slots.* No rule reads a tile's slot number: claims, give-ups, placements and resolution act on
  a tile whatever its place, and a tile turned up fills an empty place whichever it is (the
  lowest, LB-WIN-2), so only how many places are empty matters. The key keeps the tiles as a
  sorted tuple.
- *Colours.* No rule names a colour: combinations (LB-COMBO-*) ask only whether colours are
  equal, the claim proof (LB-CLAIM-2, LB-OPT-1) counts dice per colour, and the draw
  (LB-TURN-2) weighs colours by how many dice of each the bag holds. Renaming the four colours
  by any permutation, on the tiles, in the hand and in the bag at once, therefore maps the game
  tree onto itself with every probability and every outcome unchanged. The key renames colours
  in the order of a signature: per colour, its count in the bag plus a fixed pseudo-random
  weight for each of its dice by where it lies (tile value, side, die value; or the hand), summed
  so that the order of the tiles does not enter. States that are colour renamings of each other
  have the same signatures, renamed, so they get the same key unless two signatures are equal,
  which happens when two colours lie alike (then exchanging them mostly leaves the state as it is)
  or by a coincidence of the weights.

A key that misses an equivalence (two colours with equal signatures that do not lie alike)
costs only a repeated search, never a wrong value: every key is the exact encoding of the state
after some permutation of slots and colours, and such a state has the same value.

**Further exact reductions** (each argued where it is made):

- *Full sides.* A full side facing a partial one is replaced by the first full side with the
  same dice per colour and the same place among the partial side's completions
  (:func:`full_side_classes`): nothing else of it is ever read.
- *The last tile.* With one tile in play and none face down, whoever wins it wins the game;
  :class:`LastTile` solves such positions on (mover's side, opponent's side) alone, keyed with
  their colours renamed canonically (:func:`last_tile_key`), each draw valued at once when the
  mover's side has room for both dice (placed in either order, the same side) or for one (the
  draw is worth its better die).
- *Certain wins.* At the start of a turn the search first asks whether the player to move can
  win with probability 1 (:meth:`CompactSearch.sure`, a yes-or-no search that stops at the
  first escape): exact, since a value is 1 exactly when such a win exists.
- *Move order.* Moves are generated lazily, claims first and give-ups last, so a certain win
  ends the generation early; after the roll, under the default rules with no tile face down,
  give-ups wait until the dice are placed (``late_give_ups``). The order of the rules, which
  decides between equal actions, is kept where actions are reported
  (:meth:`~banditsolve.banditos.solvers.endgame.CompactSolver.best_action`).
- *No storage of draw-pending states*, which are reached from one state only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import lru_cache
from math import gcd
from typing import Any

from banditsolve.banditos.claim import BEST_RANK as _BEST
from banditsolve.banditos.claim import RANK3, availability_index, build_table, side_index
from banditsolve.banditos.rules import _draw_weights
from banditsolve.banditos.state import DEFAULT_OPTIONS, Options, State
from banditsolve.core.limits import Budget

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
# grows. Exact, like the symmetries: two states that differ only by such a replacement have the
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
def _draws(bag: tuple[int, int, int, int], count: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The draws from ``bag`` as sorted code tuples with their integer weights (the rules'
    own table, :func:`~banditsolve.banditos.rules.chance_outcomes`, in integers)."""
    draws, cumulative, _denominator = _draw_weights(bag, count)
    out = []
    previous = 0
    for drawn, upto in zip(draws, cumulative, strict=True):
        out.append((tuple(d.code for d in drawn.dice), upto - previous))
        previous = upto
    return tuple(out)


#: The states after a game is won, by the winner (the rest of a finished game does not matter).
PLAYER0_WON: Compact = ((), (0, 0, 0), WIN, 0, 0, 0, (), False, (0, 0, 0, 0))
PLAYER1_WON: Compact = ((), (0, 0, 0), 0, WIN, 0, 0, (), False, (0, 0, 0, 0))
#: Dice per colour on a tile, by tile (a cache).
_BACK: dict[Tile, tuple[int, int, int, int]] = {}


def _counts(dice: Side) -> list[int]:
    counts = [0, 0, 0, 0]
    for code in dice:
        counts[code // 6] += 1
    return counts


def _off_tile(dice: Side) -> tuple[int, int, int, int]:
    """Per colour, the dice not among ``dice`` (the dice on one tile): six of each colour in
    all (LB-COMP-1), so under ``strict`` the dice a claim's opponent may still get."""
    used = _counts(dice)
    return (6 - used[0], 6 - used[1], 6 - used[2], 6 - used[3])


def _claim_safe(mine: Side, theirs: Side, avail: tuple[int, int, int, int]) -> bool:
    """Whether the full side ``mine`` is a safe claim against ``theirs`` with ``avail`` dice
    per colour still to be had: one lookup of the opponent's best reachable rank."""
    safe: bool = _BEST[side_index(theirs) << 8 | availability_index(avail)] <= RANK3[
        mine[0] * 576 + mine[1] * 24 + mine[2]
    ]
    return safe


#: The positions one probe for a certain win may expand (:meth:`CompactSearch.sure`).
PROBE_ALLOWANCE = 10_000


class _ProbeSpent(Exception):
    """A probe for a certain win ran out of its allowance."""


class CompactSearch:
    """Memoised exact expectimax on compact states: ``value(s)`` is the probability (an exact
    fraction) that player 0 wins with best play by both players."""

    def __init__(
        self, options: Options = DEFAULT_OPTIONS, budget: Budget | None = None,
        *, symmetry: bool = False, probe: bool = True,
    ) -> None:
        build_table()
        self.proof_bag = options.proof == "bag"
        self.may_return = options.unplaceable == "return"
        self.memo: dict[object, Value] = {}
        #: Whether each decision asks first if its player can win for certain (:meth:`sure`).
        self.probe = probe
        #: The positions a probe may expand before it gives up (each probe afresh).
        self.probe_allowance = PROBE_ALLOWANCE
        self._probe_left = 0
        #: :meth:`sure`'s answers, by player: the keys of positions known to be certain wins
        #: for that player (``True``) or known not to be (``False``).
        self.sure_memo: tuple[dict[object, bool], dict[object, bool]] = ({}, {})
        #: By player, the dice of the draw that last refuted a certain win (tried first).
        self._killer: list[tuple[int, ...] | None] = [None, None]
        self.budget = budget
        self.key: Callable[[Compact], object] = canonical_key if symmetry else _plain_key
        self.last = LastTile(self.proof_bag, self.may_return, budget)
        self._safe_tiles: dict[tuple[Tile, int], bool] = {}
        #: After the roll, with dice in hand and room for them, giving up a tile can wait
        #: until the dice are placed (or no room is left) without changing what the turn can
        #: achieve, under the default rules and with no tile face down. A give-up G of tile k
        #: followed by an action A (a placement on another tile, a claim, another give-up)
        #: leads to the same state as A then G: A's legality never depends on k (a placement
        #: needs room on its own tile; a claim's proof under ``strict`` counts the dice on its
        #: own tile), and no tile comes up to fill k's place. Only the end of the game can
        #: differ: if G gives the opponent 10 points, G first loses at once, which is never
        #: better than anything else; if A decides the game, it does so in either order. A
        #: give-up of k that removes the only room left for a die is followed, under
        #: ``give-up``, by give-ups until the game is lost (no room ever comes back) or by
        #: claims (which A then G reaches too). Under ``bag`` the proof reads the bag, which
        #: a give-up refills, and under ``return`` a give-up can leave no room and so allow
        #: ending the turn with dice in hand: neither has this shortcut.
        self.late_give_ups = not self.proof_bag and not self.may_return

    # -- moves ---------------------------------------------------------------------------------

    def _won(self, s: Compact, i: int, player: int) -> Compact:
        """``player`` wins tile ``i``: its dice go back to the bag. A won game is one of two
        fixed states (only the winner matters then)."""
        tiles, stack, s0, s1, me, phase, hand, opening, bag = s
        tile = tiles[i]
        if player == 0:
            s0 += tile[0]
            if s0 >= WIN:
                return PLAYER0_WON
        else:
            s1 += tile[0]
            if s1 >= WIN:
                return PLAYER1_WON
        back = _BACK.get(tile)
        if back is None:
            counts = _counts(tile[1] + tile[2])
            back = _BACK[tile] = (counts[0], counts[1], counts[2], counts[3])
        return (
            tiles[:i] + tiles[i + 1 :], stack, s0, s1, me, phase, hand, opening,
            (bag[0] + back[0], bag[1] + back[1], bag[2] + back[2], bag[3] + back[3]),
        )

    def _safe(self, s: Compact, tile: Tile, me: int) -> bool:
        """Whether ``me`` may claim ``tile`` (their side full): under ``strict`` a question of
        the tile alone, answered once per tile."""
        if not self.proof_bag:
            known = self._safe_tiles.get((tile, me))
            if known is None:
                known = self._safe_tiles[(tile, me)] = self._safe_now(s, tile, me)
            return known
        return self._safe_now(s, tile, me)

    def _safe_now(self, s: Compact, tile: Tile, me: int) -> bool:
        avail = s[8] if self.proof_bag else _off_tile(tile[1] + tile[2])
        return _claim_safe(tile[1 + me], tile[2 - me], avail)

    def children(self, s: Compact) -> Iterator[Compact]:
        """The states after each action of the player to move, generated lazily (a search
        that finds a certain win stops asking) and in the order most likely to find one
        early: claims, the roll, placements, the end of the turn, and give-ups last (the
        rules' order, which decides between equal actions, is kept by
        :meth:`~banditsolve.banditos.solvers.endgame.CompactSolver.best_action`)."""
        tiles, stack, s0, s1, me, phase, hand, opening, bag = s
        for i, tile in enumerate(tiles):
            if len(tile[1 + me]) == 3 and self._safe(s, tile, me):
                yield self._won(s, i, me)
        if phase == 0:
            yield (tiles, stack, s0, s1, me, 1, hand, opening, bag)
            for i in range(len(tiles)):
                yield self._won(s, i, 1 - me)
            return
        previous = -1
        room = False
        for h, die in enumerate(hand):
            if die == previous:
                continue
            previous = die
            left = hand[:h] + hand[h + 1 :]
            for i, tile in enumerate(tiles):
                mine = tile[1 + me]
                if len(mine) == 3:
                    continue
                room = True
                side = tuple(sorted((*mine, die)))
                theirs = tile[2 - me]
                if len(side) == 3 and len(theirs) == 3:
                    # Both sides full: the tile resolves (LB-RESOLVE-1); a tie goes to the side
                    # that was full first, the opponent's (LB-RESOLVE-2).
                    r_me = RANK3[side[0] * 576 + side[1] * 24 + side[2]]
                    r_op = RANK3[theirs[0] * 576 + theirs[1] * 24 + theirs[2]]
                    full = (tile[0], side, theirs) if me == 0 else (tile[0], theirs, side)
                    placed = (
                        (*tiles[:i], full, *tiles[i + 1:]), stack, s0, s1, me, phase, left,
                        opening, bag,
                    )
                    yield self._won(placed, i, me if r_me > r_op else 1 - me)
                    continue
                if len(side) == 3:
                    side = full_side_classes(theirs)[side]
                elif len(theirs) == 3:
                    theirs = full_side_classes(side)[theirs]
                new = (tile[0], side, theirs) if me == 0 else (tile[0], theirs, side)
                yield (
                    tuple(sorted((*tiles[:i], new, *tiles[i + 1:]))), stack, s0, s1, me,
                    phase, left, opening, bag,
                )
        if not hand or (self.may_return and not room):
            k, g, r, bl = bag
            for code in hand:
                c = code // 6
                if c == 0:
                    k += 1
                elif c == 1:
                    g += 1
                elif c == 2:
                    r += 1
                else:
                    bl += 1
            yield (tiles, stack, s0, s1, 1 - me, 0, (), False, (k, g, r, bl))
        if hand and room and self.late_give_ups and stack == NO_STACK:
            return  # give-ups wait until the dice are placed (see ``late_give_ups``)
        for i in range(len(tiles)):
            yield self._won(s, i, 1 - me)

    def chance(self, s: Compact) -> tuple[list[tuple[Compact, int]], int] | None:
        """The outcomes of the chance step at ``s`` with integer weights and their total, or
        ``None`` when a player is to act."""
        tiles, stack, s0, s1, me, phase, hand, opening, bag = s
        total = stack[0] + stack[1] + stack[2]
        if total and len(tiles) < 4:  # a tile is turned up first (LB-WIN-2)
            outcomes = []
            for v in range(3):
                n = stack[v]
                if n:
                    new_stack = (
                        stack[0] - (v == 0), stack[1] - (v == 1), stack[2] - (v == 2),
                    )
                    grown = tuple(sorted((*tiles, (v + 1, (), ()))))
                    outcomes.append(
                        ((grown, new_stack, s0, s1, me, phase, hand, opening, bag), n)
                    )
            return outcomes, total
        if phase != 1:
            return None
        draws = _draws(bag, 1 if opening else 2)
        outcomes = []
        weight_sum = 0
        for codes, w in draws:
            k, g, r, bl = bag
            for code in codes:
                c = code // 6
                if c == 0:
                    k -= 1
                elif c == 1:
                    g -= 1
                elif c == 2:
                    r -= 1
                else:
                    bl -= 1
            outcomes.append(((tiles, stack, s0, s1, me, 2, codes, opening, (k, g, r, bl)), w))
            weight_sum += w
        return outcomes, weight_sum

    # -- values --------------------------------------------------------------------------------

    def value(self, s: Compact) -> Value:
        """The probability that player 0 wins from ``s``, exactly, as ``(num, den)``.

        A state with the draw pending is reached only from the one state before it (the
        same player's, before the roll, which is in the table), so it is computed, not
        stored; so is a state with both dice of the roll still in hand when give-ups wait
        (``late_give_ups``, no tile face down): only its draw leads to it, or, rarely, two
        claims made in either order, which cost a repeated search and never a wrong value.
        Every other state enters the table."""
        if s[2] >= WIN:
            return ONE
        if s[3] >= WIN:
            return ZERO
        if len(s[0]) == 1 and not s[7] and s[1] == NO_STACK:
            return self.last_tile(s)
        if s[5] == 1 or (len(s[6]) == 2 and self.late_give_ups and s[1] == NO_STACK):
            if self.budget is not None:
                self.budget.tick()
            return self._expand(s)
        key = self.key(s)
        known = self.memo.get(key)
        if known is not None:
            return known
        if self.budget is not None:
            self.budget.tick()
        result = self._expand(s)
        self.memo[key] = result
        return result

    # -- certain wins -------------------------------------------------------------------------

    def sure(self, s: Compact, player: int) -> bool:
        """Whether ``player`` wins from ``s`` with probability 1: an and-or search (every
        chance outcome and every move of the opponent must leave a certain win, one move of
        ``player`` suffices) that needs no value, only yes or no, and so stops at the first
        outcome or reply that escapes. Exact: the value of ``s`` is 1 for ``player`` exactly
        when this holds (a chance average of values in [0, 1] is 1 only if every outcome
        with positive weight is 1; the best of moves is 1 only if one of them is). Answers
        are memoised by player; known exact values and the last-tile solver answer first.
        Raises :class:`_ProbeSpent` when the probe's allowance of positions runs out (the
        answers already found stay memoised: each is complete)."""
        if s is PLAYER0_WON or s[2] >= WIN:
            return player == 0
        if s is PLAYER1_WON or s[3] >= WIN:
            return player == 1
        if len(s[0]) == 1 and not s[7] and s[1] == NO_STACK:
            n, d = self.last_tile(s)
            return n == d if player == 0 else n == 0
        key = self.key(s)
        known = self.memo.get(key)
        if known is not None:
            return known[0] == known[1] if player == 0 else known[0] == 0
        memo = self.sure_memo[player]
        answer = memo.get(key)
        if answer is not None:
            return answer
        self._probe_left -= 1
        if self._probe_left < 0:
            raise _ProbeSpent
        if self.budget is not None:
            self.budget.tick()
        chance = self.chance(s)
        sure = self.sure
        if chance is not None:
            answer = True
            outcomes = chance[0]
            killer = self._killer[player] if s[5] == 1 else None
            if killer is not None:
                # The draw that last refuted a certain win is tried first (a refutation is
                # often one bad roll, the same in many positions); the order changes no answer.
                for child, _w in outcomes:
                    if child[6] == killer:
                        answer = sure(child, player)
                        break
            if answer:
                for child, _w in outcomes:
                    if not sure(child, player):
                        answer = False
                        if s[5] == 1:
                            self._killer[player] = child[6]
                        break
        elif s[4] == player:
            answer = any(sure(child, player) for child in self.children(s))
        else:
            answer = all(sure(child, player) for child in self.children(s))
        memo[key] = answer
        return answer

    def _sure_within(self, s: Compact, player: int) -> bool:
        """:meth:`sure` within a fresh allowance: ``False`` also when it runs out (then
        nothing is known, and the exact search goes on as without the probe)."""
        self._probe_left = self.probe_allowance
        try:
            return self.sure(s, player)
        except _ProbeSpent:
            return False

    def solve(self, s: Compact) -> Value:
        """:meth:`value`, for a position asked from outside the search: with ``probe`` on, a
        decision is first probed for a certain win of its player whatever its phase (inside
        the search only the starts of turns are)."""
        if self.probe and s[2] < WIN and s[3] < WIN and self.chance(s) is None:
            me = s[4]
            if self._sure_within(s, me):
                return ONE if me == 0 else ZERO
        return self.value(s)

    def _expand(self, s: Compact) -> Value:
        """The value of ``s`` from its children (a chance average, or the best move).

        At the start of a turn, with ``probe`` on, first ask whether the player to move can
        win for certain (:meth:`sure`): if so the value is theirs without computing any
        move's value; a move that is not a certain win is usually refuted by one reply or
        outcome, where computing its exact value would cost its whole tree. (Probing every
        decision of the turn too was measured: it costs more than it saves once four tiles
        are left.)"""
        chance = self.chance(s)
        if chance is None and self.probe and s[5] == 0:
            me = s[4]
            if self._sure_within(s, me):
                return ONE if me == 0 else ZERO
        if chance is not None:
            outcomes, total = chance
            num, den = 0, 1
            value = self.value
            for child, w in outcomes:
                n, d = value(child)
                if n:
                    g = gcd(den, d)
                    num = num * (d // g) + w * n * (den // g)
                    den = den // g * d
            den *= total
            g = gcd(num, den)
            return (num // g, den // g)
        maximise = s[4] == 0
        best: Value | None = None
        for child in self.children(s):
            if child is PLAYER0_WON:
                v = ONE
            elif child is PLAYER1_WON:
                v = ZERO
            else:
                v = self.value(child)
            if best is None or (
                v[0] * best[1] > best[0] * v[1] if maximise else v[0] * best[1] < best[0] * v[1]
            ):
                best = v
                if (v[0] == v[1]) if maximise else v[0] == 0:
                    break  # nothing can do better
        assert best is not None
        return best

    # -- the last tile ---------------------------------------------------------------------

    def last_tile(self, s: Compact) -> Value:
        """The value of a state with one tile in play and none face down (and not the opening
        turn), from :class:`LastTile`."""
        tiles, _stack, s0, s1, me, phase, hand, _opening, bag = s
        tile = tiles[0]
        # Whoever wins the last tile wins the game (the scores and the tile sum to 19, so
        # neither player is short of 10 by more than its value); checked, not assumed.
        if s0 + tile[0] < WIN or s1 + tile[0] < WIN:  # pragma: no cover - unreachable
            raise AssertionError("the last tile does not decide the game")
        mine, theirs = tile[1 + me], tile[2 - me]
        last = self.last
        if phase == 0:
            n, d = last.turn(mine, theirs)
        elif phase == 1:
            n, d = last.roll(mine, theirs)
        else:
            n, d = last.placing(mine, theirs, hand, bag)
        return (n, d) if me == 0 else (d - n, d)


class LastTile:
    """Exact values of the game's last tile (one tile in play, none face down): whoever wins it
    wins the game, so the scores and the tile's value do not matter, and a position is the two
    sides alone (the bag holds every die not on the tile). Values are for the player to move,
    memoised by (their side, the opponent's side) at the start of a turn.

    The moves are those of :meth:`CompactSearch.children` on such a state, with the dominated
    ones left out: a give-up loses the game at once (value 0, never better than any other
    move), and a safe claim wins it (value 1, never worse). What is left: roll; place the dice
    on one's own side in either order (both sides full resolves the tile, LB-RESOLVE-1/2); claim
    once the side is full; end the turn; or, with a die left and no room, give up (lose) or,
    under ``unplaceable=return``, end the turn."""

    def __init__(self, proof_bag: bool, may_return: bool, budget: Budget | None) -> None:
        self.proof_bag = proof_bag
        self.may_return = may_return
        self.budget = budget
        self.memo: dict[tuple[Side, Side], Value] = {}
        #: The same values by :func:`last_tile_key`.
        self.canonical: dict[tuple[Side, Side], Value] = {}
        self.placed: dict[tuple[Side, Side, tuple[int, ...]], Value] = {}

    def _safe(self, mine: Side, theirs: Side, bag: tuple[int, int, int, int]) -> bool:
        """Whether the full side ``mine`` is a safe claim: against the bag under ``bag``
        proofs, else against every die not on the tile."""
        return _claim_safe(mine, theirs, bag if self.proof_bag else _off_tile(mine + theirs))

    def turn(self, mine: Side, theirs: Side) -> Value:
        """The mover's chance at the start of their turn (before the roll).

        Memoised twice: by the sides as they are, and, on a miss, by the sides with their
        colours renamed canonically (:func:`last_tile_key`), so that positions that are colour
        renamings of each other are solved once."""
        key = (mine, theirs)
        known = self.memo.get(key)
        if known is not None:
            return known
        canon = last_tile_key(mine, theirs)
        known = self.canonical.get(canon)
        if known is not None:
            self.memo[key] = known
            return known
        if self.budget is not None:
            self.budget.tick()
        mine, theirs = canon
        result = None
        if len(mine) == 3 and _claim_safe(mine, theirs, _off_tile(mine + theirs)):
            result = ONE
        if result is None:
            result = self.roll(mine, theirs)
        self.memo[key] = self.canonical[canon] = result
        return result

    def _both_placed(
        self, side: Side, theirs: Side, bag: tuple[int, int, int, int]
    ) -> Value:
        """The mover's chance once both dice of the roll are on their side ``side`` (it had
        room for both): the tile resolves if both sides are full; a full side is claimed if
        the claim is safe; otherwise the turn ends (any other move, a give-up, loses)."""
        if len(side) == 3:
            if len(theirs) == 3:
                # Both sides full: the tile resolves, a tie to the side full first (theirs).
                mover_wins = (
                    RANK3[side[0] * 576 + side[1] * 24 + side[2]]
                    > RANK3[theirs[0] * 576 + theirs[1] * 24 + theirs[2]]
                )
                return ONE if mover_wins else ZERO
            side = full_side_classes(theirs)[side]
            if self._safe(side, theirs, bag):
                return ONE
        elif len(theirs) == 3:
            theirs = full_side_classes(side)[theirs]
        n, d = self.turn(theirs, side)
        return (d - n, d)

    def roll(self, mine: Side, theirs: Side) -> Value:
        """The mover's chance with the roll pending: the average over the draws. With room
        for both dice on the mover's side (at most one die there), both are placed whatever
        the order (no claim is possible in between), so each draw is one position."""
        bag = _off_tile(mine + theirs)
        if len(mine) >= 2 and not self.proof_bag:
            return self._one_place(mine, theirs, bag)
        num, den, total = 0, 1, 0
        after_roll = self.after_roll
        both = len(mine) <= 1
        for codes, w in _draws(bag, 2):
            total += w
            left = [bag[0], bag[1], bag[2], bag[3]]
            for code in codes:
                left[code // 6] -= 1
            if both:
                n, d = self._both_placed(
                    tuple(sorted((*mine, *codes))), theirs, (left[0], left[1], left[2], left[3])
                )
            else:
                n, d = after_roll(mine, theirs, codes, (left[0], left[1], left[2], left[3]))
            if n:
                g = gcd(den, d)
                num = num * (d // g) + w * n * (den // g)
                den = den // g * d
        den *= total
        g = gcd(num, den)
        return (num // g, den // g)

    def _one_place(self, mine: Side, theirs: Side, bag: tuple[int, int, int, int]) -> Value:
        """:meth:`roll` with room for at most one die on the mover's side, under ``strict``
        (a claim's proof reads the tile alone). A full side is claimed if safe, whatever the
        draw; otherwise a die has no room: give up (lose) or, under ``return``, end the turn.
        With two dice on the side, one die of the roll completes it and the other has no
        room, so the draw is worth the better of its two dice, each worth what completing the
        side with it is worth (resolved, claimed, or the same no-room choice), which depends
        on the die alone."""
        if len(mine) == 3:
            return self._full_no_room(mine, theirs)
        # Each die code's worth, and its place among the distinct worths (best first): a draw
        # is worth the better of its two dice, so the draws' weights are summed by that place.
        worth = [self._complete(mine, theirs, code) if bag[code // 6] else ZERO
                 for code in range(24)]
        distinct = sorted(set(worth), key=lambda v: Fraction(v[0], v[1]), reverse=True)
        place = {v: i for i, v in enumerate(distinct)}
        order = [place[v] for v in worth]
        weights = [0] * len(distinct)
        total = 0
        for (a, b), w in _draws(bag, 2):
            total += w
            pa, pb = order[a], order[b]
            weights[pa if pa < pb else pb] += w
        num, den = 0, 1
        for (n, d), w in zip(distinct, weights, strict=True):
            if n and w:
                g = gcd(den, d)
                num = num * (d // g) + w * n * (den // g)
                den = den // g * d
        den *= total
        g = gcd(num, den)
        return (num // g, den // g)

    def _complete(self, mine: Side, theirs: Side, die: int) -> Value:
        """The mover's chance after completing their two-dice side with ``die`` while another
        die of the roll waits with no room (``strict`` only)."""
        side = tuple(sorted((*mine, die)))
        if len(theirs) == 3:
            mover_wins = (
                RANK3[side[0] * 576 + side[1] * 24 + side[2]]
                > RANK3[theirs[0] * 576 + theirs[1] * 24 + theirs[2]]
            )
            return ONE if mover_wins else ZERO
        return self._full_no_room(full_side_classes(theirs)[side], theirs)

    def _full_no_room(self, mine: Side, theirs: Side) -> Value:
        """The mover's chance with their side full, facing a partial side, and a die with no
        room (``strict`` only): claim if safe, else give up (lose) or end the turn."""
        if _claim_safe(mine, theirs, _off_tile(mine + theirs)):
            return ONE
        if not self.may_return:
            return ZERO
        n, d = self.turn(theirs, mine)
        return (d - n, d)

    def placing(
        self, mine: Side, theirs: Side, hand: tuple[int, ...], bag: tuple[int, int, int, int]
    ) -> Value:
        """:meth:`after_roll`, memoised: the searches reach the last tile with dice in hand
        from many positions (another tile won by a placement or a claim). The bag is the
        rest of the 24 dice, so the sides and the hand are the whole key."""
        key = (mine, theirs, hand)
        known = self.placed.get(key)
        if known is None:
            known = self.placed[key] = self.after_roll(mine, theirs, hand, bag)
        return known

    def after_roll(
        self, mine: Side, theirs: Side, hand: tuple[int, ...], bag: tuple[int, int, int, int]
    ) -> Value:
        """The mover's chance with ``hand`` still to place (``bag``: the bag now)."""
        if len(mine) == 3:
            if self._safe(mine, theirs, bag):
                return ONE
            if hand and not self.may_return:
                return ZERO  # no room for a die: give up (LB-TURN-6)
            n, d = self.turn(theirs, mine)  # end the turn (the dice left go back)
            return (d - n, d)
        if not hand:
            n, d = self.turn(theirs, mine)
            return (d - n, d)
        best: Value | None = None
        previous = -1
        for h, die in enumerate(hand):
            if die == previous:
                continue
            previous = die
            side = tuple(sorted((*mine, die)))
            if len(side) == 3 and len(theirs) == 3:
                # Both sides full: the tile resolves, a tie to the side full first (theirs).
                mover_wins = (
                    RANK3[side[0] * 576 + side[1] * 24 + side[2]]
                    > RANK3[theirs[0] * 576 + theirs[1] * 24 + theirs[2]]
                )
                v = ONE if mover_wins else ZERO
            elif len(side) == 3:
                v = self.after_roll(
                    full_side_classes(theirs)[side], theirs, hand[:h] + hand[h + 1 :], bag
                )
            elif len(theirs) == 3:
                v = self.after_roll(
                    side, full_side_classes(side)[theirs], hand[:h] + hand[h + 1 :], bag
                )
            else:
                v = self.after_roll(side, theirs, hand[:h] + hand[h + 1 :], bag)
            if best is None or v[0] * best[1] > best[0] * v[1]:
                best = v
                if v[0] == v[1]:
                    break
        assert best is not None
        return best


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


def _plain_key(s: Compact) -> object:
    return s


#: A weight per place a die can be in (tile value, side, die value; or the hand): a colour's
#: signature is the sum of the weights of its dice, and its count in the bag.
_PLACE_WEIGHT = tuple((0x9E3779B97F4A7C15 * (i + 1)) % (1 << 40) for i in range(64))


def canonical_key(s: Compact) -> object:
    """The state with its colours renamed in a canonical order (see the module docstring)."""
    tiles, stack, s0, s1, me, phase, hand, opening, bag = s
    w = _PLACE_WEIGHT
    sig = [bag[0], bag[1], bag[2], bag[3]]
    for v, a, b in tiles:
        base = v << 4
        for code in a:
            sig[code // 6] += w[base + code % 6]
        for code in b:
            sig[code // 6] += w[base + 8 + code % 6]
    for code in hand:
        sig[code // 6] += w[code % 6 + 8]
    ranked = sorted(range(4), key=sig.__getitem__)
    if ranked == [0, 1, 2, 3]:
        return s
    rename = [0, 0, 0, 0]
    for new, old in enumerate(ranked):
        rename[old] = new * 6
    new_tiles = tuple(
        sorted(
            (
                v,
                tuple(sorted([rename[c // 6] + c % 6 for c in a])),
                tuple(sorted([rename[c // 6] + c % 6 for c in b])),
            )
            for v, a, b in tiles
        )
    )
    new_hand = tuple(sorted([rename[c // 6] + c % 6 for c in hand]))
    new_bag = (bag[ranked[0]], bag[ranked[1]], bag[ranked[2]], bag[ranked[3]])
    return (new_tiles, stack, s0, s1, me, phase, new_hand, opening, new_bag)
