"""Run a study's tasks on any executor, store the results as they arrive, resume a stopped study.

:func:`run_study` sends the tasks (:class:`~banditsolve.core.hooks.Task`) to a
:class:`concurrent.futures.Executor` in chunks, takes the results back as they finish and stores
each at once (:mod:`banditsolve.study.store`: a journal, then Parquet parts). Started again on
the same folder, it runs only the tasks that have no result yet, so a study stopped by Ctrl-C, a
crash or a lost worker loses nothing that finished and counts nothing twice. A folder that holds
a study with other parameters is refused (:class:`~banditsolve.study.store.StudyMismatchError`).

A task is a pure function of its fields, so its result does not depend on the executor, the
number of workers, the chunks or the order: the rows of a study are the same wherever it runs.

Chunks. A chunk is one call on a worker that runs several tasks. The first chunks hold one task
each; then each chunk is sized from the tasks' measured time to take about
``target_seconds`` (0.1 s on a process pool, 2 s on Dask: its calls cost more) of CPU time,
so that the cost of a call (pickling, a round trip, the scheduler) stays a small share of the
work, and no larger than an even share of what is left, so that the workers finish together
(within one chunk's time). A chunk bound for another process goes as one pickled object and
its outcomes come back as one (:func:`run_packed_chunk`).

Failures. A task that raises is recorded with its error (the exception's type and message) and
run once more, alone; if it fails again, the error is its result. A chunk that fails as a whole
(its worker died under Dask, say) counts as one failed attempt for each of its tasks. When a
worker process of the default pool dies, the pool is started again and the chunks that were
running are run again one at a time, so that the task that kills its worker is found and
recorded as failed while the others get their results. No failure stops the study.
"""

from __future__ import annotations

import hashlib
import math
import os
import pickle
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    BrokenExecutor,
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from banditsolve.core.args import expect_flag, expect_path, expect_seconds, expect_whole
from banditsolve.core.hooks import Row, Scalar, Task
from banditsolve.core.text import shown
from banditsolve.errors import ArgumentTypeError
from banditsolve.study.executors import (
    InlineExecutor,
    Pool,
    check_main_guard,
    open_executor,
    workers_of,
)
from banditsolve.study.progress import Progress, make_progress
from banditsolve.study.store import (
    Record,
    Store,
    StudyError,
    StudyMismatchError,
    new_manifest,
    read_manifest,
    read_records,
)

__all__ = [
    "StudyInterrupted",
    "StudySummary",
    "WorkerLostError",
    "load_failures",
    "load_rows",
    "run_chunk",
    "run_study",
    "task_digest",
]

Runner = Callable[[Task], Row]

#: What a worker sends back for one task: index, row (or None), error type, error message,
#: seconds (wall clock), CPU seconds of the worker's thread.
Outcome = tuple[int, Row | None, str | None, str | None, float, float]

#: The longest error message stored.
MAX_ERROR = 300
#: How many times a task is run at most (the first run and one retry).
MAX_ATTEMPTS = 2
#: The largest chunk, whatever the tasks' time.
MAX_CHUNK = 10_000


class WorkerLostError(StudyError):
    """A worker of an executor the study does not own died and the executor cannot go on; the
    results so far are stored: start the study again (on a working executor) to finish it."""


class StudyInterrupted(StudyError):
    """The executor cancelled the study's work (it was shut down); the results so far are stored."""


