"""Los Banditos benchmarks: claim proofs four ways, and the endgame solver on the puzzles.

    python benchmarks/bench_banditos.py [--quick] [--by-tiles | --claims]

On one set of generated claim cases (fixed seed; every count of opponent dice 0-2, colour
scarcity from no die left to plenty) it times, case by case:

- ``exact``: the library's closed-form claim check (``claim_verdict(..., backend="exact")``);
- ``brute``: a plain enumeration of every completion (every ordered choice of the missing dice
  among the 24 faces, availability checked, ranked with the engine's ``rank``);
- ``cpsat`` and ``z3``: the two solver backends, model building included; CP-SAT's own wall
  time and deterministic time are reported beside the wall time measured here.

All four verdicts must agree on every case (the run fails otherwise). Then the endgame solver
runs on every "best" puzzle of the bundled collection, and the exact best-turn search on
start-of-turn positions by tiles left (1 to 6; for up to four, also the structure of a turn and,
where the search does not finish, how many of the root's draws it solves within the limit).
Results go to ``benchmarks/results/banditos.md`` and ``benchmarks/results/banditos.json``.
``--by-tiles`` runs only the rows by tiles left (about ten minutes) and keeps the other rows
from the JSON of the last full run; ``--claims`` runs only the claim rows (about a minute), and
keeps the others likewise.
"""

from __future__ import annotations

import itertools
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from banditos_report import CLAIMS_BEFORE, ROUNDS, markdown  # the script's own folder

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
sys.path.insert(0, str(HERE.parent / "src"))

from banditsolve.banditos import claim as claim_table  # noqa: E402
from banditsolve.banditos.claim import claim_is_safe, claim_is_safe_codes, claim_key  # noqa: E402
from banditsolve.banditos.combos import rank, rank_codes  # noqa: E402
from banditsolve.banditos.dice import (  # noqa: E402
    ALL_DICE,
    DICE_PER_COLOUR,
    Colour,
    Die,
    colour_counts,
    parse_dice,
)
from banditsolve.banditos.solvers.claims import claim_verdict  # noqa: E402

Case = tuple[tuple[Die, ...], tuple[Die, ...], tuple[int, int, int, int]]
SCARCITY = [(0, 0), (0, 1), (0, 2), (1, 3), (0, 6), (3, 6), (6, 6)]
SEED = 20240601


def generate_cases(count: int, seed: int = SEED) -> list[Case]:
    rng = random.Random(seed)
    cases: list[Case] = []
    for i in range(count):
        n_theirs = i % 3
        low, high = SCARCITY[(i // 3) % len(SCARCITY)]
        avail = tuple(rng.randint(low, high) for _ in range(4))
        first = rng.choice(ALL_DICE)
        style = rng.randrange(3)
        if style == 0:
            mine = (first, rng.choice(ALL_DICE), rng.choice(ALL_DICE))
        elif style == 1:
            mine = (first, Die(rng.choice(ALL_DICE).colour, first.value), rng.choice(ALL_DICE))
        else:
            top = rng.randint(3, 6)
            mine = (
                Die(first.colour, top),
                Die(first.colour, top - 1),
                Die(rng.choice(ALL_DICE).colour, top - 2),
            )
        theirs = tuple(rng.choice(ALL_DICE) for _ in range(n_theirs))
        shown = colour_counts(mine + theirs)  # no colour has more than six dice in all
        capped = [min(avail[c], DICE_PER_COLOUR - shown[c]) for c in range(4)]
        cases.append((mine, theirs, (capped[0], capped[1], capped[2], capped[3])))
    return cases


def brute_force_safe(
    mine: tuple[Die, ...], theirs: tuple[Die, ...], avail: tuple[int, int, int, int]
) -> bool:
    """Every completion, no shortcut: the claim is safe iff none ranks above it."""
    claim = rank(mine)
    best = -1
    for extra in itertools.product(ALL_DICE, repeat=3 - len(theirs)):
        counts = [0, 0, 0, 0]
        for die in extra:
            counts[die.colour] += 1
        if any(counts[c] > avail[c] for c in range(4)):
            continue
        best = max(best, rank(theirs + extra))
    return best <= claim


def _fresh_build_seconds(runs: int = 3) -> list[float]:
    """The claim table's build time in fresh interpreters (it is built on first use)."""
    import subprocess

    code = "from banditsolve.banditos import claim; print(claim.build_table())"
    out = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True,
            env={**__import__("os").environ, "PYTHONPATH": str(HERE.parent / "src")},
        )
        out.append(float(done.stdout.strip()))
    return out


def _time_per_case(
    fn: Callable[[Case], bool], cases: list[Case], repeat: int = 1
) -> tuple[list[float], list[bool]]:
    times: list[float] = []
    answers: list[bool] = []
    for case in cases:
        start = time.perf_counter()
        for _ in range(repeat):
            answer = fn(case)
        times.append((time.perf_counter() - start) / repeat)
        answers.append(answer)
    return times, answers


def _summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "median_us": statistics.median(ordered) * 1e6,
        "mean_us": statistics.fmean(ordered) * 1e6,
        "p90_us": ordered[int(0.9 * (len(ordered) - 1))] * 1e6,
        "max_us": ordered[-1] * 1e6,
    }


