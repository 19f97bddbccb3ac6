"""Benchmark of the closure question: the compiled core beside the Python reference search.

Both backends answer the same questions in the same run: ``backend="exact"`` (the compiled core,
``csrc/closure``) and ``backend="python"`` (the Python reference search it is checked against),
one process each (``workers=1``).

Questions:

- **verdicts** (``can_close``) and **minimum cards** (``min_cards_to_close``) on the positions
  of :func:`positions`: for each size (5, 10, 15, 20 cards: the next cards in play, the hand
  and then the pile; and the whole remaining pile) and each super-card side (``super6``,
  ``super5``), states of seeded greedy two-player games taken at a random stage of each game
  (so table sizes spread from the start to the end game). The same seeds give the same
  positions in every run. A minimum is decided when it is ``impossible`` or a closure proven
  the fewest (a closure without that proof counts as undecided);
- **the regression set** (:func:`load_hard`, ``tests/tunnels/data/hard_closure.json``: 41
  positions an earlier search left undecided within 1 s), one limit per position (60 s; 10 s in
  the quick mode); the Python reference within the same limit when the mode affords it, else its
  last known answers from the file's ``before`` field, labelled as such;
- **Bandida with a map card** among the cards (:func:`bandida_questions`): states of seeded
  Bandida games of every mode, the next 10 or 15 cards in play or the whole remaining pile,
  kept when a map card is among them; the mode's goal; 10 s each.

Each group of questions runs per backend in a fresh subprocess, which also measures memory: the
peak resident set size (``getrusage``'s ``ru_maxrss``) of each solve, reset before it through
``/proc/self/clear_refs`` (Linux; where that is refused, the peak of the whole group).

Run ``python benchmarks/bench_closure.py [--quick]`` (or through ``benchmarks/run.py``); writes
``benchmarks/results/closure.md`` and ``.json`` (and the minimum-cards part again as
``closure_minimum.md`` and ``.json``). ``--smoke`` solves two small cases with every backend and
writes nothing. Set ``BENCH_NOTE`` to say what else ran on the machine.
"""

from __future__ import annotations

import json
import math
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from banditsolve.tunnels.bandida.components import MODES
from banditsolve.tunnels.bandida.state import BandidaOptions
from banditsolve.tunnels.cards import as_code
from banditsolve.tunnels.notation import parse_position
from banditsolve.tunnels.simulate import simulate
from banditsolve.tunnels.solvers.closure import can_close, min_cards_to_close
from banditsolve.tunnels.solvers.goals import is_map
from banditsolve.tunnels.state import GameState, Options
from banditsolve.tunnels.table import Table

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
HARD = HERE.parent / "tests" / "tunnels" / "data" / "hard_closure.json"
SIZES: tuple[int | str, ...] = (5, 10, 15, 20, "pile")
SIDES = ("super6", "super5")
#: The compiled core and the Python reference, as ``can_close`` names them.
BACKENDS = ("exact", "python")
NAMES = {"exact": "compiled", "python": "Python", "auto": "auto"}
#: The regression set is also asked of the default backend, ``auto`` (the compiled core raced
#: with the SAT finder): what a user's question gets.
HARD_BACKENDS = ("exact", "python", "auto")
#: The longest limit of the verdict and minimum questions (the shares' last column).
LONG = 10.0
SHARES = (0.1, 1.0, 10.0)
BANDIDA_SIZES: tuple[int | str, ...] = (10, 15, "pile")
GB_KB = 1024 * 1024

Record = dict[str, Any]


@dataclass(frozen=True)
class Case:
    """One closure question: a table and the cards to close it with, and where it came from."""

    side: str
    seed: int
    stage: int
    size: int | str
    table: Table
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Question:
    """What one solve is asked: a position (a Table or a game state), the cards, a name."""

    ident: str
    position: Table | GameState
    cards: tuple[int, ...]
    table_cards: int


@dataclass(frozen=True)
class Settings:
    """How much one run measures: positions per side, each backend's first limit and how many
    undecided positions then run again with :data:`LONG` (None: all), the regression set's
    limit and whether the Python reference runs on it, and the Bandida games per mode."""

    quick: bool
    per_side: int
    first: dict[str, float]
    rerun: dict[str, int | None]
    hard_limit: float
    hard_python: bool
    bandida_games: int
    sizes: tuple[int | str, ...] = SIZES
    kinds: tuple[str, ...] = ("verdict", "minimum", "hard", "bandida")


