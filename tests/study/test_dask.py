"""The same studies on a real Dask ``LocalCluster`` (two worker processes, started here) and on
the default process pool: the same rows; a Dask worker process killed mid-study loses nothing
and counts nothing twice."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from banditsolve.core.hooks import Task
from banditsolve.study.batch import load_failures, load_rows, run_study
from banditsolve.study.executors import open_executor
from tests.study.conftest import digest_runner, tasks
from tests.study.test_batch import stored_indices

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    # Dask's own cluster, its scheduler started with the preload the README gives for a
    # ``dask scheduler`` of several machines
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0",
        scheduler_kwargs={"preload": ["banditsolve.study.dask_preload"], "dashboard": False},
    )
    dask_client = distributed.Client(cluster)
    try:
        yield dask_client
    finally:
        dask_client.close()
        cluster.close()


def real_tasks() -> list[Task]:
    """A few seeded games of every registered game, through the shipped questions."""
    import banditsolve

    return [
        Task("dask-test", i, game, "simulate", 1000 + i)
        for i, game in enumerate(g for g in banditsolve.games() for _ in range(2))
    ]


def test_dask_and_the_process_pool_give_the_same_rows(client: Any, tmp_path: Path) -> None:
    study = tasks(150)
    summary = run_study(study, tmp_path / "dask", executor=client.get_executor(pure=False),
                        runner=digest_runner, progress=False)
    assert summary.workers == 2
    assert summary.complete
    with open_executor("local", workers=2) as pool:
        run_study(study, tmp_path / "pool", executor=pool, runner=digest_runner, progress=False)
    rows = load_rows(tmp_path / "dask")
    assert rows == load_rows(tmp_path / "pool")
    assert rows == [digest_runner(task) for task in study]


def test_real_games_are_the_same_on_dask_and_the_process_pool(client: Any, tmp_path: Path) -> None:
    from banditsolve.study.questions import run

    study = real_tasks()
    run_study(study, tmp_path / "dask", executor=client.get_executor(pure=False), runner=run,
              chunk_size=2, progress=False)
    with open_executor("local", workers=2) as pool:
        run_study(study, tmp_path / "pool", executor=pool, runner=run, progress=False)
    rows = load_rows(tmp_path / "dask")
    assert load_failures(tmp_path / "dask") == []
    assert len(rows) == len(study)
    assert rows == load_rows(tmp_path / "pool")
    assert rows == [run(task) for task in study]


def test_a_scheduler_address_is_used_and_worker_versions_checked(client: Any) -> None:
    """``--executor dask ADDRESS``: a client of the running scheduler; a worker running another
    version of the library is refused."""
    from banditsolve.study.executors import ExecutorError, check_versions

    with open_executor("dask", client.scheduler.address) as pool:
        assert pool.workers == sum(client.nthreads().values())
        assert "Dask scheduler" in pool.name
    with pytest.raises(ExecutorError, match="same version"):
        check_versions({"tcp://10.0.0.2:1234": "0.0.1"})


class KillAWorker:
    """A progress display that kills one Dask worker process once ``after`` results arrived."""

    def __init__(self, client: Any, after: int) -> None:
        self.pids: dict[str, int] = client.run(os.getpid)
        self.after = after
        self.seen = 0
        self.killed: int | None = None

    def start(self, total: int, done: int, description: str) -> None:
        pass

    def update(self, count: int, failed: int) -> None:
        self.seen += count
        if self.killed is None and self.seen >= self.after:
            self.killed = next(iter(self.pids.values()))
            os.kill(self.killed, signal.SIGKILL)

    def close(self) -> None:
        pass


def test_a_killed_dask_worker_loses_nothing(client: Any, tmp_path: Path) -> None:
    study = tasks(160, spin_ms=6)
    killer = KillAWorker(client, after=20)
    summary = run_study(study, tmp_path, executor=client.get_executor(pure=False),
                        runner=digest_runner, chunk_size=8, progress=killer)
    assert killer.killed is not None
    assert killer.seen == 160
    assert summary.complete
    assert summary.failed == 0
    assert load_rows(tmp_path) == [digest_runner(task) for task in tasks(160)]
    assert stored_indices(tmp_path) == dict.fromkeys(range(160), 1)



def _heartbeat_ms(dask_worker: Any) -> float:
    return float(dask_worker.periodic_callbacks["heartbeat"].callback_time)


def _wait_for_heartbeats(client: Any) -> dict[str, float]:
    """Each of the two workers' heartbeat period, once each had a reply (at most 20 s)."""
    import time

    from banditsolve.study.executors import HEARTBEAT_SECONDS

    client.wait_for_workers(2, timeout=60)  # (a worker killed by another test comes back)
    deadline = time.monotonic() + 20
    periods: dict[str, float] = {}
    while time.monotonic() < deadline:
        periods = client.run(_heartbeat_ms)
        if periods and all(p == 1000 * HEARTBEAT_SECONDS for p in periods.values()):
            break
        time.sleep(0.2)
    return periods


