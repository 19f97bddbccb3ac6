"""Benchmark of the closure solver (``can_close``) on positions from seeded simulated games.

Positions (:func:`positions`): for each size (5, 10, 15, 20 cards: the next cards in play, the
hand and then the pile; and the whole remaining pile) and each super-card side (``super6``,
``super5``), states of seeded greedy two-player games taken at a random stage of each game
(so table sizes spread from the start to the end game), only states with at least that many
cards left. The same seeds give the same positions in every run.

Rows per size: the share decided (closable with a replayed certificate, or impossible with a
reason) within 0.1 s, 1 s and 10 s, the median and worst time, and nodes per second of the
exact search. Every position runs once with a 1 s limit; those undecided then run again with
the 10 s limit (up to ``rerun`` per size, said in the table). The plain baseline and CP-SAT run
in the same process on a subset with a shorter limit (said in the table). The regression set
(``tests/tunnels/data/hard_closure.json``: the positions the search left undecided within 1 s
before the region split) has its own row.

Bandida rows (:func:`bandida_rows`): per game mode (goal ``close``, ``ladder``, ``join``),
positions of seeded simulated Bandida games, the exact search and the plain baseline.

Run ``python benchmarks/bench_closure.py [--quick]`` (or through ``benchmarks/run.py``);
writes ``benchmarks/results/closure.md`` and ``.json``. ``--smoke`` solves two small cases
with every backend and writes nothing.
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from banditsolve.tunnels.bandida.components import MODES
from banditsolve.tunnels.bandida.state import BandidaOptions
from banditsolve.tunnels.cards import as_code
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.simulate import simulate
from banditsolve.tunnels.solvers.closure import can_close
from banditsolve.tunnels.state import GameState, Options
from banditsolve.tunnels.table import Table

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
HARD = HERE.parent / "tests" / "tunnels" / "data" / "hard_closure.json"
SIZES: tuple[int | str, ...] = (5, 10, 15, 20, "pile")
SIDES = ("super6", "super5")


@dataclass(frozen=True)
class Case:
    """One closure question: a table and the cards to close it with, and where it came from."""

    side: str
    seed: int
    stage: int
    size: int | str
    table: Table
    cards: tuple[int, ...]


def cards_for(s: GameState, size: int | str) -> tuple[int, ...] | None:
    """The cards of a case: the next ``size`` cards in play (None if fewer are left), or the
    whole remaining pile."""
    if size == "pile":
        return tuple(s.remaining())
    assert isinstance(size, int)
    ahead = list(s.hands[s.player]) + list(s.pile)
    return tuple(ahead[:size]) if len(ahead) >= size else None


def positions(size: int | str, per_side: int, seed0: int = 7000) -> list[Case]:
    """``per_side`` cases of ``size`` cards for each super-card side: one state per seeded
    game, at a stage drawn from the game's own seed."""
    out: list[Case] = []
    for side in SIDES:
        found = 0
        seed = seed0
        while found < per_side:
            states = simulate(2, seed, Options(super_side=side))[:-1]
            usable = [
                (i, s)
                for i, s in enumerate(states)
                if s.table.exit_count and s.outcome is None and cards_for(s, size) is not None
            ]
            if usable:
                i, s = random.Random(seed * 7 + len(str(size))).choice(usable)
                cards = cards_for(s, size)
                assert cards is not None
                out.append(Case(side, seed, i, size, s.table, cards))
                found += 1
            seed += 1
    return out


def load_hard(path: Path = HARD) -> list[Case]:
    """The regression set: cases stored with their placements and cards by name."""
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for item in data["cases"]:
        placements = []
        for text in item["placements"]:
            name, _, at = text.partition("@")
            x, y, r = (int(v) for v in at.split(","))
            placements.append(Placement(as_code(name), x, y, r))
        table = Table.empty().place_all(placements)
        cards = tuple(as_code(c) for c in item["cards"])
        out.append(Case(item["side"], item["seed"], item["stage"], item["size"], table, cards))
    return out


def _solve(case: Case, backend: str, limit: float) -> tuple[str, float, int]:
    start = time.perf_counter()
    r = can_close(case.table, case.cards, backend=backend, time_limit=limit, workers=1)
    return r.status, time.perf_counter() - start, r.stats.nodes


