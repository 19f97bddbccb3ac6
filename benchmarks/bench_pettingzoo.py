"""Throughput of the PettingZoo adapter (issue 29, item 5): steps per second of random legal play
through the AEC environment beside the native game contract, on the same seeds, in the same run,
for every registered game (Bandida in each mode, Bandido and Rolling Bandits at two player
counts). Target: the adapter costs at most 2x the native contract per step.

Four loops play each seed, in turns (the first of them changes from seed to seed, so that no
side always finds the caches warm):

- ``native``: ``game.legal_actions``, a uniform choice among them, ``game.apply``; chance drawn
  by ``core.play.sample_chance`` from ``random.Random(seed)`` (what the environment does);
- ``native+obs``: the same, and the mover's ``game.observation_tensor`` at every move (what an
  agent on the contract needs to see, the like-for-like baseline);
- ``aec``: ``env.reset(seed=seed)`` (the environment lists a state's actions and indices once,
  reads the tensor as ``float32`` bytes and applies through ``apply_legal``: the contract's
  optional calls, ``core.protocol``), then for each agent ``env.last()`` and ``env.step`` with a
  uniform choice among the mask's 1s (``None`` for a finished agent), read as
  ``np.flatnonzero(mask.view(np.bool_))`` (on the ``int8`` array itself NumPy takes 26 µs for
  Bandido's 10,082 places and 140 µs for Bandida's 70,562, 20 to 40 times as long: no fast
  path; ``action_space.sample(mask)`` takes 25 and 38 µs);
- ``aec, tensor stubbed``: the same environment over the game with ``observation_tensor``
  replaced by a constant tuple of its length (and ``observation_bytes`` by its bytes): what the
  adapter itself costs.

Where the game numbers its actions by their place (every game but Los Banditos) the four play
the same game, step for step (checked: the same number of steps). A step is a player move or a
chance node. Times are the process's CPU time (``time.process_time``: the machine is shared);
the wall time is reported beside it. ``parts`` times, on the states of the native games, each
call a step of the environment makes, in microseconds per player move: where the cost is.

    python benchmarks/bench_pettingzoo.py [--quick] [--games N]

Writes ``benchmarks/results/pettingzoo.md`` (keeping the notes written below the figures) and
``.json``, with the load average and the busiest other processes at the start (set
``BENCH_NOTE`` to say more about what else ran).
"""

from __future__ import annotations

import json
import os
import platform
import random
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import banditsolve
from banditsolve.core.play import sample_chance
from banditsolve.core.protocol import (
    CHANCE,
    TERMINAL,
    Game,
    legal_apply,
    paired_listing,
    tensor_bytes,
)
from banditsolve.interop.pettingzoo import BanditsolveEnv, env

RESULTS = Path(__file__).resolve().parent / "results"
TARGET = 2.0
#: (label, game, players, options): every registered game with its defaults, then more.
CASES: list[tuple[str, str, int | None, dict[str, Any]]] = [
    *((name, name, None, {}) for name in banditsolve.games()),
    ("bandido, 4 players", "bandido", 4, {}),
    ("bandida, mode 2", "bandida", None, {"mode": 2}),
    ("bandida, mode 3", "bandida", None, {"mode": 3}),
    ("rolling, 4 players", "rolling", 4, {}),
]


def native(game: Game[Any, Any], players: int, options: dict[str, Any] | None, seed: int,
           observe: bool = False) -> tuple[int, int]:
    """A random game on the contract: (steps, player moves)."""
    chance, agent = random.Random(seed), random.Random(seed + 1)
    state = game.new_game(players, options)
    steps = moves = 0
    while True:
        actor = game.current_player(state)
        if actor == TERMINAL:
            return steps, moves
        if actor == CHANCE:
            action = sample_chance(game, state, chance)
        else:
            legal = game.legal_actions(state)
            action = legal[agent.randrange(len(legal))]
            if observe:
                game.observation_tensor(state, actor)
            moves += 1
        state = game.apply(state, action)
        steps += 1


