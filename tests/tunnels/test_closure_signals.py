"""A closure question stopped from outside, as a user at a terminal or a job runner stops it:
Ctrl-C stops even the compiled search at once (exit status 130), and a command killed with
SIGTERM leaves no SAT solver process running behind it (Linux: the forked solver ends with its
caller)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HARD = Path(__file__).parent / "data" / "hard_closure.json"
SCRIPT = Path(sys.executable).parent / "banditsolve"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux signals")


def hard_notation() -> str:
    """A regression-set position that no solver decides within a few seconds, as notation."""
    item = json.loads(HARD.read_text(encoding="utf-8"))["cases"][8]
    return "bandido " + " ".join(item["placements"]) + " | " + " ".join(item["cards"])


def close(*flags: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [str(SCRIPT), "bandido", "close", hard_notation(), "--time-limit", "30", *flags],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def children(pid: int) -> list[int]:
    """The processes ``pid``'s threads have started and not yet reaped."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its reaper counts as ended)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


def test_ctrl_c_stops_the_compiled_search_at_once() -> None:
    """The search runs without the GIL, so Python's handler could not run until it ended (30 s
    here); it stops within a second and the command exits 130."""
    process = close("--backend", "exact")
    try:
        time.sleep(2.0)  # past start-up: the core is searching
        assert process.poll() is None
        sent = time.perf_counter()
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=5)
    finally:
        process.kill()
        process.wait()
    assert code == 130
    assert time.perf_counter() - sent < 2.0


def test_sigterm_leaves_no_sat_solver_running() -> None:
    """The SAT finder solves in a forked process; killing the command with SIGTERM (whose
    default ends it at once, no clean-up) ends that process with it."""
    process = close("--backend", "sat")
    solver: list[int] = []
    try:
        deadline = time.perf_counter() + 10
        while not solver and time.perf_counter() < deadline and process.poll() is None:
            solver = children(process.pid)
            time.sleep(0.05)
        assert solver, "the SAT finder started no solver process"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=5) == -signal.SIGTERM
    finally:
        process.kill()
        process.wait()
    deadline = time.perf_counter() + 2
    while any(alive(pid) for pid in solver) and time.perf_counter() < deadline:
        time.sleep(0.05)
    left = [pid for pid in solver if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "the solver process outlived its caller"
