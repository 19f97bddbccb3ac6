"""The compact exact search against the plain expectimax of the rules engine: the same exact
values on generated positions from seeded games, the same best action in every decision, under
both rule options."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from fractions import Fraction

import pytest

from banditsolve.banditos.players import greedy_player, random_player
from banditsolve.banditos.rules import apply, legal_actions, sample_chance
from banditsolve.banditos.solvers.compact import compact
from banditsolve.banditos.solvers.endgame import CompactSolver, ExactSolver, best_turn
from banditsolve.banditos.state import Options, State, initial_state
from banditsolve.core.limits import LimitReached, Limits
from tests.banditos.test_puzzles import plain_expectimax
from tests.profiles import scaled
from tests.rules import rules


def _small(state: State) -> bool:
    """Whether the game tree from ``state`` is small enough for the plain searches (a filter
    only: the values compared come from the reference). Measured with the plain search on
    rules-engine states, whose size the reference shares (the compact search counts far fewer
    positions on some trees, one tile left above all)."""
    try:
        ExactSolver(Limits(node_limit=3000)).value(state)
    except LimitReached:
        return False
    return True


def endgame_positions(count: int, seed: int, options: Options, max_tiles: int) -> Iterator[State]:
    """Decision positions from seeded games (greedy or random players) once few tiles are
    left (at most ``max_tiles`` in the row and none face down), whose game trees are small."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        state = initial_state(options)
        player = rng.choice([greedy_player, random_player])
        while state.winner is None and found < count:
            if state.is_chance:
                state = apply(state, sample_chance(state, rng))
                continue
            tiles = sum(1 for slot in state.row if slot is not None)
            if (
                state.stack_size == 0
                and tiles <= max_tiles
                and rng.random() < 0.3
                and _small(state)
            ):
                found += 1
                yield state
            state = apply(state, player(state, rng))


OPTIONS = [Options(), Options(proof="bag"), Options(unplaceable="return")]


@rules("LB-CLAIM-2", "LB-RESOLVE-2", "LB-END-1", "LB-OPT-1", "LB-OPT-4")
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o.changed() or "default"))
def test_compact_values_equal_the_plain_expectimax(options: Options) -> None:
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        memo: dict[State, Fraction] = {}
        solver = CompactSolver(options=options)
        checked = 0
        for state in endgame_positions(scaled(6, 40), 20261201, options, max_tiles=2):
            expected = plain_expectimax(state, memo)
            assert solver.value(state) == expected, state.notation()
            checked += 1
        assert checked == scaled(6, 40)
    finally:
        sys.setrecursionlimit(old)


@rules("LB-TURN-5", "LB-GIVE-1")
def test_compact_plan_equals_the_old_search_plan() -> None:
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        for state in endgame_positions(scaled(4, 20), 7, Options(), max_tiles=2):
            reference = ExactSolver()
            new = CompactSolver()
            if reference.value(state) != new.value(state):
                raise AssertionError(state.notation())
            assert new.plan(state, state.to_move) == reference.plan(state, state.to_move)
    finally:
        sys.setrecursionlimit(old)


def test_best_turn_reports_the_exact_fraction_of_the_old_search() -> None:
    state = next(endgame_positions(1, 3, Options(), max_tiles=1))
    result = best_turn(state, node_limit=None)
    assert result.method == "exact"
    assert isinstance(result.probability, Fraction)
    assert result.probability == ExactSolver().for_player(state, state.to_move)


