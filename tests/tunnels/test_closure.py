"""Closure solver: certificates replayed through the oracle, impossibility checked against a
second backend or the plain search, and the backends compared on generated cases."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

import pytest

from banditsolve.errors import ArgumentTypeError, SolverError
from banditsolve.tunnels import (
    Closure,
    GameState,
    Table,
    can_close,
    min_cards_to_close,
    new_game,
    parse_position,
    plain_search,
)
from banditsolve.tunnels.cards import PORT_MASK, as_code
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.simulate import simulate
from banditsolve.tunnels.solvers.bounds import (
    colour_balance,
    cover_bound,
    front_cover,
    min_cards_for_balance,
)
from tests.profiles import scaled
from tests.rules import rules
from tests.tunnels.helpers import to_footprint
from tests.tunnels.oracle import PlainTable, is_legal


def replay(table: Table, result: Closure) -> None:
    """Lay the certificate on the oracle's plain table: each legal, no exit at the end."""
    plain = PlainTable()
    for p in table.history:
        plain.add(to_footprint(p))
    for p in result.placements:
        fp = to_footprint(p)
        assert is_legal(plain, fp), f"{p} is not legal when laid"
        plain.add(fp)
    assert not plain.exits()


def positions(seeds: range, every: int = 4) -> list[GameState]:
    """Every ``every``-th state of the seeded simulated games, from the deal, unfinished."""
    return [s for seed in seeds for s in simulate(2, seed)[:-1][::every]]


def cards_of(s: GameState, n: int) -> list[int]:
    return (list(s.hands[s.player]) + list(s.pile))[:n]


def closure_first(s: GameState, closure: Closure, n: int) -> list[int]:
    """``n`` cards of those in play: the cards of ``closure`` first, then the next cards in
    play not already taken (so no card has more copies than the deck holds)."""
    cards = [p.card for p in closure.placements]
    left = Counter(s.remaining()) - Counter(cards)
    for c in list(s.hands[s.player]) + list(s.pile):
        if left[c] > 0:
            left[c] -= 1
            cards.append(c)
    return cards[:n]


def leaning_closable(s: GameState, n: int) -> list[int]:
    """``n`` cards that close the table more often than the next ``n``: the cards of a closure
    of at most 5 from the whole remaining pile (when one is found within a second), then the
    next cards in play."""
    found = min_cards_to_close(s.table, s.remaining(), max_cards=5, time_limit=1)
    if found.status == "closable":
        return closure_first(s, found, n)
    return cards_of(s, n)


@rules("BD-CLOSE-1", "BD-CLOSE-3")
def test_start_closes_with_dead_ends_and_minimum() -> None:
    table = Table.start("super6")
    result = min_cards_to_close(table, ["TL+TR"] * 2 + ["L"] * 2, backend="exact")
    assert result.status == "closable"
    assert result.minimum
    assert result.cards == 4
    replay(table, result)
    fewer = can_close(table, ["TL+TR"] * 2 + ["L"] * 2, max_cards=3)
    assert fewer.status == "impossible"


@rules("BD-CLOSE-2")
def test_impossibility_reasons() -> None:
    hole = parse_position(
        "bandido L+TL+TR+R+BR+BL@0,0,0 L+BR@-1,-1,0 TL@-2,-1,90 TR@-1,1,0 | L*3 TL+BL*2"
    )
    r = can_close(hole)
    assert r.status == "impossible"
    assert "hole" in r.reason
    # More copies than the deck holds: a made-up question, so it says so.
    r = can_close(Table.start(), ["L"] * 5, hypothetical=True)
    assert r.status == "impossible"
    assert "openings" in r.reason
    r = can_close(Table.start(), ["L"] * 3 + ["L+R"] * 4, hypothetical=True)
    assert r.status == "impossible"
    assert r.reason


@rules("BD-CLOSE-2")
def test_limits_give_unknown_never_a_verdict() -> None:
    table = Table.start()
    cards = ["L", "L+TL+TR", "L+R", "L+TL+TR+R", "L+BL", "TL+BL", "L+TR+BL", "L+TL+R+BL"]
    r = can_close(table, cards, node_limit=5, backend="exact")
    assert r.status == "unknown"
    assert not r.placements
    with pytest.raises(SolverError):
        can_close(table, cards, backend="nope")


