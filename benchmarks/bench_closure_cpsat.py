"""CP-SAT as the independent check of the closure search on whole-pile positions.

Positions: the first whole-pile positions of each super-card side of the closure benchmark
(``bench_closure.positions("pile", n)``: seeded greedy two-player games, a random stage of
each; 35 to 66 cards left on the hardest). Each position is asked three times in the same
process, one after the other:

- the exact search (``backend="exact"``, one process), the reference verdict;
- CP-SAT as it is now (``backend="cpsat"``: stages of one card more at a time while small,
  probing off, a stage short of the whole budget held to a third of the time left);
- CP-SAT with the previous settings (first stage 6 cards, budgets doubled, CP-SAT's default
  probing, every stage given all the time left), the baseline.

Every CP-SAT verdict is compared with the exact one, and every closure is replayed by the
rules engine (``certify``). Times are wall clock and process CPU (CP-SAT runs one worker).

Run ``python benchmarks/bench_closure_cpsat.py [--quick]`` (or through ``benchmarks/run.py``);
writes ``benchmarks/results/closure_cpsat.md`` and ``.json``.
"""

from __future__ import annotations

import json
import os
import platform
import re
import statistics
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

from banditsolve.tunnels import Table
from banditsolve.tunnels.solvers import cpsat
from banditsolve.tunnels.solvers.closure import can_close
from banditsolve.tunnels.solvers.result import Closure
from bench_closure import positions  # the benchmarks folder is the script's own

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
LIMIT = 60.0
#: The model's size as the reason names it.
MODEL = re.compile(r"radius \d+(, [\d,]+ literals)?")
EXACT_LIMIT = 20.0


@contextmanager
def previous_settings() -> Iterator[None]:
    """CP-SAT's staging as it was before: first stage 6, doubled, probing on, no time share."""
    saved = (cpsat.FIRST_STAGE, cpsat.STAGE_GROWTH, cpsat.PROBING, cpsat.STAGE_SHARE)
    cpsat.FIRST_STAGE, cpsat.STAGE_GROWTH, cpsat.PROBING, cpsat.STAGE_SHARE = 6, 1.0, 2, 1.0
    try:
        yield
    finally:
        cpsat.FIRST_STAGE, cpsat.STAGE_GROWTH, cpsat.PROBING, cpsat.STAGE_SHARE = saved


def _ask(
    table: Table, cards: tuple[int, ...], backend: str, limit: float
) -> tuple[Closure, float, float]:
    """The verdict, wall seconds and process CPU seconds of one question."""
    wall, cpu = time.perf_counter(), time.process_time()
    r = can_close(table, cards, backend=backend, time_limit=limit, workers=1)
    return r, time.perf_counter() - wall, time.process_time() - cpu


def run(quick: bool = False) -> dict[str, object]:
    per_side = 2 if quick else 10
    limit = 10.0 if quick else LIMIT
    cases = positions("pile", per_side)
    started = time.perf_counter()
    load_before = os.getloadavg()
    rows: list[dict[str, Any]] = []
    for i, case in enumerate(cases):
        exact, _, exact_cpu = _ask(case.table, case.cards, "exact", EXACT_LIMIT)
        row: dict[str, Any] = {
            "index": i,
            "side": case.side,
            "seed": case.seed,
            "cards": len(case.cards),
            "front": len(case.table.front_rim),
            "exact": {
                "status": exact.status,
                "cards": len(exact.placements),
                "cpu": round(exact_cpu, 3),
            },
        }
        settings: dict[str, AbstractContextManager[None]] = {
            "now": nullcontext(),
            "before": previous_settings(),
        }
        for name, context in settings.items():
            with context:
                r, wall, cpu = _ask(case.table, case.cards, "cpsat", limit)
            row[name] = {
                "status": r.status,
                "wall": round(wall, 3),
                "cpu": round(cpu, 3),
                "reason": r.reason,
                "agrees": r.status == "unknown" or exact.status in (r.status, "unknown"),
            }
        rows.append(row)
        print(f"  {i}: exact {row['exact']}, now {row['now']}, before {row['before']}", flush=True)
    result: dict[str, Any] = {
        "quick": quick,
        "limit": limit,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "note": os.environ.get("BENCH_NOTE", "what else ran: not recorded"),
        "rows": rows,
        "seconds": round(time.perf_counter() - started, 1),
    }
    _write(result)
    result["written"] = [str(RESULTS / "closure_cpsat.md"), str(RESULTS / "closure_cpsat.json")]
    return result


def _summary(rows: list[dict[str, Any]], name: str, limit: float) -> str:
    runs = [r[name] for r in rows]
    decided = [x for x in runs if x["status"] != "unknown"]
    walls = [x["wall"] if x["status"] != "unknown" else limit for x in runs]
    cpu = sum(x["cpu"] for x in runs)
    agree = "yes" if all(x["agrees"] for x in runs) else "NO"
    return (
        f"| {name} | {len(decided)} of {len(runs)} | {statistics.median(walls):.2f} |"
        f" {max(walls):.2f} | {cpu:.1f} | {agree} |"
    )


def _write(result: dict[str, Any]) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "closure_cpsat.json").write_text(
        json.dumps(result, indent=1) + "\n", encoding="utf-8"
    )
    rows = result["rows"]
    limit = result["limit"]
    lb, la = result["load_before"], result["load_after"]
    lines = [
        "# CP-SAT on whole-pile closure positions (the independent check)",
        "",
        f"Quick mode: {result['quick']}; {result['cores']} cores; Python {result['python']};"
        f" whole run {result['seconds']} s. Limit {limit:g} s of wall clock per question, one"
        f" CP-SAT worker; the exact search has {EXACT_LIMIT:g} s.",
        f"Load average (1 min) {lb[0]:.1f} before, {la[0]:.1f} after ({result['note']}).",
        "",
        "| CP-SAT settings | decided | median s (wall; undecided = limit) | worst s |"
        " CPU s, all | agrees with exact |",
        "| --- | --- | --- | --- | --- | --- |",
        _summary(rows, "now", limit),
        _summary(rows, "before", limit),
        "",
        "`now`: stages of one card more at a time while small (a quarter more later), probing"
        " off, a stage short of the whole budget held to a third of the time left. `before`:"
        " the previous settings (first stage 6 cards, doubled, default probing, every stage"
        " all the time left), in the same run.",
        "",
        "| # | side | seed | cards | front cells | exact | now | now s (CPU) | before |"
        " before s (CPU) | now: model |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        ex, now, before = r["exact"], r["now"], r["before"]
        verdict = ex["status"] + (f" ({ex['cards']} cards)" if ex["status"] == "closable" else "")
        found = MODEL.search(now["reason"])
        model = found.group(0) if found else "-"
        lines.append(
            f"| {r['index']} | {r['side']} | {r['seed']} | {r['cards']} | {r['front']} |"
            f" {verdict} | {now['status']} | {now['wall']:.2f} ({now['cpu']:.2f}) |"
            f" {before['status']} | {before['wall']:.2f} ({before['cpu']:.2f}) | {model} |"
        )
    (RESULTS / "closure_cpsat.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    from flags import read_flags  # the script's own folder

    written = run(quick="--quick" in read_flags(__doc__)[0])["written"]
    print("\n".join(map(str, written)) if isinstance(written, list) else written)
