"""The compiled core's map move (BA-CLOSE-2, ``csrc/closure/maps.cpp``) against the Python rules
and the independent map oracle: the removals it allows on seeded tables of every mode under
every reading of BA-OPT-1..4; its verdicts beside the oracle's search of every line and the
Python reference's answer, on seeded questions of every goal and every reading, each closable
certificate replayed by the Python rules and by the oracle; its limits, cancel flag and the
checks of its inputs.

``make sanitize`` runs this file against a build of the core instrumented with AddressSanitizer
and UBSan."""

from __future__ import annotations

import itertools
import random
import threading
import time
from collections import Counter

import pytest

from banditsolve.core.limits import Limits
from banditsolve.errors import SolverError
from banditsolve.tunnels import Closure, Table, can_close
from banditsolve.tunnels.bandida.maps import removal_indices
from banditsolve.tunnels.bandida.state import BandidaOptions
from banditsolve.tunnels.cards import KIND_INDEX, kind_index, parse_card
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.simulate import simulate
from banditsolve.tunnels.solvers import closure_core
from banditsolve.tunnels.solvers.compiled import (
    core_removals,
    map_data,
    problem_of,
    solve_compiled_maps,
)
from banditsolve.tunnels.solvers.goals import collapse, is_ladder, is_map
from banditsolve.tunnels.solvers.mapclose import Readings, replay
from banditsolve.tunnels.solvers.maplines import core_lines
from banditsolve.tunnels.state import GameState
from banditsolve.tunnels.table import legal_placements
from tests.bandida.map_oracle import MapTable, brute_close, replay_with_maps
from tests.bandida.test_map_closure import small_question
from tests.profiles import scaled
from tests.rules import rules

#: Every reading of the map (BA-OPT-1..4), the defaults first.
READINGS = [
    Readings(*r)
    for r in itertools.product(
        ("not_special", "not_super"), ("edges", "tunnels"), ("allowed", "forbidden"),
        ("as_many", "none"),
    )
]
MAP_CARDS = ("L+TL+TR:map", "L+TR+BR:map")
BANDIDO_SUPER = KIND_INDEX["bandido_super"]


def oracle_readings(r: Readings) -> dict[str, str]:
    return {"map_removes": r.removes, "map_split": r.split, "map_reopen": r.reopen,
            "map_short": r.short, "hole": r.hole}


def tables_with_a_map(games: int, every: int) -> list[Table]:
    """Tables of seeded games of every mode with a map just laid on them (a legal placement
    picked at random)."""
    out = []
    for mode in (1, 2, 3):
        for seed in range(games):
            rng = random.Random(seed * 10 + mode)
            for s in simulate(2, 300 + seed, BandidaOptions(mode=mode))[2::every]:
                if not s.table.exit_count:
                    continue
                options = legal_placements(s.table, parse_card(rng.choice(MAP_CARDS)))
                if options:
                    out.append(s.table.place(rng.choice(options)))
    return out


def check_removals(tables: list[Table], oracle_every: int) -> Counter[str]:
    seen: Counter[str] = Counter()
    for n, table in enumerate(tables):
        for readings in READINGS:
            python = sorted(removal_indices(table, *readings.removal).each())
            core = core_removals(table, readings)
            assert core is not None
            assert sorted(core) == python, ([str(p) for p in table.history], readings)
            seen[f"{len(python[0]) if python else 0} cards"] += 1
            if n % oracle_every == 0:
                oracle = MapTable(table.history).removals(oracle_readings(readings))
                assert {frozenset(c) for c in core} == set(oracle), readings
    return seen


@rules("BA-OBJ-5", "BA-OBJ-6", "BA-OPT-1", "BA-OPT-2", "BA-OPT-3", "BA-OPT-4")
def test_the_cores_removals_are_the_rules_removals() -> None:
    """On seeded tables of every mode (the ladder, Bandido's super card, earlier maps among
    their cards) with a map just laid, the core lists exactly the removals of
    ``bandida.maps.removal_indices`` under each of the 16 readings, and those of the oracle's
    own count (every set tried, a breadth-first search of the rest) on some."""
    seen = check_removals(tables_with_a_map(scaled(1, 4), 12), 4)
    assert seen["3 cards"], seen
    assert seen["2 cards"] + seen["1 cards"] + seen["0 cards"], seen


