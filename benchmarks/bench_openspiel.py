"""The OpenSpiel adapter's throughput (issue 29, item 5): steps per second of random play
through pyspiel (``state.legal_actions()`` / ``state.chance_outcomes()``, then
``state.apply_action``) against the native contract (``game.legal_actions`` /
``game.chance_outcomes``, then ``game.apply``), on the same seeds, in the same run, for every
game. The target: the adapter costs at most 2x the native contract per step.

    python benchmarks/bench_openspiel.py [--quick]

Both loops start from the game's first state with the set-up as chance (OpenSpiel's games have
no seed) and pick a player's action as ``legal[rng.randrange(len(legal))]`` with
``random.Random(seed)``; a chance outcome is drawn with one ``rng.random()``, natively by the
library's own sampler (``core.play.draw_outcome``, exact over the fractions) and through
pyspiel against the running sum of the float probabilities, so both play the same games where
the adapter lists the actions in the game's order and no draw falls on a rounding boundary (the
``same games`` column says). Each game plays as many seeds as take some 8,000 steps (1,000
with ``--quick``); its loops alternate, three rounds, and the best round of each counts (other
work on the machine only slows a round down). Times are wall-clock and CPU seconds of this
process; the cost ratio is the adapter's time per step over the native one's. Writes
``results/openspiel.md`` and ``.json``, with the load average and the busiest other processes
while it ran. Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import functools
import json
import os
import platform
import random
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import banditsolve
from banditsolve.core.play import draw_outcome
from banditsolve.core.protocol import CHANCE, TERMINAL
from banditsolve.errors import MissingExtraError

OUT = Path(__file__).resolve().parent / "results"
#: Steps each game's loops take at least (as many seeds as that needs; a game of Los Banditos
#: is over in some twenty steps, one of Rolling Bandits in two hundred), and rounds per loop.
STEPS, QUICK_STEPS = 8000, 1000
ROUNDS = 3
TARGET = 2.0


def pick(weights: Sequence[float], rng: random.Random) -> int:
    """The place of the outcome drawn by one ``rng.random()`` against the running sum."""
    x = rng.random()
    running = 0.0
    for i, w in enumerate(weights):
        running += w
        if x < running:
            return i
    return len(weights) - 1


def native_games(name: str, seeds: range) -> tuple[int, list[str]]:
    """Random games through the contract: the steps and each game's last notation."""
    game: Any = banditsolve.load_game(name)
    steps = 0
    ends: list[str] = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game()
        while True:
            player = game.current_player(state)
            if player == TERMINAL:
                break
            if player == CHANCE:
                action = draw_outcome(game.chance_outcomes(state), rng)
            else:
                legal = game.legal_actions(state)
                action = legal[rng.randrange(len(legal))]
            state = game.apply(state, action)
            steps += 1
        ends.append(game.to_notation(state))
    return steps, ends


