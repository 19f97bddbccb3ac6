"""Rolling Bandits benchmarks: the exact turn solver and the safety check against plain
enumeration in the same run, and random games per second for 2, 3 and 4 players.

    python benchmarks/bench_rolling.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import time

from banditsolve.core.play import simulate
from banditsolve.rolling.game import GAME
from banditsolve.rolling.notation import parse_state
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
    ("rb ed=default n=2 phase=start turn=1 wagons=2 train=0:5/5L:-:-|-,1:2/2:R:M3|H2,"
     "2:3/3:H:B1|S2 won=-|- trunks=-|-", 1),
    ("rb ed=default n=2 phase=start turn=1 wagons=3 train=0:5/5L:-:-|-,1:1/1:-:-|-,"
     "2:2/2:-:R4|-,3:3/3:-:-|- won=-|- trunks=-|-", 2),
]


def timed(fn: object, *args: object, **kw: object) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn(*args, **kw)  # type: ignore[operator]
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rows: list[dict[str, object]] = []
    turns = TURNS[:1] if args.quick else TURNS
    for text in turns:
        state = parse_state(text)
        t1, shared = timed(best_turn, state)
        t2, plain = timed(best_turn, state, plain=True)
        assert shared.value == plain.value  # type: ignore[attr-defined]
        rows.append({"bench": "best", "shared_s": round(t1, 3), "plain_s": round(t2, 3),
                     "shared_nodes": shared.nodes, "plain_nodes": plain.nodes})  # type: ignore[attr-defined]
    for text, car in SAFETY[:1] if args.quick else SAFETY:
        state = parse_state(text)
        t1, exact = timed(is_safe, state, car, 0, time_limit=120)
        t2, plain = timed(is_safe, state, car, 0, time_limit=120, share=False)
        rows.append({"bench": "safe", "car": car, "answer": exact.safe,  # type: ignore[attr-defined]
                     "exact_s": round(t1, 3), "plain_s": round(t2, 3),
                     "exact_nodes": exact.nodes, "plain_nodes": plain.nodes})  # type: ignore[attr-defined]
    games = 2 if args.quick else 20
    for players in (2, 3, 4):
        start = time.perf_counter()
        for seed in range(games):
            simulate(GAME, seed=seed, players=players)
        elapsed = time.perf_counter() - start
        rows.append({"bench": "random games", "players": players, "games": games,
                     "games_per_s": round(games / elapsed, 2)})
    for row in rows:
        print(json.dumps(row))


if __name__ == "__main__":
    main()
