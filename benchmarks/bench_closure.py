"""Benchmark of the closure solver: positions from seeded simulated games at every stage, with
3, 5, 7, 10 and 15 cards (the next cards in play: the hand, then the pile) and with the whole
remaining pile. Times each backend and the plain depth-first baseline in the same run.

Bandida rows (:func:`run_bandida`): per game mode (goal ``close``, ``ladder``, ``join``),
positions of seeded simulated Bandida games with 5, 10 and 15 cards and the whole remaining
pile, the exact search and the plain baseline in the same run (the mode's special cards
among the cards; map cards are left out of the search, so an answer the map could change is
``unknown``, counted as undecided).

Run ``python benchmarks/bench_closure.py [--quick]``; writes ``benchmarks/results/closure.md``
and ``.json``. Times over the limit count as the limit (so ratios to the baseline are lower
bounds where the baseline timed out). ``--smoke`` solves two small cases with every backend
and writes nothing (a check that the benchmark still runs).
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from banditsolve.tunnels.game import GameState, Options, simulate
from banditsolve.tunnels.solvers.closure import can_close
from banditsolve.tunnels.solvers.parallel import default_workers

RESULTS = Path(__file__).resolve().parent / "results"
SIZES: tuple[int | str, ...] = (3, 5, 7, 10, 15, "pile")


def _positions(games: int, every: int) -> list[GameState]:
    out = []
    for seed in range(games):
        states = simulate(2, 1000 + seed)[:-1]
        out += states[2::every]
    return out


def smoke() -> list[str]:
    """Two small cases of the first position, every backend; nothing written."""
    s = _positions(1, 12)[1]
    out = []
    for size in (3, 5):
        cards = (list(s.hands[s.player]) + list(s.pile))[:size]
        for backend in ("exact", "cpsat", "z3", "plain"):
            r = can_close(s.table, cards, backend=backend, time_limit=2, workers=1)
            out.append(f"{size} cards, {backend}: {r.status} ({r.stats.seconds:.3f} s)")
    for row in bandida_rows(True, 1.0, sizes=(5,), games=1):
        out.append(
            f"Bandida mode {row['mode']} ({row['goal']}), {row['cards']} cards,"
            f" {row['backend']}: {row['decided_share']:.0%} decided of {row['positions']}"
            f" (median {row['median_ms']} ms)"
        )
    return out


BANDIDA_SIZES: tuple[int | str, ...] = (5, 10, 15, "pile")
MODE_GOALS = {1: "close", 2: "ladder", 3: "join"}


def _bandida_positions(mode: int, games: int, every: int) -> list[GameState]:
    out = []
    for seed in range(games):
        states = simulate(2, 2000 + seed, Options.bandida(mode=mode))[:-1]
        out += [s for s in states[2::every] if not s.is_chance and s.outcome is None]
    return out


def _bandida_cards(s: GameState, size: int | str) -> list[int]:
    if size == "pile":
        return list(s.remaining())
    assert isinstance(size, int)
    return (list(s.hands[s.to_act]) + list(s.pile))[:size]


def bandida_rows(
    quick: bool,
    limit: float,
    sizes: tuple[int | str, ...] = BANDIDA_SIZES,
    games: int | None = None,
) -> list[dict[str, object]]:
    """Closure per Bandida mode (the mode's goal): the exact search and the plain baseline."""
    rows: list[dict[str, object]] = []
    for mode, goal in MODE_GOALS.items():
        positions = _bandida_positions(mode, games or (2 if quick else 3), 12 if quick else 10)
        for size in sizes:
            backends = ("exact", "plain") if size != "pile" else ("exact",)
            times: dict[str, list[float]] = {b: [] for b in backends}
            decided = dict.fromkeys(backends, 0)
            statuses: dict[str, int] = {}
            for s in positions:
                cards = _bandida_cards(s, size)
                for backend in backends:
                    start = time.perf_counter()
                    r = can_close(s, cards, backend=backend, time_limit=limit, workers=1)
                    times[backend].append(min(time.perf_counter() - start, limit))
                    decided[backend] += r.status != "unknown"
                    if backend == "exact":
                        statuses[r.status] = statuses.get(r.status, 0) + 1
            n = max(len(positions), 1)
            for backend, ts in times.items():
                base = times.get("plain")
                ratio = None
                if base and backend != "plain" and ts:
                    ratio = round(sum(base) / max(sum(ts), 1e-9), 1)
                rows.append(
                    {
                        "mode": mode,
                        "goal": goal,
                        "cards": size,
                        "backend": backend,
                        "positions": len(positions),
                        "decided_share": round(decided[backend] / n, 3),
                        "median_ms": round(1000 * statistics.median(ts), 2) if ts else None,
                        "worst_ms": round(1000 * max(ts), 1) if ts else None,
                        "speedup_vs_plain": ratio,
                        "exact_statuses": statuses if backend == "exact" else None,
                    }
                )
    return rows


def run(quick: bool = False) -> dict[str, object]:
    limit = 2.0 if quick else 10.0
    positions = _positions(3 if quick else 4, 12 if quick else 10)
    # The plain baseline and the models run where they can finish: the baseline times out on
    # nearly everything from 10 cards, Z3 from 7 (their rows would only repeat the limit).
    backends: dict[int | str, tuple[str, ...]] = {
        3: ("exact", "cpsat", "z3", "plain"),
        5: ("exact", "cpsat", "z3", "plain"),
        7: ("exact", "cpsat", "plain"),
        10: ("exact", "exact/1", "cpsat") if not quick else ("exact", "cpsat", "plain"),
        15: ("exact", "exact/1", "cpsat"),
        "pile": ("exact", "exact/1"),
    }
    # "exact" shares long searches among default_workers() processes; "exact/1" is the same
    # search in one process.
    rows: list[dict[str, object]] = []
    for size in SIZES:
        times: dict[str, list[float]] = {b: [] for b in backends[size]}
        decided: dict[str, int] = dict.fromkeys(backends[size], 0)
        statuses: dict[str, int] = {}
        for s in positions:
            if size == "pile":
                cards = list(s.remaining())
            else:
                assert isinstance(size, int)
                cards = (list(s.hands[s.player]) + list(s.pile))[:size]
            for backend in backends[size]:
                name, _, one = backend.partition("/")
                start = time.perf_counter()
                r = can_close(
                    s.table, cards, backend=name, time_limit=limit, workers=1 if one else None
                )
                spent = min(time.perf_counter() - start, limit)
                times[backend].append(spent)
                decided[backend] += r.status != "unknown"
                if backend == "exact":
                    statuses[r.status] = statuses.get(r.status, 0) + 1
        n = len(positions)
        for backend, ts in times.items():
            base = times.get("plain")
            ratio = None
            if base and backend != "plain":
                ratio = round(sum(base) / max(sum(ts), 1e-9), 1)
            rows.append(
                {
                    "cards": size,
                    "backend": backend,
                    "positions": n,
                    "decided_share": round(decided[backend] / n, 3),
                    "median_ms": round(1000 * statistics.median(ts), 2),
                    "worst_ms": round(1000 * max(ts), 1),
                    "total_s": round(sum(ts), 2),
                    "speedup_vs_plain": ratio,
                    "exact_statuses": statuses if backend == "exact" else None,
                }
            )
    result: dict[str, object] = {
        "quick": quick,
        "time_limit_s": limit,
        "workers": default_workers(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "rows": rows,
        "bandida_rows": bandida_rows(quick, limit),
    }
    _write(result)
    return result


def _write(result: dict[str, object]) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "closure.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    lines = [
        "# Closure solver benchmark",
        "",
        f"Limit {result['time_limit_s']} s per solve; quick mode: {result['quick']}. Times over",
        "the limit count as the limit, so speed-ups over the plain search are lower bounds",
        "where it timed out. Speed-up = total plain time / total backend time.",
        f"`exact` shares long searches among {result['workers']} processes (machine: "
        f"{result['cores']} cores); `exact/1` is the same search in one process.",
        "",
        "| cards | backend | positions | decided | median ms | worst ms | speed-up vs plain |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    rows = result["rows"]
    assert isinstance(rows, list)
    for r in rows:
        lines.append(
            f"| {r['cards']} | {r['backend']} | {r['positions']} | "
            f"{100 * r['decided_share']:.0f} % | {r['median_ms']} | {r['worst_ms']} | "
            f"{r['speedup_vs_plain'] if r['speedup_vs_plain'] is not None else '-'} |"
        )
    bandida = result.get("bandida_rows")
    if isinstance(bandida, list) and bandida:
        lines += [
            "",
            "## Bandida: closure with each mode's goal",
            "",
            "Mode 1 closes every exit, mode 2 also lays the ladder, mode 3 also lays Bandido's",
            "super card (either side) joined to Bandida's. Map cards are left out of the search;",
            "an answer a map could change is `unknown` (undecided here).",
            "",
            "| mode | cards | backend | positions | decided | median ms | worst ms |"
            " speed-up vs plain |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for r in bandida:
            lines.append(
                f"| {r['mode']} ({r['goal']}) | {r['cards']} | {r['backend']} |"
                f" {r['positions']} | {100 * r['decided_share']:.0f} % | {r['median_ms']} |"
                f" {r['worst_ms']} |"
                f" {r['speedup_vs_plain'] if r['speedup_vs_plain'] is not None else '-'} |"
            )
    (RESULTS / "closure.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if "--smoke" in sys.argv:
        print("\n".join(smoke()))
    else:
        print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
