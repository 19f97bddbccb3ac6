"""The batch layer: a study's rows are those of a plain loop over its tasks, whatever the
executor and the chunks; a stopped study (Ctrl-C, a crash, a lost worker) resumes with nothing
lost or counted twice; a failing task is recorded and retried once; another study's folder is
refused."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banditsolve.core.hooks import Row, Scalar, Task
from banditsolve.errors import BanditsolveError
from banditsolve.study.batch import (
    WorkerLostError,
    load_failures,
    load_rows,
    run_study,
    study_stats,
)
from banditsolve.study.executors import InlineExecutor, open_executor
from banditsolve.study.store import (
    JOURNAL,
    PARTS,
    Record,
    Store,
    StudyBusyError,
    StudyMismatchError,
    new_manifest,
    read_records,
)
from tests.study.conftest import digest_runner, exiting_runner, failing_runner, tasks

ROOT = Path(__file__).resolve().parents[2]


def plain_loop(study: list[Task]) -> list[Row]:
    return [digest_runner(task) for task in study]


def stored_indices(out: Path) -> Counter[int]:
    """How many stored records each task index has, parts and journal together (before the
    readers' deduplication)."""
    import json

    import pyarrow.parquet as pq

    found: Counter[int] = Counter()
    for part in (out / PARTS).glob("part-*.parquet"):
        found.update(pq.read_table(part, columns=["_index"]).column("_index").to_pylist())
    journal = out / JOURNAL
    if journal.exists():
        for line in journal.read_text().splitlines(keepends=True):
            if line.endswith("\n"):
                found[json.loads(line)["_index"]] += 1
    return found


class StopAfter:
    """A progress display that presses Ctrl-C once ``limit`` results have arrived."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.seen = 0

    def start(self, total: int, done: int, description: str) -> None:
        pass

    def update(self, count: int, failed: int) -> None:
        self.seen += count
        if self.seen >= self.limit:
            raise KeyboardInterrupt

    def close(self) -> None:
        pass


@pytest.mark.parametrize("chunk_size", [1, 7, None])
def test_inline_rows_are_the_plain_loop_in_task_order(
    tmp_path: Path, chunk_size: int | None
) -> None:
    study = tasks(40)
    summary = run_study(study, tmp_path, executor=InlineExecutor(), runner=digest_runner,
                        chunk_size=chunk_size, progress=False)
    assert (summary.ran, summary.ok, summary.failed, summary.complete) == (40, 40, 0, True)
    rows = load_rows(tmp_path)
    assert rows == plain_loop(study)
    # the types come back as the question gave them (bool, None, float, text)
    assert {type(v) for row in rows for v in row.values()} == {int, float, bool, str, type(None)}


def test_process_pool_gives_the_rows_of_the_plain_loop(tmp_path: Path) -> None:
    study = tasks(120)
    with open_executor("local", workers=2) as pool:
        summary = run_study(study, tmp_path, executor=pool, runner=digest_runner, progress=False)
    assert summary.workers == 2
    assert summary.complete
    assert load_rows(tmp_path) == plain_loop(study)
    assert stored_indices(tmp_path) == Counter(range(120))


def test_ctrl_c_then_resume_loses_nothing_and_counts_nothing_twice(tmp_path: Path) -> None:
    study = tasks(60)
    with pytest.raises(KeyboardInterrupt):
        run_study(study, tmp_path, executor=InlineExecutor(), runner=digest_runner,
                  chunk_size=4, progress=StopAfter(21))
    kept = load_rows(tmp_path, with_index=True)
    assert len(kept) >= 21  # every result that had arrived is stored
    assert len({row["_index"] for row in kept}) == len(kept)
    summary = run_study(study, tmp_path, executor=InlineExecutor(), runner=digest_runner,
                        progress=False)
    assert summary.already_done == len(kept)
    assert summary.ran == 60 - len(kept)
    assert load_rows(tmp_path) == plain_loop(study)
    assert stored_indices(tmp_path) == Counter(range(60))
    stats = study_stats(tmp_path)
    assert stats["runs"] == 2
    # Both runs recorded their tasks' wall-clock and CPU time; CPU time never exceeds it by
    # more than the clocks' resolution.
    timed, cpu = stats["cpu_timed_task_seconds"], stats["cpu_timed_task_cpu_seconds"]
    assert isinstance(timed, float)
    assert isinstance(cpu, float)
    assert 0 <= cpu <= timed + 0.05
    assert stats["cpu_timed_tasks"] == 60  # both runs' tasks, each counted once


CRASHING_RUN = """
import sys
sys.path.insert(0, {root!r})
from banditsolve.study.batch import run_study
from banditsolve.study.executors import InlineExecutor
from tests.study.conftest import digest_runner, tasks
run_study(tasks(150, spin_ms=10), {out!r}, executor=InlineExecutor(), runner=digest_runner,
          chunk_size=1, progress=False, flush_rows=10)
"""


def test_a_killed_run_resumes_with_every_stored_result_once(tmp_path: Path) -> None:
    """The study's own process is killed (SIGKILL: no clean-up at all) while it writes; the
    next run keeps every result that had been stored and runs only the others."""
    out = tmp_path / "study"
    code = CRASHING_RUN.format(root=str(ROOT), out=str(out))
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if out.exists() and sum(stored_indices(out).values()) >= 25:
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    before = stored_indices(out)
    assert 25 <= sum(before.values()) < 150
    assert max(before.values()) == 1
    # a line cut short by the kill is not a result
    with open(out / JOURNAL, "a") as journal:
        journal.write('{"_index": 149, "_status": "ok"')
    study = tasks(150, spin_ms=10)
    summary = run_study(study, out, executor=InlineExecutor(), runner=digest_runner,
                        progress=False)
    assert summary.already_done >= len(before)
    assert summary.already_done + summary.ran == 150
    assert load_rows(out) == plain_loop(tasks(150))  # the same rows: the spin takes only time
    assert stored_indices(out) == Counter(range(150))


def test_a_result_stored_twice_is_read_once(tmp_path: Path) -> None:
    """A crash between writing a part and emptying the journal leaves a result twice on disk."""
    study = tasks(30)
    run_study(study, tmp_path, executor=InlineExecutor(), runner=digest_runner, progress=False)
    (part,) = (tmp_path / PARTS).glob("part-*.parquet")
    shutil.copy(part, tmp_path / PARTS / "part-000099.parquet")
    assert stored_indices(tmp_path) == Counter(dict.fromkeys(range(30), 2))
    assert load_rows(tmp_path) == plain_loop(study)
    summary = run_study(study, tmp_path, executor=InlineExecutor(), runner=digest_runner,
                        progress=False)
    assert summary.ran == 0
    assert summary.already_done == 30


def test_a_failing_task_is_recorded_and_retried_once(tmp_path: Path) -> None:
    markers = tmp_path / "markers"
    markers.mkdir()
    study = tasks(25, markers=str(markers), fail_once=3, fail_always=11)
    out = tmp_path / "out"
    summary = run_study(study, out, executor=InlineExecutor(), runner=failing_runner,
                        chunk_size=5, progress=False)
    assert (summary.ok, summary.failed, summary.retried, summary.complete) == (24, 1, 2, True)
    assert load_failures(out) == [
        {"index": 11, "attempts": 2, "error_type": "ValueError",
         "error_message": "task 11 cannot be answered"}
    ]
    rows = load_rows(out, with_index=True)
    assert [row["_index"] for row in rows] == [i for i in range(25) if i != 11]
    # task 3 failed once, then its retry gave its row
    assert rows[3] == {"_index": 3, **digest_runner(study[3])}
    # a failed result is a result: a resumed study does not run it again, unless asked
    assert run_study(study, out, executor=InlineExecutor(), runner=failing_runner,
                     progress=False).ran == 0
    again = run_study(study, out, executor=InlineExecutor(), runner=failing_runner,
                      progress=False, retry_failed=True)
    assert (again.ran, again.failed) == (1, 1)
    assert stored_indices(out)[11] == 2
    assert len(load_failures(out)) == 1


def test_a_row_that_is_not_flat_scalars_is_a_failure(tmp_path: Path) -> None:
    summary = run_study(tasks(3), tmp_path, executor=InlineExecutor(), runner=nested_runner,
                        progress=False)
    assert summary.failed == 3
    assert {f["error_type"] for f in load_failures(tmp_path)} == {"TypeError"}


def nested_runner(task: Task) -> Row:
    return {"seeds": [task.seed]}  # type: ignore[dict-item]


def test_a_worker_that_dies_is_replaced_and_its_task_found(tmp_path: Path) -> None:
    """Worker processes die mid-study (one task kills its worker once, another every time):
    the pool is started again, every other task gets its row, once, and the task that always
    kills its worker is recorded as failed."""
    markers = tmp_path / "markers"
    markers.mkdir()
    study = tasks(90, markers=str(markers), exit_once=20, exit_always=61)
    out = tmp_path / "out"
    with open_executor("local", workers=2) as pool:
        summary = run_study(study, out, executor=pool, runner=exiting_runner, progress=False)
    assert summary.restarts >= 2
    assert summary.complete
    assert [(f["index"], f["error_type"]) for f in load_failures(out)] == [(61, "WorkerLost")]
    assert load_rows(out) == [digest_runner(t) for t in study if t.index != 61]
    assert stored_indices(out) == Counter(range(90))


def test_a_lost_worker_of_a_given_pool_stops_the_study_and_resume_finishes_it(
    tmp_path: Path,
) -> None:
    """A process pool the caller gave cannot be restarted by the study: the study stops with a
    clear error, keeps what finished, and a second run on a new pool finishes it."""
    markers = tmp_path / "markers"
    markers.mkdir()
    study = tasks(80, markers=str(markers), exit_once=30)
    out = tmp_path / "out"
    with ProcessPoolExecutor(2) as executor, pytest.raises(WorkerLostError) as lost:
        run_study(study, out, executor=executor, runner=exiting_runner, chunk_size=3,
                  progress=False)
    assert isinstance(lost.value, BanditsolveError)
    first = stored_indices(out)
    assert 30 not in first
    assert max(first.values(), default=1) == 1
    with ProcessPoolExecutor(2) as executor:
        summary = run_study(study, out, executor=executor, runner=exiting_runner,
                            progress=False)
    assert summary.already_done == len(first)
    assert summary.complete
    assert load_rows(out) == [digest_runner(t) for t in study]
    assert stored_indices(out) == Counter(range(80))


def test_a_folder_of_another_study_is_refused(tmp_path: Path) -> None:
    run_study(tasks(5), tmp_path, executor=InlineExecutor(), runner=digest_runner,
              params={"games": 5, "seed": 7}, progress=False)
    with pytest.raises(StudyMismatchError, match="other parameters") as refused:
        run_study(tasks(5), tmp_path, executor=InlineExecutor(), runner=digest_runner,
                  params={"games": 5, "seed": 8}, progress=False)
    assert isinstance(refused.value, ValueError)
    with pytest.raises(StudyMismatchError, match="number of tasks"):
        run_study(tasks(6), tmp_path, executor=InlineExecutor(), runner=digest_runner,
                  params={"games": 5, "seed": 7}, progress=False)
    # same parameters, same count, other tasks (the study's code changed): refused too
    with pytest.raises(StudyMismatchError, match="tasks changed"):
        run_study(tasks(5, seed=8), tmp_path, executor=InlineExecutor(), runner=digest_runner,
                  params={"games": 5, "seed": 7}, progress=False)
    assert load_rows(tmp_path) == plain_loop(tasks(5))


def test_a_folder_in_use_is_refused(tmp_path: Path) -> None:
    from banditsolve.study.store import new_manifest

    holder = Store(tmp_path)
    holder.open(new_manifest("batch-test", {}, 5))
    try:
        with pytest.raises(StudyBusyError):
            run_study(tasks(5), tmp_path, executor=InlineExecutor(), runner=digest_runner,
                      progress=False)
    finally:
        holder.close()
    assert run_study(tasks(5), tmp_path, executor=InlineExecutor(), runner=digest_runner,
                     progress=False).ran == 5


def test_parts_carry_the_study_parameters_and_version(tmp_path: Path) -> None:
    import json

    import pyarrow.parquet as pq

    import banditsolve

    run_study(tasks(5), tmp_path, executor=InlineExecutor(), runner=digest_runner,
              params={"games": 5, "seed": 7}, progress=False)
    (part,) = (tmp_path / PARTS).glob("*.parquet")
    meta = pq.read_schema(part).metadata
    assert meta[b"banditsolve.study"] == b"batch-test"
    assert json.loads(meta[b"banditsolve.params"]) == {"games": 5, "seed": 7}
    assert meta[b"banditsolve.version"].decode() == banditsolve.__version__
    assert len(read_records(tmp_path)) == 5
    assert not os.path.exists(tmp_path / JOURNAL)


def test_a_study_grows_with_more_games_and_keeps_what_ran(tmp_path: Path) -> None:
    """The parameter named in ``grow`` may grow: the tasks already run are not run again; a
    smaller study, or other tasks under the grown parameter, are refused."""
    first = run_study(tasks(10), tmp_path, executor=InlineExecutor(), runner=digest_runner,
                      params={"games": 10, "seed": 7}, grow=("games",), progress=False)
    assert first.ran == 10
    grown = run_study(tasks(25), tmp_path, executor=InlineExecutor(), runner=digest_runner,
                      params={"games": 25, "seed": 7}, grow=("games",), progress=False)
    assert (grown.already_done, grown.ran) == (10, 15)
    assert load_rows(tmp_path) == plain_loop(tasks(25))
    with pytest.raises(StudyMismatchError, match="grow, not shrink"):
        run_study(tasks(12), tmp_path, executor=InlineExecutor(), runner=digest_runner,
                  params={"games": 12, "seed": 7}, grow=("games",), progress=False)
    with pytest.raises(StudyMismatchError, match="tasks changed"):
        run_study(tasks(30, seed=9), tmp_path, executor=InlineExecutor(), runner=digest_runner,
                  params={"games": 30, "seed": 7}, grow=("games",), progress=False)
    # the refused runs changed nothing: the study is still the one of 25 games
    assert study_stats(tmp_path)["tasks"] == 25
    again = run_study(tasks(25), tmp_path, executor=InlineExecutor(), runner=digest_runner,
                      params={"games": 25, "seed": 7}, grow=("games",), progress=False)
    assert again.ran == 0


def test_ray_gives_the_rows_of_the_plain_loop_where_installed(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    with open_executor("ray", workers=2) as pool:
        run_study(tasks(20), tmp_path, executor=pool, runner=digest_runner, progress=False)
    assert load_rows(tmp_path) == plain_loop(tasks(20))


def test_a_runner_a_process_pool_cannot_send_is_refused_at_once(tmp_path: Path) -> None:
    def local_runner(task: Task) -> Row:
        return {"seed": task.seed}

    with open_executor("local", workers=1) as pool, pytest.raises(BanditsolveError,
                                                                  match="top level"):
        run_study(tasks(3), tmp_path, executor=pool, runner=local_runner, progress=False)
    assert run_study(tasks(3), tmp_path, executor=InlineExecutor(), runner=local_runner,
                     progress=False).ok == 3


# -- stored values --------------------------------------------------------------------------

_VALUES = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.integers(min_value=2**63, max_value=2**64 - 1),
    st.integers(min_value=2**64, max_value=2**70), st.integers(max_value=-(2**63) - 1),
    st.floats(allow_nan=False), st.text(max_size=8),
)


def _expected_column(values: list[Scalar]) -> list[Scalar]:
    """What a part gives back for one column, by the documented rules written out per value:
    all booleans, or all integers within 64 bits (signed, or else unsigned), come back as
    they are; integers and floats mixed come back as floats; anything else comes back as
    text, a value that was not text as its JSON."""
    present = [v for v in values if v is not None]
    if all(type(v) is bool for v in present) or _ints_within_64_bits(present):
        return values
    if _numbers_not_all_ints(present):
        return [None if v is None else float(v) for v in values]
    return [v if v is None or type(v) is str else json.dumps(v) for v in values]


def _ints_within_64_bits(present: Sequence[Scalar]) -> bool:
    """Whether the values are all integers within 64 bits, signed, or else all unsigned."""
    ints = [v for v in present if type(v) is int]
    if len(ints) != len(present):
        return False
    return all(-(2**63) <= v < 2**63 for v in ints) or all(0 <= v < 2**64 for v in ints)


def _numbers_not_all_ints(present: Sequence[Scalar]) -> bool:
    """Whether the values are integers and floats mixed (or floats only)."""
    numbers = all(type(v) in (int, float) for v in present)
    return numbers and not all(type(v) is int for v in present)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(columns=st.lists(st.lists(_VALUES, min_size=4, max_size=4), min_size=1, max_size=4))
def test_stored_values_come_back_as_the_column_rules_say(
    tmp_path_factory: pytest.TempPathFactory, columns: list[list[Scalar]]
) -> None:
    out = tmp_path_factory.mktemp("values")
    names = [f"c{i}" for i in range(len(columns))]
    rows = [{name: column[r] for name, column in zip(names, columns, strict=True)}
            for r in range(4)]
    store = Store(out)
    store.open(new_manifest("values", {}, 4))
    try:
        store.append(Record(i, "ok", 1, None, None, 0.0, "d", row) for i, row in enumerate(rows))
        store.flush()
    finally:
        store.close()
    back = read_records(out)
    for name, column in zip(names, columns, strict=True):
        assert [back[r].row[name] for r in range(4)] == _expected_column(column), name


def test_the_study_api_refuses_wrong_arguments_before_anything_is_written(
    tmp_path: Path,
) -> None:
    """Each argument of ``run_study``, the catalogue's ``tasks``, ``open_executor`` and the
    readers: a wrong type is an ArgumentTypeError (a TypeError), a wrong value of the right
    type a StudyError (not a TypeError); nothing is made in the study folder first."""
    from banditsolve.errors import ArgumentTypeError
    from banditsolve.study.catalog import STUDIES
    from banditsolve.study.store import StudyError

    out = tmp_path / "study"
    inline = InlineExecutor()
    study = tasks(2)
    wrong_types: list[dict[str, object]] = [
        {"tasks": 5}, {"tasks": [1, 2]}, {"tasks": "ab"}, {"out_dir": 5}, {"out_dir": b"x"},
        {"executor": "inline"}, {"chunk_size": 1.5}, {"chunk_size": True}, {"progress": "yes"},
        {"runner": 5}, {"params": [("games", 2)]}, {"params": {"games": [2]}},
        {"retry_failed": 1}, {"grow": "games"}, {"target_seconds": "1"}, {"flush_rows": 2.0},
        {"flush_seconds": None},
    ]
    wrong_values: list[dict[str, object]] = [
        {"out_dir": " "}, {"chunk_size": 0}, {"target_seconds": -1}, {"flush_rows": 0},
        {"flush_seconds": float("inf")},
    ]
    for wrong, error in [(w, ArgumentTypeError) for w in wrong_types] + [
        (w, StudyError) for w in wrong_values
    ]:
        given: dict[str, object] = {"tasks": study, "out_dir": out, "executor": inline,
                                    "progress": False, **wrong}
        with pytest.raises(error) as info:
            run_study(**given)  # type: ignore[arg-type]
        assert isinstance(info.value, TypeError) is (error is ArgumentTypeError), wrong
        assert "\n" not in str(info.value)
        assert not out.exists(), wrong
    spec = STUDIES["rolling"]
    with pytest.raises(ArgumentTypeError):
        spec.tasks("10", 0)  # type: ignore[arg-type]  # refused at the call, not when iterated
    with pytest.raises(StudyError):
        spec.tasks(-1, 0)
    with pytest.raises(ArgumentTypeError):
        open_executor(5)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        open_executor("inline", workers=1.5)  # type: ignore[arg-type]
    for reader in (load_rows, load_failures, study_stats):
        with pytest.raises(ArgumentTypeError):
            reader(5)  # type: ignore[arg-type]
        with pytest.raises(StudyError):
            reader(tmp_path / "none")
    summary = run_study(study, out, executor=inline, progress=False, runner=digest_runner)
    assert summary.ok == 2
