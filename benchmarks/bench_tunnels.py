"""Benchmark of the tunnel engine: legal-placement generation and whole simulated games
(Bandido, and Bandida in each of its three modes).

Run ``python benchmarks/bench_tunnels.py [--quick] [--before=SRC]`` (``SRC``: another tree's
``src`` directory, timed beside this one); writes ``benchmarks/results/tunnels.md``
and ``benchmarks/results/tunnels.json`` (keeping the notes written below the figures) and
returns the figures from :func:`run`.
"""

from __future__ import annotations

import json
import os
import platform
import random
import sys
import time
from pathlib import Path

from banditsolve.tunnels import Table, legal_placements, load_deck, play_game

RESULTS = Path(__file__).resolve().parent / "results"


def _tables(count: int, cards: int) -> list[Table]:
    rng = random.Random(1)
    types = load_deck().types
    tables = []
    for _ in range(count):
        table = Table.start()
        for _ in range(cards * 4):
            if len(table) > cards:
                break
            found = legal_placements(table, rng.choice(types))
            if found:
                table = table.place(rng.choice(found))
        tables.append(table)
    return tables


def bench_generation(quick: bool) -> dict[str, float]:
    """Microseconds per ``legal_placements`` call (one card type) on mid-game tables."""
    types = load_deck().types
    out: dict[str, float] = {}
    for cards in (0, 10, 30):
        tables = _tables(5 if quick else 20, cards)
        calls = 0
        start = time.perf_counter()
        rounds = 1 if quick else 5
        for _ in range(rounds):
            for table in tables:
                for code in types:
                    legal_placements(table, code)
                    calls += 1
        elapsed = time.perf_counter() - start
        exits = sum(t.exit_count for t in tables) / len(tables)
        out[f"us_per_call_{cards}_cards"] = round(1e6 * elapsed / calls, 2)
        out[f"mean_exits_{cards}_cards"] = round(exits, 1)
    return out


def _rate(play: object, seeds: range) -> tuple[float, int, int]:
    """Games per second (process time, one core) of ``play(seed)`` over ``seeds``, the turns
    and the wins."""
    assert callable(play)
    start = time.process_time()
    won = turns = 0
    for seed in seeds:
        final = play(seed)
        won += final.outcome == "won"
        turns += final.turn
    elapsed = time.process_time() - start
    return len(seeds) / elapsed, turns, won