def settings(
    quick: bool, kinds: tuple[str, ...] | None = None, per_side: int | None = None
) -> Settings:
    """The quick mode: 10 positions per side and size, every one given 10 s by both backends,
    the regression set at 10 s with both. The full mode: 100 per side and size, the compiled
    core 10 s on each, the Python reference 1 s and then 10 s on 8 of those it left undecided,
    the regression set at 60 s with the compiled core (the reference's ``before`` answers)."""
    if quick:
        s = Settings(True, 10, {"exact": LONG, "python": LONG}, {"exact": 0, "python": 0},
                     10.0, True, 3)
    else:
        s = Settings(False, 100, {"exact": LONG, "python": 1.0}, {"exact": 0, "python": 8},
                     60.0, False, 6)
    return Settings(s.quick, per_side or s.per_side, s.first, s.rerun, s.hard_limit,
                    s.hard_python, s.bandida_games, s.sizes, kinds or s.kinds)


# --- the questions -------------------------------------------------------------------------


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


def hard_items(path: Path = HARD) -> list[dict[str, Any]]:
    """The regression set's entries as stored (with their ``before`` answers)."""
    if not path.exists():
        return []
    items: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return items


def load_hard(path: Path = HARD) -> list[Case]:
    """The regression set: cases stored with their placements and cards by name."""
    out = []
    for item in hard_items(path):
        table = parse_position("bandido " + " ".join(item["placements"])).table
        cards = tuple(as_code(c) for c in item["cards"])
        out.append(Case(item["side"], item["seed"], item["stage"], item["size"], table, cards))
    return out


def of_case(case: Case) -> Question:
    """A closure benchmark case as a question."""
    ident = f"{case.side}/{case.seed}/{case.stage}/{case.size}"
    return Question(ident, case.table, case.cards, len(case.table))


def _bandida_cards(s: GameState, size: int | str) -> tuple[int, ...]:
    if size == "pile":
        return tuple(s.remaining())
    assert isinstance(size, int)
    return tuple((list(s.hands[s.to_act]) + list(s.pile))[:size])


def bandida_questions(games: int, every: int = 10) -> list[Question]:
    """Bandida questions with a map card among the cards: for each mode, ``games`` seeded
    games, every ``every``-th state from the third (not a chance node, not finished), the
    next 10 or 15 cards in play or the whole remaining pile, kept when a map is among them."""
    out = []
    for mode in MODES:
        for seed in range(games):
            states = simulate(2, 2000 + seed, BandidaOptions(mode=mode))[:-1]
            for i in range(2, len(states), every):
                s = states[i]
                if s.is_chance or s.outcome is not None:
                    continue
                for size in BANDIDA_SIZES:
                    cards = _bandida_cards(s, size)
                    if any(is_map(c) for c in cards):
                        ident = f"mode {mode}/{2000 + seed}/{i}/{size}"
                        out.append(Question(ident, s, cards, len(s.table)))
    return out


def questions(spec: dict[str, Any]) -> list[Question]:
    """The questions of one group (``kind``, ``size``, ``per_side``, ``bandida_games``)."""
    if spec["kind"] == "hard":
        return [of_case(c) for c in load_hard()]
    if spec["kind"] == "bandida":
        return bandida_questions(spec["bandida_games"])
    return [of_case(c) for c in positions(spec["size"], spec["per_side"])]


# --- one group, in its own process ----------------------------------------------------------


def _reset_peak() -> bool:
    """Reset the process's peak RSS (Linux ``clear_refs`` 5); False where refused."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
    except OSError:
        return False
    return True


def _rss_kb() -> int:
    """The process's resident set size now, in kB (the peak where /proc is missing)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            pages = int(f.read().split()[1])
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return pages * os.sysconf("SC_PAGE_SIZE") // 1024


def solve(q: Question, backend: str, limit: float, minimum: bool) -> Record:
    """One answer: status (a minimum without its proof counts as ``unknown``), wall seconds,
    nodes, the backend that answered, the card count, the process's peak RSS during it."""
    _reset_peak()
    before = _rss_kb()
    ask = min_cards_to_close if minimum else can_close
    start = time.perf_counter()
    r = ask(q.position, q.cards, backend=backend, time_limit=limit, workers=1)
    spent = time.perf_counter() - start
    status = str(r.status)
    if minimum and status == "closable" and not r.minimum:
        status = "unknown"
    return {
        "status": status,
        "seconds": round(spent, 6),
        "nodes": r.stats.nodes,
        "used": r.backend,
        "cards": r.cards if status == "closable" else None,
        "limit": limit,
        "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "rss_before_kb": before,
    }