@dataclass(frozen=True, slots=True)
class StudySummary:
    """What a run of :func:`run_study` did."""

    study: str
    out_dir: str
    total: int
    already_done: int
    ran: int
    ok: int
    failed: int
    retried: int
    restarts: int
    wall_seconds: float
    task_seconds: float
    #: CPU seconds inside the tasks on the workers (every attempt, for the benchmarks).
    task_cpu_seconds: float
    executor: str
    workers: int
    #: The mean number of tasks per chunk (first runs and retries aside).
    chunk_size: float

    @property
    def complete(self) -> bool:
        return self.already_done + self.ran >= self.total

    @property
    def tasks_per_second(self) -> float:
        return self.ran / self.wall_seconds if self.wall_seconds > 0 else 0.0

    def to_json(self) -> dict[str, Scalar]:
        return {
            "study": self.study,
            "out_dir": self.out_dir,
            "total": self.total,
            "already_done": self.already_done,
            "ran": self.ran,
            "ok": self.ok,
            "failed": self.failed,
            "retried": self.retried,
            "restarts": self.restarts,
            "complete": self.complete,
            "wall_seconds": round(self.wall_seconds, 3),
            "task_seconds": round(self.task_seconds, 3),
            "task_cpu_seconds": round(self.task_cpu_seconds, 3),
            "tasks_per_second": round(self.tasks_per_second, 2),
            "executor": self.executor,
            "workers": self.workers,
            "chunk_size": round(self.chunk_size, 1),
        }


def task_digest(task: Task) -> str:
    """A short fingerprint of the task's fields (a resumed study checks that its tasks are the
    ones whose results are stored)."""
    text = repr((task.study, task.index, task.game, task.question, task.seed, task.options,
                 task.params))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= MAX_ERROR else line[: MAX_ERROR - 3] + "..."


_SCALARS = (int, float, str, bool, type(None))


def _check_row(row: object) -> Row:
    if not isinstance(row, dict):
        raise TypeError(f"a question must return a dict of scalars, not {type(row).__name__}")
    for key, value in row.items():
        if not isinstance(key, str) or key.startswith("_"):
            raise ValueError(f"row column {key!r}: names are text and do not start with '_'")
        if not isinstance(value, _SCALARS):
            raise TypeError(f"row column {key!r} holds a {type(value).__name__}, not a scalar")
    return row


def run_chunk(runner: Runner, tasks: tuple[Task, ...]) -> list[Outcome]:
    """On a worker: run each task, catching its error (one failure never hides the others)."""
    out: list[Outcome] = []
    for task in tasks:
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            row = _check_row(runner(task))
        except Exception as exc:
            message = _one_line(str(exc) or repr(exc))
            out.append((task.index, None, type(exc).__name__, message,
                        time.perf_counter() - start, time.thread_time() - cpu))
        else:
            out.append((task.index, row, None, None, time.perf_counter() - start,
                        time.thread_time() - cpu))
    return out


def run_packed_chunk(payload: bytes) -> bytes:
    """On a worker in another process: :func:`run_chunk` on the pickled runner and tasks, its
    outcomes pickled whole. One object each way: Dask serializes a tuple or list item by item
    (each pickled and framed alone, about 0.1 ms each on its worker and on the client), which
    made a chunk cost about 25 ms of CPU in all."""
    runner, tasks = pickle.loads(payload)
    return pickle.dumps(run_chunk(runner, tasks), protocol=pickle.HIGHEST_PROTOCOL)


def _check_picklable(runner: Runner, pool: Pool) -> None:
    """A process pool sends the runner by name: refuse at once one it cannot send (else every
    task would fail with the same pickling error)."""
    import pickle

    if not isinstance(pool.executor, ProcessPoolExecutor):
        return
    try:
        pickle.dumps(runner)
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        raise StudyError(
            f"the runner {getattr(runner, '__qualname__', runner)!r} cannot be sent to worker "
            f"processes ({type(exc).__name__}): give a function defined at a module's top level"
        ) from None


def _default_runner() -> Runner:
    from banditsolve.study.questions import run

    return run


@dataclass(slots=True)
class _Chunk:
    tasks: tuple[Task, ...]
    attempt: int
    suspect: bool
    generation: int


