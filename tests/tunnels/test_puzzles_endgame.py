"""Bundled puzzles (every answer checked independently) and the perfect-information solver."""

from __future__ import annotations

import re

import pytest

from banditsolve.cli import main
from banditsolve.errors import SolverError
from banditsolve.tunnels import (
    apply,
    can_close,
    chance_outcomes,
    load_puzzles,
    min_cards_to_close,
    solve_game,
    win_share,
)
from banditsolve.tunnels.state import CHANGE, WON
from tests.rules import rules
from tests.tunnels.test_closure import replay

PUZZLES = load_puzzles()


def test_at_least_twenty_puzzles() -> None:
    assert len(PUZZLES) >= 20
    assert len({p.id for p in PUZZLES}) == len(PUZZLES)


@rules("BD-CLOSE-1", "BD-CLOSE-2", "BD-CLOSE-3", "BD-CLOSE-4")
@pytest.mark.parametrize("puzzle", [p for p in PUZZLES if p.question != "solve"], ids=str)
def test_closure_puzzle(puzzle: object) -> None:
    from banditsolve.tunnels.puzzles import Puzzle

    assert isinstance(puzzle, Puzzle)
    pos, want = puzzle.position, puzzle.expected
    r = min_cards_to_close(pos, bounds=puzzle.bounds, backend="exact")
    assert r.status == want["status"], r.reason
    if r.status == "closable":
        replay(pos.table, r)
        assert r.cards == want["cards"]
        assert r.minimum
        # CP-SAT's own minimum within the proven budget (a small model, so a generous limit
        # only matters on a loaded machine).
        second = min_cards_to_close(
            pos, max_cards=want["cards"], bounds=puzzle.bounds, backend="cpsat", time_limit=120
        )
        assert second.status == "closable"
        assert second.cards == want["cards"]
        assert second.minimum
    else:
        second = can_close(pos, bounds=puzzle.bounds, backend="cpsat", time_limit=120)
        assert second.status == "impossible", second.reason


@rules("BD-SOLVE-1")
@pytest.mark.parametrize("puzzle", [p for p in PUZZLES if p.question == "solve"], ids=str)
def test_game_puzzle(puzzle: object) -> None:
    from banditsolve.tunnels.puzzles import Puzzle

    assert isinstance(puzzle, Puzzle)
    state = puzzle.state()
    r = solve_game(state)
    assert r.status == puzzle.expected["status"]
    if r.status == "win":
        # Replay the line through the engine, each move legal, ending in a win.
        s = state
        for move in r.line:
            assert move.player == s.player
            assert move.hand == s.hands[s.player]
            assert move.turn == s.turn  # (the state's count, as show and the notation say)
            s = apply(s, move.action)
        assert s.outcome == WON
        if "change" in puzzle.id:
            assert r.line[0].action == CHANGE
    else:
        # Independent check: no closure of the table with every card still in play, or every
        # first move leads to a lost solve.
        assert r.status == "lose"


@rules("BD-SOLVE-2")
def test_win_share_is_labelled_with_interval() -> None:
    state = next(p for p in PUZZLES if p.id == "game-win-2").state()
    from dataclasses import replace

    hidden = replace(state, unseen=tuple(sorted(state.pile)), pile=())
    share = win_share(hidden, samples=5, seed=1, time_limit=2)
    assert share.samples == 5
    assert share.won + share.lost + share.unknown == 5
    assert share.low <= share.share <= share.high
    assert "upper bound" in share.label


