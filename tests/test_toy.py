"""A new game is a new package and nothing else: the toy Nim with a die (``tests/toy``),
registered here, passes the whole contract suite, the shared command-line verbs (and its own
question, through its command-line hooks) and a small study, with no change in the library."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from banditsolve.core.hooks import CliHooks, StudyHooks, Task
from banditsolve.core.registry import games, load_cli, load_game, load_study, register, unregister
from tests import contract
from tests.cli_runner import run
from tests.toy import ENTRY
from tests.toy import cli as toy_cli
from tests.toy import study as toy_study
from tests.toy.state import Action, State

#: The toy's hooks are typed seams: mypy checks these modules against the Protocols.
CLI_HOOKS: CliHooks = toy_cli
STUDY_HOOKS: StudyHooks[State, Action] = toy_study

START = "nim pile=10 players=2 to_move=0 rolled=0 taker=-1 start=10"


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    register(ENTRY)
    try:
        yield
    finally:
        unregister("nim")


def test_the_toy_is_registered_as_any_game() -> None:
    assert "nim" in games()
    assert load_game("dienim").title == "Nim with a die"
    assert load_cli("nim") is CLI_HOOKS
    assert load_study("nim") is STUDY_HOOKS


def test_the_toy_passes_the_contract_suite() -> None:
    contract.check_game(load_game("nim"), seeds=range(30), samples=3000)


def test_the_shared_verbs_serve_the_toy() -> None:
    shown = run("nim", "show", START, "--json")
    assert shown.code == 0, shown.err
    assert json.loads(shown.out)["current_player"] == -1
    moves = run("nim", "moves", START)
    assert moves.lines == ["roll 1  p=1/3", "roll 2  p=1/3", "roll 3  p=1/3"]
    applied = run("nim", "apply", START, "roll 3", "take 2")
    assert applied.code == 0, applied.err
    assert applied.lines[0] == "nim pile=8 players=2 to_move=1 rolled=0 taker=0 start=10"
    played = run("dienim", "play", "--players", "3", "--option", "last=loses", "--json")
    assert played.code == 0, played.err
    assert json.loads(played.out)["outcome"]["reason"].endswith("took the last counter")
    bad = run("nim", "apply", START, "take 1")
    assert bad.code == 2
    assert bad.err.count("\n") == 1
    assert "nothing was applied" in bad.err


def test_an_old_option_spelling_is_read_with_one_line_on_stderr() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # as PYTHONWARNINGS=error: a note all the same
        played = run("nim", "play", "--option", "last-counter=loses")
    assert played.code == 0
    assert played.err.splitlines() == [
        "banditsolve: warning: option last-counter is an old spelling, read as option last; "
        "write option last"
    ]
    # What the command writes back is the one spelling.
    assert played.lines[0].endswith("options last=loses")


def test_the_toys_own_question_and_demo(tmp_path: Path) -> None:
    best = run("nim", "best", "nim pile=3 players=2 to_move=1 rolled=3 taker=0 start=10")
    assert best.code == 0
    assert best.lines == ["best turn: take 3: wins with probability 1"]
    refused = run("nim", "best", START)
    assert refused.code == 2
    assert "has rolled" in refused.err
    demo = run("nim", "demo", "--out", str(tmp_path))
    assert demo.code == 0, demo.err
    assert (tmp_path / "best.svg").read_text().startswith("<svg")


def test_a_small_study_of_the_toy(tmp_path: Path) -> None:
    from banditsolve.study.batch import load_rows, run_study
    from banditsolve.study.executors import open_executor
    from banditsolve.study.questions import columns

    tasks = [Task("toy", i, "nim", "simulate", i, (("last", "loses"),), (("players", 3),))
             for i in range(20)]
    tasks.append(Task("toy", 20, "nim", "value", 0, (("pile", "7"),)))
    summary = run_study(
        tasks, tmp_path / "toy", executor=open_executor("inline"), params={"games": 21},
        progress=False,
    )
    assert summary.failed == 0
    rows = load_rows(tmp_path / "toy")
    assert [list(r) for r in rows[:20]] == [list(columns("simulate", "nim"))] * 20
    assert {r["start"] for r in rows[:20]} == {10}
    assert all(r["winners"] == 2 for r in rows[:20])  # misère, three players: two share it
    assert 0.0 < float(rows[20]["first_player"]) < 1.0  # type: ignore[arg-type]
