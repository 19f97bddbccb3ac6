"""What a reader of a study's report sees: intervals within their bounds however few the games,
settings in numeric order, readable labels, no words about where it was made, the game's own
words; and the command's refusals when the study extra is missing, and its ``--quiet``."""

from __future__ import annotations

import contextlib
import io
import itertools
import math
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from banditsolve.core.hooks import Row, Scalar
from banditsolve.core.stats import paired_share_difference
from banditsolve.study.catalog import STUDIES
from banditsolve.study.report import write_report

Z = 1.959963984540054


def option_rows(label: str, won: list[bool]) -> list[Row]:
    """Two-player greedy Bandido games of one option reading, seeds 0, 1, ..."""
    return [
        {"setting": f"option:{label}", "seed": seed, "won": w, "exits_left": 0 if w else 3,
         "decisions": 40 + seed, "policies": "greedy,greedy"}
        for seed, w in enumerate(won)
    ]


def intervals(text: str) -> tuple[list[tuple[float, float, float]], list[tuple[float, float]]]:
    """Every share ``P % (LOW-HIGH)`` and every difference ``... pp (LOW to HIGH)`` printed."""
    shares = [(float(p), float(lo), float(hi)) for p, lo, hi in
              re.findall(r"(\d+\.\d) % \((\d+\.\d)-(\d+\.\d)\)", text)]
    diffs = [(float(lo), float(hi)) for lo, hi in
             re.findall(r" pp \(([-+]\d+\.\d+) to ([-+]\d+\.\d+)\)", text)]
    return shares, diffs


def test_two_seeds_give_intervals_within_the_bounds(tmp_path: Path) -> None:
    # Seeds 0 and 1: the default wins one, the reading wins both. The normal interval of the
    # mean difference (+50 pp, s = 0.71) would reach past +100 pp (to +148).
    rows = option_rows("default", [True, False]) + option_rows("hand_size=9", [True, True])
    text = write_report(STUDIES["bandido"], rows, tmp_path, {}).read_text()
    shares, diffs = intervals(text)
    assert shares
    assert all(0 <= lo <= p <= hi <= 100 for p, lo, hi in shares)
    assert len(diffs) == 1
    low, high = diffs[0]
    assert -100 <= low < 50 < high <= 100
    assert "| hand_size=9 | 2 | 100.0 % " in text
    assert "+50.00 pp" in text


def test_the_paired_interval_stays_within_its_bounds_for_every_small_table() -> None:
    for counts in itertools.product(range(4), repeat=4):
        if sum(counts) == 0:
            continue
        mean, low, high = paired_share_difference(*counts)
        first, second = counts[1], counts[2]
        assert mean == pytest.approx((second - first) / sum(counts))
        assert -1 <= low <= mean <= high <= 1, counts


def test_the_paired_interval_meets_the_normal_one_on_many_cases() -> None:
    # 1,000 pairs: the normal interval of the mean of per-case differences (each -1, 0 or +1)
    # is close to Newcombe's, which differs from it only at small samples and extreme shares.
    both, first, second, neither = 400, 60, 90, 450
    n = both + first + second + neither
    mean = (second - first) / n
    variance = ((first + second) / n - mean**2) * n / (n - 1)
    half = Z * math.sqrt(variance / n)
    got, low, high = paired_share_difference(both, first, second, neither)
    assert got == pytest.approx(mean)
    assert low == pytest.approx(mean - half, abs=0.002)
    assert high == pytest.approx(mean + half, abs=0.002)


def test_settings_are_in_numeric_order(tmp_path: Path) -> None:
    rows = option_rows("default", [True, False, True])
    for size in ("10", "2", "9"):
        rows += option_rows(f"hand_size={size}", [True, False, False])
    for row in rows:
        row["_seconds"] = 0.01
    text = write_report(STUDIES["bandido"], rows, tmp_path, {}).read_text()
    options = list(re.findall(r"^\| (hand_size=\d+) \|", text, re.MULTILINE))
    assert options == ["hand_size=2", "hand_size=9", "hand_size=10"]
    cost = re.findall(r"^\| rule option: (hand_size=\d+) \|", text, re.MULTILINE)
    assert cost == ["hand_size=2", "hand_size=9", "hand_size=10"]


def test_labels_are_words_with_their_plurals(tmp_path: Path) -> None:
    from banditsolve.study.executors import open_executor

    with open_executor("local", workers=1) as one, open_executor("local", workers=2) as two:
        assert (one.name, two.name) == ("process pool (1 worker)", "process pool (2 workers)")
    rows: list[Row] = [
        {"setting": f"policy:greedy {p}p", "won": p > 1, "exits_left": 1, "decisions": 30,
         "_seconds": 0.01}
        for p in (1, 2)
    ]
    meta: dict[str, Scalar] = {
        "study": "bandido", "title": "t", "games": 2, "seed": 0, "executor": "none",
        "workers": 1, "version": "0.2.0", "tasks": 2, "done": 2, "ok": 2, "failed": 0,
        "task_seconds": 0.02, "wall_seconds": 75.0, "runs": 2, "cpu_timed_task_seconds": 0.02,
        "cpu_timed_task_cpu_seconds": 0.01, "cpu_timed_tasks": 2,
    }
    text = write_report(STUDIES["bandido"], rows, tmp_path, meta).read_text()
    assert "| greedy 1 player | 1 |" in text
    assert "| greedy 2 players | 1 |" in text
    assert "| policies: greedy 1 player | 1 |" in text
    assert "| executor of the last run | none (nothing was left to run) |" in text
    assert "| wall-clock time of the runs | 1 min 15 s |" in text
    details = text.split("| run detail | value |", 1)[1]
    assert "_" not in details  # no key printed raw
    assert "1p" not in text
    assert "2p" not in text