@rules("BD-CLOSE-4")
def test_bounded_table() -> None:
    table = Table.start("super6")
    cards = ["TL+TR"] * 2 + ["L"] * 2
    assert can_close(table, cards, bounds=(-2, -1, 3, 1)).status == "closable"
    r = can_close(table, cards, bounds=(-1, 0, 2, 1))
    assert r.status == "impossible"
    assert "outside the play area" in r.reason
    for backend in ("cpsat", "z3"):
        assert can_close(table, cards, bounds=(-1, 0, 2, 1), backend=backend).status == (
            "impossible"
        )
        ok = can_close(table, cards, bounds=(-2, -1, 3, 1), backend=backend)
        assert ok.status == "closable"
        replay(table, ok)
        assert all(-2 <= c[0] <= 3 and -1 <= c[1] <= 1 for p in ok.placements for c in p.cells)


def closable_more_often(s: GameState, cards: list[int]) -> list[int]:
    """A case built to be closable more often: the cards of a small closure, plus one (or
    ``cards`` when no closure of at most 4 cards is found within 0.5 s)."""
    found = can_close(s.table, s.remaining(), backend="exact", time_limit=0.5)
    if found.status == "closable" and found.cards <= 4:
        return closure_first(s, found, found.cards + 1)
    return cards


def agrees_with(exact: Closure, other: Closure, s: GameState) -> int:
    """1 when ``other`` answered (then its status, its minimum and its proof of the minimum are
    ``exact``'s, and its certificate replays), 0 when it said unknown."""
    if other.status == "unknown":
        return 0
    assert other.status == exact.status, (exact.reason, other.reason)
    if other.status == "closable":
        assert other.cards == exact.cards
        assert other.minimum
        replay(s.table, other)
    return 1


@rules("BD-CLOSE-1", "BD-CLOSE-2", "BD-CLOSE-3", "BD-CLOSE-5")
def test_backends_agree_on_generated_cases() -> None:
    """Exact vs CP-SAT vs Z3 on generated cases of 2-5 cards (150 by default, 250 under CI),
    statuses and minima equal, every certificate replayed; impossible ones confirmed by the
    plain search. (Z3 ran on every sixth case while its counts were sums of if-then-else
    terms; as native pseudo-Boolean constraints all 150 cost it about a second.)"""
    states = positions(range(12), every=3)
    cases = [(s, n) for s in states for n in (2, 3, 4, 5)]
    rng = random.Random(5)
    rng.shuffle(cases)
    count = scaled(150, 250)
    cases = cases[:count]
    assert len(cases) == count
    closable = impossible = compared = z3_compared = 0
    for i, (s, n) in enumerate(cases):
        cards = cards_of(s, n)
        if i % 2 == 0:
            cards = closable_more_often(s, cards)
        exact = min_cards_to_close(s.table, cards, backend="exact")
        assert exact.status != "unknown"
        compared += agrees_with(exact, min_cards_to_close(s.table, cards, backend="cpsat"), s)
        z = min_cards_to_close(s.table, cards, backend="z3", time_limit=5)
        z3_compared += agrees_with(exact, z, s)
        if exact.status == "closable":
            replay(s.table, exact)
            closable += 1
        else:
            impossible += 1
            if i % 8 == 0 and n <= 4:
                plain = plain_search(s.table, cards, time_limit=5)
                assert plain.status in ("impossible", "unknown")
    assert closable >= 5
    assert impossible >= 10
    assert compared >= 0.9 * count  # CP-SAT answered nearly every case
    assert z3_compared >= 0.9 * count  # and so did Z3


@pytest.mark.slow
@rules("BD-CLOSE-1")
def test_whole_pile_answers_are_honest() -> None:
    """With the whole remaining pile the search often runs out of time (see the benchmark);
    every answer it does give is checked."""
    for s in positions(range(2), every=10):
        r = can_close(s.table, s.remaining(), time_limit=2)
        if r.status == "closable":
            replay(s.table, r)
        elif r.status == "impossible":
            assert r.reason


def test_json_form() -> None:
    r = can_close(Table.start("super6"), ["TL+TR"] * 2 + ["L"] * 2)
    data = r.to_json()
    assert data["status"] == "closable"
    placements = data["placements"]
    assert isinstance(placements, list)
    assert set(placements[0]) == {"card", "x", "y", "rotation"}


