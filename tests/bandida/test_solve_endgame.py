"""The Bandida endgame solver: answers through the game's own rules, limits give unknown, the
win share is an upper bound with its interval, and the answer shapes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from banditsolve.errors import SolverError
from banditsolve.tunnels import solve_game, win_share
from banditsolve.tunnels.game import BANDIDA
from banditsolve.tunnels.solvers.bandida_puzzles import BandidaPuzzle, load_bandida_puzzles
from banditsolve.tunnels.solvers.endgame import action_text
from banditsolve.tunnels.state import WON, GameState
from tests.bandida.helpers import chained_map_game
from tests.rules import rules


def first_solve_puzzle(status: str) -> BandidaPuzzle:
    for p in load_bandida_puzzles():
        if p.question == "solve" and p.expected["status"] == status:
            return p
    raise AssertionError(f"no {status} puzzle")


@pytest.mark.parametrize("mode", [1, 2, 3])
def test_whole_games_end_in_unknown_within_the_limits(mode: int) -> None:
    s = BANDIDA.new_game(2, {"mode": str(mode)}, seed=3)
    r = solve_game(s, time_limit=0.3)
    assert r.status in ("unknown", "win", "lose")
    assert r.seconds < 3
    if r.status == "unknown":
        assert not r.line
        assert "limit" in r.reason
    r = solve_game(s, node_limit=50)
    assert r.status in ("unknown", "win", "lose")
    assert r.nodes <= 51


@rules("BA-SOLVE-1")
def test_winning_line_replays_and_answer_shape() -> None:
    p = first_solve_puzzle("win")
    s = p.state()
    r = solve_game(s, time_limit=30)
    assert r.status == "win"
    for move in r.line:
        s = BANDIDA.apply(s, move.action)
    assert s.outcome == WON
    a = r.to_answer("bandida")
    assert a.status == "yes"
    assert a.answer == "win"
    assert a.certificate
    assert a.certificate == [action_text(m.action) for m in r.line]
    assert "win_chance" not in r.to_json()


@rules("BA-SOLVE-1")
def test_losing_answer_shape() -> None:
    r = solve_game(first_solve_puzzle("lose").state(), time_limit=30)
    a = r.to_answer("bandida")
    assert r.status == "lose"
    assert a.status == "no"
    assert a.certificate is None


@rules("BA-SOLVE-2")
def test_win_share_is_an_upper_bound_with_its_interval() -> None:
    p = first_solve_puzzle("win")
    s = p.state()
    hidden = replace(s, unseen=tuple(sorted(s.pile)), pile=())
    with pytest.raises(SolverError):
        solve_game(hidden)
    w = win_share(hidden, samples=6, seed=1, time_limit=30)
    assert w.samples == 6
    assert w.won + w.lost + w.unknown == 6
    assert 0 <= w.low <= w.share <= w.high <= 1
    a = w.to_answer("bandida")
    assert a.question == "win-share"
    assert a.details["upper_bound"] is True
    assert "upper bound" in a.reason


@rules("BA-SOLVE-1")
def test_chance_nodes_give_the_exact_chance_of_winning() -> None:
    """Below a reshuffle the pile order is unknown again: the solver averages over the draws.
    Checked against the puzzles' reference expectimax on states whose pile is unseen."""
    from fractions import Fraction

    from banditsolve.core.limits import Limits
    from banditsolve.tunnels.solvers.endgame import solve_bandida
    from tests.bandida.test_solve_puzzles import best_chance

    checked = mixed = 0
    for p in load_bandida_puzzles():
        if p.question != "solve" or len(p.state().pile) > 3:
            continue
        s = p.state()
        hidden = replace(s, unseen=tuple(sorted(s.pile)), pile=())
        r = solve_bandida(hidden, Limits(30))
        reference = best_chance(hidden)
        if r.status == "win":
            assert reference == 1
        elif r.status == "lose":
            assert reference == 0
        else:
            assert r.win_chance is not None, p.id
            assert r.win_chance == reference, p.id
            assert 0 < reference < 1
            assert str(r.win_chance) in r.to_json()["win_chance"]  # type: ignore[operator]
            assert r.to_answer("bandida").details["win_chance"] == str(Fraction(reference))
            mixed += 1
        checked += 1
        if checked >= 5 and mixed:
            break
    assert checked >= 5, (checked, mixed)
    assert mixed >= 1, (checked, mixed)


@rules("BA-SOLVE-1")
def test_the_memo_tells_states_apart_exactly_as_their_equality() -> None:
    """The solver's memo keeps a compact key, not the state: two states share a key exactly
    when they are equal but for the turn number and their table's last card is the same,
    whatever order the others were laid in (the tables compare as sets of placements)."""
    import random

    from banditsolve.tunnels.rules import apply, chance_outcomes, legal_actions
    from banditsolve.tunnels.solvers.endgame import _bandida_key
    from banditsolve.tunnels.table import Table

    states: list[GameState] = []
    for mode in (1, 2, 3):
        for seed in range(4):
            rng = random.Random(seed)
            s: GameState = BANDIDA.new_game(2, {"mode": str(mode)}, seed=seed)
            s = replace(s, unseen=(), pile=s.unseen + s.pile)
            while s.outcome is None and len(states) < 400 * mode:
                states.append(s)
                if s.is_chance:
                    s = apply(s, rng.choice(chance_outcomes(s))[0])
                else:
                    s = apply(s, rng.choice(legal_actions(s)))
    assert len({len(s.table) for s in states}) > 10
    for s in states[::7]:
        history = s.table.history
        relaid = Table.empty()
        for p in (*reversed(history[:-1]), *history[-1:]):
            relaid = relaid.place(p, check=False)
        assert relaid.history != history or len(relaid) < 3
        twin = replace(s, table=relaid, turn=s.turn + 7)
        assert _bandida_key(twin) == _bandida_key(s)
        if len(history) > 1:
            # (the card laid last decides which a map may take off: map_removes=not_special)
            moved = Table.empty()
            for p in (*history[1:], history[0]):
                moved = moved.place(p, check=False)
            assert _bandida_key(replace(s, table=moved)) != _bandida_key(s)

    def equal(s: GameState) -> object:
        return replace(s, turn=0), s.table.history[-1]

    keys: dict[object, set[object]] = {}
    for s in states:
        keys.setdefault(_bandida_key(s), set()).add(equal(s))
    assert all(len(v) == 1 for v in keys.values())
    assert len(keys) == len({equal(s) for s in states})



@rules("BA-SOLVE-3", "BA-OPT-8")
def test_a_map_that_takes_nothing_off_is_not_cut_by_the_closure_question() -> None:
    """Under ``chain=no`` a map laid under the broken tool takes nothing off (BA-OPT-8): here
    the tool, then the map as a plain tunnel card, then the last card close the tunnel. The
    closure question (whose maps always remove) is no relaxation then: the solver must not
    answer ``lose`` from it (a review found it did), and finds the win."""
    for chain, status in (("no", "win"), ("yes", "lose")):
        state = chained_map_game(chain)
        solved = solve_game(state, time_limit=10, hypothetical=True)
        assert solved.status == status, (chain, solved.reason)
        if status == "win":
            for move in solved.line:
                state = BANDIDA.apply(state, move.action)
            assert state.outcome == WON