class _Engine:
    """One run: the queues, the chunks in flight, the store and the counts."""

    def __init__(
        self,
        pool: Pool,
        store: Store,
        runner: Runner,
        todo: list[Task],
        digests: dict[int, str],
        done: set[int],
        progress: Progress,
        chunk_size: int | None,
        target_seconds: float,
        flush_rows: int,
        flush_seconds: float,
    ) -> None:
        self.pool = pool
        self.store = store
        self.runner = runner
        self.todo = todo
        self.next = 0
        self.digests = digests
        self.done = done
        self.progress = progress
        self.fixed = chunk_size
        self.target = target_seconds
        self.flush_rows = flush_rows
        self.flush_seconds = flush_seconds
        self.retries: deque[tuple[Task, int]] = deque()
        self.suspects: deque[_Chunk] = deque()
        self.inflight: dict[Future[Any], _Chunk] = {}
        #: Chunks cross to other processes as one pickled object (see run_packed_chunk).
        self.packed = not isinstance(pool.executor, InlineExecutor | ThreadPoolExecutor)
        self.generation = 0
        self.estimate: float | None = None
        self.ran = self.ok = self.failed = self.retried = self.restarts = 0
        self.task_seconds = 0.0
        self.task_cpu = 0.0
        self.max_inflight = 2 * max(1, pool.workers)
        self.chunks = 0
        self.batch: list[Record] = []

    # -- chunks
    def chunk_size(self) -> int:
        if self.fixed is not None:
            return self.fixed
        if self.estimate is None:
            return 1
        size = self.target / self.estimate if self.estimate > 1e-7 else MAX_CHUNK
        left = len(self.todo) - self.next
        share = math.ceil(left / max(1, self.pool.workers))
        return max(1, min(MAX_CHUNK, share, round(size)))

    def submit(self, chunk: _Chunk) -> None:
        for _ in range(2):
            try:
                if self.packed:
                    payload = pickle.dumps((self.runner, chunk.tasks),
                                           protocol=pickle.HIGHEST_PROTOCOL)
                    future: Future[Any] = self.pool.executor.submit(run_packed_chunk, payload)
                else:
                    future = self.pool.executor.submit(run_chunk, self.runner, chunk.tasks)
            except BrokenExecutor:
                if self.pool.restart is None:
                    raise WorkerLostError(
                        f"the executor ({self.pool.name}) is broken: a worker died; the results "
                        "so far are stored, start the study again to finish it"
                    ) from None
                self.restart()
                chunk.generation = self.generation
                continue
            self.inflight[future] = chunk
            return

    def restart(self) -> None:
        assert self.pool.restart is not None
        self.pool.restart()
        self.generation += 1
        self.restarts += 1

    def fill(self) -> None:
        while len(self.inflight) < self.max_inflight:
            if self.suspects:
                if not self.inflight:
                    self.submit(self.suspects.popleft())
                return
            if self.retries:
                task, attempt = self.retries.popleft()
                self.submit(_Chunk((task,), attempt, False, self.generation))
                continue
            if self.next < len(self.todo):
                size = self.chunk_size()
                tasks = tuple(self.todo[self.next : self.next + size])
                self.next += len(tasks)
                self.chunks += 1
                self.submit(_Chunk(tasks, 1, False, self.generation))
                continue
            return

    # -- results
    def record(self, record: Record) -> None:
        if record.index in self.done:
            return  # already stored (a chunk that ran twice): never counted twice
        self.done.add(record.index)
        self.batch.append(record)
        self.ran += 1
        self.task_seconds += record.seconds
        if record.ok:
            self.ok += 1
        else:
            self.failed += 1

    def commit(self) -> None:
        """Store the results taken in since the last commit (one journal write), then show
        them: a display that stops the study finds them stored."""
        if not self.batch:
            return
        batch, self.batch = self.batch, []
        self.store.append(batch)
        failed = sum(1 for r in batch if not r.ok)
        self.progress.update(len(batch) - failed, failed)

    def failed_attempt(self, task: Task, attempt: int, kind: str, message: str,
                       seconds: float) -> None:
        if task.index in self.done:
            return
        if attempt < MAX_ATTEMPTS:
            self.retried += 1
            self.retries.append((task, attempt + 1))
            return
        self.record(Record(task.index, "error", attempt, kind, message, seconds,
                           self.digests[task.index], {}))

    def handle(self, future: Future[Any]) -> None:
        chunk = self.inflight.pop(future)
        try:
            result = future.result()
            outcomes: list[Outcome] = pickle.loads(result) if self.packed else result
        except CancelledError:
            raise StudyInterrupted(
                f"the executor ({self.pool.name}) cancelled the study's work; the results so "
                "far are stored, start the study again to finish it"
            ) from None
        except BrokenExecutor as exc:
            self.broken(chunk, exc)
            return
        except Exception as exc:
            message = _one_line(str(exc) or repr(exc))
            for task in chunk.tasks:
                self.failed_attempt(task, chunk.attempt, type(exc).__name__, message, 0.0)
            return
        by_index = {task.index: task for task in chunk.tasks}
        chunk_cpu = 0.0
        for index, row, kind, text, seconds, cpu in outcomes:
            chunk_cpu += cpu
            self.task_cpu += cpu
            if row is not None:
                self.record(Record(index, "ok", chunk.attempt, None, None, seconds,
                                   self.digests[index], row))
            else:
                self.failed_attempt(by_index[index], chunk.attempt, kind or "Exception",
                                    text or "", seconds)
        if outcomes:
            # The CPU time of the tasks, not the wall clock: the cost of a call is CPU time
            # too, and on a machine busy with other work the wall clock grows, so chunks sized
            # on it would shrink and make that cost a larger share. (Tasks that mostly wait get
            # large chunks, bounded by each worker's share of what is left.)
            mean = chunk_cpu / len(outcomes)
            self.estimate = mean if self.estimate is None else 0.7 * self.estimate + 0.3 * mean

    def broken(self, chunk: _Chunk, exc: BaseException) -> None:
        """A worker of the pool died: start the pool again, then run the chunks that were in
        flight one at a time, to find the task that kills its worker."""
        if self.pool.restart is None:
            raise WorkerLostError(
                f"a worker of the executor ({self.pool.name}) died ({type(exc).__name__}); the "
                "results so far are stored, start the study again to finish it"
            ) from None
        if chunk.generation == self.generation:
            self.restart()
        if not chunk.suspect:
            self.suspects.append(_Chunk(chunk.tasks, chunk.attempt, True, self.generation))
        elif len(chunk.tasks) > 1:
            for task in chunk.tasks:
                self.suspects.append(_Chunk((task,), chunk.attempt, True, self.generation))
        else:
            (task,) = chunk.tasks
            self.record(Record(task.index, "error", MAX_ATTEMPTS, "WorkerLost",
                               "the worker process died while running this task alone "
                               f"({type(exc).__name__})", 0.0, self.digests[task.index], {}))

    # -- the loop
    def run(self) -> None:
        last_flush = time.monotonic()
        while True:
            self.fill()
            if not self.inflight:
                break
            finished, _ = wait_futures(
                list(self.inflight), timeout=self.flush_seconds, return_when=FIRST_COMPLETED
            )
            for future in finished:
                self.handle(future)
                self.commit()
            now = time.monotonic()
            if self.store.pending >= self.flush_rows or (
                self.store.pending and now - last_flush >= self.flush_seconds
            ):
                self.store.flush()
                last_flush = now

    def cancel(self) -> None:
        for future in self.inflight:
            future.cancel()
        self.inflight.clear()


