"""Benchmark of the minimum-cards question (``min_cards_to_close``) on the closure benchmark's
positions.

The same positions as ``bench_closure.py`` (``positions(size, per_side)``: 5, 10, 15, 20 cards
and the whole remaining pile, both super-card sides, seeded greedy games, a random stage of
each) and its regression set (``tests/tunnels/data/hard_closure.json``). A position counts as
*decided* when the answer is ``impossible`` or a closure whose card count is a proven minimum;
a closure found without that proof answers ``can_close`` but not this question, so it counts as
undecided here.

Rows per size, all in one process and one run:

- ``auto``: ``min_cards_to_close(..., workers=1)`` on every position with a 1 s limit, the
  undecided ones again with 10 s (up to ``rerun`` of them); share decided within 0.1 / 1 / 10 s,
  median and worst, nodes per second, and the minimums found (median, largest);
- ``cpsat``: CP-SAT's proven minimum (``backend="cpsat"``, one worker) on the first positions,
  1 s each, every answer it gives compared with the exact search's (same verdict, same number
  of cards);
- ``plain, deepening``: the baseline a user would write with the plain search
  (``plain_search(max_cards=k)`` for k = 1, 2, ... until a closure turns up, which is then the
  minimum since every smaller k was ruled out), on the same first positions, 1 s in all.

Run ``python benchmarks/bench_closure_minimum.py [--quick]`` (or through ``benchmarks/run.py``);
writes ``benchmarks/results/closure_minimum.md`` and ``.json``; set ``BENCH_NOTE`` to say what
else ran on the machine.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from banditsolve.tunnels.solvers.closure import min_cards_to_close, plain_search
from bench_closure import (  # the script's own folder
    SIZES,
    Case,
    decided_cells,
    load_hard,
    positions,
)

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
BASE_LIMIT = 1.0
LONG_LIMIT = 10.0
SUBSET_LIMIT = 1.0


@dataclass(frozen=True)
class Answer:
    """One answer to the minimum question: ``closable`` (with ``cards``, a proven minimum),
    ``impossible`` or ``unknown`` (including a closure without a proof that it is the fewest),
    the wall time it took and the search nodes it counted."""

    status: str
    cards: int
    seconds: float
    nodes: int


def ask(case: Case, backend: str, limit: float) -> Answer:
    """``min_cards_to_close`` of ``case`` with ``backend`` within ``limit`` seconds."""
    start = time.perf_counter()
    r = min_cards_to_close(case.table, case.cards, backend=backend, time_limit=limit, workers=1)
    spent = time.perf_counter() - start
    if r.status == "closable" and not r.minimum:
        return Answer("unknown", r.cards, spent, r.stats.nodes)
    return Answer(r.status, r.cards if r.status == "closable" else 0, spent, r.stats.nodes)


def plain_deepening(case: Case, limit: float) -> Answer:
    """The baseline: the plain search with ``max_cards`` = 1, 2, ... until one closes; the
    first that does is the minimum (each smaller one was proven impossible)."""
    start = time.perf_counter()
    nodes = 0
    if not case.table.exit_count:
        return Answer("closable", 0, time.perf_counter() - start, nodes)
    for k in range(1, len(case.cards) + 1):
        left = limit - (time.perf_counter() - start)
        if left <= 0:
            break
        r = plain_search(case.table, case.cards, max_cards=k, time_limit=left)
        nodes += r.stats.nodes
        if r.status == "unknown":
            break
        if r.status == "closable":
            return Answer("closable", r.cards, time.perf_counter() - start, nodes)
    else:
        return Answer("impossible", 0, time.perf_counter() - start, nodes)
    return Answer("unknown", 0, time.perf_counter() - start, nodes)


def measure(cases: list[Case], label: str, rerun: int, subset: int) -> list[dict[str, object]]:
    """The rows of one group of cases (see the module's docstring)."""
    answers: list[Answer] = []
    undecided: list[int] = []
    nodes = 0
    spent = 0.0
    for i, case in enumerate(cases):
        a = ask(case, "auto", BASE_LIMIT)
        answers.append(a)
        nodes += a.nodes
        spent += a.seconds
        if a.status == "unknown":
            undecided.append(i)
    rerun_done = undecided[:rerun]
    for i in rerun_done:
        a = ask(cases[i], "auto", LONG_LIMIT)
        nodes += a.nodes
        spent += a.seconds
        if a.status != "unknown":
            answers[i] = a
        else:
            answers[i] = Answer("unknown", 0, float("inf"), a.nodes)
    times = [a.seconds if a.status != "unknown" else float("inf") for a in answers]
    # The 0.1 s and 1 s columns count the first run alone: a rerun that happened to finish
    # under 1 s does not make a position decided within the first run's limit.
    first = [float("inf") if i in undecided else t for i, t in enumerate(times)]
    n = max(len(cases), 1)

    def share(limit: float) -> float:
        shown_times = first if limit <= BASE_LIMIT else times
        return round(sum(t <= limit for t in shown_times) / n, 3)

    shown = [min(t, LONG_LIMIT) for t in times]
    minimums = [a.cards for a in answers if a.status == "closable"]
    statuses: dict[str, int] = {}
    for a in answers:
        if a.status != "unknown":
            statuses[a.status] = statuses.get(a.status, 0) + 1
    rows: list[dict[str, object]] = [
        {
            "cards": label,
            "backend": "auto",
            "positions": len(cases),
            "decided_0.1s": share(0.1),
            "decided_1s": share(BASE_LIMIT),
            "decided_10s": share(LONG_LIMIT),
            "rerun_at_10s": f"{len(rerun_done)} of {len(undecided)}",
            "median_ms": round(1000 * statistics.median(shown), 2) if shown else None,
            "worst_ms": round(1000 * max(shown), 1) if shown else None,
            "nodes_per_s": round(nodes / spent) if spent else None,
            "statuses": statuses,
            "minimum_cards": (
                f"{int(statistics.median(minimums))} / {max(minimums)}" if minimums else "-"
            ),
        }
    ]
    sub = cases[:subset]
    for name in ("cpsat", "plain, deepening"):
        if not sub:
            continue
        got = [
            ask(c, "cpsat", SUBSET_LIMIT) if name == "cpsat" else plain_deepening(c, SUBSET_LIMIT)
            for c in sub
        ]
        decided = [(i, a) for i, a in enumerate(got) if a.status != "unknown"]
        agree = compared = 0
        for i, a in decided:
            reference = answers[i]
            if reference.status == "unknown":
                continue  # the exact search did not decide it: nothing to compare with
            compared += 1
            agree += (a.status, a.cards) == (reference.status, reference.cards)
        ts = [min(a.seconds, SUBSET_LIMIT) for a in got]
        rows.append(
            {
                "cards": label,
                "backend": f"{name} (first {len(sub)}, limit {SUBSET_LIMIT:g} s)",
                "positions": len(sub),
                "decided_limit": round(len(decided) / len(sub), 3),
                "median_ms": round(1000 * statistics.median(ts), 2),
                "worst_ms": round(1000 * max(ts), 1),
                "agrees_with_exact": f"{agree} of {compared}",
            }
        )
    return rows


def run(quick: bool = False, per_side: int | None = None) -> dict[str, object]:
    per = per_side or (10 if quick else 100)
    rerun = 3 if quick else 8
    subset = 4 if quick else 16
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    rows: list[dict[str, object]] = []
    for size in SIZES:
        rows += measure(positions(size, per), str(size), rerun, subset)
    hard = [] if quick else load_hard()
    hard_rows = measure(hard, "regression set", len(hard), 0) if hard else []
    result: dict[str, object] = {
        "quick": quick,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
        "note": os.environ.get("BENCH_NOTE", "what else ran: not recorded"),
        "rows": rows,
        "hard_rows": hard_rows,
        "seconds": round(time.perf_counter() - started, 1),
    }
    _write(result)
    result["written"] = [str(RESULTS / "closure_minimum.md"), str(RESULTS / "closure_minimum.json")]
    return result


def _write(result: dict[str, object]) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "closure_minimum.json").write_text(
        json.dumps(result, indent=1) + "\n", encoding="utf-8"
    )
    lines = [
        "# Minimum-cards benchmark (`min_cards_to_close`)",
        "",
        f"Quick mode: {result['quick']}; {result['cores']} cores; Python {result['python']};"
        f" whole run {result['seconds']} s. One process (`workers=1`).",
        f"Load average (1 min): {result['load_before']:.1f} when the run began,"
        f" {result['load_after']:.1f} at its end ({result['note']}).",
        "",
        "Decided: `impossible`, or a closure whose card count is proven the fewest (a closure",
        "without that proof counts as undecided). `auto` runs every position with a 1 s limit",
        "and the undecided ones again with 10 s (column `rerun`; one not rerun counts as",
        "undecided at 10 s); median and worst count an undecided position as 10 s; nodes/s is",
        "all search nodes over all search time; `minimum` is the median and largest proven",
        "minimum. CP-SAT (its proven minimum) and the plain baseline (the plain search with",
        "`max_cards` = 1, 2, ... until one closes) run on the first positions of each size with",
        "the limit shown; each answer they give is compared with the exact search's (same",
        "verdict and same number of cards).",
        "",
        "| cards | backend | positions | decided 0.1 s | 1 s | 10 s | rerun | median ms |"
        " worst ms | nodes/s | verdicts | minimum |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    rows = result["rows"]
    hard_rows = result["hard_rows"]
    assert isinstance(rows, list)
    assert isinstance(hard_rows, list)
    for r in [*rows, *hard_rows]:
        if r["backend"] == "auto":
            lines.append(
                f"| {r['cards']} | auto | {r['positions']} |"
                + decided_cells(r)
                + f" {r['minimum_cards']} |"
            )
        else:
            lines.append(
                f"| {r['cards']} | {r['backend']} | {r['positions']} | - |"
                f" {100 * r['decided_limit']:.1f} % (in limit) | - | - | {r['median_ms']} |"
                f" {r['worst_ms']} | - | agree with exact: {r['agrees_with_exact']} | - |"
            )
    (RESULTS / "closure_minimum.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
