"""Runners for the batch tests: cheap, pure functions of a task (importable by worker processes),
some of which fail, or kill their worker, on purpose."""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

from banditsolve.core.hooks import Row, Task

STUDY = "batch-test"


def tasks(count: int, *, seed: int = 7, **params: int | str) -> list[Task]:
    """A small study: ``count`` tasks with their own seeds."""
    return [
        Task(STUDY, i, "bandido", "digest", seed * 1_000_003 + i, (("side", "5"),),
             tuple(sorted(params.items())))
        for i in range(count)
    ]


def digest_runner(task: Task) -> Row:
    """A pure question: a few values derived from the seed (sha256, a different hash from the
    batch layer's own fingerprint)."""
    data = hashlib.sha256(f"{task.game}:{task.seed}".encode()).digest()
    spin = int(task.param("spin_ms", 0) or 0)
    if spin:
        end = time.perf_counter() + spin / 1000
        while time.perf_counter() < end:
            pass
    return {
        "seed": task.seed,
        "first": data[0],
        "ratio": data[1] / 255,
        "even": data[2] % 2 == 0,
        "label": data[3:5].hex(),
        "maybe": None if data[5] % 3 == 0 else data[5],
    }


def _once(task: Task, what: str) -> bool:
    """True the first time this task does ``what`` (a marker file in the task's folder)."""
    marker = Path(str(task.param("markers"))) / f"{what}-{task.index}"
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def failing_runner(task: Task) -> Row:
    """Task ``fail_once`` fails on its first run only; task ``fail_always`` always fails."""
    if task.index == task.param("fail_once") and _once(task, "fail"):
        raise RuntimeError(f"a passing failure on task {task.index}")
    if task.index == task.param("fail_always"):
        raise ValueError(f"task {task.index} cannot be answered")
    return digest_runner(task)


def exiting_runner(task: Task) -> Row:
    """The worker process dies on task ``exit_once`` (the first time) and on task
    ``exit_always`` (every time)."""
    if task.index == task.param("exit_once") and _once(task, "exit"):
        os._exit(3)
    if task.index == task.param("exit_always"):
        os._exit(4)
    return digest_runner(task)