def solve_group(spec: dict[str, Any]) -> dict[str, Any]:
    """Every question of one group with one backend: the first limit on all, then
    :data:`LONG` on up to ``rerun`` of those left undecided (None: all)."""
    started = time.perf_counter()
    qs = questions(spec)
    minimum = spec["kind"] == "minimum"
    backend = spec["backend"]
    per_solve = _reset_peak()
    baseline = _rss_kb()
    records = [solve(q, backend, spec["first"], minimum) for q in qs]
    undecided = [i for i, r in enumerate(records) if r["status"] == "unknown"]
    cap = spec["rerun"]
    if spec["first"] < LONG:
        for i in undecided if cap is None else undecided[:cap]:
            first = records[i]
            records[i] = solve(qs[i], backend, LONG, minimum)
            records[i]["first"] = {k: first[k] for k in ("status", "seconds", "nodes", "limit")}
    for q, r in zip(qs, records, strict=True):
        r["id"] = q.ident
        r["table_cards"] = q.table_cards
        r["n_cards"] = len(q.cards)
    return {
        "records": records,
        "undecided_first": len(undecided),
        "baseline_kb": baseline,
        "per_solve_peak": per_solve,
        "seconds": round(time.perf_counter() - started, 1),
    }


def run_group(spec: dict[str, Any]) -> dict[str, Any]:
    """One group in a fresh subprocess (``--group SPEC``); its JSON answer."""
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--group", json.dumps(spec)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode:
        raise RuntimeError(f"group {spec} failed: {proc.stderr[-2000:]}")
    got: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return got


# --- figures from the records ---------------------------------------------------------------


def decided(r: Record) -> bool:
    """Decided: any answer but ``unknown``."""
    return bool(r["status"] != "unknown")


def decided_within(r: Record, t: float) -> bool:
    """Decided within ``t`` seconds: a limit below the rerun's counts the first run alone."""
    if "first" in r and t <= r["first"]["limit"]:
        return bool(r["first"]["status"] != "unknown" and r["first"]["seconds"] <= t)
    return decided(r) and r["seconds"] <= t


def share(records: Sequence[Record], t: float) -> float:
    """The share of ``records`` decided within ``t`` seconds."""
    return sum(decided_within(r, t) for r in records) / max(len(records), 1)


def totals(records: Iterable[Record]) -> tuple[int, float]:
    """All search nodes and all wall seconds of the records (first runs included)."""
    nodes = 0
    seconds = 0.0
    for r in records:
        nodes += r["nodes"] + r.get("first", {}).get("nodes", 0)
        seconds += r["seconds"] + r.get("first", {}).get("seconds", 0.0)
    return nodes, seconds


def node_rate(records: Iterable[Record]) -> float | None:
    """Nodes per wall second over the records."""
    nodes, seconds = totals(records)
    return nodes / seconds if seconds else None


def verdicts(records: Iterable[Record]) -> dict[str, int]:
    """How many of each decided status."""
    out: dict[str, int] = {}
    for r in records:
        if decided(r):
            out[r["status"]] = out.get(r["status"], 0) + 1
    return out


def backend_row(group: dict[str, Any], first: float) -> dict[str, Any]:
    """One backend's figures on one group."""
    records = group["records"]
    shown = [min(r["seconds"], LONG) if decided(r) else LONG for r in records]
    reruns = sum("first" in r for r in records)
    rss = [r["rss_kb"] for r in records]
    grown = [r["rss_kb"] - r["rss_before_kb"] for r in records]
    rate = node_rate(records)
    return {
        "positions": len(records),
        "table_cards": _spread([r["table_cards"] for r in records]),
        **{f"decided_{t:g}s": round(share(records, t), 4) for t in SHARES},
        "at_10s": "all" if first >= LONG else f"{reruns} of {group['undecided_first']}",
        "median_ms": round(1000 * statistics.median(shown), 2) if shown else None,
        "worst_ms": round(1000 * max(shown), 1) if shown else None,
        "nodes_per_s": round(rate) if rate else None,
        "verdicts": verdicts(records),
        "not_compiled": sum(r["used"] != "exact" for r in records),
        "peak_rss_mb": round(max(rss) / 1024, 1) if rss else None,
        "peak_growth_mb": round(max(0, *grown) / 1024, 1) if grown else None,
        "baseline_mb": round(group["baseline_kb"] / 1024, 1),
    }