def spiel_games(name: str, seeds: range) -> tuple[int, list[str]]:
    """The same through pyspiel."""
    import pyspiel

    game = pyspiel.load_game("banditsolve_" + name)
    steps = 0
    ends: list[str] = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[pick([p for _, p in outcomes], rng)][0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
            steps += 1
        ends.append(str(state))
    return steps, ends


def timed(fn: Callable[[], tuple[int, list[str]]]) -> tuple[float, float, int, list[str]]:
    """Wall-clock and CPU seconds of ``fn()`` and what it returned."""
    wall, cpu = time.perf_counter(), time.process_time()
    steps, ends = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, steps, ends


def others() -> list[str]:
    """The busiest other processes (CPU %, elapsed, command), from ``ps``."""
    try:
        done = subprocess.run(
            ["ps", "-eo", "pid,pcpu,etime,comm", "--sort=-pcpu"],
            capture_output=True, text=True, timeout=10, check=False,
        )
    except OSError:
        return []
    rows = done.stdout.splitlines()[1:]
    mine = str(os.getpid())
    return [" ".join(r.split()[1:]) for r in rows if r.split()[0] != mine][:5]


def seeds(name: str, steps: int) -> range:
    """Enough seeds for ``steps`` steps of ``name`` (from the length of its first 5 games)."""
    probe, _ = native_games(name, range(5))
    return range(max(5, -(-steps * 5 // max(1, probe))))


def measure(name: str, seeds: range) -> dict[str, Any]:
    best: dict[str, tuple[float, float, int, list[str]]] = {}
    for _ in range(ROUNDS):
        for kind, fn in (("native", native_games), ("openspiel", spiel_games)):
            result = timed(functools.partial(fn, name, seeds))
            if kind not in best or result[0] < best[kind][0]:
                best[kind] = result
    n_wall, n_cpu, n_steps, n_ends = best["native"]
    s_wall, s_cpu, s_steps, s_ends = best["openspiel"]
    native_us = n_wall / n_steps * 1e6
    spiel_us = s_wall / s_steps * 1e6
    return {
        "game": name,
        "games": len(seeds),
        "native_steps": n_steps,
        "openspiel_steps": s_steps,
        "same_games": n_ends == s_ends,
        "native_steps_per_s": round(n_steps / n_wall),
        "openspiel_steps_per_s": round(s_steps / s_wall),
        "native_us_per_step": round(native_us, 1),
        "openspiel_us_per_step": round(spiel_us, 1),
        "cost_ratio": round(spiel_us / native_us, 2),
        "cpu_cost_ratio": round((s_cpu / s_steps) / (n_cpu / n_steps), 2),
        "met": spiel_us / native_us <= TARGET,
    }


def run(quick: bool = False) -> dict[str, object]:
    """Time every game both ways; write the results files; return the figures."""
    try:
        from banditsolve.interop import openspiel
    except MissingExtraError as exc:  # (make bench runs every suite)
        print(f"   skipped: {exc}")
        return {"written": []}
    openspiel.register()
    load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    busy_before = others()
    rows = [measure(name, seeds(name, QUICK_STEPS if quick else STEPS))
            for name in banditsolve.games()]
    load_after = " ".join(f"{x:.1f}" for x in os.getloadavg())
    figures: dict[str, object] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cores": os.cpu_count(),
        "quick": quick,
        "rounds": ROUNDS,
        "target": TARGET,
        "load_before": load_before,
        "load_after": load_after,
        "busy_before": busy_before,
        "busy_after": others(),
        "rows": rows,
    }
    OUT.mkdir(exist_ok=True)
    (OUT / "openspiel.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    (OUT / "openspiel.md").write_text(report(figures), encoding="utf-8")
    figures["written"] = [str(OUT / "openspiel.md"), str(OUT / "openspiel.json")]
    return figures


def report(figures: dict[str, Any]) -> str:
    rows: list[dict[str, Any]] = figures["rows"]
    met = [r["game"] for r in rows if r["met"]]
    missed = [r["game"] for r in rows if not r["met"]]
    lines = [
        "# OpenSpiel adapter throughput",
        "",
        f"Python {figures['python']} on {figures['machine']}, {figures['cores']} cores"
        + (" (quick mode)" if figures["quick"] else "")
        + ". Random play through pyspiel against the native contract, the same seeds, in the "
        f"same run; the best of {figures['rounds']} alternating rounds each. *cost ratio*: the "
        "adapter's wall-clock time per step over the native one's (target: at most "
        f"{figures['target']:g}); *CPU ratio*: the same in CPU seconds of this process.",
        "",
        "| game | games | steps (native / OpenSpiel) | same games | native steps/s | "
        "OpenSpiel steps/s | µs/step native | µs/step OpenSpiel | cost ratio | CPU ratio | "
        "target met |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines.extend(
        f"| {r['game']} | {r['games']} | {r['native_steps']} / {r['openspiel_steps']} | "
        f"{'yes' if r['same_games'] else 'no'} | {r['native_steps_per_s']} | "
        f"{r['openspiel_steps_per_s']} | {r['native_us_per_step']} | "
        f"{r['openspiel_us_per_step']} | {r['cost_ratio']} | {r['cpu_cost_ratio']} | "
        f"{'yes' if r['met'] else 'no'} |"
        for r in rows
    )
    lines += [
        "",
        f"Target met in {', '.join(met) or 'no game'}"
        + (f"; missed in {', '.join(missed)}." if missed else "."),
        "",
        f"Other work on the machine: load average {figures['load_before']} (1/5/15 min) at the "
        f"start and {figures['load_after']} at the end; the busiest other processes at the start "
        f"(CPU %, elapsed, command): {'; '.join(figures['busy_before']) or 'unknown'}; at the end: "
        f"{'; '.join(figures['busy_after']) or 'unknown'}.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    from flags import read_flags  # the script's own folder

    on, _ = read_flags(__doc__, ("--quick",))
    result = run(quick="--quick" in on)
    for row in result["rows"]:  # type: ignore[attr-defined]
        print(json.dumps(row))