@pytest.mark.slow
def test_the_cores_removals_are_the_rules_removals_on_many_tables() -> None:
    check_removals(tables_with_a_map(30, 3), 3)


def core_answer(
    table: Table, cards: list[int], goal: str, readings: Readings, limit: float = 60.0
) -> Closure:
    """The compiled map search alone (no search without the maps first, no relaxation): its
    certificate replayed by the Python rules before it is returned."""
    codes = tuple(sorted(cards))
    found = core_lines(
        table, codes, goal=goal, readings=readings, area=None, budget=len(codes),
        deadline=time.perf_counter() + limit, node_limit=None,
    )
    assert found is not None
    if found.status == "closable":
        replay(table, found.placements, found.removals, readings, goal)
    return found


def check_small(seeds: range, readings: Readings) -> Counter[str]:
    """Small questions: the core's verdict is the oracle's search of every line's, and every
    closable line replays on the oracle."""
    seen: Counter[str] = Counter()
    for seed in seeds:
        table, cards = small_question(seed)
        if not table.exit_count:
            continue
        result = core_answer(table, cards, "close", readings)
        assert result.status != "unknown", result.reason
        truth = brute_close(table, cards, oracle_readings(readings))
        assert (result.status == "closable") == truth, (seed, readings, result.reason)
        if result.status == "closable":
            replay_with_maps(table, result, oracle_readings(readings))
            seen["removal" if result.removals else "closable"] += 1
        else:
            seen["impossible"] += 1
    return seen


@rules("BA-CLOSE-2", "BA-OBJ-5", "BA-OBJ-6", "BA-END-2", "BA-OPT-1", "BA-OPT-3", "BA-OPT-4")
def test_the_cores_verdicts_are_the_oracles() -> None:
    """Small questions with a map (map-free lines included) under each of the 16 readings,
    other questions for each: the compiled search's verdict is the oracle's, its closable
    lines replay on the rules and the oracle, and lines that take cards off are among them."""
    seen: Counter[str] = Counter()
    n = scaled(3, 12)
    for k, readings in enumerate(READINGS):
        seen += check_small(range(k * n, (k + 1) * n), readings)
    assert seen["removal"], seen
    assert seen["impossible"], seen
    assert seen["closable"], seen


@pytest.mark.slow
@pytest.mark.parametrize("readings", READINGS, ids=lambda r: "-".join(r))
def test_the_cores_verdicts_are_the_oracles_on_many_questions(readings: Readings) -> None:
    check_small(range(1000, 1150), readings)


def mode_questions(mode: int, games: int, size: int) -> list[tuple[GameState, list[int]]]:
    """States of seeded games of ``mode`` and ``size`` of their cards not yet played, a map
    card among them (the mode's goal asks for the ladder and the join in modes 2 and 3)."""
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        for s in simulate(2, 500 + seed, BandidaOptions(mode=mode))[3:-1:6]:
            pick = map_question(s, rng, size)
            if pick is not None:
                out.append((s, pick))
    return out


def map_question(s: GameState, rng: random.Random, size: int) -> list[int] | None:
    """A map card, the goal's cards first (the ladder, Bandido's super card, then any object),
    then others drawn by ``rng``: ``size + 1`` of the cards ``s`` has not played, or None when
    ``s`` asks no such question (a chance node, a game over, a map under way, no map left, or
    no exit)."""
    if s.is_chance or s.outcome is not None or getattr(s, "pending", "") == "map":
        return None
    cards = [*s.hands[s.to_act], *s.pile]
    maps = [c for c in cards if is_map(c)]
    if not maps or not s.table.exit_count:
        return None
    special = sorted(
        (c for c in cards if not is_map(c) and c & ~0x3F),
        key=lambda c: (not is_ladder(c), kind_index(c) != BANDIDO_SUPER, c),
    )
    others = [c for c in cards if not is_map(c) and not c & ~0x3F]
    pick = [maps[0], *special[:2], *rng.sample(others, min(size, len(others)))]
    return pick[: size + 1]