def compare(mine: Sequence[Record], ref: Sequence[Record], minimum: bool) -> dict[str, Any]:
    """The compiled core beside the reference on the same questions: the ratio of node rates,
    the wall-time ratio on the questions both decide, and every disagreement."""
    assert [r["id"] for r in mine] == [r["id"] for r in ref], "not the same questions"
    both = [(a, b) for a, b in zip(mine, ref, strict=True) if decided(a) and decided(b)]
    ratios = [b["seconds"] / a["seconds"] for a, b in both if a["seconds"] > 0]
    a_rate, b_rate = node_rate(mine), node_rate(ref)
    key = ("status", "cards") if minimum else ("status",)
    wrong = [a["id"] for a, b in both if any(a[k] != b[k] for k in key)]
    return {
        "both_decided": len(both),
        "node_rate_ratio": round(a_rate / b_rate, 1) if a_rate and b_rate else None,
        "time_ratio_total": (
            round(sum(b["seconds"] for _, b in both) / sum(a["seconds"] for a, _ in both), 1)
            if both and sum(a["seconds"] for a, _ in both) > 0
            else None
        ),
        "time_ratio_median": round(statistics.median(ratios), 1) if ratios else None,
        "time_ratio_geomean": (
            round(math.exp(statistics.fmean(math.log(x) for x in ratios)), 1) if ratios else None
        ),
        "only_compiled": sum(decided(a) and not decided(b) for a, b in zip(mine, ref, strict=True)),
        "only_python": sum(decided(b) and not decided(a) for a, b in zip(mine, ref, strict=True)),
        "disagree": wrong,
    }


def _spread(values: list[int]) -> str:
    if not values:
        return "-"
    return f"{min(values)}-{int(statistics.median(values))}-{max(values)}"


# --- the run --------------------------------------------------------------------------------


@dataclass
class LoadWatch:
    """The 1-minute load average, sampled every ``every`` seconds while the run lasts."""

    every: float = 10.0
    samples: list[float] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)

    def start(self) -> None:
        def loop() -> None:
            while not self._stop.is_set():
                self.samples.append(os.getloadavg()[0])
                self._stop.wait(self.every)

        threading.Thread(target=loop, daemon=True).start()

    def stop(self) -> dict[str, Any]:
        self._stop.set()
        xs = self.samples or [os.getloadavg()[0]]
        return {
            "min": round(min(xs), 2),
            "median": round(statistics.median(xs), 2),
            "max": round(max(xs), 2),
            "samples": len(xs),
        }


def _code() -> str:
    """Where the measured package and its compiled core were loaded from."""
    import banditsolve
    from banditsolve.tunnels.solvers import closure_core

    return f"banditsolve from {Path(banditsolve.__file__).parent}, core {closure_core.__file__}"


def _uptime() -> str:
    try:
        done = subprocess.run(["uptime"], capture_output=True, text=True, check=False)
        return done.stdout.strip()
    except OSError:
        return "load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def pair(
    kind: str, size: int | str | None, s: Settings, log: Callable[[str], None]
) -> dict[str, Any]:
    """One group asked of both backends (each in its own process), and the comparison."""
    groups: dict[str, Any] = {}
    for backend in HARD_BACKENDS if kind == "hard" else BACKENDS:
        if kind == "hard":
            first, rerun = s.hard_limit, 0
            if backend == "python" and not s.hard_python:
                continue
        elif kind == "bandida":
            first, rerun = LONG, 0
        else:
            first, rerun = s.first[backend], s.rerun[backend]
        spec = {"kind": kind, "size": size, "backend": backend, "quick": s.quick,
                "first": first, "rerun": rerun, "per_side": s.per_side,
                "bandida_games": s.bandida_games}
        start = time.perf_counter()
        groups[backend] = run_group(spec)
        groups[backend]["first"] = first
        log(f"{kind} {size if size is not None else ''} {backend}: "
            f"{time.perf_counter() - start:.1f} s, load {os.getloadavg()[0]:.2f}")
    out: dict[str, Any] = {"kind": kind, "size": size, "groups": groups}
    out["rows"] = {b: backend_row(g, g["first"]) for b, g in groups.items()}
    if "exact" in groups and "python" in groups:
        out["compare"] = compare(
            groups["exact"]["records"], groups["python"]["records"], kind == "minimum"
        )
    return out