def through_env(aec: BanditsolveEnv, seed: int) -> tuple[int, int]:
    """A random game through the AEC environment: (steps, player moves)."""
    agent = random.Random(seed + 1)
    aec.reset(seed=seed)
    moves = 0
    for _ in aec.agent_iter():
        observation, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            aec.step(None)
            continue
        assert observation is not None
        allowed = np.flatnonzero(observation["action_mask"].view(np.bool_))
        aec.step(int(allowed[agent.randrange(len(allowed))]))
        moves += 1
    return aec.steps, moves


class StubbedTensor:
    """A game whose ``observation_tensor`` is one constant tuple of the right length (the rest
    is the game's): the environment over it costs what the adapter itself costs, without the
    game's tensor."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self._game = game
        self._zeros: tuple[float, ...] | None = None
        self._raw: bytes | None = None

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._game, name)
        setattr(self, name, value)  # (kept: the next look-up costs what the game's does)
        return value

    def observation_tensor(self, state: Any, player: int) -> tuple[float, ...]:
        if self._zeros is None:
            self._zeros = (0.0,) * len(self._game.observation_tensor(state, player))
        return self._zeros

    def observation_bytes(self, state: Any, player: int) -> bytes:
        """The constant tensor's ``float32`` bytes (what the environment reads), made once."""
        if self._raw is None:
            self._raw = bytes(4 * len(self.observation_tensor(state, player)))
        return self._raw


def _timed(call: Callable[[int], tuple[int, int]], seed: int) -> tuple[float, float, int, int]:
    wall, cpu = time.perf_counter(), time.process_time()
    steps, moves = call(seed)
    return time.process_time() - cpu, time.perf_counter() - wall, steps, moves


def measure(label: str, name: str, players: int | None, options: dict[str, Any],
            games: int) -> dict[str, Any]:
    """One case: the three loops over ``games`` seeds, then the parts."""
    aec = env(name, players=players, **options)
    game, count, chosen = aec.game, aec.players, aec.options
    stubbed = BanditsolveEnv(StubbedTensor(game), players=count, **options)
    loops: dict[str, Callable[[int], tuple[int, int]]] = {
        "native": lambda s: native(game, count, chosen, s),
        "native+obs": lambda s: native(game, count, chosen, s, observe=True),
        "aec": lambda s: through_env(aec, s),
        "aec, tensor stubbed": lambda s: through_env(stubbed, s),
    }
    for loop in loops.values():  # warm up: imports, tables built on first use
        loop(10_000)
    totals: dict[str, list[float]] = {key: [0.0, 0.0, 0.0, 0.0] for key in loops}
    order = list(loops)
    same_games = _by_place(aec)
    for seed in range(games):
        counted: dict[str, int] = {}
        for key in order[seed % len(order):] + order[: seed % len(order)]:
            cpu, wall, steps, moves = _timed(loops[key], seed)
            done = (cpu, wall, steps, moves)
            totals[key] = [a + b for a, b in zip(totals[key], done, strict=True)]
            counted[key] = steps
        if same_games:
            assert len(set(counted.values())) == 1, f"{label} seed {seed}: {counted}"
    result: dict[str, Any] = {"case": label, "games": games, "players": count,
                              "actions": aec.num_actions}
    for key, (cpu, wall, taken, made) in totals.items():
        result[key] = {"steps": int(taken), "moves": int(made), "cpu_s": round(cpu, 3),
                       "wall_s": round(wall, 3), "steps_per_s": round(taken / cpu)}
    per_step = {key: totals[key][0] / totals[key][2] for key in totals}
    result["ratio"] = round(per_step["aec"] / per_step["native"], 2)
    result["ratio_obs"] = round(per_step["aec"] / per_step["native+obs"], 2)
    result["ratio_stubbed"] = round(per_step["aec, tensor stubbed"] / per_step["native"], 2)
    result["parts"] = parts(aec, min(games, 5))
    return result


