"""The exact expectimax of :mod:`~banditsolve.banditos.solvers.endgame` on compact states.

The search runs on the compact tuples of :mod:`~banditsolve.banditos.solvers.compact` instead of
:class:`~banditsolve.banditos.state.State` values, with its own move generation and moves that
check nothing (the rules engine has checked the position it starts from, and every move it makes
is legal by construction), the claim table of :mod:`banditsolve.banditos.claim` for every claim,
and exact rational values kept as pairs of Python ints (numerator, denominator), reduced once per
chance node: no :class:`~fractions.Fraction` object is made inside the search.

**The transposition table** maps each compact state (canonical up to the slots and the full
sides' classes, see :mod:`~banditsolve.banditos.solvers.compact`) to its exact value and lives as
long as the solver (every question asked of one solver shares it).

**Further exact reductions** (each argued where it is made):

- *The last tile.* With one tile in play and none face down, whoever wins it wins the game;
  :class:`~banditsolve.banditos.solvers.lasttile.LastTile` solves such positions on (mover's
  side, opponent's side) alone.
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

from collections.abc import Generator, Iterator
from math import gcd

from banditsolve.banditos.claim import RANK3, build_table
from banditsolve.banditos.solvers.compact import (
    NO_STACK,
    ONE,
    PLAYER0_WON,
    PLAYER1_WON,
    WIN,
    ZERO,
    Compact,
    Side,
    Tile,
    Value,
    claim_safe,
    code_counts,
    draws,
    full_side_classes,
    off_tile,
)
from banditsolve.banditos.solvers.lasttile import LastTile
from banditsolve.banditos.state import DEFAULT_OPTIONS, Options
from banditsolve.core.limits import Budget

#: Dice per colour on a tile, by tile (a cache of :meth:`CompactSearch.won`'s).
_BACK: dict[Tile, tuple[int, int, int, int]] = {}


def bag_with(bag: tuple[int, int, int, int], dice: Side) -> tuple[int, int, int, int]:
    """``bag`` with ``dice`` (codes) put back in it."""
    k, g, r, bl = bag
    for code in dice:
        c = code // 6
        if c == 0:
            k += 1
        elif c == 1:
            g += 1
        elif c == 2:
            r += 1
        else:
            bl += 1
    return (k, g, r, bl)


#: The positions one probe for a certain win may expand (:meth:`CompactSearch.sure`).
PROBE_ALLOWANCE = 10_000


class _ProbeSpent(Exception):
    """A probe for a certain win ran out of its allowance."""


class CompactSearch:
    """Memoised exact expectimax on compact states: ``value(s)`` is the probability (an exact
    fraction) that player 0 wins with best play by both players."""

    def __init__(
        self, options: Options = DEFAULT_OPTIONS, budget: Budget | None = None,
        *, probe: bool = True,
    ) -> None:
        build_table()
        self.proof_bag = options.proof == "bag"
        self.may_return = options.unplaceable == "return"
        self.memo: dict[Compact, Value] = {}
        #: Whether each decision asks first if its player can win for certain (:meth:`sure`).
        self.probe = probe
        #: The positions a probe may expand before it gives up (each probe afresh).
        self.probe_allowance = PROBE_ALLOWANCE
        self._probe_left = 0
        #: :meth:`sure`'s answers, by player: the positions known to be certain wins
        #: for that player (``True``) or known not to be (``False``).
        self.sure_memo: tuple[dict[Compact, bool], dict[Compact, bool]] = ({}, {})
        #: By player, the dice of the draw that last refuted a certain win (tried first).
        self._killer: list[tuple[int, ...] | None] = [None, None]
        self.budget = budget
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
        #: ``give_up``, by give-ups until the game is lost (no room ever comes back) or by
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
            counts = code_counts(tile[1] + tile[2])
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
        avail = s[8] if self.proof_bag else off_tile(tile[1] + tile[2])
        return claim_safe(tile[1 + me], tile[2 - me], avail)

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
        room = yield from self._placements(s)
        if not hand or (self.may_return and not room):
            yield (tiles, stack, s0, s1, 1 - me, 0, (), False, bag_with(bag, hand))
        if hand and room and self.late_give_ups and stack == NO_STACK:
            return  # give-ups wait until the dice are placed (see ``late_give_ups``)
        for i in range(len(tiles)):
            yield self._won(s, i, 1 - me)

    def _placements(self, s: Compact) -> Generator[Compact, None, bool]:
        """The states after each placement of a die in hand on the mover's side of a tile (for
        :meth:`children`), each different die once; returns whether any tile had room."""
        tiles, stack, s0, s1, me, phase, hand, opening, bag = s
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
                    yield self._resolved(s, i, side, theirs, left)
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
        return room

    def _resolved(self, s: Compact, i: int, side: Side, theirs: Side, left: Side) -> Compact:
        """The mover's die makes their side of tile ``i`` ``side``, full like the opponent's
        ``theirs``: the tile resolves (LB-RESOLVE-1), a tie going to the side that was full
        first, the opponent's (LB-RESOLVE-2); ``left`` is the hand after the placement."""
        tiles, stack, s0, s1, me, phase, _hand, opening, bag = s
        tile = tiles[i]
        r_me = RANK3[side[0] * 576 + side[1] * 24 + side[2]]
        r_op = RANK3[theirs[0] * 576 + theirs[1] * 24 + theirs[2]]
        full = (tile[0], side, theirs) if me == 0 else (tile[0], theirs, side)
        placed = (
            (*tiles[:i], full, *tiles[i + 1:]), stack, s0, s1, me, phase, left, opening, bag,
        )
        return self._won(placed, i, me if r_me > r_op else 1 - me)

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
        outcomes = []
        weight_sum = 0
        for codes, w in draws(bag, 1 if opening else 2):
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
        known = self.memo.get(s)
        if known is not None:
            return known
        if self.budget is not None:
            self.budget.tick()
        result = self._expand(s)
        self.memo[s] = result
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
        if s[2] >= WIN:  # (PLAYER0_WON too)
            return player == 0
        if s[3] >= WIN:  # (PLAYER1_WON too)
            return player == 1
        known: Value | None
        if len(s[0]) == 1 and not s[7] and s[1] == NO_STACK:
            known = self.last_tile(s)
        else:
            known = self.memo.get(s)
        if known is not None:
            return known[0] == known[1] if player == 0 else known[0] == 0
        memo = self.sure_memo[player]
        answer = memo.get(s)
        if answer is not None:
            return answer
        self._probe_left -= 1
        if self._probe_left < 0:
            raise _ProbeSpent
        if self.budget is not None:
            self.budget.tick()
        chance = self.chance(s)
        if chance is not None:
            answer = self._sure_of_chance(s, player, chance[0])
        elif s[4] == player:
            answer = any(self.sure(child, player) for child in self.children(s))
        else:
            answer = all(self.sure(child, player) for child in self.children(s))
        memo[s] = answer
        return answer

    def _sure_of_chance(
        self, s: Compact, player: int, outcomes: list[tuple[Compact, int]]
    ) -> bool:
        """:meth:`sure` at a chance node: every outcome must be a certain win. The draw that
        last refuted a certain win is tried first (a refutation is often one bad roll, the
        same in many positions); the order changes no answer."""
        sure = self.sure
        drawing = s[5] == 1
        killer = self._killer[player] if drawing else None
        if killer is not None:
            for child, _w in outcomes:
                if child[6] == killer:
                    if not sure(child, player):
                        return False
                    break
        for child, _w in outcomes:
            if not sure(child, player):
                if drawing:
                    self._killer[player] = child[6]
                return False
        return True

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
            return self._average(*chance)
        return self._best_move(s)

    def _best_move(self, s: Compact) -> Value:
        """The value of the decision ``s``: its best child's for the player to move."""
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

    def _average(self, outcomes: list[tuple[Compact, int]], total: int) -> Value:
        """The value of a chance step: its outcomes' values weighted by their integer weights
        (``total`` their sum), exactly and in lowest terms."""
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