@rules("LB-NOTE-3", "LB-COMBO-1", "LB-TURN-2")
def test_a_colour_renaming_has_the_same_value() -> None:
    # Swap two colours everywhere: on the tiles, in hand and in the bag.
    swap = {0: 2, 2: 0, 1: 1, 3: 3}
    for state in endgame_positions(6, 11, Options(), max_tiles=1):
        s = compact(state)
        tiles, stack, s0, s1, me, phase, hand, opening, bag = s

        def rename(side: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(sorted(swap[c // 6] * 6 + c % 6 for c in side))

        renamed = (
            tuple(sorted((v, rename(a), rename(b)) for v, a, b in tiles)), stack, s0, s1, me,
            phase, rename(hand), opening, (bag[2], bag[1], bag[0], bag[3]),
        )
        solver = CompactSolver()
        assert solver.search.value(renamed) == solver.search.value(s)


def test_the_legal_order_decides_between_equal_actions() -> None:
    # Every action of a certain loss is equally bad: both searches pick the first legal one.
    for state in endgame_positions(6, 5, Options(), max_tiles=1):
        if ExactSolver().value(state) in (0, 1):
            reference, new = ExactSolver(), CompactSolver()
            reference.value(state)
            assert new.best_action(state) == reference.best_action(state)
            assert new.best_action(state) in legal_actions(state)


@rules("LB-CLAIM-2", "LB-RESOLVE-1", "LB-RESOLVE-2", "LB-TURN-6", "LB-OPT-1", "LB-OPT-4")
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: str(o.changed() or "default"))
def test_the_last_tile_solver_gives_the_plain_expectimax_values(options: Options) -> None:
    """One tile in play, none face down: the compact search hands the position to its
    last-tile solver (scores and tile value left out), whose values must be the reference's,
    before and after the roll, for either player to move."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        memo: dict[State, Fraction] = {}
        solver = CompactSolver(options=options)
        phases = set()
        for state in endgame_positions(scaled(8, 40), 20261202, options, max_tiles=1):
            assert sum(1 for slot in state.row if slot is not None) == 1
            assert solver.value(state) == plain_expectimax(state, memo), state.notation()
            phases.add((state.rolled, state.to_move))
        assert solver.search.last.memo, "the last-tile solver was not used"
        assert len(phases) >= 2
    finally:
        sys.setrecursionlimit(old)


@rules("LB-GIVE-1", "LB-TURN-6")
def test_give_ups_left_until_the_dice_are_placed_change_no_value() -> None:
    """Under the default rules the search offers a give-up after the roll only once the dice
    are placed or have no room; on positions of one or two tiles its values are those of the
    search that offers every give-up everywhere (``late_give_ups`` off) and of the reference."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        memo: dict[State, Fraction] = {}
        late, every = CompactSolver(), CompactSolver()
        assert late.search.late_give_ups
        every.search.late_give_ups = False
        for state in endgame_positions(scaled(4, 20), 20261203, Options(), max_tiles=2):
            expected = plain_expectimax(state, memo)
            assert late.value(state) == expected, state.notation()
            assert every.value(state) == expected, state.notation()
    finally:
        sys.setrecursionlimit(old)


@rules("LB-RESOLVE-1", "LB-RESOLVE-2", "LB-CLAIM-2")
def test_a_full_side_and_its_representative_compare_alike_with_every_completion() -> None:
    """The representative of a full side facing a partial one has the same dice per colour,
    and ranks at or above exactly the same completions of the partial side (ranked by the
    rules' ``rank`` on dice, not by the search's tables)."""
    import itertools

    from banditsolve.banditos.combos import rank
    from banditsolve.banditos.dice import ALL_DICE
    from banditsolve.banditos.solvers.compact import full_side_classes

    rng = random.Random(20261204)
    merged = 0
    for _ in range(scaled(60, 300)):
        theirs = tuple(sorted(rng.randrange(24) for _ in range(rng.randrange(3))))
        full = tuple(sorted(rng.randrange(24) for _ in range(3)))
        rep = full_side_classes(theirs)[full]
        assert len(rep) == 3
        assert rep == tuple(sorted(rep))
        assert sorted(c // 6 for c in rep) == sorted(c // 6 for c in full)
        mine_rank = rank(tuple(ALL_DICE[c] for c in full))
        rep_rank = rank(tuple(ALL_DICE[c] for c in rep))
        for extra in itertools.combinations_with_replacement(range(24), 3 - len(theirs)):
            other = rank(tuple(ALL_DICE[c] for c in (*theirs, *extra)))
            assert (other <= mine_rank) == (other <= rep_rank), (theirs, full, rep, extra)
        merged += rep != full
    assert merged  # the classes do merge sides


@rules("LB-NOTE-3")
def test_the_last_tile_key_is_the_same_for_every_colour_renaming() -> None:
    """Two sides of the last tile and any renaming of their colours get the same key; the key
    is itself a renaming of the two sides (a full side facing a partial one then stands for its
    class): the same number of dice per side and the same multiset of dice per colour, up to
    the colours' names."""
    import itertools

    from banditsolve.banditos.claim import build_table
    from banditsolve.banditos.solvers.compact import full_side_classes, last_tile_key

    build_table()  # the ranks the classes read
    rng = random.Random(20261208)
    perms = list(itertools.permutations(range(4)))
    for _ in range(scaled(200, 1000)):
        sizes = rng.choice([(0, 0), (1, 0), (1, 2), (2, 2), (3, 1), (2, 3), (3, 0)])
        mine = tuple(sorted(rng.randrange(24) for _ in range(sizes[0])))
        theirs = tuple(sorted(rng.randrange(24) for _ in range(sizes[1])))
        key = last_tile_key(mine, theirs)
        perm = rng.choice(perms)

        def rename(side: tuple[int, ...], perm: tuple[int, ...] = perm) -> tuple[int, ...]:
            return tuple(sorted(perm[c // 6] * 6 + c % 6 for c in side))

        assert last_tile_key(rename(mine), rename(theirs)) == key
        assert (len(key[0]), len(key[1])) == (len(mine), len(theirs))
        # Some renaming of the original, with the full side replaced by its class, is the key.
        assert any(
            (
                full_side_classes(rename(theirs, p))[rename(mine, p)]
                if len(mine) == 3 and len(theirs) < 3 else rename(mine, p),
                full_side_classes(rename(mine, p))[rename(theirs, p)]
                if len(theirs) == 3 and len(mine) < 3 else rename(theirs, p),
            ) == key
            for p in perms
        )