def _by_place(aec: BanditsolveEnv) -> bool:
    """Whether the environment's game numbers its actions by place at its first move."""
    aec.reset(seed=0)
    return aec.game.legal_indices(aec.game_state) == tuple(
        range(len(aec.game.legal_actions(aec.game_state)))
    )


def parts(aec: BanditsolveEnv, games: int) -> dict[str, float]:
    """Microseconds of CPU per player move of each call a step of the environment makes, in its
    order, on the states of native random games: the legal actions and their indices (one
    listing, ``legal_actions_and_indices``), the mover's tensor as ``float32`` bytes
    (``observation_bytes``), read into NumPy, the mask, ``apply_legal``; the game's ``apply``
    of the same action (checked: what the native loop calls, for comparison); and the chance
    nodes (draw and ``apply_legal``). Each through ``core.protocol``: the game's own form, or
    the contract's default where it has none."""
    game, count, options = aec.game, aec.players, aec.options
    listing, as_bytes, apply = paired_listing(game), tensor_bytes(game), legal_apply(game)
    names = ("listing", "observation_bytes", "bytes to numpy", "mask", "apply_legal",
             "apply", "chance")
    spent = dict.fromkeys(names, 0.0)
    moves = 0
    for seed in range(games):
        chance, agent = random.Random(seed), random.Random(seed + 1)
        state = game.new_game(count, options)
        while (actor := game.current_player(state)) != TERMINAL:
            clock = [time.process_time()]
            if actor == CHANCE:
                state = apply(state, sample_chance(game, state, chance))
                spent["chance"] += time.process_time() - clock[0]
                continue
            actions, indices = listing(state)
            clock.append(time.process_time())
            raw = as_bytes(state, actor)
            clock.append(time.process_time())
            np.frombuffer(raw, dtype=np.float32).copy()
            clock.append(time.process_time())
            mask = np.zeros(aec.num_actions, dtype=np.int8)
            mask[np.fromiter(indices, dtype=np.intp, count=len(indices))] = 1
            clock.append(time.process_time())
            action = actions[agent.randrange(len(indices))]
            after = apply(state, action)
            clock.append(time.process_time())
            game.apply(state, action)
            clock.append(time.process_time())
            state = after
            for name, a, b in zip(names, clock, clock[1:], strict=False):
                spent[name] += b - a
            moves += 1
    return {key: round(1e6 * value / max(moves, 1), 1) for key, value in spent.items()}


