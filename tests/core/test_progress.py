"""Progress of long searches: a Python callback, and the command line's line on standard error
(drawn on a terminal only, never with ``--quiet``)."""

from __future__ import annotations

import contextlib
import io
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

import pytest

import banditsolve
from banditsolve.core.limits import steady
from banditsolve.core.progress import FIRST_CALL, Tick
from banditsolve.errors import ArgumentTypeError

ROOT = Path(__file__).resolve().parents[2]


def _start() -> str:
    """Rolling Bandits' two-player start: the best turn takes far longer than a second."""
    from banditsolve.core.registry import load_game

    game = load_game("rolling")
    return game.to_notation(game.new_game(2, seed=0))


def test_a_search_past_a_second_calls_back_until_it_returns() -> None:
    from banditsolve.core.registry import load_game
    from banditsolve.rolling.solvers.turn import best_turn

    state = load_game("rolling").read_state(_start())
    ticks: list[Tick] = []
    began = time.perf_counter()
    with banditsolve.progress(ticks.append):
        result = best_turn(state, time_limit=1.5)
    spent = time.perf_counter() - began
    assert result.to_answer().answer == "unknown"  # the limit ran out: a long search
    assert len(ticks) >= 3
    *running, last = ticks
    assert all(not t.done for t in running)
    assert last.done
    assert all(t.what == "rolling.best_turn" and t.time_limit == 1.5 for t in ticks)
    assert running[0].elapsed >= FIRST_CALL * 0.95  # nothing in the first second
    elapsed = [t.elapsed for t in ticks]
    assert elapsed == sorted(elapsed)
    assert last.elapsed <= spent
    nodes = [t.nodes for t in ticks]
    assert all(n is not None and n > 0 for n in nodes)
    assert nodes == sorted(nodes, key=lambda n: n or 0)  # the budget's count, growing


def test_a_short_search_and_a_search_outside_the_block_stay_silent() -> None:
    from banditsolve.core.registry import load_game
    from banditsolve.rolling.solvers.turn import best_turn

    state = load_game("rolling").read_state(_start())
    ticks: list[Tick] = []
    with banditsolve.progress(ticks.append):
        best_turn(state, time_limit=0.4)
    assert ticks == []


@steady
def _inner(seconds: float, *, time_limit: float | None = 7.0) -> float:
    time.sleep(seconds)
    return seconds


@steady
def _outer(seconds: float, *, time_limit: float | None = None) -> float:
    return _inner(seconds / 2) + _inner(seconds / 2)


def test_a_search_inside_a_search_is_reported_once_as_the_outer_one() -> None:
    ticks: list[Tick] = []
    with banditsolve.progress(ticks.append):
        assert _outer(1.2, time_limit=3) == pytest.approx(1.2)
    assert ticks
    assert {(t.what, t.time_limit, t.nodes) for t in ticks} == {("_outer", 3.0, None)}
    assert [t.done for t in ticks].count(True) == 1


@steady
def _many_inner(searches: int, nodes_each: int, *, time_limit: float | None = None) -> int:
    """A search made of ``searches`` inner searches one after the other, each a budget of its
    own that counts ``nodes_each`` nodes and is then dropped, as the map finder's are."""
    from banditsolve.core.limits import Budget, Limits

    for _ in range(searches):
        budget = Budget(Limits(time_limit=None, node_limit=None))
        budget.tick(nodes_each)
    time.sleep(FIRST_CALL + 0.3)
    return searches * nodes_each


def test_the_nodes_of_finished_inner_searches_are_counted_and_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from banditsolve.core import progress

    watches: list[progress.Watch] = []
    track = progress.track

    def spy(budget: progress._Counted) -> progress.Watch | None:
        watch = track(budget)
        if watch is not None and not watches:
            watches.append(watch)
        return watch

    monkeypatch.setattr(progress, "track", spy)
    ticks: list[Tick] = []
    with banditsolve.progress(ticks.append):
        total = _many_inner(5_000, 7, time_limit=5)
    assert ticks
    assert ticks[-1].done
    assert {t.nodes for t in ticks} == {total}  # every node of every inner search, once
    (watch,) = watches
    assert len(watch.live) == 0  # none of the 5,000 finished budgets is held
    assert watch.settled == total


def test_a_failing_callback_is_raised_when_the_search_returns() -> None:
    def broken(tick: Tick) -> None:
        raise RuntimeError("the callback broke")

    with banditsolve.progress(broken), pytest.raises(RuntimeError, match="callback broke"):
        _inner(1.1)
    with pytest.raises(ArgumentTypeError, match="callable"), banditsolve.progress(3):  # type: ignore[arg-type]
        pass


class _Terminal(io.StringIO):
    """Standard error that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _cli(*argv: str, terminal: bool) -> tuple[int, str, str]:
    from banditsolve.cli import main

    out = io.StringIO()
    err = _Terminal() if terminal else io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_the_command_line_is_silent_off_a_terminal_and_with_quiet() -> None:
    start = _start()
    code, out, err = _cli("rolling", "best", start, "--time-limit", "1.2", terminal=False)
    assert (code, err) == (3, "")
    assert "time limit ran out" in out
    code, out, err = _cli("rolling", "best", start, "--time-limit", "1.2", "--quiet",
                          terminal=True)
    assert (code, err) == (3, "")
    # --json: standard output is for a program, and so is standard error's silence
    code, out, err = _cli("rolling", "best", start, "--time-limit", "1.2", "--json",
                          terminal=True)
    assert (code, err) == (3, "")
    assert out.lstrip().startswith("{")


def test_the_command_line_draws_a_line_on_a_terminal() -> None:
    controller, terminal = pty.openpty()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    child = subprocess.Popen(
        [sys.executable, "-m", "banditsolve", "rolling", "best", _start(), "--time-limit", "1.3"],
        stdout=subprocess.PIPE, stderr=terminal, env=env,
    )
    os.close(terminal)
    drawn = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        drawn += chunk
    os.close(controller)
    out, _ = child.communicate(timeout=30)
    assert child.returncode == 3
    text = drawn.decode()
    assert "rolling.best_turn" in text
    assert "of 1.3 s" in text
    assert "nodes" in text
    assert text.endswith("\r")  # the line is erased when the search is done
    assert b"time limit ran out" in out  # the answer on standard output, as ever
