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
