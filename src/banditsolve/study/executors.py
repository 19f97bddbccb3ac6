"""The executors a study runs on, each a :class:`concurrent.futures.Executor`.

- ``"local"``: a process pool on this machine (the default; one worker per core). The study owns
  it: when a worker process dies, the pool is started again and the study goes on.
- ``"inline"``: every task in this process, one after the other (for measurements and tests).
- ``"dask"``: a Dask distributed scheduler (``Client(address).get_executor()``); without an
  address, a :class:`distributed.LocalCluster` of worker processes on this machine
  (``"local-dask"``).
- ``"ray"``: Ray's cluster (``ray.init(address)``), where Ray is installed.

:func:`open_executor` gives a :class:`Pool`: the executor, how many tasks it runs at once, and
how to start it again. Any other ``concurrent.futures.Executor`` may be given to
:func:`banditsolve.study.batch.run_study` as it is.

Nothing heavy is imported until an executor is opened.
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import os
import signal
import sys
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from banditsolve.core.args import expect_choice, expect_whole
from banditsolve.core.limits import MAX_STUDY_WORKERS
from banditsolve.core.text import plural, shown
from banditsolve.errors import ArgumentTypeError, BanditsolveError

P = ParamSpec("P")
T = TypeVar("T")

#: The executor kinds :func:`open_executor` knows.
KINDS = ("local", "inline", "dask", "local-dask", "ray")


class ExecutorError(BanditsolveError):
    """An executor cannot be opened as asked (unknown kind, missing library, bad address)."""


class InlineExecutor(Executor):
    """Runs each call at once, in this process, when it is submitted."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future: Future[T] = Future()
        try:
            result = fn(*args, **kwargs)
        except Exception as exc:  # the caller's KeyboardInterrupt goes through
            future.set_exception(exc)
        else:
            future.set_result(result)
        return future


