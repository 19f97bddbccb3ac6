"""Rolling Bandits benchmarks: the exact turn solver and the safety check against plain
enumeration in the same run, the CP-SAT and Z3 models of the safety question (2, 3 and 4
players), and random and greedy games per second for 2, 3 and 4 players and the mercenary
variant.

    python benchmarks/bench_rolling.py [--quick]

Each row is one JSON line. A plain run that passes its time limit is reported with
``"plain_answer": null`` (unknown) and the time it was given.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

from banditsolve.core.play import simulate
from banditsolve.rolling.game import GAME
from banditsolve.rolling.notation import parse_state
from banditsolve.rolling.players import PLAYERS
from banditsolve.rolling.solvers.safety import is_safe
from banditsolve.rolling.solvers.turn import best_turn

TURNS = [
    # attack with three dice rolled; five dice rolled; a start of turn with two dice to roll;
    # the first turn of a seeded game (seven dice, every wagon with its trunk)
    ("attack, 3 dice", "rb ed=default n=2 phase=attack turn=0 wagons=2 train=0:5/5L:-:-|-,"
     "1:2/2:R:M1|H2,2:3/3:H:B1|S1 won=-|- trunks=-|- roll=MJS"),
    ("attack, 5 dice", "rb ed=default n=2 phase=attack turn=0 wagons=3 train=0:5/5L:-:-|-,"
     "1:2/2:R:-|H2,2:3/3:H:M1|S1,3:1/1:B:B1|- won=-|- trunks=-|- roll=RMHJJ"),
    ("start, 2 dice", "rb ed=default n=2 phase=start turn=0 wagons=2 train=0:5/5L:-:-|-,"
     "1:2/2:R:M4|H4,2:3/3:H:B1|S3 won=-|- trunks=-|-"),
    ("fresh roll, 7 dice", "seed 5"),
]
_P4 = "|-|-|-"
SAFETY = [
    # (label, position, wagon, player)
    ("2p unsafe: take all back, roll 7", "rb ed=default n=2 phase=start turn=1 wagons=2 "
     "train=0:5/5L:-:-|-,1:2/2:R:M3|H2,2:3/3:H:B1|S2 won=-|- trunks=-|-", 1, 0),
    ("2p unsafe: one wagon from the rear", "rb ed=default n=2 phase=start turn=1 wagons=3 "
     "train=0:5/5L:-:-|-,1:1/1:-:-|-,2:2/2:-:R4|-,3:3/3:-:-|- won=-|- trunks=-|-", 2, 0),
    ("2p safe: puzzle safe-10", "rb ed=default n=2 phase=start turn=1 wagons=4 "
     "train=0:5/5L:-:-|-,1:2/2:-:R5|-,2:3/3:-:-|-,3:4/4:-:-|-,4:1/1:-:-|- won=-|- trunks=-|-",
     1, 0),
    ("2p safe: a hat trunk on my wagon", "rb ed=default n=2 phase=start turn=1 wagons=4 "
     "train=0:5/5L:-:-|-,1:2/2:H:R5|-,2:3/3:-:-|-,3:4/4:-:-|-,4:1/1:-:-|- won=-|- trunks=-|-",
     1, 0),
    ("3p safe: two opponents, far", "rb ed=default n=3 phase=start turn=1 wagons=5 "
     "train=0:5/5L:-:-|-|-,1:2/2:-:-|-|-,2:3/3:-:R6|-|-,3:1/1:-:-|-|-,4:2/2:-:-|-|-,"
     "5:4/4:-:-|-|- won=-|-|- trunks=-|-|-", 2, 0),
    ("3p unsafe: two opponents", "rb ed=default n=3 phase=start turn=1 wagons=3 "
     "train=0:5/5L:-:-|M4|-,2:3/3:-:R5|S1|-,3:1/1:-:-|-|B3 won=-|1:2/2|- "
     "trunks=-|-|-", 2, 0),
    ("4p safe: three opponents, far", "rb ed=default n=4 phase=start turn=1 wagons=6 "
     "train=0:5/5L:-:-|-|-|-,1:2/2:-:R7|-|-|-,2:3/3:-:-|-|-|-,3:4/4:-:-|-|-|-,"
     "4:1/1:-:-|-|-|-,5:2/2:-:-|-|-|-,6:3/3:-:-|-|-|- won=-|-|-|- trunks=-|-|-|-", 1, 0),
    ("4p unsafe: the third opponent reaches", "rb ed=default n=4 phase=start turn=1 "
     "wagons=6 train=0:5/5L:-:-|-|-|-,1:2/2:-:-|-|-|-,2:3/3:-:R4|-|-|-,3:4/4:-:-|-|-|H1,"
     "4:1/1:-:-|-|-|-,5:2/2:-:-|-|-|-,6:3/3:-:-|-|-|- won=-|-|-|- trunks=-|-|-|-", 2, 0),
    ("2p mercenaries safe: no reserve left", "rb ed=default n=2 phase=start turn=1 wagons=4 "
     "train=0:5/5L:-:-|-,1:2/2:-:R5|-,2:3/3:-:-|-,3:4/4:-:-|-,4:1/1:-:-|- won=-|- trunks=-|- "
     "reserve=0|0 opt=mercenaries:on", 1, 0),
    ("2p mercenaries unsafe: one in reserve", "rb ed=default n=2 phase=start turn=1 wagons=4 "
     "train=0:5/5L:-:-|-,1:2/2:-:R5|-,2:3/3:-:-|-,3:4/4:-:-|-,4:1/1:-:-|- won=-|- trunks=-|- "
     "reserve=0|1 opt=mercenaries:on", 1, 0),
]
GAMES = [
    # (label, players, options, policy)
    ("random games, 2 players", 2, None, "random"),
    ("random games, 3 players", 3, None, "random"),
    ("random games, 4 players", 4, None, "random"),
    ("random games, 2 players, mercenaries", 2, {"mercenaries": "on"}, "random"),
    ("greedy games, 2 players", 2, None, "greedy"),
    ("greedy games, 3 players", 3, None, "greedy"),
    ("greedy games, 4 players", 4, None, "greedy"),
]


def timed(fn: object, *args: object, **kw: object) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn(*args, **kw)  # type: ignore[operator]
    return time.perf_counter() - start, result


def _position(text: str) -> object:
    if text.startswith("seed "):
        return GAME.new_game(2, seed=int(text.split()[1]))
    return parse_state(text)


def _turn_rows(quick: bool) -> list[dict[str, object]]:
    """The turn solver against its plain enumeration, on each position (the first in quick
    mode); their values, when both finish, must agree."""
    rows: list[dict[str, object]] = []
    turns = TURNS[:1] if quick else TURNS
    for label, text in turns:
        state = _position(text)
        t1, shared = timed(best_turn, state, time_limit=120)
        t2, plain = timed(best_turn, state, plain=True, time_limit=120)
        if plain.value is not None and shared.value is not None:  # type: ignore[attr-defined]
            assert shared.value == plain.value  # type: ignore[attr-defined]
        rows.append({"bench": "best turn", "position": label,
                     "shared_s": round(t1, 3), "plain_s": round(t2, 3),
                     "shared_nodes": shared.nodes, "plain_nodes": plain.nodes,  # type: ignore[attr-defined]
                     "plain_answer": None if plain.value is None else str(plain.value)})  # type: ignore[attr-defined]
    return rows


def _safety_rows(quick: bool) -> list[dict[str, object]]:
    """The safety backends on the same questions (the first two in quick mode), the solver
    libraries imported first; every backend that decides must agree."""
    rows: list[dict[str, object]] = []
    warm = parse_state(SAFETY[0][1])
    for backend in ("cpsat", "z3"):  # import the solvers before anything is timed
        is_safe(warm, SAFETY[0][2], SAFETY[0][3], backend=backend)
    for label, text, wagon, player in SAFETY[:2] if quick else SAFETY:
        state = parse_state(text)
        row: dict[str, object] = {"bench": "safe", "question": label, "players": state.players}
        answers = {}
        for backend in ("exact", "plain", "cpsat", "z3", "auto"):
            t, verdict = timed(is_safe, state, wagon, player, time_limit=60, backend=backend)
            row[f"{backend}_s"] = round(t, 3)
            row[f"{backend}_answer"] = verdict.safe  # type: ignore[attr-defined]
            if backend in ("exact", "plain"):
                row[f"{backend}_nodes"] = verdict.nodes  # type: ignore[attr-defined]
            answers[backend] = verdict.safe  # type: ignore[attr-defined]
        decided = {a for a in answers.values() if a is not None}
        assert len(decided) <= 1, (label, answers)  # every decided backend agrees
        rows.append(row)
    return rows


def _game_rows(quick: bool) -> list[dict[str, object]]:
    """Whole games per second and steps per second, for each kind of game."""
    rows: list[dict[str, object]] = []
    games = 2 if quick else 20
    for label, players, options, policy in GAMES:
        policies = [PLAYERS[policy]] * players
        steps = 0
        start = time.perf_counter()
        for seed in range(games):
            _, line = simulate(GAME, seed=seed, players=players, options=options,
                               policies=policies)
            steps += len(line)
        elapsed = time.perf_counter() - start
        rows.append({"bench": "games", "what": label, "games": games,
                     "games_per_s": round(games / elapsed, 2),
                     "steps_per_s": round(steps / elapsed)})
    return rows


def run(quick: bool = False) -> dict[str, object]:
    """Time the turn solver against its plain enumeration, the safety backends (exact, plain,
    CP-SAT, Z3) on the same questions, and whole games per second; write
    ``benchmarks/results/rolling.{md,json}``."""
    load_before = os.getloadavg()[0]
    rows = [*_turn_rows(quick), *_safety_rows(quick), *_game_rows(quick)]
    out = Path(__file__).resolve().parent / "results"
    out.mkdir(exist_ok=True)
    (out / "rolling.json").write_text(json.dumps({"quick": quick, "rows": rows}, indent=2) + "\n")
    lines = [
        "# Rolling Bandits benchmarks",
        "",
        f"Python {platform.python_version()} on {platform.machine()}, one core"
        + (" (quick mode)" if quick else "") + ". Each row times the solver and its plain",
        "enumeration (and, for safety, the CP-SAT and Z3 models and `auto`) in the same run;",
        "`None` as an answer: the time limit ran out (unknown). Wall-clock times; load average",
        f"{load_before:.1f} at the start and {os.getloadavg()[0]:.1f} at the end of the run"
        f" on {os.cpu_count()} cores.",
        "",
    ]
    lines.extend("- " + ", ".join(f"{k}: {v}" for k, v in row.items()) for row in rows)
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