# A table of three cards with six exits: ten cards without a dead end cannot close it (CP-SAT
# proves it in about half a minute; the covering bound lets the exact search prove it at once).
_SIX_EXITS = (
    Placement(63, 0, 0, 0),
    Placement(18, 2, -1, 90),
    Placement(9, 1, 1, 90),
)
_TEN_CARDS = [
    "L+TL+R", "L+TL+TR+R", "L+TL+BL", "L+TL+R+BR", "L+TL",
    "L+TL+TR+R", "L+TL+BR", "TL+TR+BR", "L+R", "L+TL+TR+BL",
]  # fmt: skip


@rules("BD-CLOSE-2")
def test_cover_bound_counts_front_cells() -> None:
    # Two far-apart front cells need two cards whatever their openings.
    pairs = {(0, 0): 0b0010, (1, 0): 0b1000, (5, 5): 0, (7, 7): 0b1111}
    assert cover_bound(pairs) == 3
    assert cover_bound({(0, 0): 0, (1, 0): 0}) == 2
    table = Table.empty().place_all(_SIX_EXITS)
    assert table.exit_count == 6
    assert front_cover(table, [as_code(c) for c in _TEN_CARDS]) <= 6


@rules("BD-CLOSE-2")
def test_cover_bound_decides_a_former_unknown() -> None:
    table = Table.empty().place_all(_SIX_EXITS)
    # Generous limits: these finish in about a second, but CI machines may be loaded.
    r = can_close(table, _TEN_CARDS, backend="exact", time_limit=60)
    assert r.status == "impossible"
    for m in (5, 6, 7):
        assert can_close(table, _TEN_CARDS, max_cards=m, backend="exact").status == "impossible"
        cp = can_close(table, _TEN_CARDS, max_cards=m, backend="cpsat", time_limit=120)
        assert cp.status == "impossible"


@pytest.mark.slow
@rules("BD-CLOSE-2")
def test_cover_bound_former_unknown_confirmed_by_cpsat() -> None:
    table = Table.empty().place_all(_SIX_EXITS)
    cp = can_close(table, _TEN_CARDS, backend="cpsat", time_limit=120)
    assert cp.status in ("impossible", "unknown")


@rules("BD-CLOSE-2", "BD-CLOSE-3")
def test_covering_bounds_agree_with_cpsat_on_generated_cases() -> None:
    """The covering bound and the tight-budget filter are pruning rules: on generated cases
    with many exits and a small card budget (where they bite), the exact search must agree
    with CP-SAT, its certificates replay, and the bound never exceeds a proven minimum."""
    states = [s for s in positions(range(20, 30), every=3) if s.table.exit_count >= 3]
    rng = random.Random(11)
    rng.shuffle(states)
    checked = 0
    for s in states[:40]:
        cards = cards_of(s, 8)
        for m in (3, 4):
            exact = min_cards_to_close(s.table, cards, max_cards=m, backend="exact")
            cp = min_cards_to_close(s.table, cards, max_cards=m, backend="cpsat", time_limit=10)
            assert exact.status != "unknown"
            if cp.status != "unknown":
                checked += 1
                assert cp.status == exact.status
                if exact.status == "closable":
                    assert cp.cards == exact.cards
            if exact.status == "closable":
                replay(s.table, exact)
                assert front_cover(s.table, cards) <= exact.cards
    assert checked >= 40


def _balance_by_knapsack(skews: tuple[int, int, int], balance: int) -> int | None:
    """The reference: a knapsack over the cards one at a time, each with either sign (the
    fewest cards whose signed skews add up to each total seen so far)."""
    best = {0: 0}
    for value, count in enumerate(skews, start=1):
        for _ in range(count):
            step = dict(best)
            for total, used in best.items():
                for v in (total + value, total - value):
                    step[v] = min(step.get(v, used + 1), used + 1)
            best = step
    return best.get(balance)


@rules("BD-CLOSE-2")
def test_the_balance_bound_is_the_knapsacks_on_every_small_card_set() -> None:
    """The closed form (a double loop over the cards of skew 2 and 3) against the knapsack
    over the cards, on every set of up to 6 cards of each skew and every balance to 30."""
    for c1, c2, c3 in itertools.product(range(7), repeat=3):
        skews = (c1, c2, c3)
        for balance in range(31):
            assert min_cards_for_balance(skews, balance) == _balance_by_knapsack(
                skews, balance
            ), (skews, balance)


