"""Batch-layer benchmarks: tasks per second through :func:`banditsolve.study.batch.run_study` on
one core in-process, on one and two local worker processes and on a one- and two-worker Dask
``LocalCluster``, against a plain loop over the same tasks in the same run.

    python benchmarks/bench_batch.py [--quick]

Two kinds of task: a calibrated busy task (pure CPU work, about 10 ms on this machine when
alone) and real tasks (the first games of the shipped Bandido study: seeded games to the end).
The overhead of a run is its wall-clock time against the ideal, the plain loop's time divided
by the number of workers: ``wall * workers / plain - 1``. Executors are started and warmed up
(a first small study) before they are timed: a study of hours pays their start once. The
run stores every result (journal and Parquet), as a real study does.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from banditsolve.core.hooks import Row, Task
from banditsolve.study.batch import busy_runner, run_study
from banditsolve.study.executors import Pool, open_executor

OUT = Path(__file__).resolve().parent / "results"
TASK_MS = 10.0


def calibrate(ms: float) -> int:
    """Loops of :func:`busy_runner` that take ``ms`` milliseconds of CPU time here (the best of
    5; CPU time, so that other work on the machine does not shorten the task)."""
    probe = 200_000
    task = Task("c", 0, "-", "busy", 1, (), (("loops", probe),))
    best = min(_times(lambda: busy_runner(task))[1] for _ in range(5))
    return max(1, round(probe * ms / 1000 / best))


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _times(fn: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of ``fn()``."""
    start, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - start, time.process_time() - cpu


def busy_tasks(count: int, loops: int) -> list[Task]:
    return [Task("bench-busy", i, "-", "busy", 1000 + i, (), (("loops", loops),))
            for i in range(count)]


def real_tasks(count: int) -> list[Task]:
    from banditsolve.study.catalog import STUDIES

    return list(STUDIES["bandido"].tasks(count, 0))


@contextmanager
def executors(quick: bool) -> Iterator[Iterator[tuple[str, Pool]]]:
    """The executors to time, each opened (and closed) in turn."""

    def each() -> Iterator[tuple[str, Pool]]:
        yield "one core, in-process", open_executor("inline")
        for workers in (1, 2):
            with open_executor("local", workers=workers) as pool:
                yield f"process pool, {workers} worker{'s' if workers > 1 else ''}", pool
        for workers in ((2,) if quick else (1, 2)):
            with open_executor("local-dask", workers=workers) as pool:
                yield f"Dask LocalCluster, {workers} worker{'s' if workers > 1 else ''}", pool

    yield each()


def load() -> float:
    return os.getloadavg()[0]


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) a process has used, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def worker_pids(pool: Pool) -> list[int]:
    if pool.client is not None:
        return list(pool.client.run(os.getpid).values())
    processes = getattr(pool.executor, "_processes", None) or {}
    return list(processes)


def workers_cpu(pids: list[int]) -> float:
    return sum(_cpu_of(pid) for pid in pids)


Kinds = dict[str, tuple[list[Task], Callable[[Task], Row]]]


def measure(label: str, pool: Pool, kinds: Kinds, repeats: int) -> list[dict[str, Any]]:
    """Each kind of task: the plain loop and the study in turn, ``repeats`` times; the best
    (smallest) time of each (the run least disturbed by other work on the machine)."""
    rows = []
    for kind, (tasks, runner) in kinds.items():
        with tempfile.TemporaryDirectory() as warm:  # start the workers, import the runner
            run_study(tasks[: 2 * pool.workers], warm, executor=pool, runner=runner,
                      chunk_size=1, progress=False)
        pids = worker_pids(pool)
        plain = plain_cpu = wall = cpu_used = parent_cpu = math.inf
        outside = math.inf
        chunk = 0.0
        before = load()
        for _ in range(repeats):
            # the plain loop just before, so that both see the same machine
            loop_wall, loop_cpu = _times(lambda: [runner(t) for t in tasks])  # noqa: B023
            plain, plain_cpu = min(plain, loop_wall), min(plain_cpu, loop_cpu)
            with tempfile.TemporaryDirectory() as out:
                cpu = time.process_time()
                cpu_workers = workers_cpu(pids)
                summary = run_study(tasks, out, executor=pool, runner=runner, progress=False)
                parent = time.process_time() - cpu
                used = parent + workers_cpu(pids) - cpu_workers
            assert summary.ok == len(tasks), summary
            wall = min(wall, summary.wall_seconds)
            # the CPU outside the tasks (parent and workers) per CPU second inside them
            inside = summary.task_cpu_seconds
            outside = min(outside, (used - inside) / inside)
            cpu_used, parent_cpu = min(cpu_used, used), min(parent_cpu, parent)
            chunk = summary.chunk_size
        ideal = plain / pool.workers
        rows.append({
            "executor": label, "task": kind, "workers": pool.workers, "tasks": len(tasks),
            "repeats": repeats,
            "wall_s": round(wall, 3),
            "tasks_per_s": round(len(tasks) / wall, 1),
            "plain_loop_tasks_per_s": round(len(tasks) / plain, 1),
            "overhead_pct": round(100 * (wall / ideal - 1), 1),
            "cpu_overhead_pct": round(100 * (cpu_used / plain_cpu - 1), 1),
            "batch_cpu_pct": round(100 * outside, 2),
            "parent_cpu_ms_per_task": round(1000 * parent_cpu / len(tasks), 3),
            "mean_chunk": round(chunk, 1),
            "load_before": round(before, 2), "load_after": round(load(), 2),
        })
        print("  ", rows[-1], flush=True)
    return rows