def busiest() -> list[str]:
    """The busiest processes now (CPU %, command), this one left out."""
    try:
        out = subprocess.run(["ps", "-eo", "pid,pcpu,nice,args", "--sort=-pcpu"],
                             capture_output=True, text=True, timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return ["(ps failed)"]
    rows = []
    for line in out.splitlines()[1:]:
        pid, cpu, nice, command = line.split(None, 3)
        if int(pid) != os.getpid() and float(cpu) >= 5:
            shown = command if len(command) <= 90 else command[:87] + "..."
            rows.append(f"`{shown}` ({cpu} % CPU, nice {nice})")
    return rows[:6]


def run(quick: bool = False, games: int | None = None) -> dict[str, Any]:
    started = time.perf_counter()
    count = games or (3 if quick else 30)
    result: dict[str, Any] = {
        "quick": quick, "cores": os.cpu_count(), "python": platform.python_version(),
        "load_before": round(os.getloadavg()[0], 2), "busiest_before": busiest(),
        "note": os.environ.get("BENCH_NOTE", ""), "rows": [],
    }
    for label, name, players, options in CASES:
        row = measure(label, name, players, options, count)
        result["rows"].append(row)
        shown = {k: row[k] for k in ("case", "ratio", "ratio_obs", "ratio_stubbed")}
        print(json.dumps(shown), flush=True)
    result["load_after"] = round(os.getloadavg()[0], 2)
    result["seconds"] = round(time.perf_counter() - started, 1)
    write(result)
    result["written"] = [str(RESULTS / "pettingzoo.md"), str(RESULTS / "pettingzoo.json")]
    return result


def write(result: dict[str, Any]) -> None:
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "pettingzoo.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    others = "; ".join(result["busiest_before"]) or "nothing above 5 % CPU"
    lines = [
        "# The PettingZoo adapter's throughput",
        "",
        f"Quick mode: {result['quick']}; {result['cores']} cores; Python {result['python']};"
        f" whole run {result['seconds']} s; {result['rows'][0]['games']} games per case."
        f" Load average (1 min) {result['load_before']:.2f} before, {result['load_after']:.2f}"
        f" after. Busiest other processes at the start: {others}."
        + (f" {result['note']}." if result["note"] else ""),
        "",
        f"Steps per second of CPU time (a step: a player move or a chance node). Target: the"
        f" environment's cost per step at most {TARGET:g}x the native contract's (`ratio`)."
        " `ratio obs`: against the native loop that also builds the mover's observation tensor"
        " (the same information the environment hands its agent); `ratio stub`: the"
        " environment over the same game with a constant tensor, against the native loop (the"
        " adapter's own cost, without the game's tensor).",
        "",
        "| case | actions | steps | native | native+obs | aec | aec, tensor stubbed | ratio |"
        " ratio obs | ratio stub | met? |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in result["rows"]:
        met = "met" if r["ratio"] <= TARGET else "missed"
        lines.append(
            f"| {r['case']} | {r['actions']:,} | {r['aec']['steps']:,} |"
            f" {r['native']['steps_per_s']:,} | {r['native+obs']['steps_per_s']:,} |"
            f" {r['aec']['steps_per_s']:,} | {r['aec, tensor stubbed']['steps_per_s']:,} |"
            f" {r['ratio']:.2f} | {r['ratio_obs']:.2f} | {r['ratio_stubbed']:.2f} | {met} |"
        )
    names = list(result["rows"][0]["parts"])
    lines += [
        "",
        "Where a step's time goes: microseconds of CPU per player move of each call the"
        " environment's step makes, in its order, on the native games' states: the legal"
        " actions and their indices (one listing, `legal_actions_and_indices`), the mover's"
        " tensor as float32 bytes (`observation_bytes`) and its reading into NumPy, the mask,"
        " `apply_legal` (the action taken from the listing, not checked again); the game's"
        " `apply` of the same action (checked, what the native loop calls); and the chance"
        " nodes (draw and `apply_legal`). The native loop makes `legal_actions`, `apply` and"
        " the chance nodes' calls (draw and `apply`). A game without its own form of a call"
        " gets the contract's default (`core.protocol`).",
        "",
        "| case | " + " | ".join(names) + " |",
        "| --- | " + " | ".join("---" for _ in names) + " |",
    ]
    for r in result["rows"]:
        lines.append(f"| {r['case']} | " + " | ".join(f"{r['parts'][n]:g}" for n in names) + " |")
    notes = _notes()
    text = "\n".join(lines) + "\n" + ("\n" + notes if notes else "")
    (RESULTS / "pettingzoo.md").write_text(text, encoding="utf-8")


def _notes() -> str:
    """The hand-written notes of the results file (from its first ``## Notes`` heading on),
    kept below the tables a run writes."""
    path = RESULTS / "pettingzoo.md"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    at = text.find("\n## Notes")
    return text[at + 1 :] if at >= 0 else ""


if __name__ == "__main__":
    from flags import read_flags  # the script's own folder

    switches, values = read_flags(__doc__, valued=("--games",))
    given = values.get("--games", "0")
    if not given.isdigit():
        raise SystemExit(f"bench_pettingzoo.py: error: --games takes a count, not {given!r}")
    print(json.dumps(run(quick="--quick" in switches, games=int(given) or None), indent=1))