@rules("BD-CLOSE-2")
def test_colour_balance() -> None:
    assert min_cards_for_balance((0, 0, 0), 2) is None
    assert min_cards_for_balance((3, 0, 0), 2) == 2
    assert min_cards_for_balance((0, 1, 1), 1) == 2
    assert min_cards_for_balance((0, 0, 1), 2) is None
    assert colour_balance(Table.start()) == 0
    table = Table.start().place(Placement(3, 0, -1, 180))
    assert colour_balance(table) == 2
    # Every card has as many openings on each square: the balance of 2 cannot be met.
    cards = ["L+R", "TL+TR", "L+BR", "TL+R", "BL+TR", "L+TL+TR+R", "L+TL+BR+R"]
    r = can_close(table, cards, backend="exact")
    assert r.status == "impossible"
    assert "chessboard" in r.reason
    cp = can_close(table, cards, backend="cpsat", time_limit=30)
    assert cp.status in ("impossible", "unknown")


@rules("BD-CLOSE-2", "BD-CLOSE-3")
def test_exact_minimum_matches_cpsat_on_middle_sized_cases() -> None:
    """The exact search prunes with proven lower bounds (stored per node and used to skip whole
    levels of the deepening), a forward check before each card is laid and the tight-budget
    filter: on cases of 6-8 cards with up to 5 laid, its answers and minima must equal
    CP-SAT's."""
    states = [s for s in positions(range(40, 60), every=3) if s.table.exit_count <= 7]
    rng = random.Random(17)
    rng.shuffle(states)
    checked = closable = 0
    for i, s in enumerate(states[: scaled(24, 60)]):
        n = rng.choice((6, 7, 8))
        cards = leaning_closable(s, n) if i % 2 == 0 else cards_of(s, n)
        exact = min_cards_to_close(s.table, cards, max_cards=5, backend="exact", workers=1)
        cp = min_cards_to_close(s.table, cards, max_cards=5, backend="cpsat", time_limit=20)
        assert exact.status != "unknown"
        if exact.status == "closable":
            closable += 1
            replay(s.table, exact)
        if cp.status != "unknown":
            checked += 1
            assert cp.status == exact.status, (exact.reason, cp.reason)
            if exact.status == "closable":
                assert cp.cards == exact.cards
    assert checked >= 0.8 * scaled(24, 60)
    assert closable >= 3