def run(
    quick: bool = False,
    kinds: tuple[str, ...] | None = None,
    name: str = "closure",
    per_side: int | None = None,
) -> dict[str, object]:
    """Every group of the mode, then the tables (``closure.md`` and ``.json``; the minimum-cards
    part also as ``closure_minimum.md`` and ``.json``)."""
    s = settings(quick, kinds, per_side)
    watch = LoadWatch()
    watch.start()
    uptime_before = _uptime()
    started = time.perf_counter()

    def log(text: str) -> None:
        print(f"[{time.perf_counter() - started:7.1f} s] {text}", file=sys.stderr, flush=True)

    parts: list[dict[str, Any]] = []
    for kind in ("verdict", "minimum"):
        if kind in s.kinds:
            parts += [pair(kind, size, s, log) for size in s.sizes]
    for kind in ("hard", "bandida"):
        if kind in s.kinds:
            parts.append(pair(kind, None, s, log))
    result: dict[str, Any] = {
        "quick": quick,
        "code": _code(),
        "settings": {k: v for k, v in s.__dict__.items() if k != "sizes"},
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "uptime_before": uptime_before,
        "uptime_after": _uptime(),
        "load": watch.stop(),
        "note": os.environ.get("BENCH_NOTE", "what else ran: not recorded"),
        "seconds": round(time.perf_counter() - started, 1),
        "parts": parts,
    }
    result["targets"] = targets(result)
    written = write(result, name)
    if name == "closure" and "minimum" in s.kinds:
        part = {**result, "parts": [p for p in parts if p["kind"] == "minimum"]}
        part["targets"] = targets(part)
        written += write(part, "closure_minimum")
    return {"seconds": result["seconds"], "targets": result["targets"], "written": written}


# --- the targets ----------------------------------------------------------------------------


def _part(result: dict[str, Any], kind: str, size: int | str | None = None) -> dict[str, Any]:
    for p in result["parts"]:
        if p["kind"] == kind and p["size"] == size:
            return p  # type: ignore[no-any-return]
    return {}


def _share_target(what: str, p: dict[str, Any], t: float, goal: float) -> dict[str, str]:
    row = p["rows"]["exact"]
    got = row[f"decided_{t:g}s"]
    n = row["positions"]
    missing = round((1 - got) * n)
    verdict = (
        "met"
        if got >= goal
        else f"missed by {100 * (goal - got):.1f} points ({missing} of {n} undecided)"
    )
    return {"what": what, "target": f"{100 * goal:g} %", "measured": f"{100 * got:.1f} %",
            "verdict": verdict}


def _shares_targets(result: dict[str, Any], kind: str, label: str) -> list[dict[str, str]]:
    out = []
    for size in (10, 15, 20):
        p = _part(result, kind, size)
        if p:
            out.append(_share_target(f"{label} within 1 s, {size} cards", p, 1.0, 1.0))
    p = _part(result, kind, "pile")
    if p:
        out.append(_share_target(f"{label} within 1 s, whole piles", p, 1.0, 0.995))
        out.append(_share_target(f"{label} within 10 s, whole piles", p, 10.0, 1.0))
    return out


def _rate_target(result: dict[str, Any]) -> list[dict[str, str]]:
    parts = [p for p in result["parts"] if p["kind"] == "verdict" and "compare" in p]
    if not parts:
        return []
    mine = [r for p in parts for r in p["groups"]["exact"]["records"]]
    ref = [r for p in parts for r in p["groups"]["python"]["records"]]
    a, b = node_rate(mine), node_rate(ref)
    ratio = a / b if a and b else 0.0
    each = [p["compare"]["node_rate_ratio"] for p in parts if p["compare"]["node_rate_ratio"]]
    measured = (
        f"{ratio:.0f}x over all verdict positions"
        f" ({min(each, default=0):.0f}-{max(each, default=0):.0f}x per size)"
    )
    verdict = "met" if ratio >= 100 else f"missed: {ratio:.0f}x of 100x ({100 / ratio:.1f}x short)"
    return [{"what": "node rate of the compiled search", "target": ">= 100x the Python search",
             "measured": measured, "verdict": verdict}]


def _hard_target(result: dict[str, Any]) -> list[dict[str, str]]:
    p = _part(result, "hard")
    if not p:
        return []
    out = []
    for backend in ("auto", "exact"):  # the default backend first
        if backend not in p["groups"]:
            continue
        records = p["groups"][backend]["records"]
        limit = p["groups"][backend]["first"]
        done = sum(decided(r) for r in records)
        n = len(records)
        verdict = "met" if done == n else f"missed by {n - done} positions"
        if limit < 60 and done < n:
            verdict += f" (at this run's {limit:g} s limit; 60 s not run)"
        out.append({
            "what": f"the regression positions ({NAMES[backend]})",
            "target": "all decided, within 60 s each",
            "measured": f"{done} of {n} within {limit:g} s", "verdict": verdict,
        })
    return out