def test_a_real_report_names_no_issue_no_machine_and_says_wagon(tmp_path: Path) -> None:
    from banditsolve.study.questions import run

    spec = STUDIES["rolling"]
    rows = [run(t) for t in spec.tasks(len(spec.cycle()), 0)]
    for row in rows:
        row["_seconds"] = 0.05
    meta: dict[str, Scalar] = {"task_seconds": 3.0, "wall_seconds": 2.0, "failed": 0,
                               "cpu_timed_task_seconds": 3.0, "cpu_timed_task_cpu_seconds": 1.0,
                               "cpu_timed_tasks": len(rows)}
    text = spec.report(rows, tmp_path, meta).read_text()
    assert "wagons" in text
    for word in ("issue", "machine", "car", "cars"):
        assert not re.search(rf"\b{word}\b", text, re.IGNORECASE), word
    meta.pop("cpu_timed_tasks")
    text = spec.report(rows, tmp_path, meta).read_text()
    assert not re.search(r"\b(issue|machine)", text, re.IGNORECASE)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _study(*argv: str, terminal: bool = False) -> tuple[int, str, str]:
    from banditsolve.cli import main

    out, err = io.StringIO(), (_Terminal() if terminal else io.StringIO())
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["study", *argv])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(("package", "executor"), [
    ("pyarrow", "inline"), ("matplotlib", "inline"), ("tqdm", "inline"), ("distributed", "dask"),
])
def test_a_missing_package_of_the_extra_is_one_line_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, package: str, executor: str
) -> None:
    monkeypatch.setitem(sys.modules, package, None)  # as if it were not installed
    code, out, err = _study("bandido", "--games", "2", "--executor", executor, "--out",
                            str(tmp_path / "s"))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith("banditsolve: error: ")
    assert package in err
    assert "pip install 'banditsolve[study]'" in err
    assert not (tmp_path / "s").exists()  # refused before anything ran


def test_a_missing_extra_from_a_fresh_process(tmp_path: Path) -> None:
    import subprocess

    code = ("import sys; sys.modules['pyarrow'] = None\n"
            "from banditsolve.cli import main\n"
            f"sys.exit(main(['study', 'rolling', '--games', '2', '--out', {str(tmp_path)!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert "pyarrow" in done.stderr
    assert "banditsolve[study]" in done.stderr


def test_quiet_turns_the_study_bar_off(tmp_path: Path) -> None:
    code, _, err = _study("bandido", "--games", "3", "--executor", "inline", "--out",
                          str(tmp_path / "a"), terminal=True)
    assert code == 0
    assert "bandido" in err
    assert "task" in err
    code, _, err = _study("bandido", "--games", "3", "--executor", "inline", "--out",
                          str(tmp_path / "b"), "--quiet", terminal=True)
    assert (code, err) == (0, "")


def test_the_searches_inside_a_study_draw_no_line_of_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from banditsolve.core import progress

    watched: list[str] = []
    start = progress.Watch.__init__

    def counted(self: progress.Watch, what: str, *args: object) -> None:
        watched.append(what)
        start(self, what, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(progress.Watch, "__init__", counted)
    code, _, err = _study("bandido-perfect", "--games", "2", "--executor", "inline", "--out",
                          str(tmp_path / "p"), terminal=True)
    assert code == 0
    assert "bandido-perfect" in err  # the study's bar
    assert watched == []  # its solves (tunnels.solve_game) were not watched


def test_a_study_with_no_full_size_reports_its_cost_and_projects_nothing(tmp_path: Path) -> None:
    rows: list[Row] = [
        {"setting": f"policy:greedy {p}p", "won": p > 1, "exits_left": 1, "decisions": 30,
         "_seconds": 0.02}
        for p in (1, 2)
    ]
    meta: dict[str, Scalar] = {"task_seconds": 0.04, "wall_seconds": 0.05, "failed": 0,
                               "cpu_timed_task_seconds": 0.04, "cpu_timed_task_cpu_seconds": 0.01,
                               "cpu_timed_tasks": 2}
    projected = write_report(STUDIES["bandido"], rows, tmp_path / "a", meta).read_text()
    assert "The study's full size, 100,000 simulated games" in projected
    spec = replace(STUDIES["bandido"], projected=False)
    text = write_report(spec, rows, tmp_path / "b", meta).read_text()
    assert "full size" not in text
    assert "| cores | time |" not in text
    assert "Measured cost: 20.0 ms per task on average" in text
    assert "5.0 ms of CPU time per task" in text  # what the workers measured
    assert "projection" not in text
    assert "| greedy 2 players | 1 | 20.0 |" in text.replace("policies: ", "")
    assert not STUDIES["openspiel-mcts"].projected


def test_a_study_whose_extra_is_missing_is_one_line_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pyspiel" else found(name, *a))
    code, _, err = _study("openspiel-mcts", "--games", "1", "--out", str(tmp_path / "s"))
    assert code == 2
    assert err.strip() == (
        "banditsolve: error: the study openspiel-mcts needs the package pyspiel, of "
        "banditsolve's optional extra 'openspiel', which is not installed: "
        "pip install 'banditsolve[openspiel]'")
    assert not (tmp_path / "s").exists()  # refused before any work