@rules("BD-CLOSE-1", "BD-CLOSE-3")
def test_search_shared_among_processes_gives_the_same_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With every level of the deepening shared among two forked processes, the answers, the
    minima and the certificates equal those of one process."""
    import multiprocessing

    from banditsolve.tunnels.solvers import parallel
    from banditsolve.tunnels.solvers.exact import ExactSearch

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    states = positions(range(60, 66), every=5)
    cases = [(s, n) for s in states for n in (5, 8)][: scaled(12, 30)]
    serial = [
        min_cards_to_close(s.table, cards_of(s, n), backend="python", workers=1) for s, n in cases
    ]
    monkeypatch.setattr(parallel, "SPLIT_AFTER", 0.0)
    splits = []
    split = parallel.run_split

    def counted(search: ExactSearch, budget: int, workers: int) -> object:
        splits.append(budget)
        return split(search, budget, workers)

    monkeypatch.setattr(parallel, "run_split", counted)
    for (s, n), one in zip(cases, serial, strict=True):
        shared = min_cards_to_close(s.table, cards_of(s, n), backend="python", workers=2)
        assert shared.status == one.status
        assert shared.placements == one.placements
        if shared.status == "closable":
            replay(s.table, shared)
    # Cases decided by the counting bounds alone never search; most do, level by level.
    assert len(splits) >= len(cases) // 2


def test_workers_must_be_positive() -> None:
    with pytest.raises(SolverError, match="workers"):
        can_close(Table.start(), ["L"], workers=0)


# The 10-card position the closure benchmark left undecided before the search kept proven
# bounds and forward checks (four seeded games, position 15: three cards on the table, five
# exits, one dead end among the ten cards). The earlier search answered "impossible" after
# about 20 s.
_BENCH_TABLE = (Placement(63, 0, 0, 0), Placement(54, 0, -1, 0), Placement(4, 2, -2, 180))
_BENCH_CARDS = [
    "L+TR+R", "TL+TR+BR", "L+TL+R+BR", "L", "L+TL",
    "L+TL+BL", "TL+TR+BL", "L+TL+R", "L+BR+BL", "L+TR+BL",
]  # fmt: skip


@rules("BD-CLOSE-2")
def test_former_benchmark_unknown_is_decided() -> None:
    table = Table.empty().place_all(_BENCH_TABLE)
    assert table.exit_count == 5
    # A generous limit: about 6 s on two cores, but CI machines may be loaded.
    r = can_close(table, _BENCH_CARDS, backend="exact", time_limit=120)
    assert r.status == "impossible"
    # Not a search that gives up: one more dead end makes it closable, with a certificate.
    more = min_cards_to_close(table, [*_BENCH_CARDS, "L"], backend="exact", time_limit=60)
    assert more.status == "closable"
    replay(table, more)
    assert sum(1 for p in more.placements if p.card == as_code("L")) == 2


@rules("BD-CLOSE-1", "BD-CLOSE-3")
def test_can_close_jumping_to_the_whole_budget_stays_honest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """can_close may skip the last levels of the deepening and search the whole budget at once
    (here after every level): its status must equal min_cards_to_close's, its closure never has
    fewer cards than the minimum, and it claims the minimum only when it has it."""
    from banditsolve.tunnels.solvers import deepening
    from banditsolve.tunnels.solvers.exact import ExactSearch

    monkeypatch.setattr(deepening, "JUMP_NODES", 1)
    budgets: list[int] = []
    run = ExactSearch.run

    def spy(self: ExactSearch, budget: int) -> object:
        budgets.append(budget)
        return run(self, budget)

    monkeypatch.setattr(ExactSearch, "run", spy)
    states = [s for s in positions(range(70, 90), every=3) if s.table.exit_count <= 7]
    rng = random.Random(23)
    rng.shuffle(states)
    jumped = closable = skips = 0
    for i, s in enumerate(states[: scaled(30, 80)]):
        n = rng.choice((6, 7, 8))
        cards = leaning_closable(s, n) if i % 2 == 0 else cards_of(s, n)
        budgets.clear()
        fast = can_close(s.table, cards, backend="python", workers=1)
        skips += any(b - a > 1 for a, b in itertools.pairwise(budgets))
        best = min_cards_to_close(s.table, cards, backend="python", workers=1)
        assert fast.status == best.status != "unknown"
        if fast.status == "closable":
            closable += 1
            replay(s.table, fast)
            assert fast.cards >= best.cards
            if fast.minimum:
                assert fast.cards == best.cards
            else:
                jumped += 1
                assert f"at least {best.cards} are needed" in fast.reason or (
                    "at least" in fast.reason
                )
    assert closable >= 5
    assert skips >= 3


@pytest.mark.parametrize(
    "kwargs",
    [
        {"workers": "2"},
        {"workers": 2.5},
        {"max_cards": "2"},
        {"max_cards": 2.5},
        {"time_limit": "2"},
        {"time_limit": True},
        {"time_limit": float("nan")},
        {"node_limit": True},
        {"node_limit": 0},
    ],
)
def test_limits_of_the_wrong_type_are_refused(kwargs: dict[str, object]) -> None:
    """A wrong type is refused as one (ArgumentTypeError: also a TypeError), a wrong value of
    the right type as a SolverError; both the library's errors, naming the argument."""
    value = next(iter(kwargs.values()))
    number = isinstance(value, int | float) and not isinstance(value, bool)
    name = next(iter(kwargs))
    wrong_type = not number or (name in ("workers", "max_cards") and isinstance(value, float))
    expected = ArgumentTypeError if wrong_type else SolverError
    with pytest.raises(expected, match=name) as caught:
        can_close(Table.start(), ["L"], **kwargs)  # type: ignore[arg-type]
    assert isinstance(caught.value, TypeError) == wrong_type


def test_cards_must_be_a_list_not_a_string() -> None:
    with pytest.raises(ArgumentTypeError, match="cards must be a list of") as caught:
        can_close(Table.start(), "L+TL")
    assert isinstance(caught.value, TypeError)


def test_node_limit_only_where_it_means_something() -> None:
    table = Table.start("super6")
    cards = ["TL+TR"] * 2 + ["L"] * 2
    for backend in ("cpsat", "z3"):
        with pytest.raises(SolverError, match="node limit counts the nodes of a search"):
            can_close(table, cards, backend=backend, node_limit=10)
    # "auto" must not hand a node-limited search over to a solver that ignores the limit.
    r = can_close(table, cards, node_limit=1, time_limit=None)
    assert r.status == "unknown"
    assert r.backend == "exact"
    assert "node limit ran out (1 node)" in r.reason


