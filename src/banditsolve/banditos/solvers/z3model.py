"""Claim proofs with a Z3 model (``claim_verdict(..., backend="z3")``).

A different encoding from the CP-SAT model, closer to the rulebook's wording. Each combination
is a predicate ``P_k`` on the three dice, as the rules list them and *not* exclusive (three equal
values of one colour also satisfy "three of a kind" and "pair"); a side's category is the highest
``k`` whose predicate holds. The side beats a claim of category ``K`` with tie-breaks ``t`` iff

    some P_k holds with k > K,   or   the pattern of category K holds with tie-breaks above t.

The second half is a case split over which dice form the pattern (which two dice are the pair,
in which order the values run), each case comparing its tie-break values lexicographically with
``t`` by an explicit chain of ``>`` / ``=``. When the first half is false the side is of category
``K`` exactly and the pattern is unique, so the values read are the true tie-breaks; when it is
true the side wins anyway. Every Z3 call goes through :mod:`banditsolve.z3typed`.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations, pairwise, permutations

from banditsolve.banditos.claim import Availability, ClaimVerdict
from banditsolve.banditos.combos import Rank, rank, rank_category, rank_values
from banditsolve.banditos.dice import Colour, Die
from banditsolve.core.limits import check_time_limit
from banditsolve.z3typed import (
    BoolExpr,
    IntExpr,
    Solver,
    and_,
    count_true,
    int_val,
    int_var,
    or_,
)

_PAIRS = list(combinations(range(3), 2))
_ORDERS = list(permutations(range(3)))


def _lex_greater(xs: list[IntExpr], ts: tuple[int, ...]) -> BoolExpr:
    """``xs`` above the constants ``ts`` in lexicographic order."""
    cases: list[BoolExpr] = []
    for i in range(len(xs)):
        prefix_equal = [xs[j].eq(ts[j]) for j in range(i)]
        cases.append(and_(*prefix_equal, xs[i] > ts[i]))
    return or_(*cases)


def beats_constraint(
    colours: list[IntExpr], values: list[IntExpr], claim_key: Rank
) -> BoolExpr:
    """The side (``colours``, ``values``) ranks strictly above the claim's key."""
    k_claim = int(rank_category(claim_key))
    t = rank_values(claim_key)
    v, c = values, colours
    one_colour = and_(c[0].eq(c[1]), c[1].eq(c[2]))
    triple = and_(v[0].eq(v[1]), v[1].eq(v[2]))

    def run_top(order: tuple[int, ...]) -> tuple[BoolExpr, IntExpr]:
        i, j, k = order
        return and_(v[i].eq(v[j] + 1), v[j].eq(v[k] + 1)), v[i]

    runs = [run_top(o) for o in _ORDERS]

    def any_run() -> BoolExpr:
        return or_(*[r for r, _ in runs])

    # The predicates, built only when needed (the model only mentions categories >= K).
    predicates: list[Callable[[], BoolExpr]] = [
        lambda: and_(),  # singles: any three dice
        lambda: or_(*[v[i].eq(v[j]) for i, j in _PAIRS]),  # pair
        lambda: or_(*[and_(v[i].eq(v[j]), c[i].eq(c[j])) for i, j in _PAIRS]),  # colour pair
        any_run,  # straight
        lambda: triple,  # three of a kind
        lambda: and_(one_colour, any_run()),  # colour straight
        lambda: and_(one_colour, triple),  # colour three of a kind
    ]
    higher = or_(*[p() for p in predicates[k_claim + 1 :]])

    same: BoolExpr
    if k_claim in (6, 4):
        same = and_(predicates[k_claim](), v[0] > t[0])
    elif k_claim in (5, 3):
        colour_cond = one_colour if k_claim == 5 else and_()
        same = or_(*[and_(r, colour_cond, top > t[0]) for r, top in runs])
    elif k_claim in (2, 1):
        cases = []
        for i, j in _PAIRS:
            (kicker,) = (x for x in range(3) if x not in (i, j))
            pattern = v[i].eq(v[j])
            if k_claim == 2:
                pattern = and_(pattern, c[i].eq(c[j]))
            cases.append(and_(pattern, _lex_greater([v[i], v[kicker]], t[:2])))
        same = or_(*cases)
    else:
        same = or_(
            *[
                and_(v[i] >= v[j], v[j] >= v[k], _lex_greater([v[i], v[j], v[k]], t))
                for i, j, k in _ORDERS
            ]
        )
    return or_(higher, same)


def solve_claim(
    mine: tuple[Die, ...],
    theirs: tuple[Die, ...],
    avail: Availability,
    *,
    time_limit: float | None = None,
) -> ClaimVerdict:
    """Build and check the model; ``time_limit`` in seconds (``None``: no limit)."""
    time_limit = check_time_limit(time_limit)
    timeout_ms = None if time_limit is None else max(1, round(time_limit * 1000))
    solver = Solver(timeout_ms=timeout_ms, seed=0)
    colours: list[IntExpr] = []
    values: list[IntExpr] = []
    added: list[tuple[IntExpr, IntExpr]] = []
    for i in range(3):
        if i < len(theirs):
            colours.append(int_val(int(theirs[i].colour)))
            values.append(int_val(theirs[i].value))
            continue
        col, val = int_var(f"colour{i}"), int_var(f"value{i}")
        solver.add(col >= 0, col <= 3, val >= 1, val <= 6)
        colours.append(col)
        values.append(val)
        added.append((col, val))
    for colour in range(4):
        solver.add(count_true(col.eq(colour) for col, _ in added) <= avail[colour])
    for (c1, v1), (c2, v2) in pairwise(added):
        solver.add(c1 * 6 + v1 <= c2 * 6 + v2)
    solver.add(beats_constraint(colours, values, rank(mine)))
    result = solver.check()
    if result == "sat":
        model = solver.model()
        witness = tuple(
            Die(Colour(model.int_value(col)), model.int_value(val)) for col, val in added
        )
        return ClaimVerdict(False, mine, theirs, witness, "z3")
    if result == "unsat":
        return ClaimVerdict(True, mine, theirs, None, "z3")
    note = f"Z3 stopped at its time limit of {time_limit} s ({solver.reason_unknown()})"
    return ClaimVerdict(None, mine, theirs, None, "z3", note)


def claim_verdict_z3(
    mine: tuple[Die, ...],
    theirs: tuple[Die, ...],
    avail: Availability,
    *,
    time_limit: float | None = None,
) -> ClaimVerdict:
    """The claim verdict from the Z3 model (see the module docstring)."""
    return solve_claim(mine, theirs, avail, time_limit=time_limit)