#: The rows of that ``claim_verdict``, run in the same rounds as the others.
BEFORE_ROWS = ("before_exact", "before_readme_form", "before_readme_call")


def _claims_before() -> Any:
    """``solvers/claims.py`` at :data:`CLAIMS_BEFORE`, loaded from git as a module of its own
    with its own memo (``None`` when git or the commit is not at hand)."""
    import subprocess
    import types

    try:
        source = subprocess.run(
            ["git", "show", f"{CLAIMS_BEFORE}:src/banditsolve/banditos/solvers/claims.py"],
            capture_output=True, text=True, check=True, cwd=HERE.parent,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    module = types.ModuleType("claims_before")
    sys.modules[module.__name__] = module
    exec(compile(source, f"claims.py@{CLAIMS_BEFORE}", "exec"), module.__dict__)
    return module


def _before_rows(
    cases: list[Case], letters: list[Any], readme: Any
) -> dict[str, tuple[Callable[[Any], Any], list[Any], Callable[[], None] | None]]:
    """The rows of ``claim_verdict`` at :data:`CLAIMS_BEFORE` (none without git): tuples, the
    README's form on every case, and the README's call."""
    before = _claims_before()
    if before is None:
        return {}
    verdict = before.claim_verdict
    clear = before._MEMO.clear
    return {
        "before_exact": (lambda c: verdict(*c, backend="exact").safe, cases, clear),
        "before_readme_form": (lambda c: verdict(*c).safe, letters, clear),
        "before_readme_call": (lambda c: verdict(*c).safe, [readme] * len(cases), clear),
    }


def _check_before(answers: dict[str, list[Any]], exact: list[Any], readme_safe: bool) -> None:
    """The rows at :data:`CLAIMS_BEFORE` gave the verdicts of today's rows."""
    expected = {"before_exact": exact, "before_readme_form": exact,
                "before_readme_call": [readme_safe] * len(exact)}
    wrong = [name for name in BEFORE_ROWS if name in answers and answers[name] != expected[name]]
    if wrong:
        raise AssertionError(f"claim_verdict at {CLAIMS_BEFORE} disagrees: {wrong}")


def _prepared(cases: list[Case]) -> list[tuple[Any, ...]]:
    """Each case's hot-path arguments: claim rank, table key, codes, availability, (codes, cap)."""
    prepared = []
    for mine, theirs, avail in cases:
        codes = tuple(d.code for d in theirs)
        key = claim_key(codes, avail)
        capped = tuple(min(n, 3) for n in avail)
        prepared.append(
            (rank_codes(mine[0].code, mine[1].code, mine[2].code), key, codes, avail,
             (codes, capped))
        )
    return prepared


def _readme_forms(cases: list[Case]) -> tuple[list[Any], list[Any]]:
    """The cases with the availability by colour letter, and as dice lists with Colour keys."""
    letters = [(m, t, {"kgrb"[i]: n for i, n in enumerate(a) if n}) for m, t, a in cases]
    colours = [(list(m), list(t), {Colour(i): n for i, n in enumerate(a) if n})
               for m, t, a in cases]
    return letters, colours


def _run_rounds(
    cheap: dict[str, tuple[Callable[[Any], Any], list[Any], Callable[[], None] | None]],
) -> tuple[dict[str, list[float]], dict[str, list[Any]]]:
    """Each row's fastest time per case over :data:`ROUNDS` rounds, and its first answers."""
    best_times: dict[str, list[float]] = {}
    answers: dict[str, list[Any]] = {}
    for _round in range(ROUNDS):
        for name, (fn, items, before) in cheap.items():
            if before is not None:
                before()
            times, found = _time_per_case(fn, items, repeat=20)
            if name in best_times:
                best_times[name] = [min(a, b) for a, b in zip(best_times[name], times, strict=True)]
            else:
                best_times[name], answers[name] = times, found
    return best_times, answers


def _check_agree(rows: list[list[Any]]) -> None:
    """Every row gives the same verdict on each case (the run fails otherwise)."""
    mismatches = [
        i for i in range(len(rows[0])) if not all(a[i] == b[i] for a, b in itertools.pairwise(rows))
    ]
    if mismatches:
        raise AssertionError(f"backends disagree on cases {mismatches[:10]}")


def _method_summary(
    times: list[float], cases: list[Case], brute_t: list[float], dict_t: list[float]
) -> dict[str, Any]:
    """A row's times, and the brute force and dict against them, overall and by opponent dice."""
    summary: dict[str, Any] = dict(_summary(times))
    summary["brute_over_method"] = statistics.median(brute_t) / statistics.median(times)
    summary["over_dict"] = statistics.median(times) / statistics.median(dict_t)
    summary["paired_over_dict"] = statistics.median(
        t / d for t, d in zip(times, dict_t, strict=True)
    )
    by_count = {}
    ratio_by_count = {}
    for n in range(3):
        sub = [t for t, (_, theirs, _) in zip(times, cases, strict=True) if len(theirs) == n]
        brute_sub = [
            t for t, (_, theirs, _) in zip(brute_t, cases, strict=True) if len(theirs) == n
        ]
        by_count[str(n)] = statistics.median(sub) * 1e6
        ratio_by_count[str(n)] = statistics.median(brute_sub) / statistics.median(sub)
    summary["median_us_by_opponent_dice"] = by_count
    summary["brute_over_method_by_opponent_dice"] = ratio_by_count
    return summary


def bench_claims(quick: bool) -> dict[str, Any]:
    from banditsolve.banditos.solvers import cpsat

    count = 150 if quick else 1500
    cases = generate_cases(count)
    # Warm up the solver libraries (imports, first model) outside the timings.
    for backend in ("cpsat", "z3"):
        claim_verdict(*cases[0], backend=backend)

    build = _fresh_build_seconds()
    # The verdict memo, emptied before every round of the `claim_verdict` row (so that each
    # round asks every case cold once and warm 19 times) and before every call of its cold row
    # (every call a miss: the one-pass check and a new verdict, the emptying included).
    from banditsolve.banditos.solvers import claims as claims_module

    memo = claims_module._MEMO

    def cold(c: Case) -> bool:
        memo.clear()
        return claim_verdict(*c, backend="exact").safe

    # The hot path's arguments, prepared once per case as a search holds them: the claim's rank
    # and the table key; and the same key in a bare dict (the physical reference), and a dict
    # keyed by the tuple (opponent codes, availability capped at three).
    prepared = _prepared(cases)
    int_dict = {key: claim_table.best_rank(key) for key in range(claim_table.TABLE_SIZE)}
    tuple_dict = {p[4]: claim_table.best_rank(p[1]) for p in prepared}
    # The same questions in the forms the README shows, held once as a user holds them: the
    # tuples parse_dice returns and the availability as a dict of the colour letters it names
    # (``{"g": 1}``: a colour left out counts 0); lists of dice and a dict of Colour members.
    letters, colours = _readme_forms(cases)
    # The README's call itself, its arguments held as the user holds them (the results of
    # parse_dice and the dict), the one question asked once per timed call; and the same call
    # with parse_dice inside it, as the line is written.
    readme = (parse_dice("k4 r5 b6"), parse_dice("g5 g6"), {"g": 1})
    readme_safe = brute_force_safe(readme[0], readme[1], (0, 1, 0, 0))

    def old_hot_path(c: Case) -> bool:  # what the hot path computed before the table
        mine, theirs, avail = c
        claim = rank_codes(mine[0].code, mine[1].code, mine[2].code)
        codes = tuple(d.code for d in theirs)
        best = claim_table.best_completion(codes, avail)
        if best is None:
            return True
        full = codes + best
        return rank_codes(full[0], full[1], full[2]) <= claim

    # The cheap rows run in ROUNDS interleaved rounds (each row once per round, in the same
    # order); each case's time is its fastest round, which drops the moments another process
    # had the core, for every row alike.
    cheap: dict[str, tuple[Callable[[Any], Any], list[Any], Callable[[], None] | None]] = {
        "dict": (lambda p: int_dict[p[1]], prepared, None),
        "tuple_dict": (lambda p: tuple_dict[p[4]], prepared, None),
        "exact": (lambda c: claim_verdict(*c, backend="exact").safe, cases, memo.clear),
        "readme_form": (lambda c: claim_verdict(*c).safe, letters, memo.clear),
        "readme_lists": (lambda c: claim_verdict(*c).safe, colours, memo.clear),
        "readme_call": (lambda c: claim_verdict(*c).safe, [readme] * count, memo.clear),
        "readme_parse": (
            lambda _: claim_verdict(parse_dice("k4 r5 b6"), parse_dice("g5 g6"), {"g": 1}).safe,
            [None] * count,
            memo.clear,
        ),
        "exact_cold": (cold, cases, None),
        "exact_codes": (lambda p: claim_is_safe(p[0], p[1]), prepared, None),
        "exact_from_codes": (lambda p: claim_is_safe_codes(p[0], p[2], p[3]), prepared, None),
        "closed_form": (old_hot_path, cases, None),
        **_before_rows(cases, letters, readme),
    }
    best_times, answers = _run_rounds(cheap)
    exact_t, exact_a = best_times["exact"], answers["exact"]
    cold_t, cold_a = best_times["exact_cold"], answers["exact_cold"]
    dict_t, tuple_dict_t = best_times["dict"], best_times["tuple_dict"]
    codes_t, codes_a = best_times["exact_codes"], answers["exact_codes"]
    from_codes_t, from_codes_a = best_times["exact_from_codes"], answers["exact_from_codes"]
    closed_t, closed_a = best_times["closed_form"], answers["closed_form"]
    brute_t, brute_a = _time_per_case(lambda c: brute_force_safe(*c), cases)
    cp_stats: list[cpsat.CpSatStats] = []

    def run_cpsat(c: Case) -> bool:
        verdict, stats = cpsat.solve_claim(*c)
        cp_stats.append(stats)
        return verdict.safe

    cpsat_t, cpsat_a = _time_per_case(run_cpsat, cases)
    z3_t, z3_a = _time_per_case(lambda c: claim_verdict(*c, backend="z3").safe, cases)
    _check_agree([exact_a, cold_a, codes_a, from_codes_a, closed_a, brute_a, cpsat_a, z3_a,
                  answers["readme_form"], answers["readme_lists"]])
    if {*answers["readme_call"], *answers["readme_parse"]} != {readme_safe}:
        raise AssertionError("the README's call disagrees with the brute force")
    _check_before(answers, exact_a, readme_safe)

    methods = {
        "dict": dict_t,
        "tuple_dict": tuple_dict_t,
        "exact": exact_t,
        "readme_form": best_times["readme_form"],
        "readme_lists": best_times["readme_lists"],
        "readme_call": best_times["readme_call"],
        "readme_parse": best_times["readme_parse"],
        "exact_cold": cold_t,
        "exact_codes": codes_t,
        "exact_from_codes": from_codes_t,
        "closed_form": closed_t,
        "brute": brute_t,
        "cpsat": cpsat_t,
        "z3": z3_t,
        **{name: best_times[name] for name in BEFORE_ROWS if name in best_times},
    }
    table = {name: _method_summary(t, cases, brute_t, dict_t) for name, t in methods.items()}
    # Paired ratio: brute / exact on the same case.
    paired = [b / e for b, e in zip(brute_t, exact_t, strict=True)]
    table["exact"]["paired_ratio_median"] = statistics.median(paired)
    table["exact"]["paired_ratio_min"] = min(paired)
    paired = [b / e for b, e in zip(brute_t, codes_t, strict=True)]
    table["exact_codes"]["paired_ratio_median"] = statistics.median(paired)
    table["exact_codes"]["paired_ratio_min"] = min(paired)
    table["cpsat"]["solver_wall_median_us"] = (
        statistics.median(s.wall_time for s in cp_stats) * 1e6
    )
    table["cpsat"]["solver_deterministic_median"] = statistics.median(
        s.deterministic_time for s in cp_stats
    )
    return {
        "cases": count,
        "seed": SEED,
        "table_build_seconds": build,
        "unsafe": sum(1 for a in exact_a if not a),
        "verdicts_agree": True,
        "methods": table,
    }


def endgame_positions(tiles_left: int, count: int) -> list[tuple[int, Any]]:
    """Start-of-turn positions (before the roll) with ``tiles_left`` tiles not yet won (in the
    row and face down; the stack is empty for four or fewer), from seeded greedy games: the first
    such position of each game, games seeded 0, 1, 2, ... until ``count`` are found."""
    from banditsolve.banditos.players import greedy_player
    from banditsolve.banditos.rules import apply, sample_chance
    from banditsolve.banditos.state import initial_state

    found: list[tuple[int, Any]] = []
    seed = 0
    while len(found) < count and seed < 5000:
        rng = random.Random(seed)
        seed += 1
        state = initial_state()
        while state.winner is None:
            if state.is_chance:
                state = apply(state, sample_chance(state, rng))
                continue
            in_row = sum(1 for slot in state.row if slot is not None)
            left = in_row + state.stack_size
            if not state.rolled and left == tiles_left and (left > 4 or state.stack_size == 0):
                found.append((seed - 1, state))
                break
            if left < tiles_left:
                break
            state = apply(state, greedy_player(state, rng))
    return found


def _solve(make: Callable[[], Any], state: Any) -> tuple[float, Any, int, bool, float]:
    """Seconds, the value (``None`` if a limit stopped it), nodes, whether it finished, and
    the process CPU seconds (the machine is shared: the wall clock includes waiting)."""
    from banditsolve.core.limits import LimitReached

    solver = make()
    start = time.perf_counter()
    cpu = time.process_time()
    try:
        value = solver.value(state)
        done = True
    except LimitReached:
        value, done = None, False
    elapsed = time.perf_counter() - start
    return elapsed, value, solver.nodes, done, time.process_time() - cpu


#: The commit whose compact search is the "before" of the exact best-turn rows (the search as it
#: was before the certain-win probe and the faster last tile), loaded from git in the same run.
BEFORE_COMMIT = "d9e5825"


def _before_search() -> Any:
    """The ``CompactSearch`` class of ``expectimax.py`` at :data:`BEFORE_COMMIT`, loaded from git
    as a module of its own (``None`` when git or the commit is not at hand)."""
    import subprocess
    import types

    try:
        source = subprocess.run(
            ["git", "show", f"{BEFORE_COMMIT}:src/banditsolve/banditos/solvers/expectimax.py"],
            capture_output=True, text=True, check=True, cwd=HERE.parent,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    # The draw table's name then was private; it is the same table.
    source = source.replace(
        "from banditsolve.banditos.rules import _draw_weights",
        "from banditsolve.banditos.rules import draw_weights as _draw_weights",
    )
    module = types.ModuleType("expectimax_before")
    sys.modules[module.__name__] = module  # registered as an imported module would be
    exec(compile(source, f"expectimax.py@{BEFORE_COMMIT}", "exec"), module.__dict__)
    return module


class _BeforeSolver:
    """The "before" search with the interface :func:`_solve` asks for."""

    def __init__(self, module: Any, limit: float, options: Any) -> None:
        from banditsolve.core.limits import Budget, Limits

        self.budget = Budget(Limits(time_limit=limit), check_every=128)
        self.module = module
        self.search = module.CompactSearch(options, self.budget)

    @property
    def nodes(self) -> int:
        return self.budget.nodes

    def value(self, state: Any) -> Fraction:
        num, den = self.search.value(self.module.compact(state))
        return Fraction(num, den)


def bench_endgames(quick: bool) -> dict[str, Any]:
    from banditsolve.banditos.puzzles import load_puzzles
    from banditsolve.banditos.solvers.endgame import best_turn

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    rows = []
    for puzzle in load_puzzles():
        if puzzle.question != "best":
            continue
        state = puzzle.state()
        times = []
        result = None
        for _ in range(1 if quick else 3):
            start = time.perf_counter()
            result = best_turn(state, time_limit=60.0)
            times.append(time.perf_counter() - start)
        assert result is not None
        rows.append(
            {
                "id": puzzle.id,
                "median_ms": statistics.median(times) * 1e3,
                "method": result.method,
                "complete": result.complete,
                "nodes": result.nodes,
                "probability": str(result.probability),
                "probability_float": float(result.probability),
            }
        )
    return {"puzzles": rows, **bench_by_tiles(quick)}


def next_turns(state: Any) -> dict[int, int]:
    """The structure of a turn: the different positions at the start of the next turn that the
    player to move can reach from ``state`` (a start of a turn) over all draws and all their
    own decisions, by tiles left in play (0 for a game ended within the turn), counted on the
    compact search's keys (slots sorted, full sides reduced to their class)."""
    from banditsolve.banditos.solvers.compact import PLAYER0_WON, PLAYER1_WON, compact
    from banditsolve.banditos.solvers.expectimax import CompactSearch

    search = CompactSearch(state.options, probe=False)
    s = compact(state)
    me = s[4]
    rolled = search.chance((s[0], s[1], s[2], s[3], me, 1, s[6], s[7], s[8]))
    assert rolled is not None
    seen: set[Any] = set()
    ended = False
    for child, _w in rolled[0]:
        todo = [child]
        while todo:
            x = todo.pop()
            if x is PLAYER0_WON or x is PLAYER1_WON or x[2] >= 10 or x[3] >= 10:
                ended = True
            elif x[4] != me:
                seen.add(x)
            else:
                todo.extend(search.children(x))
    counts: dict[int, int] = {}
    for x in seen:
        counts[len(x[0])] = counts.get(len(x[0]), 0) + 1
    if ended:
        counts[0] = 1
    return dict(sorted(counts.items()))


def root_draws(state: Any, limit: float) -> dict[str, Any]:
    """How far the exact search gets within ``limit`` seconds of wall time on a start of a
    turn it does not finish: the roll's draws solved one after another (one shared table),
    each to its exact value, until the limit; the root's value needs every one of them."""
    from banditsolve.banditos.solvers.compact import compact
    from banditsolve.banditos.solvers.expectimax import CompactSearch
    from banditsolve.core.limits import Budget, LimitReached, Limits

    budget = Budget(Limits(time_limit=limit), check_every=128)
    search = CompactSearch(state.options, budget)
    s = compact(state)
    rolled = search.chance((s[0], s[1], s[2], s[3], s[4], 1, s[6], s[7], s[8]))
    assert rolled is not None
    outcomes, total = rolled
    done = weight = 0
    cpu = time.process_time()
    try:
        for child, w in outcomes:
            search.solve(child)
            done += 1
            weight += w
    except LimitReached:
        pass
    return {
        "draws": len(outcomes), "draws_done": done, "weight_done": weight / total,
        "cpu_seconds": time.process_time() - cpu, "nodes": budget.nodes,
        "turn_starts_solved": {
            str(n): sum(1 for k in search.memo if isinstance(k, tuple) and k[5] == 0
                        and len(k[0]) == n)
            for n in (4, 3, 2)
        },
    }


def principal_tree(state: Any, limit: float) -> dict[str, int] | None:
    """What perfect pruning could save at most: the positions the search without the probe
    expands for ``state``, and the size of the tree of best moves in that search (at each
    decision the first best move the search found, a certain result ending the choice as it
    does; at each chance step every outcome; a last tile counted once). Every proof of the
    exact value evaluates both players' best replies to each other under every outcome, so
    up to ties between equally good moves it contains this tree. ``None`` past ``limit``."""
    from banditsolve.banditos.solvers.compact import compact
    from banditsolve.banditos.solvers.expectimax import CompactSearch
    from banditsolve.core.limits import Budget, LimitReached, Limits

    budget = Budget(Limits(time_limit=limit), check_every=128)
    search = CompactSearch(state.options, budget, probe=False)
    root = compact(state)
    try:
        search.value(root)
    except LimitReached:
        return None
    expanded = budget.nodes
    seen: set[Any] = set()
    todo = [root]
    try:
        _best_moves(search, todo, seen)
    except LimitReached:
        return None
    return {"expanded": expanded, "best_move_tree": len(seen)}


def _best_moves(search: Any, todo: list[Any], seen: set[Any]) -> None:
    """:func:`principal_tree`'s walk: every position of the tree of best moves into ``seen``."""
    from banditsolve.banditos.solvers.compact import NO_STACK, PLAYER0_WON, PLAYER1_WON

    while todo:
        s = todo.pop()
        if s is PLAYER0_WON or s is PLAYER1_WON or s[2] >= 10 or s[3] >= 10 or s in seen:
            continue
        seen.add(s)
        if len(s[0]) == 1 and not s[7] and s[1] == NO_STACK:
            continue  # the last tile, solved on its own
        rolled = search.chance(s)
        if rolled is not None:
            todo.extend(child for child, _w in rolled[0])
            continue
        todo.append(_first_best_child(search, s))


def _first_best_child(search: Any, s: Any) -> Any:
    """The first child of decision ``s`` best for its mover, a certain result ending the choice."""
    from banditsolve.banditos.solvers.compact import PLAYER0_WON, PLAYER1_WON, Value

    maximise = s[4] == 0
    best: Value | None = None
    chosen = None
    for child in search.children(s):
        if child is PLAYER0_WON:
            v: Value = (1, 1)
        elif child is PLAYER1_WON:
            v = (0, 1)
        else:
            v = search.value(child)
        if best is None or (
            v[0] * best[1] > best[0] * v[1] if maximise else v[0] * best[1] < best[0] * v[1]
        ):
            best, chosen = v, child
            if (v[0] == v[1]) if maximise else v[0] == 0:
                break
    return chosen


def _by_tiles_methods(
    tiles_left: int, state: Any, before: Any, limit: float
) -> list[tuple[str, Callable[[], Any]]]:
    """The searches a position with ``tiles_left`` tiles left is timed with."""
    from banditsolve.banditos.solvers.endgame import CompactSolver, ExactSolver
    from banditsolve.core.limits import Limits

    methods: list[tuple[str, Callable[[], Any]]] = [
        ("compact", partial(CompactSolver, Limits(time_limit=limit), state.options)),
    ]
    if before is not None:
        methods.append(("before", partial(_BeforeSolver, before, limit, state.options)))
    if tiles_left <= 4:
        no_probe = partial(CompactSolver, Limits(time_limit=limit), state.options, probe=False)
        methods.append(("no_probe", no_probe))
    if tiles_left <= 3:
        methods.append(("old", partial(ExactSolver, Limits(time_limit=limit))))
    return methods


def _by_tiles_entry(
    seed: int, state: Any, tiles_left: int, before: Any, limit: float
) -> dict[str, Any]:
    """One position's searches (those that finished must agree) and its size's measures."""
    dice = sum(len(s.dice) for s in state.row if s is not None)
    entry: dict[str, Any] = {"seed": seed, "position": state.notation(), "dice": dice}
    methods = _by_tiles_methods(tiles_left, state, before, limit)
    for name, make in methods:
        seconds, value, nodes, done, cpu = _solve(make, state)
        entry[name] = {
            "seconds": seconds, "cpu_seconds": cpu, "nodes": nodes, "done": done,
            "value": None if value is None else str(value),
        }
    finished = [entry[n]["value"] for n, _ in methods if entry[n]["done"]]
    if len(set(finished)) > 1:
        raise AssertionError(f"exact searches disagree on {state.notation()}")
    if tiles_left <= 4:
        entry["next_turns"] = next_turns(state)
    if 2 <= tiles_left <= 3 and entry["no_probe"]["done"]:
        entry["principal"] = principal_tree(state, limit)
    if tiles_left == 4 and not entry["compact"]["done"]:
        entry["root_draws"] = root_draws(state, limit)
    entry["load"] = os.getloadavg()[0]
    return entry


def bench_by_tiles(quick: bool) -> dict[str, Any]:
    """The exact best-turn rows by tiles left (1 to 6), before and after in the same run."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    limit = 10.0
    per_row = 2 if quick else 5
    before = _before_search()
    by_tiles = []
    for tiles_left in range(1, 7):
        positions = endgame_positions(tiles_left, per_row)
        entries = [_by_tiles_entry(seed, state, tiles_left, before, limit)
                   for seed, state in positions]
        by_tiles.append({"tiles_left": tiles_left, "limit_seconds": limit, "positions": entries})
    before_note = None if before is None else f"expectimax.py at {BEFORE_COMMIT}"
    return {"by_tiles": by_tiles, "before": before_note}


def run(
    quick: bool = False, by_tiles_only: bool = False, claims_only: bool = False
) -> dict[str, object]:
    """Every row, or with ``by_tiles_only`` only the exact best-turn rows by tiles left, or
    with ``claims_only`` only the claim rows: the other rows are then kept from the last full
    run's JSON (its environment note says so)."""
    load = " ".join(f"{x:.1f}" for x in __import__("os").getloadavg())
    md_path = RESULTS / "banditos.md"
    json_path = RESULTS / "banditos.json"
    if by_tiles_only:
        previous = json.loads(json_path.read_text(encoding="utf-8"))
        env = previous["environment"]
        claims = previous["claims"]
        endgames = {**previous["endgames"], **bench_by_tiles(quick)}
        load_end = " ".join(f"{x:.1f}" for x in __import__("os").getloadavg())
        env["load"] = env["load"].split(" The best-turn rows by tiles left were rerun")[0] + (
            " The best-turn rows by tiles left were rerun alone (`--by-tiles`), load at the "
            f"start {load}, at the end {load_end}; the other rows are from the full run."
        )
    elif claims_only:
        previous = json.loads(json_path.read_text(encoding="utf-8"))
        env = previous["environment"]
        endgames = previous["endgames"]
        claims = bench_claims(quick)
        load_end = " ".join(f"{x:.1f}" for x in __import__("os").getloadavg())
        env["load"] = env["load"].split(" The claim rows were rerun")[0] + (
            f" The claim rows were rerun alone (`--claims`{_at_commit()}), load at the start "
            f"{load}, at the end {load_end}; the other rows are from the full run."
        )
    else:
        env = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "load": f"load average at the start {load} (1/5/15 min) on 2 cores: other work was "
            "running, so only ratios within this run mean much.",
        }
        claims = bench_claims(quick)
        load_mid = " ".join(f"{x:.1f}" for x in __import__("os").getloadavg())
        endgames = bench_endgames(quick)
        load_end = " ".join(f"{x:.1f}" for x in __import__("os").getloadavg())
        env["load"] += f" Load after the claim rows {load_mid}, at the end {load_end}."
    result: dict[str, object] = {
        "suite": "banditos",
        "quick": quick,
        "environment": env,
        "claims": claims,
        "endgames": endgames,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    md_path.write_text(markdown(claims, endgames, env), encoding="utf-8")
    json_path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    result["written"] = [str(md_path), str(json_path)]
    return result


def _at_commit() -> str:
    """``" at COMMIT"`` for the checkout the rows were measured on (empty without git)."""
    import subprocess

    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True,
            cwd=HERE.parent,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return f" at {commit}"


if __name__ == "__main__":
    from flags import read_flags  # the script's own folder

    on, _ = read_flags(__doc__, ("--quick", "--by-tiles", "--claims"))
    outcome = run(
        quick="--quick" in on, by_tiles_only="--by-tiles" in on, claims_only="--claims" in on
    )
    print((RESULTS / "banditos.md").read_text(encoding="utf-8"))