def check_modes(mode: int, games: int, size: int, readings: Readings) -> Counter[str]:
    """Each question asked of the default route (``backend="exact"``: the compiled search
    without the maps, the relaxation, the compiled map search) and of the compiled map search
    alone, beside the Python reference (its own search without the maps, line search and
    relaxation): the same verdicts wherever both decide; every closable line replayed by the
    Python rules with the goal checked, and by the oracle."""
    goal = {1: "close", 2: "ladder", 3: "join"}[mode]
    options = oracle_readings(readings)
    seen: Counter[str] = Counter()
    for s, cards in mode_questions(mode, games, size):
        ref = can_close(
            s.table, cards, backend="python", goal=goal, time_limit=6, workers=1,
            options=options, hypothetical=True,
        )
        exact = can_close(
            s.table, cards, backend="exact", goal=goal, time_limit=6, workers=1,
            options=options, hypothetical=True,
        )
        core = core_answer(s.table, cards, goal, readings, 3.0)
        for name, r in (("exact", exact), ("core", core)):
            seen[f"{name} {r.status}"] += 1
            if r.status == "closable":
                replay_with_maps(s.table, r, options)
                seen["removal"] += bool(r.removals)
            if "unknown" not in (r.status, ref.status):
                assert r.status == ref.status, (name, mode, readings, r.reason, ref.reason)
                seen["compared"] += 1
    return seen


@rules("BA-CLOSE-1", "BA-CLOSE-2", "BA-MODE-2", "BA-MODE-4", "BA-OPT-1", "BA-OPT-2")
@pytest.mark.parametrize("mode", [1, 2, 3])
@pytest.mark.parametrize("readings", [READINGS[0], READINGS[-1]], ids=["defaults", "others"])
def test_the_cores_verdicts_are_the_python_references(mode: int, readings: Readings) -> None:
    """Seeded questions of each mode's goal (the ladder on the table at the end, the super
    cards joined through the tunnels) under the default readings and under every other one:
    the same verdicts as the Python reference wherever both decide."""
    seen = check_modes(mode, scaled(2, 6), 3, readings)
    assert seen["compared"] >= 4, seen


@pytest.mark.slow
@pytest.mark.parametrize("mode", [1, 2, 3])
@pytest.mark.parametrize("readings", READINGS, ids=lambda r: "-".join(r))
def test_the_cores_verdicts_are_the_python_references_on_many(
    mode: int, readings: Readings
) -> None:
    check_modes(mode, 10, 5, readings)


def hard_question() -> tuple[Table, tuple[int, ...]]:
    """A mode-1 question the map search does not finish within seconds (a seeded state of the
    closure benchmark: a cell none of the cards can fill until a map takes a card off, the
    next ten cards in play)."""
    s = simulate(2, 2001, BandidaOptions(mode=1))[12]
    cards = [*s.hands[s.to_act], *s.pile][:10]
    assert any(is_map(c) for c in cards)
    codes = (*collapse(c for c in cards if not is_map(c)), *(c for c in cards if is_map(c)))
    return s.table, tuple(sorted(codes))


def test_the_map_search_keeps_its_time_limit_and_its_cancel_flag() -> None:
    """A question the map search cannot finish at once: it stops at its time limit (within
    0.2 s), and at once when the cancel flag is set from another thread (it releases the
    GIL: the thread runs while it searches)."""
    table, cards = hard_question()
    start = time.perf_counter()
    r = solve_compiled_maps(table, cards, goal="close", readings=READINGS[0], max_cards=None,
                            bounds=None, limits=Limits(0.3, None))
    spent = time.perf_counter() - start
    assert r is not None
    if r.status != "unknown":
        pytest.skip(f"decided within 0.3 s ({r.status}): no limit to test")
    assert spent < 0.5, spent
    flag = bytearray(1)
    timer = threading.Timer(0.2, lambda: flag.__setitem__(0, 1))
    timer.start()
    start = time.perf_counter()
    r = solve_compiled_maps(table, cards, goal="close", readings=READINGS[0], max_cards=None,
                            bounds=None, limits=Limits(30.0, None), cancel=flag)
    timer.join()
    assert r is not None
    assert r.status == "unknown"
    assert "cancelled" in r.reason
    assert time.perf_counter() - start < 2.0


