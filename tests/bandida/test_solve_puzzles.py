"""The bundled Bandida puzzles, each answer checked by an independent computation:

- ``solve`` puzzles: a plain expectimax over the game's own ``legal_actions``/``apply`` (the
  rules engine through the game protocol: no memo, no cuts, no move ordering, nothing of the
  solver under test), giving the exact chance of winning with the best play;
- ``close`` puzzles: a brute force on the oracle's plain table (``tests/tunnels/oracle.py``:
  its own footprints and edge rule), covering the smallest empty cell an exit runs into with
  every card in every way, the goal checked by the card names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import replace
from fractions import Fraction

import pytest

from banditsolve.tunnels import Closure, can_close, min_cards_to_close, solve_game
from banditsolve.tunnels.bandida.rules import expect
from banditsolve.tunnels.cards import PORT_MASK, as_code, card_name
from banditsolve.tunnels.game import BANDIDA
from banditsolve.tunnels.solvers.bandida_puzzles import BandidaPuzzle, load_bandida_puzzles
from banditsolve.tunnels.state import WON, GameState
from tests.bandida.map_oracle import brute_close, replay_with_maps
from tests.bandida.test_close_goals import connected, to_footprint
from tests.tunnels.oracle import Footprint, PlainTable, Vec, footprint, is_legal

PUZZLES = load_bandida_puzzles()
KINDS = (
    "backpack",
    "dynamite",
    "broken_tool",
    "map",
    "water_bottle",
    "alarm_discard_one",
    "alarm_discard_five",
    "ladder",
)


def test_at_least_twenty_puzzles_cover_every_special_card_and_mode() -> None:
    assert len(PUZZLES) >= 20
    covered = {c for p in PUZZLES for c in p.covers}
    for name in (*KINDS, "mode1", "mode2", "mode3"):
        assert name in covered, name
    # Every object and alarm also in a game puzzle (where its effect is carried out).
    played = {c for p in PUZZLES if p.question == "solve" for c in p.covers}
    for name in KINDS:
        if name != "ladder":
            assert name in played, name


def best_chance(s: GameState, path: frozenset[object] = frozenset()) -> Fraction:
    """Reference: the chance of winning with the best play, by plain expectimax over the
    game's protocol (a state repeated on its own line counts as lost: it made no progress)."""
    if BANDIDA.outcome(s) is not None:
        return Fraction(1 if s.outcome == WON else 0)
    b = expect(s)
    key = (b.table, b.hands, b.unseen, b.pile, b.phase, b.to_draw, b.changed, b.sizes, b.queue)
    if key in path:
        return Fraction(0)
    path = path | {key}
    if s.is_chance:
        return sum(
            (p * best_chance(BANDIDA.apply(s, a), path) for a, p in BANDIDA.chance_outcomes(s)),
            Fraction(0),
        )
    best = Fraction(0)
    for a in BANDIDA.legal_actions(s):
        best = max(best, best_chance(BANDIDA.apply(s, a), path))
        if best == 1:
            break
    return best


def oracle_closure(
    start: PlainTable, names: list[str], goal: str, budget: int, first: tuple[int, int]
) -> bool:
    """Reference: is there a legal sequence of at most ``budget`` of ``names`` that reaches the
    goal? Covers the smallest empty cell an exit runs into in every way (every such cell must
    be covered by some card of a closure, and that card may be laid first)."""
    return _Oracle(goal, first).dfs(start, Counter(names), budget)


def _sides(name: str) -> list[str]:
    """The port names a card may be laid as: Bandido's super card on either side."""
    base = name.split(":")[0]
    if name.endswith(":bandido_super"):
        return [base, "TL+TR+R+BR+BL"]
    return [base]


def _covering(table: PlainTable, side: str, target: Vec) -> Iterator[Footprint]:
    """Every legal footprint of the port names ``side`` with a square on ``target``."""
    for rotation in (0, 90, 180, 270):
        for anchor in range(2):
            fp0 = footprint(side, 0, 0, rotation)
            cells = sorted(fp0, key=lambda e: e[0] != (0, 0))
            other = next(c for c, _ in cells if c != (0, 0))
            x, y = target if anchor == 0 else (target[0] - other[0], target[1] - other[1])
            fp = footprint(side, x, y, rotation)
            if is_legal(table, fp):
                yield fp


class _Oracle:
    """The brute force of :func:`oracle_closure`: the cards laid on the current line, and the
    card numbers of Bandido's super card laid."""

    def __init__(self, goal: str, first: tuple[int, int]) -> None:
        self.goal = goal
        self.first = first
        self.laid: list[str] = []
        self.bandido_numbers: set[int] = set()

    def goal_met(self, table: PlainTable) -> bool:
        if table.exits():
            return False
        if self.goal in ("ladder", "join") and not any(n.endswith(":ladder") for n in self.laid):
            return False
        if self.goal == "join":
            supers = [c for c, (n, _o) in table.cells.items() if n in self.bandido_numbers]
            return bool(supers) and any(connected(table, self.first, c) for c in supers)
        return True

    def dfs(self, table: PlainTable, left: Counter[str], room: int) -> bool:
        if self.goal_met(table):
            return True
        exits = table.exits()
        if not exits or room == 0:
            return False
        target = min((c[0] + d[0], c[1] + d[1]) for c, d in exits)
        for name in sorted(n for n, k in left.items() if k > 0):
            tried: set[Footprint] = set()
            for side in _sides(name):
                for fp in _covering(table, side, target):
                    if fp in tried:
                        continue
                    tried.add(fp)
                    if self.lay(table, fp, name, left, room):
                        return True
        return False

    def lay(
        self, table: PlainTable, fp: Footprint, name: str, left: Counter[str], room: int
    ) -> bool:
        """Whether laying ``fp`` (of the card ``name``) leads to the goal."""
        child = PlainTable()
        child.cells = dict(table.cells)
        child.count = table.count
        child.add(fp)
        if name.endswith(":bandido_super"):
            self.bandido_numbers.add(child.count)
        left[name] -= 1
        self.laid.append(name)
        found = self.dfs(child, left, room - 1)
        self.laid.pop()
        left[name] += 1
        self.bandido_numbers.discard(child.count)
        return found


