"""The study reports: tables whose intervals match an independent computation, the rating fit,
the plots written as PNG and SVG, and a report of a tiny real study."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from banditsolve.core.hooks import Row, Scalar
from banditsolve.study.catalog import STUDIES
from banditsolve.study.figures import bradley_terry, paired_difference
from banditsolve.study.questions import run
from banditsolve.study.report import write_report

Z = 1.959963984540054


def score_interval(k: int, n: int) -> tuple[float, float]:
    """The Wilson interval found another way: the two proportions p at which the score
    statistic |k/n - p| / sqrt(p(1-p)/n) equals z, by bisection on each side of k/n."""
    phat = k / n

    def stat(p: float) -> float:
        return abs(phat - p) / math.sqrt(p * (1 - p) / n) - Z

    def bisect(lo: float, hi: float) -> float:
        lo, hi = max(lo, 1e-15), min(hi, 1 - 1e-15)
        for _ in range(200):
            mid = (lo + hi) / 2
            if (stat(lo) > 0) == (stat(mid) > 0):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    eps = 1e-15
    low = 0.0 if k == 0 else bisect(eps, phat)
    high = 1.0 if k == n else bisect(phat, 1 - eps)
    return low, high


def shown(k: int, n: int) -> str:
    low, high = score_interval(k, n)
    return f"{100 * k / n:.1f} % ({100 * low:.1f}-{100 * high:.1f})"


def perfect_rows(label: str, win: int, lose: int, unknown: int, greedy: int) -> list[Row]:
    rows: list[Row] = []
    statuses = ["win"] * win + ["lose"] * lose + ["unknown"] * unknown
    for i, status in enumerate(statuses):
        rows.append({
            "setting": f"perfect:{label}", "seed": i, "status": status, "nodes": 7,
            "node_limit": 300, "greedy_won": i < greedy, "random_won": False,
        })
    return rows


def test_perfect_table_shows_wilson_intervals_and_keeps_unknown_apart(tmp_path: Path) -> None:
    rows = perfect_rows("a", 37, 5, 58, 3) + perfect_rows("b", 0, 0, 40, 0)
    path = write_report(STUDIES["bandido-perfect"], rows, tmp_path, {"task_seconds": 50.0})
    text = path.read_text()
    assert shown(37, 100) in text  # proven wins
    assert shown(5, 100) in text  # proven losses
    assert shown(58, 100) in text  # unknown, on its own
    assert "37.0-95.0 %" in text  # winnable lies between proven and proven + unknown
    assert shown(0, 40) in text
    for ext in ("png", "svg"):
        assert (tmp_path / f"perfect.{ext}").stat().st_size > 1000
    assert (tmp_path / "perfect.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (tmp_path / "perfect.svg").read_text()


def test_the_projection_follows_the_measured_cost(tmp_path: Path) -> None:
    rows = perfect_rows("a", 1, 1, 1, 0)
    # 3 tasks in 6 s: 2 s each; 2,000 solves of the one setting: 4,000 s of one core, so
    # 2,000 s on two cores, 500 s on eight.
    text = write_report(STUDIES["bandido-perfect"], rows, tmp_path,
                        {"task_seconds": 6.0}).read_text()
    assert "2000.0 ms per task" in text
    assert "| 1 | 1 h 06 min |" in text
    assert "| 2 | 33 min 20 s |" in text
    assert "| 8 | 8 min 20 s |" in text


def test_on_shared_cores_the_projection_is_of_cpu_time(tmp_path: Path) -> None:
    # The same 2 s tasks, which had their core a quarter of the time (runs recorded 8 s of
    # tasks' wall clock and 2 s of their CPU time): the projection is a quarter of the above.
    rows = perfect_rows("a", 1, 1, 1, 0)
    meta: dict[str, Scalar] = {"task_seconds": 6.0, "cpu_timed_task_seconds": 8.0,
                               "cpu_timed_task_cpu_seconds": 2.0}
    text = write_report(STUDIES["bandido-perfect"], rows, tmp_path, meta).read_text()
    assert "2000.0 ms per task" in text
    assert "core for 25 % of it" in text
    assert "| 2 | 8 min 20 s |" in text
    assert "| 8 | 2 min 05 s |" in text


def test_the_projection_uses_the_cpu_time_the_workers_measured(tmp_path: Path) -> None:
    # The rows' wall clocks say 2 s a task, but the runs that measured their tasks' CPU time
    # ran 40 tasks in 20 s of CPU: 0.5 s a task. One setting, 2,000 solves: 1,000 s of one
    # core, 500 s on two cores, 125 s on eight.
    rows = perfect_rows("a", 1, 1, 1, 0)
    meta: dict[str, Scalar] = {"task_seconds": 6.0, "cpu_timed_task_seconds": 80.0,
                               "cpu_timed_task_cpu_seconds": 20.0, "cpu_timed_tasks": 40}
    text = write_report(STUDIES["bandido-perfect"], rows, tmp_path, meta).read_text()
    assert "500.0 ms per task, the CPU time the workers measured in the 40 tasks" in text
    assert "| 2 | 8 min 20 s |" in text
    assert "| 8 | 2 min 05 s |" in text


def test_the_projection_weighs_each_settings_own_cost(tmp_path: Path) -> None:
    rows = perfect_rows("cheap", 1, 1, 0, 0) + perfect_rows("dear", 1, 0, 0, 0)
    for row, seconds in zip(rows, (1.0, 1.0, 4.0), strict=True):
        row["_seconds"] = seconds
    # 2,000 solves of each setting: 2,000 * (1 + 4) = 10,000 s of one core, 5,000 s on two
    # cores.
    text = write_report(STUDIES["bandido-perfect"], rows, tmp_path, {}).read_text()
    assert "| 2 | 1 h 23 min |" in text
    assert "| perfect information: cheap | 2 | 1000.0 |" in text
    assert "| perfect information: dear | 1 | 4000.0 |" in text


def test_paired_difference_against_a_hand_computation() -> None:
    base = {1: 1.0, 2: 0.0, 3: 1.0, 4: 0.0, 5: 1.0, 6: 1.0}
    other = {1: 1.0, 2: 1.0, 3: 0.0, 4: 1.0, 5: 1.0, 7: 0.0}  # seed 6 and 7 are not paired
    pairs, mean, low, high = paired_difference(base, other)
    diffs = [0.0, 1.0, -1.0, 1.0, 0.0]
    m = sum(diffs) / 5
    sd = math.sqrt(sum((d - m) ** 2 for d in diffs) / 4)
    assert pairs == 5
    assert mean == pytest.approx(0.2)
    assert low == pytest.approx(m - Z * sd / math.sqrt(5))
    assert high == pytest.approx(m + Z * sd / math.sqrt(5))


def test_bradley_terry_recovers_known_strengths() -> None:
    # Two players, 30 wins to 10, no prior: the strength ratio is 3.
    two = bradley_terry({("a", "b"): (30.0, 10.0)}, prior=0.0)
    assert two["a"] - two["b"] == pytest.approx(400 * math.log10(3), abs=1e-6)
    # Three players with strengths 1, 2, 4 and the expected results of 100 games per pair.
    strength = {"x": 1.0, "y": 2.0, "z": 4.0}
    games = {}
    for a, b in (("x", "y"), ("x", "z"), ("y", "z")):
        pa = strength[a] / (strength[a] + strength[b])
        games[(a, b)] = (100 * pa, 100 * (1 - pa))
    fit = bradley_terry(games, prior=0.0)
    assert fit["y"] - fit["x"] == pytest.approx(400 * math.log10(2), abs=1e-4)
    assert fit["z"] - fit["x"] == pytest.approx(400 * math.log10(4), abs=1e-4)


def test_a_tiny_real_study_report_has_every_section_and_plot(tmp_path: Path) -> None:
    spec = STUDIES["rolling"]
    rows = [run(t) for t in spec.tasks(len(spec.cycle()), 0)]
    path = spec.report(rows, tmp_path, {"task_seconds": 3.0, "wall_seconds": 2.0, "failed": 0})
    text = path.read_text()
    for heading in ("## Policies head to head", "### Rating table", "## Win rate by seat",
                    "### The value of each trunk kind", "## Sensitivity to each rule option",
                    "## The run"):
        assert heading in text
    for name in ("h2h", "seats", "trunks", "options"):
        assert f"![{name}]({name}.png)" in text
        assert (tmp_path / f"{name}.png").exists()
        assert (tmp_path / f"{name}.svg").exists()
    # The seat table counts the games each seat won alone.
    two = [r for r in rows if r["setting"] == "seats:2p greedy"]
    wins0 = sum(1 for r in two if r["winner"] == 0)
    assert f"| 2 players greedy | {len(two)} | {shown(wins0, len(two))} |" in text


def test_a_claims_and_tunnel_report(tmp_path: Path) -> None:
    rows: list[Row] = [
        {"setting": "claims:greedy", "claims_checked": 10, "differ": 2, "strict_only": 2,
         "bag_only": 0},
        {"setting": "claims:greedy", "claims_checked": 30, "differ": 0, "strict_only": 0,
         "bag_only": 0},
    ]
    text = write_report(STUDIES["banditos-claims"], rows, tmp_path, {}).read_text()
    assert f"| greedy | 2 | 40 | {shown(2, 40)} | 2 | 0 | {shown(1, 2)} |" in text
    assert (tmp_path / "claims.svg").exists()


def test_sign_test_against_the_binomial_tail() -> None:
    from banditsolve.study.figures import sign_test

    # 4 changes all one way: 2 * (1/2)^4 = 0.125; 9 to 1: 2 * (1 + 10) / 1024.
    assert sign_test(4, 0) == pytest.approx(0.125)
    assert sign_test(1, 9) == pytest.approx(22 / 1024)
    assert sign_test(5, 5) == 1.0
    assert sign_test(0, 0) == 1.0