def run(quick: bool = False) -> dict[str, object]:
    """Time every executor on both kinds of task; write ``benchmarks/results/batch.{md,json}``."""
    from banditsolve.study.questions import run as question

    loops = calibrate(TASK_MS)
    count = 120 if quick else 1500
    busy = busy_tasks(count, loops)
    real = real_tasks(60 if quick else 1000)
    for task in real[:8]:
        question(task)  # import the game and its policies before the plain loop
    plain_busy = _time(lambda: [busy_runner(t) for t in busy])
    for _ in range(3):
        # the short probe of `calibrate` can be off (the clock rate settles over a longer
        # run): scale the loops until the whole plain loop gives tasks of TASK_MS
        per_task_ms = 1000 * plain_busy / len(busy)
        if abs(per_task_ms / TASK_MS - 1) <= 0.03:
            break
        loops = max(1, round(loops * TASK_MS / per_task_ms))
        busy = busy_tasks(count, loops)
        plain_busy = _time(lambda: [busy_runner(t) for t in busy])  # noqa: B023
    plain_real = _time(lambda: [question(t) for t in real])
    kinds: Kinds = {
        f"busy {TASK_MS:g} ms": (busy, busy_runner),
        "real (Bandido games)": (real, question),
    }
    rows: list[dict[str, Any]] = []
    with executors(quick) as each:
        for label, pool in each:
            rows += measure(label, pool, kinds, 1 if quick else 2)
    # the plain loop again, after: a change of load during the run shows here
    after_busy = _time(lambda: [busy_runner(t) for t in busy])
    meta = {
        "python": platform.python_version(), "machine": platform.machine(),
        "cores": os.cpu_count(), "quick": quick, "busy_loops": loops,
        "busy_task_ms_plain": round(1000 * plain_busy / len(busy), 2),
        "busy_task_ms_plain_after": round(1000 * after_busy / len(busy), 2),
        "real_task_ms_plain": round(1000 * plain_real / len(real), 2),
        "load_at_end": round(load(), 2),
    }
    OUT.mkdir(exist_ok=True)
    (OUT / "batch.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")
    lines = [
        "# Batch layer benchmarks",
        "",
        f"Python {meta['python']} on {meta['machine']}, {meta['cores']} cores"
        + (" (quick mode)" if quick else "") + ". `run_study` on each executor against a plain",
        "loop over the same tasks timed just before each run (best of the repeats for both).",
        "Two overheads: *wall* = wall x workers / plain loop wall - 1 (on a machine shared",
        "with other work it includes the cores the other work took: see the load columns);",
        "*CPU* = CPU seconds of the parent and the",
        "workers together (from /proc) / CPU seconds of the plain loop - 1, the work the batch",
        "layer adds, less inflated by other work than the wall clock, but the plain loop and",
        "the workers are different processes at different moments; *batch CPU* = CPU",
        "seconds of the parent and the workers outside the tasks / CPU seconds inside the",
        "tasks (each task's thread CPU time, measured on its worker), both from the same run:",
        "the overhead per task. Executors warmed up first.",
        f"Busy task: {TASK_MS:g} ms (calibrated on CPU time, then its loops scaled until the "
        f"whole plain loop gave tasks within 3 % of {TASK_MS:g} ms); its wall-clock time in "
        f"the plain loop {meta['busy_task_ms_plain']} ms ({meta['busy_task_ms_plain_after']} ms "
        f"when timed again at the end); real task (a Bandido game): "
        f"{meta['real_task_ms_plain']} ms wall-clock.",
        "",
        "| executor | task | tasks | tasks/s | plain loop tasks/s | wall overhead % | "
        "CPU overhead % | batch CPU % | parent CPU ms/task | chunk | load before/after |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines.extend(
        f"| {r['executor']} | {r['task']} | {r['tasks']} | {r['tasks_per_s']} | "
        f"{r['plain_loop_tasks_per_s']} | {r['overhead_pct']} | {r['cpu_overhead_pct']} | "
        f"{r['batch_cpu_pct']} | "
        f"{r['parent_cpu_ms_per_task']} | {r['mean_chunk']} | "
        f"{r['load_before']}/{r['load_after']} |"
        for r in rows
    )
    (OUT / "batch.md").write_text("\n".join(lines) + "\n")
    return {"rows": rows, "written": [str(OUT / "batch.md"), str(OUT / "batch.json")]}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    run(quick=parser.parse_args().quick)
