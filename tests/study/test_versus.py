"""The study question ``mcts`` (OpenSpiel's MCTS against our players) and its report section."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from banditsolve.core.hooks import QuestionError, Row, Task
from banditsolve.study.catalog import STUDIES
from banditsolve.study.figures import Plots
from banditsolve.study.questions import columns, run
from banditsolve.study.versus import MCTS_COLUMNS, budget, mcts_section

pytest.importorskip("pyspiel")


def task(game: str, policies: str, seed: int = 3, **params: Any) -> Task:
    pairs = (("setting", f"mcts:{game} {policies}"), ("players", 2), ("policies", policies),
             *params.items())
    return Task("t", 0, game, "mcts", seed, (), pairs)


def timeless(row: Row) -> Row:
    return {k: v for k, v in row.items() if not k.startswith("seconds_")}


def test_a_duel_is_played_to_the_end_and_replays() -> None:
    t = task("banditos", "mcts:4,greedy")
    row = run(t)
    assert list(row) == list(MCTS_COLUMNS) == list(columns("mcts", "banditos"))
    assert row["policy_0"] == "mcts:4"
    assert row["policy_1"] == "greedy"
    assert row["return_0"] + row["return_1"] == 1.0  # type: ignore[operator]
    assert row["winner"] in (0, 1)
    assert row["moves_0"] > 0  # type: ignore[operator]
    assert row["moves_1"] > 0  # type: ignore[operator]
    assert row["decisions"] == row["moves_0"] + row["moves_1"]  # type: ignore[operator]
    assert timeless(run(t)) == timeless(row)  # the same seed, the same game


def test_a_team_game_with_every_seat_mcts() -> None:
    row = run(task("bandido", "mcts:2"))
    assert row["policies"] == "mcts:2,mcts:2"
    assert row["return_0"] == row["return_1"]
    assert row["won"] == (row["return_0"] == 1.0)


def test_a_bad_seat_is_refused() -> None:
    with pytest.raises(QuestionError, match="mcts:N"):
        run(task("banditos", "mcts:x,greedy"))
    with pytest.raises(QuestionError, match="unknown policy"):
        run(task("banditos", "mcts:2,nobody"))
    with pytest.raises(QuestionError, match="3 policies for 2"):
        run(task("banditos", "mcts:2,greedy,greedy"))
    assert budget("greedy") is None
    assert budget("mcts:100") == 100


def _duel(winner: int, seed: int, first: str = "mcts:10", second: str = "greedy") -> Row:
    return {"setting": f"mcts:banditos {first},{second}", "seed": seed,
            "policies": f"{first},{second}", "winner": winner, "won": True,
            "seconds_0": 0.5, "moves_0": 10, "seconds_1": 0.01, "moves_1": 10}


def test_the_section_says_who_beat_whom_from_the_rows(tmp_path: Path) -> None:
    rows = [_duel(1, s) for s in range(9)] + [_duel(0, s, "greedy", "mcts:10") for s in range(3)]
    rows += [_duel(0, s, "mcts:100", "claim-aware") for s in range(3)]
    rows += [{"setting": "mcts:bandido greedy", "seed": s, "policies": "greedy,greedy",
              "won": s < 2, "seconds_0": 0.0, "moves_0": 1, "seconds_1": 0.0, "moves_1": 1}
             for s in range(10)]
    rows += [{"setting": "mcts:bandido mcts:10", "seed": s, "policies": "mcts:10,mcts:10",
              "won": s < 5, "seconds_0": 1.0, "moves_0": 10, "seconds_1": 1.0, "moves_1": 10}
             for s in range(10)]
    text = "\n".join(mcts_section(rows, Plots(tmp_path)))
    # greedy won all 12 of its games against MCTS 10 (9 as seat 1, 3 as seat 0).
    assert "Our players beat MCTS: greedy against MCTS 10 in Los Banditos, 12 wins to 0 of 12" \
        in text
    assert "p = 0.00049" in text
    # 3 games to 0 for MCTS 100: not enough to tell.
    assert "Not told apart by these games: claim-aware against MCTS 100 in Los Banditos, 0 " \
        "wins to 3 of 3 games (-100.0 points" in text
    assert "| Los Banditos | MCTS 10 | greedy | 12 | 0.0 % (0.0-24.2) | 100.0 % (75.8-100.0) |" \
        in text
    assert "| Bandido | greedy | 10 | 20.0 % (5.7-51.0) | - |" in text
    assert "| Bandido | mcts:10 | 10 | 50.0 % (23.7-76.3) | +30.0 " in text
    assert (tmp_path / "mcts.png").exists()
    assert mcts_section([_duel(0, 1) | {"setting": "h2h:greedy,random"}], Plots(tmp_path)) == []


def test_the_study_runs_each_kind_of_setting() -> None:
    spec = STUDIES["openspiel-mcts"]
    labels = {s.label for s in spec.settings()}
    assert "mcts:banditos mcts:10,montecarlo" in labels
    assert "mcts:banditos montecarlo,mcts:10" in labels
    assert "mcts:rolling greedy,mcts:30" in labels
    assert {"mcts:bandido greedy", "mcts:bandido mcts:10", "mcts:bandida mcts:10"} <= labels
    assert all(s.question == "mcts" for s in spec.settings())