def test_the_cores_map_inputs_are_checked() -> None:
    """Map data the core was not written for is refused with an error, never read: a kind per
    type missing, table cards that do not cover the table's cells, cells of a card apart, a
    goal or a reading that is none of the rules'."""
    table, cards = hard_question()
    problem = problem_of(table, cards, len(cards), None, ())
    assert problem is not None
    kinds, table_cards, flags, goal = map_data(table, problem.codes, READINGS[0], "close")
    args = (problem.cells, problem.types, problem.required, None, len(cards), 1, 100, 1.0, None)
    with pytest.raises(ValueError, match="one kind per card type"):
        closure_core.solve(*args, (kinds[:-1], table_cards, flags, goal))
    with pytest.raises(ValueError, match="cover exactly"):
        closure_core.solve(*args, (kinds, table_cards[:-1], flags, goal))
    (ax, ay, _bx, _by, k) = table_cards[-1]
    apart = [*table_cards[:-1], (ax, ay, ax + 5, ay, k)]
    with pytest.raises(ValueError, match="neighbours"):
        closure_core.solve(*args, (kinds, apart, flags, goal))
    with pytest.raises(ValueError, match="goal"):
        closure_core.solve(*args, (kinds, table_cards, flags, 7))
    with pytest.raises(SolverError):
        solve_compiled_maps(table, cards, goal="close", readings=("edges",) * 4,
                            max_cards=None, bounds=None, limits=Limits(1.0, None))
    with pytest.raises(SolverError):
        solve_compiled_maps(table, cards, goal="escape", readings=READINGS[0],
                            max_cards=None, bounds=None, limits=Limits(1.0, None))
    ok = closure_core.solve(*args, (kinds, table_cards, flags, goal))
    assert ok["status"] in ("closable", "impossible", "unknown")


def three_before_the_map() -> tuple[Table, list[int]]:
    """A question whose only closures lay three plain cards before the map: the map must take
    three cards off (BA-OPT-4 ``as_many``), and the only three it may take without losing the
    game are three cards laid for it to take (found among seeded small questions with six
    plain cards; the oracle's search of every line says closable)."""
    table = Table.start("L+R")
    for name, x, y, rotation in (("L", 2, 0, 0), ("L+TR+BR", -1, 1, 270)):
        table = table.place(Placement(parse_card(name), x, y, rotation))
    names = ("L+TR+BR:map", "L+BL", "TL+BR", "TL+BR", "L+TL", "TL+TR", "TR")
    return table, [parse_card(n) for n in names]


@rules("BA-CLOSE-2", "BA-OPT-4")
def test_a_line_may_lay_three_plain_cards_before_its_map() -> None:
    """The plain cards a line lays before its map are not capped below the budget: the
    compiled search (alone, and on the default route) finds a line with at least three
    before the map, the Python reference agrees, and the line replays by the rules."""
    table, cards = three_before_the_map()
    assert can_close(table, [c for c in cards if not is_map(c)], hypothetical=True,
                     backend="exact").status == "impossible"
    for found in (
        core_answer(table, cards, "close", READINGS[0], 20.0),
        can_close(table, cards, backend="exact", time_limit=20, hypothetical=True),
    ):
        assert found.status == "closable", found.reason
        first_map = next(i for i, p in enumerate(found.placements) if is_map(p.card))
        assert first_map >= 3, found.placements
        replay(table, found.placements, found.removals, READINGS[0], "close")
    ref = can_close(table, cards, backend="python", time_limit=20, hypothetical=True)
    assert ref.status == "closable", ref.reason