def _bandida_target(result: dict[str, Any]) -> list[dict[str, str]]:
    p = _part(result, "bandida")
    if not p:
        return []
    records = p["groups"]["exact"]["records"]
    unknown = sum(not decided(r) for r in records) / max(len(records), 1)
    verdict = "met" if unknown <= 0.01 else f"missed by {100 * (unknown - 0.01):.1f} points"
    return [{"what": "Bandida with a map card among the cards", "target": "<= 1 % unknown in 10 s",
             "measured": f"{100 * unknown:.1f} % unknown of {len(records)}", "verdict": verdict}]


def _memory_target(result: dict[str, Any]) -> list[dict[str, str]]:
    peaks = [r["rss_kb"] for p in result["parts"] for r in p["groups"]["exact"]["records"]]
    if not peaks:
        return []
    top = max(peaks)
    verdict = "met" if top <= GB_KB else f"missed by {(top - GB_KB) / 1024:.0f} MB"
    return [{"what": "memory (compiled core)", "target": "peak <= 1 GB per solve",
             "measured": f"{top / 1024:.0f} MB peak RSS of the process during one solve",
             "verdict": verdict}]


def _agreement_target(result: dict[str, Any]) -> list[dict[str, str]]:
    compared = [p["compare"] for p in result["parts"] if "compare" in p]
    if not compared:
        return []
    both = sum(c["both_decided"] for c in compared)
    wrong = sum(len(c["disagree"]) for c in compared)
    return [{"what": "agreement", "target": "every answer as the Python reference's",
             "measured": f"{wrong} different of {both} both decided",
             "verdict": "met" if not wrong else f"missed: {wrong} different"}]


def targets(result: dict[str, Any]) -> list[dict[str, str]]:
    """The issue's targets, each with what this run measured and whether it is met."""
    return [
        *_rate_target(result),
        *_shares_targets(result, "verdict", "decided"),
        *_shares_targets(result, "minimum", "minimum cards decided"),
        *_hard_target(result),
        *_bandida_target(result),
        *_memory_target(result),
        *_agreement_target(result),
    ]


# --- the tables -----------------------------------------------------------------------------


def _header(result: dict[str, Any], title: str) -> list[str]:
    s = result["settings"]
    load = result["load"]
    how = (
        "every position 10 s with both backends"
        if s["quick"]
        else "the compiled core 10 s on every position; the Python reference 1 s on every"
        " position, then 10 s on up to 8 of those it left undecided (column `10 s run on`;"
        " one not rerun counts as undecided at 10 s)"
    )
    return [
        f"# {title}",
        "",
        f"Quick mode: {s['quick']} ({s['per_side']} positions per super-card side and size;"
        f" {how}).",
        f"{result['cores']} cores; Python {result['python']}; whole run {result['seconds']} s;"
        f" {result['code']}.",
        f"Load average (1 min) during the run: {load['min']}-{load['max']}"
        f" (median {load['median']}, {load['samples']} samples);"
        f" `uptime` before: `{result['uptime_before']}`;"
        f" after: `{result['uptime_after']}`. {result['note']}.",
        "",
        "Backends: `compiled` is `backend=\"exact\"` (the compiled core), `Python` is",
        "`backend=\"python\"` (the reference search); one process each (`workers=1`), the same",
        "positions, each group of positions in a fresh subprocess per backend. Decided: any",
        "answer but `unknown` (for minimum cards: `impossible` or a closure proven the fewest).",
        "Times are wall clock around the call; median and worst count an undecided position",
        "as 10 s. Nodes/s: all nodes over all wall time of the group (each backend counts its",
        "own nodes: the compiled core prunes differently, so its nodes are not the reference's",
        "one for one). Ratios: node rate compiled over Python; wall time Python over compiled",
        "on the positions both decide (total, and median per position).",
        "",
    ]


def _targets_table(result: dict[str, Any]) -> list[str]:
    lines = ["| what | target | measured | met? |", "| --- | --- | --- | --- |"]
    lines += [f"| {t['what']} | {t['target']} | {t['measured']} | {t['verdict']} |"
              for t in result["targets"]]
    return lines