def measure(
    cases: list[Case], rerun: int, subset: int, base_limit: float, long_limit: float
) -> list[dict[str, object]]:
    """The rows of one group of cases: ``auto`` on all (1 s, then the undecided again with
    ``long_limit``, at most ``rerun`` of them), plain and CP-SAT on the first ``subset``."""
    rows: list[dict[str, object]] = []
    times: list[float] = []
    statuses: dict[str, int] = {}
    nodes = 0
    search_time = 0.0
    undecided: list[int] = []
    for i, case in enumerate(cases):
        status, spent, n = _solve(case, "auto", base_limit)
        if status == "unknown":
            undecided.append(i)
        else:
            statuses[status] = statuses.get(status, 0) + 1
        times.append(spent if status != "unknown" else float("inf"))
        nodes += n
        search_time += spent
    rerun_done = undecided[:rerun]
    for i in rerun_done:
        status, spent, n = _solve(cases[i], "auto", long_limit)
        nodes += n
        search_time += spent
        if status != "unknown":
            times[i] = spent
            statuses[status] = statuses.get(status, 0) + 1
    n_cases = max(len(cases), 1)
    # The 0.1 s and 1 s columns count the first run alone (a rerun that happened to finish
    # under 1 s does not make a position decided within the first run's limit).
    first = [float("inf") if i in undecided else t for i, t in enumerate(times)]

    def share(limit: float) -> float:
        counted = first if limit <= base_limit else times
        return round(sum(t <= limit for t in counted) / n_cases, 3)

    shown = [min(t, long_limit) for t in times]
    label = cases[0].size if cases else "-"
    rows.append(
        {
            "cards": label,
            "backend": "auto",
            "positions": len(cases),
            "table_cards": _spread([len(c.table) for c in cases]),
            "decided_0.1s": share(0.1),
            "decided_1s": share(base_limit),
            "decided_10s": share(long_limit),
            "rerun_at_10s": f"{len(rerun_done)} of {len(undecided)}",
            "median_ms": round(1000 * statistics.median(shown), 2) if shown else None,
            "worst_ms": round(1000 * max(shown), 1) if shown else None,
            "nodes_per_s": round(nodes / search_time) if search_time else None,
            "statuses": statuses,
        }
    )
    for backend, limit in (("plain", 0.5), ("cpsat", 1.0)):
        sub = cases[:subset]
        if not sub:
            continue
        ts = []
        decided = 0
        agree = 0
        for case in sub:
            status, spent, _n = _solve(case, backend, limit)
            decided += status != "unknown"
            ts.append(min(spent, limit))
            if status != "unknown":
                mine = _solve(case, "exact", 2.0)[0]
                agree += mine in (status, "unknown")
        rows.append(
            {
                "cards": label,
                "backend": f"{backend} (first {len(sub)}, limit {limit:g} s)",
                "positions": len(sub),
                "decided_limit": round(decided / len(sub), 3),
                "median_ms": round(1000 * statistics.median(ts), 2),
                "worst_ms": round(1000 * max(ts), 1),
                "agrees_with_exact": f"{agree} of {decided}",
            }
        )
    return rows


def _spread(values: list[int]) -> str:
    if not values:
        return "-"
    return f"{min(values)}-{int(statistics.median(values))}-{max(values)}"


def smoke() -> list[str]:
    """Two small cases of one position, every backend; nothing written."""
    case = positions(5, 1)[0]
    out = []
    for size in (3, 5):
        cards = case.cards[:size]
        for backend in ("exact", "cpsat", "z3", "plain"):
            r = can_close(case.table, cards, backend=backend, time_limit=2, workers=1)
            out.append(f"{size} cards, {backend}: {r.status} ({r.stats.seconds:.3f} s)")
    out.extend(
        f"Bandida mode {row['mode']} ({row['goal']}), {row['cards']} cards,"
        f" {row['backend']}: {row['decided_share']:.0%} decided of {row['positions']}"
        f" (median {row['median_ms']} ms)"
        for row in bandida_rows(True, 1.0, sizes=(5,), games=1)
    )
    return out


BANDIDA_SIZES: tuple[int | str, ...] = (5, 10, 15, "pile")


def _bandida_positions(mode: int, games: int, every: int) -> list[GameState]:
    out = []
    for seed in range(games):
        states = simulate(2, 2000 + seed, BandidaOptions(mode=mode))[:-1]
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
    for mode, goal in ((number, m.goal) for number, m in MODES.items()):
        positions_ = _bandida_positions(mode, games or 2, 12 if quick else 10)
        for size in sizes:
            backends = ("exact", "plain") if size != "pile" else ("exact",)
            times: dict[str, list[float]] = {b: [] for b in backends}
            decided = dict.fromkeys(backends, 0)
            for s in positions_:
                cards = _bandida_cards(s, size)
                for backend in backends:
                    start = time.perf_counter()
                    r = can_close(s, cards, backend=backend, time_limit=limit, workers=1)
                    times[backend].append(min(time.perf_counter() - start, limit))
                    decided[backend] += r.status != "unknown"
            n = max(len(positions_), 1)
            for backend, ts in times.items():
                rows.append(
                    {
                        "mode": mode,
                        "goal": goal,
                        "cards": size,
                        "backend": backend,
                        "positions": len(positions_),
                        "decided_share": round(decided[backend] / n, 3),
                        "median_ms": round(1000 * statistics.median(ts), 2) if ts else None,
                        "worst_ms": round(1000 * max(ts), 1) if ts else None,
                    }
                )
    return rows


