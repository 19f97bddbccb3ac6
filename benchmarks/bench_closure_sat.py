"""The SAT closure finder (``solve_sat``, CaDiCaL) on the closure regression set, beside the
exact search in the same run.

Positions: the 41 of ``tests/tunnels/data/hard_closure.json`` (the questions the exact search
once left undecided within a second: 10, 15 and 20 cards and whole piles). Each position is
asked, one after the other in one process:

- the SAT finder, ``can_close``'s question, with the limit (10 s quick, 60 s full);
- the exact search (``can_close(..., backend="exact", workers=1)``) with the same limit, the
  reference verdict (``--no-exact`` leaves it out);
- the SAT finder again with a 0.5 s limit: how far past its time limit it stops (the issue asks
  for 5 %), measured as wall time over the limit.

Every SAT closure is replayed by the rules engine, and every verdict both give is compared.
Run ``python benchmarks/bench_closure_sat.py [--quick] [--no-exact]`` (or through
``benchmarks/run.py``); writes ``benchmarks/results/closure_sat.md`` and ``.json``.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from pathlib import Path
from typing import Any

from banditsolve.core.limits import Limits
from banditsolve.tunnels.cards import as_code
from banditsolve.tunnels.notation import parse_position
from banditsolve.tunnels.solvers import sat
from banditsolve.tunnels.solvers.closure import can_close
from banditsolve.tunnels.table import Table

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
HARD = HERE.parent / "tests" / "tunnels" / "data" / "hard_closure.json"
SHORT = 0.5


def load_hard(path: Path = HARD) -> list[dict[str, Any]]:
    """The regression set: each case's table, sorted card codes and where it came from."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for item in data["cases"]:
        table = parse_position("bandido " + " ".join(item["placements"])).table
        codes = tuple(sorted(as_code(c) for c in item["cards"]))
        out.append({"item": item, "table": table, "codes": codes})
    return out


def ask_sat(table: Table, codes: tuple[int, ...], limit: float) -> dict[str, Any]:
    """One SAT answer: status, cards, wall seconds, conflicts, the model's size; a closure is
    replayed by the rules (no exit left)."""
    start = time.perf_counter()
    r = sat.solve_sat(table, codes, None, None, Limits(limit), False)
    seconds = time.perf_counter() - start
    if r.status == "closable":
        assert not table.place_all(r.placements).exit_count
    where = r.reason[r.reason.rfind("(radius") :].split(")")[0].strip("(")
    return {
        "status": r.status,
        "cards": r.cards if r.status == "closable" else None,
        "seconds": round(seconds, 3),
        "conflicts": r.stats.nodes,
        "model": where if where.startswith("radius") else "",
    }


def ask_exact(table: Table, codes: tuple[int, ...], limit: float) -> dict[str, Any]:
    """The exact search's answer with the same limit."""
    start = time.perf_counter()
    r = can_close(table, codes, backend="exact", time_limit=limit, workers=1, hypothetical=True)
    return {
        "status": r.status,
        "cards": r.cards if r.status == "closable" else None,
        "seconds": round(time.perf_counter() - start, 3),
    }


def run(quick: bool = False, exact: bool = True) -> dict[str, Any]:
    limit = 10.0 if quick else 60.0
    cases = load_hard()
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    rows = []
    for i, case in enumerate(cases):
        item = case["item"]
        row: dict[str, Any] = {
            "index": i,
            "side": item["side"],
            "seed": item["seed"],
            "size": item["size"],
            "front": len(case["table"].front_rim),
            "sat": ask_sat(case["table"], case["codes"], limit),
            "short": ask_sat(case["table"], case["codes"], SHORT),
        }
        if exact:
            row["exact"] = ask_exact(case["table"], case["codes"], limit)
        rows.append(row)
        print(i, row["sat"]["status"], row["sat"]["seconds"], row.get("exact", {}).get("status"),
              flush=True)
    result: dict[str, Any] = {
        "quick": quick,
        "limit": limit,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "solver": sat.SOLVER,
        "load_before": load_before,
        "note": os.environ.get("BENCH_NOTE", "what else ran: not recorded"),
        "rows": rows,
        "summary": summary(rows, limit),
        "seconds": round(time.perf_counter() - started, 1),
    }
    write(result)
    result["written"] = [str(RESULTS / "closure_sat.md"), str(RESULTS / "closure_sat.json")]
    return result


def summary(rows: list[dict[str, Any]], limit: float) -> dict[str, Any]:
    """Counts, times, agreement and how far past the limit the unknown answers stopped."""
    sat_decided = _decided(rows, "sat")
    out: dict[str, Any] = {
        "positions": len(rows),
        "sat_decided": len(sat_decided),
        "sat_closable": sum(r["sat"]["status"] == "closable" for r in rows),
        "sat_impossible": sum(r["sat"]["status"] == "impossible" for r in rows),
        "sat_median_s_decided": (
            round(statistics.median(r["sat"]["seconds"] for r in sat_decided), 2)
            if sat_decided else None
        ),
    }
    out.update(_over_limits(rows, limit))
    if any("exact" in r for r in rows):
        out.update(_against_exact(rows, sat_decided))
    return out