def _ignore_sigint() -> None:
    """In a worker process: Ctrl-C is for the parent, which stops the study cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def process_pool(workers: int) -> ProcessPoolExecutor:
    import multiprocessing

    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(method),
        initializer=_ignore_sigint,
    )


@dataclass
class Pool:
    """An executor opened for a study."""

    executor: Executor
    workers: int
    name: str
    #: Starts a new executor in place of a broken one (``None``: it cannot be restarted).
    restart: Callable[[], Executor] | None = None
    closers: list[Callable[[], None]] = field(default_factory=list)
    #: The Dask client, for a Dask executor (``None`` otherwise).
    client: Any = None
    #: The seconds of work a chunk aims at: enough to make the cost of one call small.
    target_seconds: float = 0.1
    #: Whether its worker processes are started fresh (spawn, forkserver) and so import the
    #: main script again (:func:`check_main_guard`).
    spawns: bool = False

    def close(self) -> None:
        for closer in reversed(self.closers):
            # closing is best effort: the results are already stored
            with contextlib.suppress(Exception):
                closer()
        self.closers.clear()

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class UnguardedMainError(ExecutorError):
    """A study on fresh worker processes was started from a script's top level, outside
    ``if __name__ == "__main__":``."""


def check_main_guard() -> None:
    """Refuse a study started from the top-level code of the main script outside
    ``if __name__ == "__main__":`` (directly, or through a function that code calls): worker
    processes started fresh (spawn, forkserver: the study's process pool, a Dask
    LocalCluster) import the main script again, and each would run the study again, in the
    same folder, instead of working. A script run with ``-c``, a notebook or a console has no
    script to import again, nor has ``python -m package`` (multiprocessing does not import a
    package's ``__main__`` again): they pass."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    module = getattr(getattr(main, "__spec__", None), "name", None) or ""
    if module == "__main__" or module.endswith(".__main__"):
        return  # a package's __main__ (python -m banditsolve): never imported again
    frame = inspect.currentframe()
    while frame is not None and not (
        main is not None and frame.f_globals is vars(main) and frame.f_code.co_name == "<module>"
    ):
        frame = frame.f_back
    if frame is None or not isinstance(path, str):
        return
    line = frame.f_lineno
    try:
        tree = ast.parse(open(path, encoding="utf-8").read())  # noqa: SIM115 - read at once
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return
    if any(_guards(node, line) for node in ast.walk(tree)):
        return
    name = os.path.basename(path)
    raise UnguardedMainError(
        f"the study was started at line {line} of {name}, outside `if __name__ == "
        f"\"__main__\":`: the worker processes import {name} again and would each start "
        "the study again; put the study under that guard (or run it with "
        "executor=open_executor(\"inline\"))"
    )


def _guards(node: ast.AST, line: int) -> bool:
    """Whether ``node`` is ``if __name__ == "__main__":`` and its body holds ``line``."""
    if not isinstance(node, ast.If) or not node.body:
        return False
    test = node.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = {_word(test.left), _word(test.comparators[0])}
    if sides != {"__name__", "'__main__'"}:
        return False
    return node.body[0].lineno <= line <= (node.body[-1].end_lineno or node.body[-1].lineno)


def _word(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return repr(node.value)
    return ""


def default_workers() -> int:
    return os.cpu_count() or 1


def open_executor(
    kind: str = "local", address: str | None = None, workers: int | None = None
) -> Pool:
    """Open an executor of ``kind`` (see :data:`KINDS`); ``workers`` defaults to one per core
    (for a Dask or Ray cluster given by ``address``: the cluster's own size)."""
    expect_choice(kind, KINDS, "executor", ExecutorError)
    if address is not None and not isinstance(address, str):
        raise ArgumentTypeError(f"the address must be text, not {shown(address)}")
    if workers is not None:
        expect_whole(workers, "the number of workers", 1, MAX_STUDY_WORKERS, ExecutorError)
    if address is not None and kind in ("local", "inline", "local-dask"):
        raise ExecutorError(f"the {kind} executor takes no address (did you mean dask?)")
    if kind == "inline" and workers not in (None, 1):
        raise ExecutorError(f"the inline executor runs one task at a time, not {workers}")
    if kind == "local":
        count = workers or default_workers()
        pool = Pool(process_pool(count), count, f"process pool ({plural(count, 'worker')})",
                    spawns=True)

        def restart() -> Executor:
            pool.executor.shutdown(wait=False, cancel_futures=True)
            pool.executor = process_pool(count)
            return pool.executor

        pool.restart = restart
        pool.closers.append(lambda: pool.executor.shutdown(wait=True, cancel_futures=True))
        return pool
    if kind == "inline":
        return Pool(InlineExecutor(), 1, "inline (this process)")
    if kind in ("dask", "local-dask"):
        return _open_dask(None if kind == "local-dask" else address, workers)
    if kind == "ray":
        return _open_ray(address, workers)
    raise ExecutorError(f"unknown executor {kind[:30]!r} (executors: {', '.join(KINDS)})")


#: Dask settings for studies: the tasks are long (a chunk is about 2 s) and few, so Dask's
#: own periodic work is slowed down. Its defaults (a statistical profiler sampling every
#: worker's stack every 10 ms, an event-loop watchdog every 20 ms, a memory check every 100 ms,
#: a system monitor every 0.5 s, work stealing) cost an idle two-worker cluster about 0.1 CPU
#: second per second, a few per cent of the work; these settings leave an idle one-worker
#: cluster about 3 ms a second in the worker and 6 ms in the client and scheduler (measured
#: here). The same settings can be given to ``dask scheduler`` and ``dask worker`` as
#: environment variables (see the README).
QUIET: dict[str, object] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "2s",
    "distributed.worker.memory.monitor-interval": "5s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.scheduler.work-stealing": False,
    "distributed.deploy.cluster-repr-interval": "5s",
    "distributed.client.scheduler-info-interval": "10s",
}


#: Seconds between the heartbeats of a LocalCluster's workers. Dask's scheduler asks for one
#: every 0.5 s while it has at most 10 workers; each costs the worker and the scheduler a
#: collection and a report of metrics (for a dashboard). With two workers on 10 ms tasks, a
#: heartbeat every 5 s instead cut the batch layer's CPU by about 1.5 points of the tasks'
#: (measured here, on a busy machine; see benchmarks/results/batch.md for the figures now).
#: A lost worker is still seen at once: its connection closes (the heartbeat only keeps the
#: scheduler's figures fresh, and it drops a silent worker after minutes, not seconds).
HEARTBEAT_SECONDS = 2.0


def slow_heartbeats(scheduler: Any, seconds: float) -> None:
    """Have the workers of this scheduler (ours, in this process) beat every ``seconds`` at
    most: its reply to a heartbeat names the interval to the next one. Only this scheduler
    object changes; nothing of Dask is patched. Left as it is if this Dask has no such
    handler."""
    handlers = getattr(scheduler, "handlers", None)
    if not isinstance(handlers, dict) or handlers.get("heartbeat_worker") is None:
        return
    original = handlers["heartbeat_worker"]

    def heartbeat_worker(**message: Any) -> Any:
        reply = original(**message)
        if isinstance(reply, dict):
            interval = reply.get("heartbeat-interval")
            if isinstance(interval, int | float):
                reply["heartbeat-interval"] = max(float(interval), seconds)
        return reply

    handlers["heartbeat_worker"] = heartbeat_worker


def _open_dask(address: str | None, workers: int | None) -> Pool:
    try:
        import distributed
    except ImportError:
        raise ExecutorError(
            "the dask executor needs dask[distributed]: pip install 'banditsolve[study]'"
        ) from None
    import dask

    dist: Any = distributed  # untyped calls
    closers: list[Callable[[], None]] = []
    if address is None:
        count = workers or default_workers()
        # One thread per worker process (the tasks are pure Python: threads would share one
        # interpreter lock), no dashboard, and the quiet settings (QUIET). The scheduler's
        # HTTP server starts even without a dashboard, on port 8787 of every interface unless
        # told otherwise: a free port on the loopback interface keeps two clusters on one
        # machine from warning about it and keeps the server off the network.
        with dask.config.set(QUIET):
            cluster = dist.LocalCluster(
                n_workers=count,
                threads_per_worker=1,
                processes=True,
                dashboard_address="127.0.0.1:0",
                scheduler_kwargs={"dashboard": False},
            )
        closers.append(cluster.close)
        slow_heartbeats(cluster.scheduler, HEARTBEAT_SECONDS)
        client = dist.Client(cluster)
        name = f"Dask LocalCluster ({plural(count, 'worker process', 'worker processes')})"
    else:
        try:
            with dask.config.set(QUIET):
                client = dist.Client(address, timeout=10)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ExecutorError(
                f"cannot reach the Dask scheduler at {address[:60]!r}: {exc}"
            ) from None
        count = sum(client.nthreads().values()) or 1
        name = f"Dask scheduler {address[:60]} ({plural(count, 'worker thread')})"
        try:
            check_versions(client.run(library_version))
        except BaseException:
            client.close()
            raise
    closers.append(client.close)
    # A Dask call costs far more than a process pool's (the scheduler, a round trip over TCP,
    # the client's and the worker's bookkeeping: measured at 10-20 ms of CPU a chunk here), so
    # chunks of about 2 s of work: at 0.2 s the batch layer took 10-15 % of 10 ms tasks' CPU,
    # at 1 s about 5 %. (A lost worker costs at most its chunk, run again; the last chunks
    # shrink to each worker's share of what is left.)
    return Pool(client.get_executor(pure=False), workers or count, name, None, closers, client,
                target_seconds=2.0, spawns=address is None)


def library_version() -> str:
    """On a worker: the version of banditsolve it runs."""
    from banditsolve import __version__

    return __version__


def check_versions(versions: dict[str, str]) -> None:
    """Refuse a cluster whose workers run another version of banditsolve than this one (their
    results would not be this version's)."""
    from banditsolve import __version__

    other = {worker: v for worker, v in versions.items() if v != __version__}
    if other:
        worker, version = next(iter(other.items()))
        raise ExecutorError(
            f"{len(other)} Dask worker(s) run banditsolve {version[:20]} (e.g. {worker[:40]}), "
            f"not {__version__}: install the same version on every machine"
        )


class RayExecutor(Executor):
    """Each call a Ray task; its object reference's future is the call's future."""

    def __init__(self) -> None:
        import ray

        self._ray: Any = ray
        self._remote: dict[Any, Any] = {}

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(fn)
        future: Future[T] = remote.remote(*args, **kwargs).future()
        return future


def _open_ray(address: str | None, workers: int | None) -> Pool:
    try:
        import ray as ray_module
    except ImportError:
        raise ExecutorError("the ray executor needs Ray: pip install ray") from None
    ray: Any = ray_module
    if address is None:
        ray.init(num_cpus=workers or default_workers())
    else:
        ray.init(address=address)
    count = workers or int(ray.cluster_resources().get("CPU", 1))
    return Pool(RayExecutor(), count, f"Ray ({plural(count, 'CPU')})", None, [ray.shutdown])


def workers_of(executor: Executor) -> int:
    """How many calls ``executor`` runs at once, as well as can be told."""
    if isinstance(executor, InlineExecutor):
        return 1
    count = getattr(executor, "_max_workers", None)
    if isinstance(count, int) and count > 0:
        return count
    client = getattr(executor, "_client", None)
    if client is not None:
        try:
            return max(1, int(sum(client.nthreads().values())))
        except Exception:
            pass
    return default_workers()