def _check_closable(
    state: GameState, r: Closure, expected: Mapping[str, object], plain: PlainTable,
    usable: list[str], first: tuple[int, int],
) -> None:
    """A closable puzzle's answer: the expected count and minimality, its line replayed (with
    the map oracle when it uses a map) or matched by the oracle, and (a minimum) no shorter
    closure by the oracle."""
    assert r.cards == expected["cards"]
    assert r.minimum == expected["minimum"]
    if r.removals or any(card_name(p.card).endswith(":map") for p in r.placements):
        replay_with_maps(state.table, r)
    else:
        assert oracle_closure(plain, usable, r.goal, r.cards, first)
    if r.minimum:
        assert not oracle_closure(plain, usable, r.goal, r.cards - 1, first)


def check_close(puzzle: BandidaPuzzle) -> None:
    state = puzzle.state()
    assert puzzle.cards is not None
    cards = [card_name(as_code(c)) for c in puzzle.cards]
    expected = puzzle.expected
    r = min_cards_to_close(
        state, cards, goal=puzzle.goal, hypothetical=puzzle.hypothetical, time_limit=60
    )
    assert r.status == expected["status"], (puzzle.id, r.reason)
    goal = r.goal
    plain = PlainTable()
    for p in state.table.history:
        plain.add(to_footprint(p))
    first = state.table.history[0].cells[0]
    usable = [c for c in cards if not c.endswith(":map")]
    maps = any(c.endswith(":map") for c in cards)
    if r.status == "closable":
        _check_closable(state, r, expected, plain, usable, first)
    elif r.status == "impossible":
        assert not oracle_closure(plain, cards, goal, len(cards), first)
        if maps and goal == "close":
            # The map oracle's search of every line, removals included, finds none either.
            assert not brute_close(state.table, [as_code(c) for c in cards])
    else:
        # Unknown only because of a map: without it, no closure exists.
        assert any(c.endswith(":map") for c in cards)
        assert "map" in r.reason
        assert not oracle_closure(plain, usable, goal, len(usable), first)
    assert can_close(state, cards, goal=puzzle.goal).status == r.status


def check_solve(puzzle: BandidaPuzzle) -> None:
    state = puzzle.state()
    r = solve_game(state, time_limit=60)
    expected = puzzle.expected
    assert r.status == expected["status"], (puzzle.id, r.reason)
    reference = best_chance(state)
    if r.status == "win":
        assert reference == 1
        s = state
        for move in r.line:  # the line replays through the rules engine to a win
            if s.is_chance:
                s = BANDIDA.apply(s, BANDIDA.chance_outcomes(s)[0][0])
            assert move.action in BANDIDA.legal_actions(s)
            s = BANDIDA.apply(s, move.action)
        while s.is_chance:
            s = BANDIDA.apply(s, BANDIDA.chance_outcomes(s)[0][0])
        assert s.outcome == WON
    elif r.status == "lose":
        assert reference == 0
    else:
        assert r.win_chance is not None
        assert str(r.win_chance) == expected["win_chance"]
        assert reference == r.win_chance
    answer = r.to_answer("bandida")
    assert answer.question == "solve"
    if "too_soon" in puzzle.covers:
        # Some legal move closes the table before the ladder is down, and that loses at once.
        after = [BANDIDA.apply(state, a) for a in BANDIDA.legal_actions(state)]
        assert any(
            s.outcome is not None and s.outcome != WON and s.table.exit_count == 0 for s in after
        )
    if puzzle.contrast is not None:
        # What makes the card decide: the same position with a plain card of its openings.
        code = as_code(puzzle.contrast["swap"])
        plain = code & PORT_MASK

        def swap(cards: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(plain if c == code else c for c in cards)

        other = replace(
            state,
            hands=tuple(tuple(sorted(swap(h))) for h in state.hands),
            pile=swap(state.pile),
            unseen=tuple(sorted(swap(state.unseen))),
        )
        assert code in state.remaining()
        assert code not in other.remaining()
        want = {"win": 1, "lose": 0}[puzzle.contrast["status"]]
        assert best_chance(other) == want


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.id for p in PUZZLES])
def test_puzzle_answers_match_an_independent_computation(puzzle: BandidaPuzzle) -> None:
    if puzzle.question == "close":
        check_close(puzzle)
    else:
        check_solve(puzzle)
