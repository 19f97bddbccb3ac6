"""The exact values of the game's last tile, for the search of
:mod:`~banditsolve.banditos.solvers.expectimax`.

With one tile in play and none face down, whoever wins that tile wins the game, so the scores and
the tile's value do not matter: :class:`LastTile` solves such positions on (mover's side,
opponent's side) alone, keyed with their colours renamed canonically
(:func:`~banditsolve.banditos.solvers.compact.last_tile_key`), each draw valued at once when the
mover's side has room for both dice (placed in either order, the same side) or for one (the draw
is worth its better die). Exact (LB-NOTE-3).
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd

from banditsolve.banditos.claim import RANK3
from banditsolve.banditos.solvers.compact import (
    ONE,
    ZERO,
    Side,
    Value,
    claim_safe,
    draws,
    full_side_classes,
    last_tile_key,
    off_tile,
)
from banditsolve.core.limits import Budget


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
        return claim_safe(mine, theirs, bag if self.proof_bag else off_tile(mine + theirs))

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
        if len(mine) == 3 and claim_safe(mine, theirs, off_tile(mine + theirs)):
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
        bag = off_tile(mine + theirs)
        if len(mine) >= 2 and not self.proof_bag:
            return self._one_place(mine, theirs, bag)
        num, den, total = 0, 1, 0
        after_roll = self.after_roll
        both = len(mine) <= 1
        for codes, w in draws(bag, 2):
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
        for (a, b), w in draws(bag, 2):
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
        if claim_safe(mine, theirs, off_tile(mine + theirs)):
            return ONE
        if not self.may_return:
            return ZERO
        n, d = self.turn(theirs, mine)
        return (d - n, d)

    def _full_with_hand(
        self, mine: Side, theirs: Side, hand: tuple[int, ...], bag: tuple[int, int, int, int]
    ) -> Value:
        """:meth:`after_roll` with the mover's side full: claim if safe; else, with dice in
        hand that have no room, give up (lose) unless they may go back; else end the turn."""
        if self._safe(mine, theirs, bag):
            return ONE
        if hand and not self.may_return:
            return ZERO  # no room for a die: give up (LB-TURN-6)
        n, d = self.turn(theirs, mine)  # end the turn (the dice left go back)
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
            return self._full_with_hand(mine, theirs, hand, bag)
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