@rules("BD-CLOSE-2")
def test_models_too_large_for_the_time_or_the_solver_are_unknown() -> None:
    table = Table.start("super6")
    deck = list(new_game(2, rng=random.Random(0)).remaining())
    # Only the deck's cards with four or more openings: every card opens more exits than it
    # closes unless it meets several, so no small stage closes the start table and the
    # stages grow towards the whole budget's large model until the time runs out.
    wide = [c for c in deck if (c & PORT_MASK).bit_count() >= 4]
    r = can_close(table, wide, backend="cpsat", time_limit=0.5)
    assert r.status == "unknown"
    assert "time limit" in r.reason
    assert r.stats.seconds < 5  # stopped at the limit, not after the whole model
    z = can_close(table, deck, backend="z3", time_limit=5)
    assert z.status == "unknown"
    assert "placement literals" in z.reason


def test_z3_keeps_to_its_time_limit_on_large_models() -> None:
    """The Z3 backend stops at its limit on a model it cannot decide (the regression set's
    position 4, 21,800 placement literals), and decides ten four-opening cards on the start
    table as the exact search does. Written as sums of if-then-else terms, the counts made Z3
    run 24 s past a 4 s limit on the first and 589 s past a 1 s limit on the second."""
    from tests.tunnels.test_closure_regression import hard_cases

    _item, table, cards = hard_cases()[4]
    r = can_close(table, cards, backend="z3", time_limit=1)
    assert r.status == "unknown"
    assert "time limit" in r.reason
    assert r.stats.seconds < 2
    start = Table.start("super6")
    deck = list(new_game(2, rng=random.Random(0)).remaining())
    wide = [c for c in deck if (c & PORT_MASK).bit_count() >= 4][:10]
    z = can_close(start, wide, backend="z3", time_limit=20)
    assert z.stats.seconds < 10
    assert z.status == can_close(start, wide, backend="exact").status == "impossible"


def test_minimum_is_claimed_only_for_closures() -> None:
    table = Table.start("super6")
    cards = ["TL+TR"] * 2 + ["L"] * 2
    for backend in ("exact", "cpsat", "z3"):
        for solve in (can_close, min_cards_to_close):
            r = solve(table, cards, max_cards=3, backend=backend)
            assert r.status == "impossible"
            assert not r.minimum
    assert min_cards_to_close(table, cards).minimum


def test_a_z3_check_in_a_forked_process_gives_the_check_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under a time limit each Z3 check of a large model runs in a forked process killed at
    the deadline (Z3 reads its own limit too seldom): its answers, read back through the pipe,
    are those of the check in this process (no limit), minima and certificates alike (every
    model forked here); a child that ends without an answer is an internal error, not a
    crash; a model whose deadline has passed while it is built stops there."""
    from banditsolve.errors import InternalError
    from banditsolve.tunnels.solvers import z3 as z3_backend
    from banditsolve.tunnels.solvers.model import OutOfTime, prepare

    monkeypatch.setattr(z3_backend, "FORK_LITERALS", 0)
    states = positions(range(3), every=4)
    cases = [(s, n) for s in states for n in (3, 4, 5)][:12]
    closable = 0
    for s, n in cases:
        cards = closable_more_often(s, cards_of(s, n))
        here = min_cards_to_close(s.table, cards, backend="z3", time_limit=None)
        forked = min_cards_to_close(s.table, cards, backend="z3", time_limit=60)
        assert (here.status, here.cards, here.minimum) == (forked.status, forked.cards,
                                                           forked.minimum), forked.reason
        assert here.placements == forked.placements
        closable += here.status == "closable"
    assert closable >= 2
    s, n = cases[0]
    prepared = prepare(s.table, cards_of(s, n), None, None, "z3", 25_000, 0.0, None)
    assert not isinstance(prepared, Closure)
    run = z3_backend.Z3Run(s.table, prepared[1], (), time.perf_counter() + 60)

    def broken(most: int) -> z3_backend.Decided:
        raise RuntimeError("the check failed")

    monkeypatch.setattr(run, "_decided", broken)
    with pytest.raises(InternalError, match="without an answer"):
        run.decide(prepared[0])
    with pytest.raises(OutOfTime):
        z3_backend.Z3Run(s.table, prepared[1], (), time.perf_counter() - 1)