def test_cli_close_json(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    """The command line prints the results' answers (to_answer) and exits by their status."""
    import json
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    puzzle = next(p for p in PUZZLES if p.expected["status"] == "closable")
    from banditsolve.tunnels import to_json

    f = tmp_path / "p.json"
    f.write_text(json.dumps(to_json(puzzle.position)))
    out = tmp_path / "c.svg"
    assert main(["bandido", "close", str(f), "--minimum", "--json", "--svg", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["status"], data["answer"]) == ("yes", "closable")
    assert all(re.fullmatch(r"[A-Z+]+@-?\d+,-?\d+,\d+", p) for p in data["certificate"])
    assert out.read_text().startswith("<svg")
    game = next(p for p in PUZZLES if p.question == "solve")
    g = tmp_path / "g.json"
    assert game.document is not None
    g.write_text(json.dumps(dict(game.document)))
    code = main(["bandido", "solve", str(g), "--json"])
    assert json.loads(capsys.readouterr().out)["answer"] == game.expected["status"]
    assert code == (0 if game.expected["status"] == "win" else 1)
    assert main(["bandido", "close", str(f), "--backend", "bogus"]) == 2
    capsys.readouterr()
    assert main(["bandido", "close", str(f), "--workers", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["answer"] == "closable"
    assert main(["bandido", "close", str(f), "--workers", "0"]) == 2
    assert "workers" in capsys.readouterr().err
    bounded = next(p for p in PUZZLES if p.bounds is not None)
    b = tmp_path / "b.json"
    b.write_text(json.dumps(to_json(bounded.position)))
    area = ",".join(str(v) for v in bounded.bounds or ())
    main(["bandido", "close", str(b), f"--bounds={area}", "--json"])
    assert json.loads(capsys.readouterr().out)["answer"] == bounded.expected["status"]
    assert main(["bandido", "close", str(b), "--bounds", "1,2"]) == 2
    assert "bounds" in capsys.readouterr().err
    assert main(["bandido", "close", str(b), "--node-limit", "1", "--json"]) == 3
    assert "node limit" in json.loads(capsys.readouterr().out)["reason"]


@rules("BD-SOLVE-2")
def test_win_share_counts_undecided_samples_as_won() -> None:
    """With no time to decide anything, every sample is undecided, and the share (an upper
    bound) must count them as won (none is won yet the share is 1) rather than lost; the time
    limit is for all samples."""
    state = next(p for p in PUZZLES if p.id == "game-win-2").state()
    from dataclasses import replace

    hidden = replace(state, unseen=tuple(sorted(state.pile)), pile=())
    share = win_share(hidden, samples=200, seed=1, time_limit=1e-6)
    assert share.unknown == 200
    assert share.won == 0
    assert share.share == 1.0
    assert "undecided" in share.label
    decided = win_share(hidden, samples=3, seed=1, time_limit=30)
    assert decided.unknown == 0
    assert decided.share == decided.won / 3
    with pytest.raises(SolverError):
        win_share(hidden, samples=0)
    with pytest.raises(SolverError):
        solve_game(state, time_limit=0)


def test_game_document_fields_are_checked(tmp_path: object) -> None:
    from pathlib import Path

    from banditsolve.errors import NotationError
    from banditsolve.tunnels.puzzles import game_state

    assert isinstance(tmp_path, Path)
    game = next(p for p in PUZZLES if p.question == "solve")
    assert game.document is not None
    base = dict(game.document)
    for field, value in (("options", "x"), ("pile", "L"), ("unseen", "L")):
        with pytest.raises(NotationError, match=field):
            game_state(base | {field: value})
    doc = tmp_path / "bad.json"
    import json

    doc.write_text(json.dumps(base | {"options": "x"}))
    assert main(["bandido", "solve", str(doc)]) == 2


# A Bandido game of random moves (seed 37, 23 cards down): no exit faces a cell that no card
# in play fits and the counting bounds allow a closure, yet no arrangement of the 46 cards in
# play closes the tunnel. The game search alone had not decided it within 3 s.
_HOPELESS = (
    "bandido L+TL+TR+R+BR+BL@0,0,0 L+TR+BL@1,-1,270 TL+TR@-1,1,0 L+TR+R+BL@2,0,90 L+R@1,1,90"
    " L+TL+R+BR@-1,-2,0 L+TL+BR+BL@-1,-3,180 L+TL+R+BL@1,3,180 TL+TR+BR@-1,4,270 L@2,3,0"
    " L+TL+R@1,4,90 L+TL+BL@1,6,180 TL+TR@0,-3,270 L+TL+TR@-2,3,90 L+TL+TR+R@-2,2,270"
    " L+TR+R+BL@3,1,0 TL+TR+BL@5,1,90 L+BL@6,2,90 L+TL@-2,0,180 L+TR@5,0,180 L+TL@-2,-2,180"
    " TL+BL@2,6,270 L+TL@6,0,0 L+BR+BL@1,7,90 | hands=L+TL+TR,L+TL+BR,TR+BL/TR,L+TR+R,"
    "TL+TR+BR+BL player=1 turn=23 pile=L+TL+R,L+TL+BR,L,L+TL+TR+BL,L+TL+BL,L+TR+BR,L+TL+BR+BL,"
    "L+TR+BR,L,L+BL,TL+BL,L+TL+TR+BR*2,TL+TR+BL,L+BL,L+TR+R,L+TL+R+BL,TL+TR+BR,L+TR+BR+BL,L+BR,"
    "TL*2,L+TR+BL,TR,TL+BR,L+BR,TL+TR+BR+BL,L+TL+TR+R,L+R,TR+BL,L+TL+R+BR,TL+BR,TL+BL,L+BR+BL,"
    "L+TR,L+TL+TR+BL,L+TL+BL,TL,L+TR+BR+BL,TR"
)


@rules("BD-SOLVE-3")
def test_a_game_whose_cards_cannot_close_is_lost_without_a_game_search() -> None:
    """Both closure searches (the compiled one and the Python reference) prove that the cards
    in play cannot close the tunnel: the game is lost at once, with that reason, and so is
    every sampled shuffle of its pile."""
    from dataclasses import replace

    from banditsolve.tunnels.game import BANDIDO
    from banditsolve.tunnels.solvers.bounds import static_reason

    state = BANDIDO.read_state(_HOPELESS)
    assert static_reason(state.table, state.remaining()) is None
    for backend in ("exact", "python"):
        assert can_close(state, backend=backend, time_limit=30).status == "impossible"
    solved = solve_game(state, time_limit=5)
    assert solved.status == "lose"
    assert solved.nodes == 0
    # (below a 1 s limit the question is not asked: its call alone may take 0.07 s; nor in a
    # search bounded by its nodes alone, whose answer stays a function of them)
    assert solve_game(state, time_limit=0.5).nodes > 0
    assert solve_game(state, time_limit=None, node_limit=100).nodes > 0
    unlimited = solve_game(state, time_limit=None)
    assert (unlimited.status, unlimited.nodes) == ("lose", 0)
    assert "cannot reach the goal" in solved.reason
    assert solved.to_answer("bandido").status == "no"
    hidden = replace(state, unseen=tuple(sorted(state.pile)), pile=())
    share = win_share(hidden, samples=40, seed=2, time_limit=5)
    assert (share.won, share.lost, share.unknown) == (0, 40, 0)
    assert share.high < 0.1
    assert "every shuffle lost" in share.label


@rules("BD-SOLVE-3", "BA-SOLVE-3")
def test_the_closure_question_never_cuts_a_winning_line() -> None:
    """Along the winning line of every shipped game puzzle (Bandido's and Bandida's), each
    state's cards in play can still reach the goal: the cut is a relaxation of winning."""
    from banditsolve.core.limits import Limits
    from banditsolve.tunnels.solvers.bandida_puzzles import load_bandida_puzzles
    from banditsolve.tunnels.solvers.endgame import out_of_reach

    starts = [p.state() for p in PUZZLES if p.question == "solve"]
    starts += [p.state() for p in load_bandida_puzzles() if p.question == "solve"]
    checked = 0
    for start in starts:
        solved = solve_game(start, time_limit=30)
        if solved.status != "win":
            continue
        s = start
        for move in solved.line:
            while s.is_chance:  # (a line shows a reshuffle's first outcome)
                s = apply(s, chance_outcomes(s)[0][0])
            assert out_of_reach(s, Limits(10), False) is None, move
            checked += 1
            s = apply(s, move.action)
        assert s.outcome == WON
    assert checked >= 20
