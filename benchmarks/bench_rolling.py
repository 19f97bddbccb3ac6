"""Rolling Bandits benchmarks: the exact turn solver and the safety check against plain
enumeration in the same run, the CP-SAT and Z3 models of the safety question, and random games
per second for 2, 3 and 4 players.

    python benchmarks/bench_rolling.py [--quick]

Each row is one JSON line. A plain run that passes its time limit is reported with
``"plain_answer": null`` (unknown) and the time it was given.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from banditsolve.core.play import simulate
from banditsolve.rolling.game import GAME
from banditsolve.rolling.notation import parse_state
from banditsolve.rolling.solvers.models import covers
from banditsolve.rolling.solvers.safety import is_safe
from banditsolve.rolling.solvers.turn import best_turn

TURNS = [
    # attack with three dice rolled; five dice rolled; a start of turn with two dice to roll
    "rb ed=default n=2 phase=attack turn=0 wagons=2 train=0:5/5L:-:-|-,1:2/2:R:M1|H2,"
    "2:3/3:H:B1|S1 won=-|- trunks=-|- roll=MJS",
    "rb ed=default n=2 phase=attack turn=0 wagons=3 train=0:5/5L:-:-|-,1:2/2:R:-|H2,"
    "2:3/3:H:M1|S1,3:1/1:B:B1|- won=-|- trunks=-|- roll=RMHJJ",
    "rb ed=default n=2 phase=roll turn=0 wagons=2 train=0:5/5L:-:-|-,1:2/2:R:M4|H2,"
    "2:3/3:H:B1|S3 won=-|- trunks=-|- air=2/0",
]
SAFETY = [
    # unsafe: the opponent takes everything back and rolls seven dice
    ("rb ed=default n=2 phase=start turn=1 wagons=2 train=0:5/5L:-:-|-,1:2/2:R:M3|H2,"
     "2:3/3:H:B1|S2 won=-|- trunks=-|-", 1),
    # unsafe: one car between the rear and mine
    ("rb ed=default n=2 phase=start turn=1 wagons=3 train=0:5/5L:-:-|-,1:1/1:-:-|-,"
     "2:2/2:-:R4|-,3:3/3:-:-|- won=-|- trunks=-|-", 2),
    # safe: puzzle safe-10, the proof that took 100,000 positions (25 s) before the bound
    ("rb ed=default n=2 phase=start turn=1 wagons=4 train=0:5/5L:-:-|-,1:2/2:-:R5|-,"
     "2:3/3:-:-|-,3:4/4:-:-|-,4:1/1:-:-|- won=-|- trunks=-|-", 1),
    # safe at once: a hat trunk on my car, but no hat trunk is a bomb
    ("rb ed=default n=2 phase=start turn=1 wagons=4 train=0:5/5L:-:-|-,1:2/2:H:R5|-,"
     "2:3/3:-:-|-,3:4/4:-:-|-,4:1/1:-:-|- won=-|- trunks=-|-", 1),
    # three players, safe: the first opponent's whole turn is searched, the second is bounded
    ("rb ed=default n=3 phase=start turn=1 wagons=5 train=0:5/5L:-:-|-|-,1:2/2:-:-|-|-,"
     "2:3/3:-:R6|-|-,3:1/1:-:-|-|-,4:2/2:-:-|-|-,5:4/4:-:-|-|- won=-|-|- trunks=-|-|-", 2),
    # three players: two opponents play before my turn
    ("rb ed=default n=3 phase=start turn=1 wagons=3 train=0:5/5L:-:-|-|-,1:2/2:-:-|M6|-,"
     "2:3/3:-:R5|S1|-,3:1/1:-:-|-|B3 won=-|-|- trunks=-|-|-", 2),
]


def timed(fn: object, *args: object, **kw: object) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn(*args, **kw)  # type: ignore[operator]
    return time.perf_counter() - start, result


def run(quick: bool = False) -> dict[str, object]:
    """Time the turn solver and the safety check against plain enumeration, and random games;
    write ``benchmarks/results/rolling.{md,json}``."""
    rows: list[dict[str, object]] = []
    turns = TURNS[:1] if quick else TURNS
    for text in turns:
        state = parse_state(text)
        t1, shared = timed(best_turn, state)
        t2, plain = timed(best_turn, state, plain=True)
        assert shared.value == plain.value  # type: ignore[attr-defined]
        rows.append({"bench": "best", "shared_s": round(t1, 3), "plain_s": round(t2, 3),
                     "shared_nodes": shared.nodes, "plain_nodes": plain.nodes})  # type: ignore[attr-defined]
    for text, car in SAFETY[:1] if quick else SAFETY:
        state = parse_state(text)
        t1, exact = timed(is_safe, state, car, 0, time_limit=120)
        t2, plain = timed(is_safe, state, car, 0, time_limit=120, backend="plain")
        if plain.safe is not None:  # type: ignore[attr-defined]
            assert plain.safe == exact.safe  # type: ignore[attr-defined]
        row: dict[str, object] = {
            "bench": "safe", "position": text[:60], "car": car,
            "answer": exact.safe,  # type: ignore[attr-defined]
            "exact_s": round(t1, 3), "exact_nodes": exact.nodes,  # type: ignore[attr-defined]
            "plain_s": round(t2, 3), "plain_nodes": plain.nodes,  # type: ignore[attr-defined]
            "plain_answer": plain.safe,  # type: ignore[attr-defined]
        }
        for backend in ("cpsat", "z3"):
            if covers(state, car, 0) is None:
                t3, model = timed(is_safe, state, car, 0, backend=backend, time_limit=60)
                assert model.safe == exact.safe  # type: ignore[attr-defined]
                row[f"{backend}_s"] = round(t3, 3)
            else:
                row[f"{backend}_s"] = None
        rows.append(row)
    games = 2 if quick else 20
    for players in (2, 3, 4):
        start = time.perf_counter()
        for seed in range(games):
            simulate(GAME, seed=seed, players=players)
        elapsed = time.perf_counter() - start
        rows.append({"bench": "random games", "players": players, "games": games,
                     "games_per_s": round(games / elapsed, 2)})
    out = Path(__file__).resolve().parent / "results"
    out.mkdir(exist_ok=True)
    (out / "rolling.json").write_text(json.dumps({"quick": quick, "rows": rows}, indent=2) + "\n")
    lines = [
        "# Rolling Bandits benchmarks",
        "",
        f"Python {platform.python_version()} on {platform.machine()}, one core"
        + (" (quick mode)" if quick else "") + ". Each row times the solver and its plain",
        "enumeration in the same run; `null` where a model does not cover the question.",
        "",
    ]
    for row in rows:
        lines.append("- " + ", ".join(f"{k}: {v}" for k, v in row.items()))
    (out / "rolling.md").write_text("\n".join(lines) + "\n")
    return {"rows": rows, "written": [str(out / "rolling.md"), str(out / "rolling.json")]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    for row in run(quick=args.quick)["rows"]:  # type: ignore[attr-defined]
        print(json.dumps(row))


if __name__ == "__main__":
    main()