def _as_pool(executor: Executor | Pool | None, work: bool = True) -> tuple[Pool, bool]:
    """The pool to run on and whether the study owns it (and shuts it down): with no ``work``
    to do, a pool that runs nothing; else ``executor`` (``None``: a new local pool)."""
    if not work:
        return Pool(_NullExecutor(), 1, "none"), True
    if executor is None:
        return open_executor("local"), True
    if isinstance(executor, Pool):
        return executor, False
    return Pool(executor, workers_of(executor), type(executor).__name__), False


def run_study(
    tasks: Iterable[Task],
    out_dir: str | os.PathLike[str],
    *,
    executor: Executor | Pool | None = None,
    chunk_size: int | None = None,
    progress: bool | Progress | None = None,
    runner: Runner | None = None,
    params: Mapping[str, Scalar] | None = None,
    retry_failed: bool = False,
    grow: tuple[str, ...] = (),
    target_seconds: float | None = None,
    flush_rows: int = 10_000,
    flush_seconds: float = 5.0,
) -> StudySummary:
    """Run the tasks that have no stored result in ``out_dir`` and store theirs.

    ``executor``: a :class:`concurrent.futures.Executor` (used as it is, not shut down), a
    :class:`~banditsolve.study.executors.Pool` from
    :func:`~banditsolve.study.executors.open_executor`, or ``None`` for a process pool with one
    worker per core. ``chunk_size``: tasks per call (``None``: sized from the tasks' time).
    ``progress``: see :func:`~banditsolve.study.progress.make_progress`. ``runner``: the
    function of a task (``None``: :func:`banditsolve.study.questions.run`); it must be
    importable by the workers (a module-level function). ``params``: the study's parameters,
    stored in the manifest and checked when the study is started again (a parameter named in
    ``grow``, such as the number of games, may grow: the tasks already run are kept, as long as
    they are the same tasks). ``retry_failed``: run again the tasks whose stored result is an
    error.

    Worker processes started fresh (the default process pool, a Dask LocalCluster) import the
    main script again: a script must start the study under ``if __name__ == "__main__":``, or
    it is refused (:class:`~banditsolve.study.executors.UnguardedMainError`) before anything
    runs.
    """
    task_list = _check_tasks(tasks)
    _check_arguments(
        out_dir, executor, chunk_size, progress, runner, params, retry_failed, grow,
        target_seconds, flush_rows, flush_seconds,
    )
    if _spawns(executor):
        check_main_guard()
    digests = _digests(task_list)
    study = _study_name(task_list, params)
    manifest = new_manifest(study, params or {}, len(task_list))
    run_with = runner or _default_runner()
    started = time.perf_counter()
    store = Store(out_dir)
    grows = store.open(manifest, grow)
    engine: _Engine | None = None
    pool: Pool | None = None
    owned = False
    try:
        done = _done(out_dir, digests, retry_failed)
        if grows:
            store.resize(manifest)
        todo = [task for task in task_list if task.index not in done]
        bar = make_progress(progress)
        pool, owned = _as_pool(executor, bool(todo))
        _check_picklable(run_with, pool)
        engine = _Engine(pool, store, run_with, todo, digests, done, bar, chunk_size,
                         target_seconds or pool.target_seconds, flush_rows, flush_seconds)
        bar.start(len(task_list), len(task_list) - len(todo), study or "study")
        try:
            engine.run()
        finally:
            bar.close()
    except BaseException:
        if engine is not None:
            engine.cancel()
        raise
    finally:
        wall = time.perf_counter() - started
        _close(store, engine, wall, pool if owned else None)
    assert engine is not None
    return _summary(engine, study, out_dir, len(task_list), len(todo), wall)


