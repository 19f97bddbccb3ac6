"""``banditsolve study``: a shipped study end to end on the command line (a small one), its
resume, and its refusals (exit status 2, one line)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from banditsolve.study.batch import load_rows
from tests.cli_runner import run


def test_study_list_names_the_catalog() -> None:
    from banditsolve.study.catalog import STUDIES

    result = run("study", "list", "--json")
    assert result.code == 0
    assert [row["name"] for row in json.loads(result.out)] == sorted(STUDIES)


def test_a_small_study_runs_resumes_and_refuses_other_parameters(tmp_path: Path) -> None:
    from banditsolve.study.catalog import STUDIES
    from banditsolve.study.questions import run as question

    out = tmp_path / "bandida"
    result = run("study", "bandida", "--games", "6", "--executor", "inline", "--out", str(out),
                 "--json")
    assert result.code == 0, result.err
    summary = json.loads(result.out)
    assert (summary["ran"], summary["failed"], summary["complete"]) == (6, 0, True)
    assert Path(summary["report"]).is_file()
    assert result.err == ""
    expected = [question(task) for task in STUDIES["bandida"].tasks(6, 0)]
    assert load_rows(out) == expected
    again = json.loads(run("study", "bandida", "--games", "6", "--executor", "inline", "--out",
                           str(out), "--json").out)
    assert (again["ran"], again["already_done"]) == (0, 6)
    refused = run("study", "bandida", "--games", "6", "--seed", "1", "--out", str(out))
    assert refused.code == 2
    assert refused.err.startswith("banditsolve: error: ")
    assert "other parameters" in refused.err
    assert len(refused.err.splitlines()) == 1


def test_report_only_writes_the_report_of_what_is_stored_and_runs_nothing(
    tmp_path: Path,
) -> None:
    out = tmp_path / "bandido"
    assert run("study", "bandido", "--games", "5", "--executor", "inline", "--out", str(out),
               "--json").code == 0
    (out / "report.md").unlink()
    stored = {p: p.read_bytes() for p in out.rglob("*")
              if p.is_file() and p.suffix not in (".md", ".png", ".svg")}
    result = run("study", "bandido", "--report-only", "--out", str(out), "--json")
    assert result.code == 0, result.err
    payload = json.loads(result.out)
    assert (payload["stored"]["done"], payload["stored"]["runs"]) == (5, 1)  # no run added
    assert {p: p.read_bytes() for p in stored} == stored  # the results and manifest untouched
    text = Path(payload["report"]).read_text()
    assert "--games 5" in text
    assert "from 5 task results" in text
    for argv in (("study", "bandido", "--report-only", "--out", str(tmp_path / "none")),
                 ("study", "bandida", "--report-only", "--out", str(out))):
        refused = run(*argv)
        assert refused.code == 2, refused.err
        assert len(refused.err.splitlines()) == 1, refused.err


def test_bad_study_requests_exit_2() -> None:
    for argv in (
        ("study", "no-such-study"),
        ("study", "bandida", "--games", "0"),
        ("study", "bandida", "--executor", "mainframe"),
        ("study", "bandida", "--executor", "dask", "tcp://a:1", "extra"),
        # an address or workers an executor would ignore
        ("study", "bandida", "--executor", "inline", "extra"),
        ("study", "bandida", "--executor", "local-dask", "tcp://a:1"),
        ("study", "bandida", "--executor", "inline", "--workers", "3"),
    ):
        result = run(*argv)
        assert result.code == 2, argv
        assert result.err.startswith("banditsolve: error: ")
        assert len(result.err.splitlines()) == 1


def test_an_out_folder_that_is_a_file_is_named_as_such(tmp_path: Path) -> None:
    """``--out`` naming a file: one line saying it is a file, exit 2, the file untouched."""
    taken = tmp_path / "notes.txt"
    taken.write_text("mine\n", encoding="utf-8")
    result = run("study", "bandido", "--games", "2", "--out", str(taken))
    assert result.code == 2
    assert len(result.err.splitlines()) == 1
    assert result.err.startswith("banditsolve: error: ")
    assert "is a file, not a folder" in result.err
    assert taken.read_text(encoding="utf-8") == "mine\n"


def test_the_study_command_imports_no_study_library_to_parse() -> None:
    """``banditsolve --help`` and ``banditsolve study --help`` stay quick: neither Dask, pyarrow,
    tqdm nor matplotlib is imported to build the parser."""
    import subprocess
    import sys

    code = (
        "import sys, contextlib, io\n"
        "from banditsolve.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--help']); main(['study', '--help'])\n"
        "heavy = ('dask', 'distributed', 'pyarrow', 'tqdm', 'matplotlib')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_no_bar_when_standard_error_is_not_a_terminal() -> None:
    import contextlib
    import io

    from banditsolve.study.progress import BarProgress, NoProgress, make_progress

    with contextlib.redirect_stderr(io.StringIO()):
        assert isinstance(make_progress(None), NoProgress)
    assert isinstance(make_progress(False), NoProgress)
    assert isinstance(make_progress(True), BarProgress)


def test_ctrl_c_on_the_command_keeps_the_results_and_the_same_command_resumes(
    tmp_path: Path,
) -> None:
    """Ctrl-C as a terminal sends it (SIGINT to the whole process group: the command and its
    worker processes): exit status 130, the results so far stored; the same command again
    finishes the study with every task once."""
    import os
    import signal
    from collections import Counter

    from tests.study.test_batch import stored_indices

    out = tmp_path / "bandido"
    proc = _started_study(out)
    try:
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert "run the same command again to resume" in err
    kept = stored_indices(out)
    assert 8 <= sum(kept.values()) < 60
    assert max(kept.values()) == 1
    again = run("study", "bandido", "--games", "60", "--executor", "inline", "--out", str(out),
                "--json")
    assert again.code == 0, again.err
    summary = json.loads(again.out)
    assert summary["already_done"] == sum(kept.values())
    assert summary["complete"]
    assert stored_indices(out) == Counter(range(60))


def test_kill_stops_the_study_and_its_workers_and_the_same_command_resumes(
    tmp_path: Path,
) -> None:
    """SIGTERM (``kill``) to the command alone, as a study started in the background is
    stopped: exit status 143, the results so far stored, and no worker process left running;
    the same command again finishes the study with every task once."""
    import os
    import signal
    import time
    from collections import Counter

    from tests.study.test_batch import stored_indices

    out = tmp_path / "bandido"
    proc = _started_study(out, "--json")
    workers: set[int] = set()
    try:
        workers = _descendants(proc.pid)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        deadline = time.monotonic() + 10
        while _running(workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        alive = _running(workers)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in _running(workers):
            os.kill(pid, signal.SIGKILL)
    assert proc.returncode == 143, err
    assert "run the same command again to resume" in err
    assert len(err.splitlines()) == 1
    assert workers, alive  # the pool's processes were there,
    assert not alive, alive  # and are gone
    kept = stored_indices(out)
    assert 8 <= sum(kept.values()) < 60
    assert max(kept.values()) == 1
    again = run("study", "bandido", "--games", "60", "--executor", "inline", "--out", str(out),
                "--json")
    assert again.code == 0, again.err
    assert json.loads(again.out)["already_done"] == sum(kept.values())
    assert stored_indices(out) == Counter(range(60))


def _parents() -> dict[int, int]:
    """Every process's parent, from /proc."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # gone meanwhile
            out[int(entry.name)] = int(fields[1])
    return out


def _descendants(pid: int) -> set[int]:
    parents = _parents()
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, of in parents.items():
            if of == parent and child not in found:
                found.add(child)
                todo.append(child)
    return found


def _running(pids: set[int]) -> set[int]:
    """The processes of ``pids`` still running (not zombies)."""
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


def _started_study(out: Path, *extra: str) -> subprocess.Popen[str]:
    """``banditsolve study bandido --games 60 --workers 2`` in its own session, once at least
    8 of its results are stored (or after a minute)."""
    import sys
    import time

    from tests.study.test_batch import ROOT, stored_indices

    argv = [sys.executable, "-c", "import sys; from banditsolve.cli import main; "
            "sys.exit(main(sys.argv[1:]))", "study", "bandido", "--games", "60", "--workers",
            "2", "--out", str(out), *extra]
    proc = subprocess.Popen(argv, cwd=ROOT, start_new_session=True, stderr=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if (out / "journal.jsonl").exists() and sum(stored_indices(out).values()) >= 8:
            break
        time.sleep(0.05)
    return proc
