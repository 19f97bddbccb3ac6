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
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
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
from closure_report import (  # the script's own folder
    HARD,
    LONG,
    Record,
    backend_row,
    compare,
    hard_items,
    targets,
    write,
)
from flags import read_flags  # the script's own folder

HERE = Path(__file__).resolve().parent
SIZES: tuple[int | str, ...] = (5, 10, 15, 20, "pile")
SIDES = ("super6", "super5")
#: The compiled core and the Python reference, as ``can_close`` names them.
BACKENDS = ("exact", "python")
#: The regression set is also asked of the default backend, ``auto`` (the compiled core raced
#: with the SAT finder): what a user's question gets.
HARD_BACKENDS = ("exact", "python", "auto")
BANDIDA_SIZES: tuple[int | str, ...] = (10, 15, "pile")



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
        rerun: int | None
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
    on, given = read_flags(__doc__, ("--quick", "--smoke"), ("--group", "--kinds"))
    if "--smoke" in on:
        print("\n".join(smoke()))
    elif "--group" in given:
        print(json.dumps(solve_group(json.loads(given["--group"]))))
    elif "--kinds" in given:  # some groups only, written under their own name
        chosen = tuple(given["--kinds"].split(","))
        print(json.dumps(run(quick="--quick" in on, kinds=chosen,
                             name="closure_" + "_".join(chosen)), indent=1))
    else:
        print(json.dumps(run(quick="--quick" in on), indent=1))