def _decided(rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """The rows whose search ``key`` ran and decided."""
    return [r for r in rows if key in r and r[key]["status"] != "unknown"]


def _over_limits(rows: list[dict[str, Any]], limit: float) -> dict[str, float]:
    """How far past its limit (``limit``, and :data:`SHORT`) an unknown answer stopped: the
    worst and the median, in per cent, for each limit with an unknown answer."""
    out: dict[str, float] = {}
    unknown = [r["sat"]["seconds"] for r in rows if r["sat"]["status"] == "unknown"]
    short = [r["short"]["seconds"] for r in rows if r["short"]["status"] == "unknown"]
    for name, times, lim in (("limit", unknown, limit), ("short", short, SHORT)):
        if times:
            out[f"{name}_worst_over_pct"] = round(100 * (max(times) / lim - 1), 1)
            out[f"{name}_median_over_pct"] = round(100 * (statistics.median(times) / lim - 1), 1)
    return out


def _against_exact(
    rows: list[dict[str, Any]], sat_decided: list[dict[str, Any]]
) -> dict[str, int]:
    """The SAT search beside the exact one: how many each decided, and their disagreements."""
    both = [r for r in sat_decided if r["exact"]["status"] != "unknown"]
    return {
        "exact_decided": len(_decided(rows, "exact")),
        "disagreements": sum(r["sat"]["status"] != r["exact"]["status"] for r in both),
        "decided_by_either": sum(
            r["sat"]["status"] != "unknown" or r["exact"]["status"] != "unknown" for r in rows
        ),
        "sat_only": sum(
            r["sat"]["status"] != "unknown" and r["exact"]["status"] == "unknown" for r in rows
        ),
    }


def write(result: dict[str, Any]) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "closure_sat.json").write_text(json.dumps(result, indent=1) + "\n", "utf-8")
    s = result["summary"]
    lim = result["limit"]
    lines = [
        "# The SAT closure finder on the regression set",
        "",
        f"Quick mode: {result['quick']}; {result['cores']} cores; Python {result['python']};"
        f" solver {result['solver']}; whole run {result['seconds']} s.",
        f"Load average (1 min) when the run began: {result['load_before']:.1f}"
        f" ({result['note']}).",
        f"Limit {lim:g} s per question for both solvers, one process, one after the other;",
        f"then the SAT finder again with a {SHORT:g} s limit (how far past a limit it stops).",
        "",
        "| | positions | decided | closable | impossible | median s (decided) |",
        "| --- | --- | --- | --- | --- | --- |",
        f"| SAT (`solve_sat`) | {s['positions']} | {s['sat_decided']} | {s['sat_closable']} |"
        f" {s['sat_impossible']} | {s['sat_median_s_decided']} |",
    ]
    if "exact_decided" in s:
        lines += [
            f"| exact (`backend=\"exact\"`) | {s['positions']} | {s['exact_decided']} | - | - |"
            " - |",
            "",
            f"Decided by either: {s['decided_by_either']}; by the SAT finder alone:"
            f" {s['sat_only']}; verdicts that differ: {s['disagreements']}.",
        ]
    lines += [
        "",
        "Past the limit (wall time of the `unknown` answers over the limit):"
        f" {lim:g} s limit: worst {s.get('limit_worst_over_pct', '-')} %, median"
        f" {s.get('limit_median_over_pct', '-')} %; {SHORT:g} s limit: worst"
        f" {s.get('short_worst_over_pct', '-')} %, median {s.get('short_median_over_pct', '-')} %.",
        "",
        "| # | side | seed | cards | front | SAT | s | conflicts | model | exact | s |"
        f" SAT at {SHORT:g} s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in result["rows"]:
        sat_r, ex = r["sat"], r.get("exact", {})
        shown = sat_r["status"] + (f" ({sat_r['cards']})" if sat_r["cards"] else "")
        ex_shown = ex.get("status", "-") + (f" ({ex['cards']})" if ex.get("cards") else "")
        lines.append(
            f"| {r['index']} | {r['side']} | {r['seed']} | {r['size']} | {r['front']} | {shown} |"
            f" {sat_r['seconds']} | {sat_r['conflicts']} | {sat_r['model']} | {ex_shown} |"
            f" {ex.get('seconds', '-')} | {r['short']['status']} {r['short']['seconds']} |"
        )
    (RESULTS / "closure_sat.md").write_text("\n".join(lines) + "\n", "utf-8")


if __name__ == "__main__":
    from flags import read_flags  # the script's own folder

    on, _ = read_flags(__doc__, ("--quick", "--no-exact"))
    out = run(quick="--quick" in on, exact="--no-exact" not in on)
    print(json.dumps(out["summary"], indent=1))
