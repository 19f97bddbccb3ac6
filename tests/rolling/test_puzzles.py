"""The bundled puzzles: every answer re-derived independently (RB-ODDS-1, RB-SAFE-1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from banditsolve.rolling.edition import CONTENTS, LETTERS
from banditsolve.rolling.puzzles import Puzzle, load_puzzles
from banditsolve.rolling.rules import edition_of
from banditsolve.rolling.solvers.safety import is_safe
from banditsolve.rolling.solvers.turn import best_ambush, chance_to_lay, steal_chance, trunk_wagons
from banditsolve.rolling.state import State
from tests.rolling import reference
from tests.rules import rules

PUZZLES = load_puzzles()


def _of(question: str) -> list[Puzzle]:
    return [p for p in PUZZLES if p.question == question]


def test_there_are_twenty_puzzles() -> None:
    assert len(PUZZLES) >= 20
    assert {p.question for p in PUZZLES} == {"lay", "safe", "trunk", "ambush", "steal"}
    assert {p.answer for p in PUZZLES if p.question == "safe"} == {"safe", "unsafe"}


@rules("RB-ODDS-1")
@pytest.mark.parametrize("puzzle", _of("lay"), ids=lambda p: p.id)
def test_lay_puzzles(puzzle: Puzzle) -> None:
    state = puzzle.state()
    me = state.to_move
    n = 7 - sum(g.size for c in state.train if (g := c.groups[me]) is not None)
    symbols = [LETTERS[g.symbol] for c in state.train if (g := c.groups[me]) is not None]
    gang_front = min(i for i, c in enumerate(state.train) if c.groups[me] is not None)
    expected = reference.chance_to_lay(n, puzzle.symbol, puzzle.k, puzzle.symbol in symbols,
                                       gang_front > 0)
    assert Fraction(puzzle.answer) == expected
    assert chance_to_lay(state, LETTERS.index(puzzle.symbol), puzzle.k) == expected


def _safe_reference(state: State, puzzle: Puzzle) -> bool:
    """The expected verdict, by a hand argument for each kind of safe puzzle."""
    wagon = state.wagon(puzzle.wagon)
    assert wagon is not None
    group = wagon.groups[puzzle.player]
    assert group is not None
    q = state.to_move
    held = [h for h in state.trunks[q][: state.usable] if not h.used]
    if puzzle.id == "safe-ambush":
        # without the ambush the opponent reaches their group here plus the dice in hand (taking
        # back the rear group leaves the wagon behind the gang; a restart from the rear costs one
        # die per wagon on the way); the ambush swaps their biggest group onto it
        assert any(CONTENTS[h.content] == "ambush" for h in held)
        theirs = [c.groups[q] for c in state.train if c.groups[q] is not None]
        hand = 7 - sum(g.size for g in theirs if g is not None)
        mine_here = wagon.count(q)
        restart = 7 - (len(state.train) - 1 - state.index(puzzle.wagon))
        assert max(mine_here + hand, restart) < group.size  # it looks safe
        return max(g.size for g in theirs if g is not None) < group.size
    if puzzle.id == "safe-bomb":
        # the opponent's revolvers here plus their one die in hand make three: the trunk opens,
        # and a bomb (still unseen) leaves one die to each player, a tie
        on_wagon = wagon.groups[q]
        assert on_wagon is not None
        assert wagon.trunk == on_wagon.symbol
        assert on_wagon.size + 1 == 3 < group.size  # it looks safe
        return reference.bomb_share(edition_of(state), on_wagon.symbol, []) == 0
    distance = len(state.train) - 1 - state.index(puzzle.wagon)
    return reference.safe_from_empty_opponent(7, distance, group.size, wagon.need)


@rules("RB-SAFE-1", "RB-SAFE-2")
@pytest.mark.parametrize("puzzle", _of("safe"), ids=lambda p: p.id)
def test_safe_puzzles(puzzle: Puzzle) -> None:
    state = puzzle.state()
    expected = _safe_reference(state, puzzle)
    assert puzzle.answer == ("safe" if expected else "unsafe")
    verdict = is_safe(state, puzzle.wagon, puzzle.player, time_limit=30)
    assert verdict.safe is expected


@rules("RB-TRUNK-1", "RB-ATTACK-4", "RB-JOKER-1")
@pytest.mark.parametrize("puzzle", _of("trunk"), ids=lambda p: p.id)
def test_trunk_puzzles(puzzle: Puzzle) -> None:
    state = puzzle.state()
    me = state.to_move
    gang = [(c.id, LETTERS[g.symbol], g.size) for c in state.train if (g := c.groups[me])]
    trunks = {c.id: LETTERS[c.trunk] for c in state.train if c.trunk is not None}
    roll = "".join(LETTERS[i] * k for i, k in enumerate(state.roll))
    expected = reference.trunk_layings(gang, roll, trunks, [c.id for c in state.train])
    assert expected == {int(puzzle.answer)}
    assert trunk_wagons(state) == (int(puzzle.answer),)


@rules("RB-AMBUSH-1")
@pytest.mark.parametrize("puzzle", _of("ambush"), ids=lambda p: p.id)
def test_ambush_puzzles(puzzle: Puzzle) -> None:
    state = puzzle.state()
    me = state.to_move
    groups = {c.id: (LETTERS[g.symbol], g.size) for c in state.train if (g := c.groups[me])}
    trunks = {c.id: LETTERS[c.trunk] for c in state.train if c.trunk is not None}
    counts = reference.ambush_trunks(groups, trunks)
    best = max(counts.values())
    winners = [pair for pair, n in counts.items() if n == best]
    assert best == puzzle.k
    assert len(winners) == 1
    assert puzzle.answer == f"ambush {winners[0][0]} {winners[0][1]}"
    assert best_ambush(state) == (puzzle.answer, puzzle.k)


@rules("RB-TRUNK-3", "RB-ODDS-2")
@pytest.mark.parametrize("puzzle", _of("steal"), ids=lambda p: p.id)
def test_steal_puzzles(puzzle: Puzzle) -> None:
    # the bomb puzzle: the wagon becomes mine exactly when its trunk is a bomb
    state = puzzle.state()
    wagon = state.wagon(puzzle.wagon)
    assert wagon is not None
    assert wagon.trunk is not None
    expected = reference.bomb_share(edition_of(state), wagon.trunk, [])
    assert Fraction(puzzle.answer) == expected
    assert steal_chance(state, puzzle.wagon) == expected