def _shares_table(result: dict[str, Any], kind: str) -> list[str]:
    lines = [
        "| cards | backend | positions | table | decided 0.1 s | 1 s | 10 s | 10 s run on |"
        " median ms | worst ms | nodes/s | verdicts |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for p in result["parts"]:
        if p["kind"] != kind:
            continue
        for backend, r in p["rows"].items():
            shares = " | ".join(f"{100 * r[f'decided_{t:g}s']:.1f} %" for t in SHARES)
            lines.append(
                f"| {p['size']} | {NAMES[backend]} | {r['positions']} | {r['table_cards']} |"
                f" {shares} | {r['at_10s']} | {r['median_ms']} | {r['worst_ms']} |"
                f" {r['nodes_per_s'] or '-'} | {_verdicts_text(r['verdicts'])} |"
            )
    return lines


def _verdicts_text(v: dict[str, int]) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(v.items())) or "-"


def _compare_table(result: dict[str, Any], kinds: tuple[str, ...]) -> list[str]:
    lines = [
        "| question | cards | both decided | node rate ratio | wall-time ratio (total) |"
        " (median) | decided by one only (compiled / Python) | different answers |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for p in result["parts"]:
        c = p.get("compare")
        if p["kind"] not in kinds or c is None:
            continue
        lines.append(
            f"| {p['kind']} | {p['size'] if p['size'] is not None else '-'} |"
            f" {c['both_decided']} | {_times(c['node_rate_ratio'])} |"
            f" {_times(c['time_ratio_total'])} | {_times(c['time_ratio_median'])} |"
            f" {c['only_compiled']} / {c['only_python']} |"
            f" {len(c['disagree'])} |"
        )
    return lines


def _times(x: float | None) -> str:
    return "-" if x is None else f"{x:g}x"


def _hard_table(result: dict[str, Any]) -> list[str]:
    p = _part(result, "hard")
    if not p:
        return []
    mine = p["groups"]["exact"]
    ref = p["groups"].get("python")
    limit = mine["first"]
    ref_head = f"Python within {limit:g} s" if ref else "Python, last known (`before`: 1 s / 10 s)"
    lines = [
        "",
        f"## The regression set ({len(mine['records'])} positions, limit {limit:g} s each)",
        "",
        "Positions an earlier search left undecided within 1 s"
        " (`tests/tunnels/data/hard_closure.json`)."
        + ("" if ref else " The Python reference was not run on them in this mode (it would"
           " take up to 41 x the limit): its column is the file's `before` field, the answers"
           " of the search of that time within 1 s and 10 s, not this run's."),
        "",
        f"| # | position | cards | table | compiled | seconds | nodes | auto (solver, seconds) |"
        f" {ref_head} |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    items = hard_items()
    auto = p["groups"].get("auto")
    for i, r in enumerate(mine["records"]):
        raced = "-"
        if auto is not None:
            a = auto["records"][i]
            raced = f"{a['status']} ({a['used']}, {a['seconds']:.2f})"
        if ref:
            theirs = ref["records"][i]
            other = f"{theirs['status']} ({theirs['seconds']:.2f} s)"
        else:
            before = items[i]["before"]
            other = f"{before['at_1s']} / {before['at_10s']} (before)"
        lines.append(
            f"| {i + 1} | {r['id']} | {r['n_cards']} | {r['table_cards']} | {r['status']} |"
            f" {r['seconds']:.2f} | {r['nodes']} | {raced} | {other} |"
        )
    done = sum(decided(r) for r in mine["records"])
    lines += ["", f"Compiled core: {done} of {len(mine['records'])} decided within {limit:g} s."]
    if auto is not None:
        raced_done = sum(decided(r) for r in auto["records"])
        lines.append(
            f"The default backend, `auto` (the core raced with the SAT finder): {raced_done} of"
            f" {len(auto['records'])} within {limit:g} s."
        )
    if ref:
        ref_done = sum(decided(r) for r in ref["records"])
        lines.append(f"Python reference: {ref_done} of {len(ref['records'])} within {limit:g} s.")
    return lines


def _bandida_table(result: dict[str, Any]) -> list[str]:
    p = _part(result, "bandida")
    if not p:
        return []
    lines = [
        "",
        "## Bandida with a map card among the cards (limit 10 s)",
        "",
        "States of seeded Bandida games of every mode (every 10th state from the third), the",
        "next 10 or 15 cards in play or the whole remaining pile, kept when a map card is among",
        "them; each mode's goal. Unknown: neither closable nor impossible within 10 s.",
        "",
        "| mode | cards | positions | compiled unknown | Python unknown | compiled median ms |"
        " worst ms | Python median ms | worst ms |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    mine = p["groups"]["exact"]["records"]
    ref = p["groups"]["python"]["records"]
    keys = [*sorted({_bandida_key(r) for r in mine}, key=str), ("all", "all")]
    for key in keys:
        a = [r for r in mine if key == ("all", "all") or _bandida_key(r) == key]
        b = [r for r in ref if key == ("all", "all") or _bandida_key(r) == key]
        lines.append(f"| {key[0]} | {key[1]} | {len(a)} | {_unknown(a)} | {_unknown(b)} |"
                     f" {_ms(a)} | {_ms(b)} |")
    return lines


def _bandida_key(r: Record) -> tuple[str, str]:
    mode, _seed, _stage, size = r["id"].split("/")
    return mode.removeprefix("mode "), size


def _unknown(records: Sequence[Record]) -> str:
    n = sum(not decided(r) for r in records)
    return f"{n} ({100 * n / max(len(records), 1):.0f} %)"


def _ms(records: Sequence[Record]) -> str:
    ts = [min(r["seconds"], LONG) if decided(r) else LONG for r in records]
    return f"{1000 * statistics.median(ts):.1f} | {1000 * max(ts):.0f}" if ts else "- | -"


def _memory_table(result: dict[str, Any]) -> list[str]:
    lines = [
        "",
        "## Peak memory per solve",
        "",
        "Measured in each group's own process: before every solve its peak RSS is reset",
        "(`/proc/self/clear_refs`), after it `getrusage(RUSAGE_SELF).ru_maxrss` is read. `peak`",
        "is the largest such peak of the process over the group's solves (the interpreter and",
        "the positions included: `before` is the process's RSS before its first solve);",
        "`growth` is the largest rise over the RSS just before the solve (the kernel's",
        "counters lag by a few pages, so a rise under 0.5 MB is noise; a fall shows as 0).",
        "",
        "| question | cards | backend | before MB | peak MB | growth MB |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for p in result["parts"]:
        for backend, r in p["rows"].items():
            per = "" if p["groups"][backend]["per_solve_peak"] else " (group peak: reset refused)"
            lines.append(
                f"| {p['kind']} | {p['size'] if p['size'] is not None else '-'} |"
                f" {NAMES[backend]} | {r['baseline_mb']} | {r['peak_rss_mb']}{per} |"
                f" {r['peak_growth_mb']} |"
            )
    return lines


def write(result: dict[str, Any], name: str) -> list[str]:
    """``results/NAME.md`` and ``.json``; their paths."""
    RESULTS.mkdir(exist_ok=True)
    kinds = {p["kind"] for p in result["parts"]}
    title = "Closure benchmark: the compiled core beside the Python reference"
    if kinds == {"minimum"}:
        title = "Minimum cards (`min_cards_to_close`): the compiled core beside the reference"
    lines = [*_header(result, title), "## Targets", "", *_targets_table(result)]
    for kind, head in (("verdict", "Verdicts (`can_close`)"),
                       ("minimum", "Minimum cards (`min_cards_to_close`)")):
        if kind in kinds:
            lines += ["", f"## {head}", "", *_shares_table(result, kind), "",
                      *_compare_table(result, (kind,))]
    lines += _hard_table(result)
    lines += _bandida_table(result)
    lines += _memory_table(result)
    md = RESULTS / f"{name}.md"
    js = RESULTS / f"{name}.json"
    md.write_text("\n".join(lines) + "\n", encoding="utf-8")
    js.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return [str(md), str(js)]


def smoke() -> list[str]:
    """Two small cases of one position, every backend; nothing written."""
    case = positions(5, 1)[0]
    out = []
    for size in (3, 5):
        cards = case.cards[:size]
        for backend in ("exact", "python", "cpsat", "z3", "plain"):
            r = can_close(case.table, cards, backend=backend, time_limit=2, workers=1)
            out.append(f"{size} cards, {backend}: {r.status} ({r.stats.seconds:.3f} s)")
    q = bandida_questions(1)[:2]
    out += [f"{x.ident}: {solve(x, 'exact', 1.0, False)['status']}" for x in q]
    return out


if __name__ == "__main__":
    if "--smoke" in sys.argv:
        print("\n".join(smoke()))
    elif "--group" in sys.argv:
        print(json.dumps(solve_group(json.loads(sys.argv[sys.argv.index("--group") + 1]))))
    elif "--kinds" in sys.argv:  # some groups only, written under their own name
        chosen = tuple(sys.argv[sys.argv.index("--kinds") + 1].split(","))
        print(json.dumps(run(quick="--quick" in sys.argv, kinds=chosen,
                             name="closure_" + "_".join(chosen)), indent=1))
    else:
        print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