def _spawns(executor: Executor | Pool | None) -> bool:
    """Whether ``executor``'s workers start fresh and import the main script again."""
    return executor is None or (isinstance(executor, Pool) and executor.spawns)


def _summary(
    engine: _Engine, study: str, out_dir: str | os.PathLike[str], total: int, todo: int,
    wall: float,
) -> StudySummary:
    """What a run did: of ``total`` tasks, ``todo`` were left to run, by ``engine``."""
    return StudySummary(
        study=study,
        out_dir=str(out_dir),
        total=total,
        already_done=total - todo,
        ran=engine.ran,
        ok=engine.ok,
        failed=engine.failed,
        retried=engine.retried,
        restarts=engine.restarts,
        wall_seconds=wall,
        task_seconds=engine.task_seconds,
        task_cpu_seconds=engine.task_cpu,
        executor=engine.pool.name,
        workers=engine.pool.workers,
        chunk_size=todo / engine.chunks if engine.chunks else 0.0,
    )


def _check_tasks(tasks: object) -> list[Task]:
    """``tasks`` as a list, if it is an iterable of tasks."""
    if isinstance(tasks, str | bytes | Mapping) or not isinstance(tasks, Iterable):
        raise ArgumentTypeError(f"tasks must be an iterable of Task, not {shown(tasks)}")
    task_list = list(tasks)
    for task in task_list:
        if not isinstance(task, Task):
            raise ArgumentTypeError(f"tasks must be Task values, not {shown(task)}")
    return task_list