def test_a_scheduler_with_the_preload_has_its_workers_beat_slower(client: Any) -> None:
    """``dask scheduler --preload banditsolve.study.dask_preload`` (the README's cluster)."""
    from banditsolve.study.executors import HEARTBEAT_SECONDS

    periods = _wait_for_heartbeats(client)
    assert len(periods) == 2
    assert all(p == 1000 * HEARTBEAT_SECONDS for p in periods.values()), periods


def test_the_local_dask_pool_beats_slower_and_still_sees_a_killed_worker(tmp_path: Path) -> None:
    """``--executor dask`` without an address: its workers beat every HEARTBEAT_SECONDS (not
    Dask's 0.5 s), and a worker killed mid-study is still replaced with nothing lost."""
    from banditsolve.study.executors import HEARTBEAT_SECONDS

    with open_executor("local-dask", workers=2) as pool:
        assert pool.client is not None
        periods = _wait_for_heartbeats(pool.client)
        assert len(periods) == 2
        assert all(p == 1000 * HEARTBEAT_SECONDS for p in periods.values()), periods
        study = tasks(120, spin_ms=6)
        killer = KillAWorker(pool.client, after=20)
        summary = run_study(study, tmp_path, executor=pool, runner=digest_runner,
                            chunk_size=8, progress=killer)
    assert killer.killed is not None
    assert killer.seen == 120
    assert summary.complete
    assert summary.failed == 0
    assert load_rows(tmp_path) == [digest_runner(task) for task in tasks(120)]
    assert stored_indices(tmp_path) == dict.fromkeys(range(120), 1)


def test_the_local_dask_pool_opens_quietly_while_port_8787_is_taken() -> None:
    """A second cluster on the machine (here a socket holding Dask's usual port) does not make
    ``--executor dask`` warn: the pool's scheduler takes a free port of its own."""
    import socket
    import warnings

    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # As Dask binds (SO_REUSEADDR): a port left in TIME_WAIT is taken, a listening one is not.
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        holder.bind(("0.0.0.0", 8787))
        holder.listen(1)
    except OSError:
        # Something else listens there already, which serves this test as well.
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            if probe.connect_ex(("127.0.0.1", 8787)) != 0:
                holder.close()
                pytest.skip("port 8787 can be neither held nor reached")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with open_executor("local-dask", workers=1) as pool:
                assert pool.executor.submit(sum, (1, 2)).result(timeout=60) == 3
    finally:
        holder.close()
    ports = [str(w.message) for w in caught if "8787" in str(w.message)]
    assert ports == []


def test_the_local_dask_pool_serves_http_on_the_loopback_interface_only() -> None:
    """The scheduler's HTTP server (health and metrics) is not opened to the network."""
    with open_executor("local-dask", workers=1) as pool:
        assert pool.client is not None
        scheduler = pool.client.cluster.scheduler
        hosts = {sock.getsockname()[0] for sock in scheduler.http_server._sockets.values()}
    assert hosts == {"127.0.0.1"}