def bench_games(quick: bool) -> dict[str, float]:
    """Whole 2-player games with the built-in greedy policy, on one core: the fast simulator
    (``play_game``: the last state; ``simulate``: every state), the generic path it replaces
    (``simulate_generic``: core.play.playout over legal_actions and apply, every move validated)
    and a plain loop of as many moves doing one dict lookup and one append each (the floor of
    any per-move Python work), all in this run. The paths take turns on the same seeds, each
    timed several times; the best round counts (the least disturbed by other processes). The
    fast simulator memoises the placements of each local signature: timed cold (a fresh
    process's first games) and warm (after games on other seeds), as a long study runs."""
    from banditsolve.tunnels.simulate import simulate, simulate_generic
    from banditsolve.tunnels.table import LEAST_CHANGES, LEAST_ROWS, LOCAL_PLACEMENTS

    games = 20 if quick else 100
    rounds = 2 if quick else 5
    seeds = range(games)
    LOCAL_PLACEMENTS.clear()
    LEAST_CHANGES.clear()
    LEAST_ROWS.clear()
    cold, _, _ = _rate(lambda s: play_game(2, s), range(10_000, 10_000 + games))
    for seed in range(20_000, 20_000 + (100 if quick else 2000)):
        play_game(2, seed)
    generic_seeds = range(games // 4)
    best = {"fast": 0.0, "states": 0.0, "generic": 0.0}
    turns = won = 0
    for _ in range(rounds):
        fast, turns, won = _rate(lambda s: play_game(2, s), seeds)
        states, _, _ = _rate(lambda s: simulate(2, s)[-1], seeds)
        generic, _, _ = _rate(lambda s: simulate_generic(2, s)[-1], generic_seeds)
        best = {
            "fast": max(best["fast"], fast),
            "states": max(best["states"], states),
            "generic": max(best["generic"], generic),
        }
    # The plain loop: as many moves as the games made, one dict lookup and one append each.
    table = {(x, y): x ^ y for x in range(-8, 8) for y in range(-8, 8)}
    moves = max(1, turns)
    plain_per_move = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        out = []
        for i in range(moves):
            # The timed baseline is this very loop (a comprehension would time another one).
            out.append(table.get((i & 7, i & 3)))  # noqa: PERF401
        plain_per_move = min(plain_per_move, (time.process_time() - start) / moves)
    plain_games = 1 / (max(plain_per_move, 1e-9) * turns / games)
    fast = best["fast"]
    return {
        "games": games,
        "rounds": rounds,
        "games_per_second": round(fast, 1),
        "games_per_second_cold": round(cold, 1),
        "games_per_second_all_states": round(best["states"], 1),
        "games_per_second_generic": round(best["generic"], 1),
        "generic_games": len(generic_seeds),
        "speedup_over_generic": round(fast / best["generic"], 1),
        "plain_loop_games_per_second": round(plain_games, 1),
        "plain_loop_multiple": round(plain_games / fast, 1),
        "ms_per_game": round(1000 / fast, 2),
        "mean_turns": round(turns / games, 1),
        "win_rate": round(won / games, 3),
    }


#: A child process timing ``play_game`` (Bandido, 2 players) on the tree in its PYTHONPATH:
#: a warm-up, then the best of a few rounds of process time; prints games per second.
_CHILD = """
import sys, time
from banditsolve.tunnels import play_game
warm, games, rounds = map(int, sys.argv[1:4])
for seed in range(20_000, 20_000 + warm):
    play_game(2, seed)
best = 0.0
for _ in range(rounds):
    start = time.process_time()
    for seed in range(games):
        play_game(2, seed)
    best = max(best, games / (time.process_time() - start))
print(best)
"""


def bench_before_after(before: str, quick: bool) -> dict[str, object]:
    """``play_game`` of another tree (``before``: a ``src`` directory, e.g. an older commit's
    ``git archive``) beside this one, in the same minutes: child processes on each tree in
    turn (same warm-up, seeds and rounds), process time, the load average beside each pair."""
    import subprocess

    if not (Path(before) / "banditsolve" / "__init__.py").is_file():
        raise SystemExit(f"--before={before}: not a src directory holding banditsolve")
    here = str(Path(__file__).resolve().parent.parent / "src")
    args = ["300", "50", "2"] if quick else ["2000", "100", "3"]
    pairs: list[dict[str, float]] = []
    for _ in range(2 if quick else 4):
        row: dict[str, float] = {"load": os.getloadavg()[0]}
        for name, tree in (("before", before), ("after", here)):
            env = {**os.environ, "PYTHONPATH": tree}
            out = subprocess.run(
                [sys.executable, "-c", _CHILD, *args],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            row[name] = round(float(out.stdout.strip()), 1)
        pairs.append(row)
    before_best = max(p["before"] for p in pairs)
    after_best = max(p["after"] for p in pairs)
    return {
        "before_tree": before,
        "warm_games": int(args[0]),
        "games": int(args[1]),
        "rounds": int(args[2]),
        "pairs": pairs,
        "before_best": before_best,
        "after_best": after_best,
        "ratio": round(after_best / before_best, 2),
    }


def bench_bandida(quick: bool) -> dict[str, dict[str, float]]:
    """Whole 2-player Bandida games per mode with the greedy policy, on one core (seeded
    shuffles; an alarm's reshuffle makes the rest of the pile chance nodes, sampled)."""
    from banditsolve.tunnels.bandida.state import BandidaOptions

    out: dict[str, dict[str, float]] = {}
    games = 10 if quick else 60
    for mode in (1, 2, 3):
        options = BandidaOptions(mode=mode)
        start = time.process_time()
        won = turns = 0
        reasons: dict[str, int] = {}
        for seed in range(games):
            final = play_game(2, seed, options)
            won += final.outcome == "won"
            turns += final.turn
            reasons[final.reason] = reasons.get(final.reason, 0) + 1
        elapsed = time.process_time() - start
        out[f"mode_{mode}"] = {
            "games": games,
            "games_per_second": round(games / elapsed, 1),
            "ms_per_game": round(1000 * elapsed / games, 2),
            "mean_turns": round(turns / games, 1),
            "win_rate": round(won / games, 3),
            "lost_to_the_pile": round(reasons.get("the draw pile is empty", 0) / games, 3),
        }
    return out


def bench_contract(quick: bool) -> dict[str, float]:
    """The game object (``load_game("bandido")``): random 2-player games played through the
    contract with chance-node deals, and the game-state notation and JSON round trips."""
    from banditsolve import load_game
    from banditsolve.core.play import sample_chance

    game = load_game("bandido")
    games = 5 if quick else 40
    steps = 0
    visited = []
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_game(2)
        while game.outcome(state) is None:
            if game.current_player(state) < 0:
                action = sample_chance(game, state, rng)
            else:
                actions = game.legal_actions(state)
                action = actions[rng.randrange(len(actions))]
            state = game.apply(state, action)
            steps += 1
            if steps % 7 == 0:
                visited.append(state)
    played = time.perf_counter() - start
    start = time.perf_counter()
    for state in visited:
        assert game.from_notation(game.to_notation(state)) == state
    notation = time.perf_counter() - start
    start = time.perf_counter()
    for state in visited:
        assert game.from_json(game.to_json(state)) == state
    as_json = time.perf_counter() - start
    return {
        "games": games,
        "us_per_step": round(1e6 * played / steps, 1),
        "states_round_tripped": len(visited),
        "us_per_notation_round_trip": round(1e6 * notation / len(visited), 1),
        "us_per_json_round_trip": round(1e6 * as_json / len(visited), 1),
    }


def run(quick: bool = False, before: str | None = None) -> dict[str, object]:
    """Time generation and games (and, with ``before``, ``play_game`` of that tree beside
    this one); write the results files; return the figures."""
    load_before = os.getloadavg()[0]
    figures: dict[str, object] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "quick": quick,
        "generation": bench_generation(quick),
        "games_2p": bench_games(quick),
        "contract": bench_contract(quick),
        "bandida_2p": bench_bandida(quick),
    }
    if before is not None:
        figures["before_after"] = bench_before_after(before, quick)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "tunnels.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    gen = figures["generation"]
    games = figures["games_2p"]
    assert isinstance(gen, dict)
    assert isinstance(games, dict)
    lines = [
        "# Tunnel engine benchmark (Bandido)",
        "",
        f"Python {figures['python']} on {figures['machine']}, one core"
        + (" (quick run)" if quick else "")
        + f"; load average {load_before:.1f} before the run, {os.getloadavg()[0]:.1f} after"
        " (other processes on the machine).",
        "",
        "## Legal-placement generation (one card type, one call)",
        "",
        "| cards on table | mean exits | µs per call |",
        "|---:|---:|---:|",
    ]
    lines.extend(
        f"| {cards + 1} | {gen[f'mean_exits_{cards}_cards']} | "
        f"{gen[f'us_per_call_{cards}_cards']} |"
        for cards in (0, 10, 30)
    )
    lines += [
        "",
        "## Whole simulated 2-player games (greedy built-in policy)",
        "",
        "Process time of this one process (one core), all rows in the same run, the paths"
        f" taking turns, best of {games['rounds']} rounds ({games['games']} seeds; the generic"
        f" path on the first {games['generic_games']}).",
        "",
        "| path | games per second | ms per game |",
        "|---|---:|---:|",
        f"| fast simulator, `play_game` (warm memo) | **{games['games_per_second']}** |"
        f" {games['ms_per_game']} |",
        f"| fast simulator, `play_game`, cold (a fresh process's first games) |"
        f" {games['games_per_second_cold']} | {round(1000 / games['games_per_second_cold'], 2)} |",
        f"| fast simulator, `simulate` (every state built) |"
        f" {games['games_per_second_all_states']} |"
        f" {round(1000 / games['games_per_second_all_states'], 2)} |",
        f"| generic path, `simulate_generic` (validated, the old path) |"
        f" {games['games_per_second_generic']} |"
        f" {round(1000 / games['games_per_second_generic'], 2)} |",
        f"| plain loop: as many moves, one dict lookup and append each |"
        f" {games['plain_loop_games_per_second']} |"
        f" {round(1000 / games['plain_loop_games_per_second'], 3)} |",
        "",
        f"- target ≥ 500 games per second per core; the fast simulator is"
        f" {games['speedup_over_generic']}× the generic path and"
        f" {games['plain_loop_multiple']}× the plain loop's time",
        f"- mean turns: {games['mean_turns']}; win rate of the greedy policy: {games['win_rate']}",
        "",
    ]
    contract = figures["contract"]
    assert isinstance(contract, dict)
    lines += [
        "## The game object on the contract (random moves, chance-node deals)",
        "",
        f"- µs per step (current player, legal actions, apply): {contract['us_per_step']}",
        f"- game-state notation round trip: {contract['us_per_notation_round_trip']} µs;"
        f" JSON: {contract['us_per_json_round_trip']} µs"
        f" ({contract['states_round_tripped']} states)",
        "",
    ]
    bandida = figures["bandida_2p"]
    assert isinstance(bandida, dict)
    lines += [
        "## Whole simulated 2-player Bandida games per mode (greedy built-in policy)",
        "",
        "| mode | games | games per second | ms per game | mean turns | win rate |"
        " lost to the empty pile |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for mode in (1, 2, 3):
        row = bandida[f"mode_{mode}"]
        lines.append(
            f"| {mode} | {row['games']} | {row['games_per_second']} | {row['ms_per_game']} |"
            f" {row['mean_turns']} | {row['win_rate']} | {row['lost_to_the_pile']} |"
        )
    lines.append("")
    pair = figures.get("before_after")
    if isinstance(pair, dict):
        lines += [
            "## Bandido `play_game`, this tree beside another (same minutes)",
            "",
            f"Child processes in turn on `{pair['before_tree']}` (before) and this tree (after):"
            f" {pair['warm_games']} warm-up games, then the best of {pair['rounds']} rounds of"
            f" {pair['games']} seeds, process time (games per second).",
            "",
            "| load average | before | after |",
            "|---:|---:|---:|",
        ]
        for row in pair["pairs"]:
            lines.append(f"| {row['load']:.1f} | {row['before']} | {row['after']} |")
        lines += [
            "",
            f"- best of each: {pair['before_best']} before, {pair['after_best']} after"
            f" ({pair['ratio']}×)",
            "",
        ]
    (RESULTS / "tunnels.md").write_text("\n".join(lines) + _notes(), encoding="utf-8")
    return figures


def _notes() -> str:
    """The hand-written notes of the results file (from its first ``## Notes`` heading on),
    kept below the sections a run writes."""
    path = RESULTS / "tunnels.md"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    at = text.find("\n## Notes")
    return text[at:] if at >= 0 else ""


if __name__ == "__main__":
    from flags import read_flags  # the script's own folder

    on, given = read_flags(__doc__, ("--quick",), ("--before",))
    print(json.dumps(run(quick="--quick" in on, before=given.get("--before")), indent=2))