def _check_arguments(
    out_dir: object,
    executor: object,
    chunk_size: object,
    progress: object,
    runner: object,
    params: object,
    retry_failed: object,
    grow: object,
    target_seconds: object,
    flush_rows: object,
    flush_seconds: object,
) -> None:
    """Refuse a :func:`run_study` argument of the wrong type (:class:`ArgumentTypeError`) or
    value (:class:`StudyError`) before anything is opened or written."""
    expect_path(out_dir, "the study folder", StudyError)
    if executor is not None and not isinstance(executor, Executor | Pool):
        raise ArgumentTypeError(
            f"executor must be an Executor or a Pool (open_executor), not {shown(executor)}"
        )
    if chunk_size is not None:
        expect_whole(chunk_size, "the chunk size", 1, None, StudyError)
    if progress is not None and not isinstance(progress, bool | Progress):
        raise ArgumentTypeError(
            f"progress must be True, False, None or a Progress, not {shown(progress)}"
        )
    if runner is not None and not callable(runner):
        raise ArgumentTypeError(f"runner must be a function of a task, not {shown(runner)}")
    if params is not None:
        _check_params(params)
    expect_flag(retry_failed, "retry_failed")
    if not isinstance(grow, tuple) or not all(isinstance(name, str) for name in grow):
        raise ArgumentTypeError(f"grow must be a tuple of parameter names, not {shown(grow)}")
    if target_seconds is not None:
        expect_seconds(target_seconds, "target_seconds", StudyError)
    expect_whole(flush_rows, "flush_rows", 1, None, StudyError)
    expect_seconds(flush_seconds, "flush_seconds", StudyError)


def _check_params(params: object) -> None:
    if not isinstance(params, Mapping) or not all(isinstance(k, str) for k in params):
        raise ArgumentTypeError(
            f"params must be a mapping of names to values, not {shown(params)}"
        )
    for name, value in params.items():
        if value is not None and not isinstance(value, str | int | float | bool):
            raise ArgumentTypeError(
                f"the parameter {shown(name)} must be a number or text, not {shown(value)}"
            )


def _digests(task_list: Sequence[Task]) -> dict[int, str]:
    """Each task's digest by its index; indices must be distinct and not negative."""
    digests: dict[int, str] = {}
    for task in task_list:
        if task.index < 0 or task.index in digests:
            raise StudyError(
                f"task indices must be distinct and not negative: {task.index} (study "
                f"{task.study[:40]!r})"
            )
        digests[task.index] = task_digest(task)
    return digests


def _study_name(task_list: Sequence[Task], params: Mapping[str, Scalar] | None) -> str:
    """The one study the tasks belong to (else the ``study`` parameter, else ``""``)."""
    names = {task.study for task in task_list}
    if len(names) > 1:
        raise StudyError(f"the tasks belong to several studies: {sorted(names)[:4]}")
    return names.pop() if names else str((params or {}).get("study") or "")


def _done(out_dir: str | os.PathLike[str], digests: dict[int, str], retry_failed: bool) -> set[int]:
    """The tasks with a stored result to keep (the failed ones too, unless ``retry_failed``);
    a stored result of another task at the same index is refused."""
    stored = read_records(out_dir)
    for index, record in stored.items():
        if digests.get(index) != record.digest:
            raise StudyMismatchError(
                f"{str(out_dir)[:60]} holds a result for task {index} of other tasks (the "
                "study's tasks changed): give another --out folder"
            )
    return {i for i, r in stored.items() if r.ok or not retry_failed}