def run(quick: bool = False, per_side: int | None = None) -> dict[str, object]:
    per = per_side or (10 if quick else 100)
    rerun = 3 if quick else 8
    subset = 4 if quick else 16
    rows: list[dict[str, object]] = []
    started = time.perf_counter()
    for size in SIZES:
        rows += measure(positions(size, per), rerun, subset, 1.0, 10.0)
    hard = load_hard()
    hard_rows = measure(hard, len(hard), 0, 1.0, 10.0) if hard and not quick else []
    for r in hard_rows:
        r["cards"] = "regression set"
    result: dict[str, object] = {
        "quick": quick,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "load_before": os.getloadavg()[0],
        "note": os.environ.get("BENCH_NOTE", "what else ran: not recorded"),
        "rows": rows,
        "hard_rows": hard_rows,
        "bandida_rows": bandida_rows(quick, 1.0),
        "seconds": round(time.perf_counter() - started, 1),
    }
    _write(result)
    result["written"] = [str(RESULTS / "closure.md"), str(RESULTS / "closure.json")]
    return result


def decided_cells(r: dict[str, object]) -> str:
    """An ``auto`` row's cells from the shares decided to the verdicts (``| ... |``)."""
    shares = " |".join(f" {100 * float(r[k]):.1f} %"  # type: ignore[arg-type]
                       for k in ("decided_0.1s", "decided_1s", "decided_10s"))
    return (
        f"{shares} | {r['rerun_at_10s']} | {r['median_ms']} | {r['worst_ms']} |"
        f" {r['nodes_per_s']} | {r['statuses']} |"
    )


def _write(result: dict[str, object]) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "closure.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    lines = [
        "# Closure solver benchmark",
        "",
        f"Quick mode: {result['quick']}; {result['cores']} cores; Python {result['python']};",
        f"whole run {result['seconds']} s. One process (`workers=1`), backend `auto`.",
        f"Load average (1 min) when the run began: {result['load_before']:.1f}"
        f" ({result.get('note', 'what else ran: not recorded')}).",
        "Each position runs with a 1 s limit; the undecided ones again with 10 s (how many of",
        "them: column `rerun`; one not rerun counts as undecided at 10 s). Median and worst",
        "count an undecided position as 10 s. Nodes/s: all search nodes over all search time.",
        "`table` is the cards on the table, min-median-max. The plain baseline and CP-SAT run on",
        "the first positions of each size with the shorter limit shown (decided share within",
        "that limit), and each verdict they reach is compared with the exact search's.",
        "",
        "| cards | backend | positions | table | decided 0.1 s | 1 s | 10 s | rerun |"
        " median ms | worst ms | nodes/s | verdicts |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    rows = result["rows"]
    hard_rows = result["hard_rows"]
    assert isinstance(rows, list)
    assert isinstance(hard_rows, list)
    for r in [*rows, *hard_rows]:
        if r["backend"] == "auto":
            lines.append(
                f"| {r['cards']} | auto | {r['positions']} | {r['table_cards']} |"
                + decided_cells(r)
            )
        else:
            lines.append(
                f"| {r['cards']} | {r['backend']} | {r['positions']} | - |"
                f" - | {100 * r['decided_limit']:.1f} % (in limit) | - | - |"
                f" {r['median_ms']} | {r['worst_ms']} | - |"
                f" agree with exact: {r['agrees_with_exact']} |"
            )
    bandida = result.get("bandida_rows")
    if isinstance(bandida, list) and bandida:
        lines += [
            "",
            "## Bandida: closure with each mode's goal (limit 1 s)",
            "",
            "Mode 1 closes every exit, mode 2 also lays the ladder, mode 3 also lays Bandido's",
            "super card (either side) joined to Bandida's. Map cards are left out of the search;",
            "an answer a map could change is `unknown` (undecided here).",
            "",
            "| mode | cards | backend | positions | decided | median ms | worst ms |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for r in bandida:
            lines.append(
                f"| {r['mode']} ({r['goal']}) | {r['cards']} | {r['backend']} |"
                f" {r['positions']} | {100 * r['decided_share']:.0f} % | {r['median_ms']} |"
                f" {r['worst_ms']} |"
            )
    (RESULTS / "closure.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if "--smoke" in sys.argv:
        print("\n".join(smoke()))
    else:
        print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