def _close(store: Store, engine: _Engine | None, wall: float, owned: Pool | None) -> None:
    """Store what the run took in when it stopped, record the run, close the store (and the
    pool the run opened itself)."""
    try:
        if engine is not None:
            store.append(engine.batch)  # results taken in when the run stopped
            engine.batch = []
            store.flush()
            store.add_run(
                {
                    "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "wall_seconds": round(wall, 3),
                    "ran": engine.ran,
                    "failed": engine.failed,
                    "executor": engine.pool.name,
                    "workers": engine.pool.workers,
                    "task_seconds": round(engine.task_seconds, 3),
                    "task_cpu_seconds": round(engine.task_cpu, 3),
                }
            )
    finally:
        store.close()
        if owned is not None:
            owned.close()


class _NullExecutor(Executor):
    """Stands for an executor when there is nothing to run (none is started)."""


def load_rows(
    out_dir: str | os.PathLike[str], *, with_index: bool = False, with_seconds: bool = False
) -> list[Row]:
    """The rows of the tasks that succeeded, in task order (one per task). With ``with_index``,
    each row also has its task index as ``_index``; with ``with_seconds``, the seconds the task
    took on its worker as ``_seconds``."""
    records = read_records(_existing(out_dir))
    rows: list[Row] = []
    for index in sorted(records):
        record = records[index]
        if record.ok:
            row: Row = {"_index": index} if with_index else {}
            if with_seconds:
                row["_seconds"] = record.seconds
            row.update(record.row)
            rows.append(row)
    return rows


def load_failures(out_dir: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The tasks whose result is an error: index, attempts, error type and message."""
    records = read_records(_existing(out_dir))
    return [
        {
            "index": r.index,
            "attempts": r.attempts,
            "error_type": r.error_type,
            "error_message": r.error_message,
        }
        for _, r in sorted(records.items())
        if not r.ok
    ]


def _existing(out_dir: str | os.PathLike[str]) -> Path:
    root = Path(expect_path(out_dir, "the study folder", StudyError))
    if read_manifest(root) is None:
        raise StudyError(f"{str(root)[:60]} is not a study folder (no manifest.json)")
    return root


def study_stats(out_dir: str | os.PathLike[str]) -> dict[str, Scalar]:
    """What a study folder holds: its study and parameters' size, how many tasks have a result
    (ok, failed), the time spent in the tasks and the wall-clock time of its runs."""
    root = _existing(out_dir)
    manifest = read_manifest(root) or {}
    records = read_records(root)
    runs = manifest.get("runs", [])
    timed = [run for run in runs if isinstance(run.get("task_seconds"), int | float)
             and isinstance(run.get("task_cpu_seconds"), int | float)]
    ok = sum(1 for r in records.values() if r.ok)
    return {
        "study": manifest.get("study"),
        "version": manifest.get("version"),
        "tasks": manifest.get("tasks"),
        "done": len(records),
        "ok": ok,
        "failed": len(records) - ok,
        "task_seconds": round(sum(r.seconds for r in records.values()), 3),
        "wall_seconds": round(sum(float(run.get("wall_seconds", 0.0)) for run in runs), 3),
        "runs": len(runs),
        # The runs that recorded both: their tasks' CPU time and wall-clock time (the share of
        # the wall clock a task had its core for, on a machine shared with other work).
        "cpu_timed_task_seconds": round(sum(float(run["task_seconds"]) for run in timed), 3),
        "cpu_timed_task_cpu_seconds": round(
            sum(float(run["task_cpu_seconds"]) for run in timed), 3),
        "cpu_timed_tasks": sum(int(run.get("ran", 0)) for run in timed),
    }


def busy_runner(task: Task) -> Row:
    """A task of pure CPU work: ``task.param("loops")`` steps of a linear congruential
    generator from the task's seed (the benchmarks calibrate the loops to a task length; a
    runner importable by every worker)."""
    loops = task.param("loops", 0)
    x = task.seed & 0x7FFFFFFF
    for _ in range(int(loops) if isinstance(loops, int | float) else 0):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
    return {"x": x}
