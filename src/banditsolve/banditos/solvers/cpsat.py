"""Claim proofs with an OR-Tools CP-SAT model (``claim_verdict(..., backend="cpsat")``).

The model asks: can the opponent's side be completed, within the availability of each colour,
to a combination ranked strictly above the claim? Feasible means unsafe, and the solution is the
witness; infeasible means safe. The opponent side's combination is modelled, not computed:

- every die of the side gets a colour (0-3) and a value (1-6) variable; the opponent's dice on
  the tile are fixed, the missing ones are free, with one-hot colour booleans counted against the
  availability and an order on the added dice (their die codes do not decrease) for symmetry;
- booleans for "values i and j equal", "colours i and j equal", "all one colour", "all values
  equal", "three distinct consecutive values" are reified from the variables;
- one boolean per category, exactly one true, defined from those by reified constraints;
- the tie-break values ``a, b, c`` of the category (from the sorted values ``hi >= mid >= lo``,
  themselves constrained by max/min) are set under each category's literal;
- the key ``category*512 + a*64 + b*8 + c`` (a lexicographic order, since each tie-break is at
  most 7) must exceed the claim's key, a constant computed from the claim's own three dice.

The search is single-threaded with a fixed seed and a time limit; a time-out raises
:class:`~banditsolve.errors.SolverError` and is never reported as safe. ``ortools`` is imported
only when this module is.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ortools.sat.python import cp_model
from ortools.sat.python.cp_model_helper import Literal

from banditsolve.banditos.claim import Availability, ClaimVerdict
from banditsolve.banditos.combos import rank
from banditsolve.banditos.dice import Colour, Die
from banditsolve.core.limits import check_time_limit


@dataclass(frozen=True, slots=True)
class CpSatStats:
    """What CP-SAT reported for one solve: status name, its own wall time and deterministic
    time (seconds), and the model's size."""

    status: str
    wall_time: float
    deterministic_time: float
    variables: int
    constraints: int


def _reify_eq(
    model: cp_model.CpModel, x: cp_model.IntVar, y: cp_model.IntVar, name: str
) -> cp_model.IntVar:
    b = model.new_bool_var(name)
    model.add(x == y).only_enforce_if(b)
    model.add(x != y).only_enforce_if(~b)
    return b


def _reify_and(model: cp_model.CpModel, literals: list[Literal], name: str) -> cp_model.IntVar:
    """A boolean equal to the conjunction of ``literals``."""
    b = model.new_bool_var(name)
    model.add_bool_and(literals).only_enforce_if(b)
    model.add_bool_or([~lit for lit in literals] + [b])
    return b


def _reify_or(model: cp_model.CpModel, literals: list[Literal], name: str) -> cp_model.IntVar:
    """A boolean equal to the disjunction of ``literals``."""
    b = model.new_bool_var(name)
    model.add_bool_or(literals).only_enforce_if(b)
    for lit in literals:
        model.add_implication(lit, b)
    return b


def build_model(
    theirs: tuple[Die, ...], avail: Availability, claim_key: int
) -> tuple[cp_model.CpModel, list[tuple[cp_model.IntVar, cp_model.IntVar]]]:
    """The CP-SAT model; returns it and the (colour, value) variables of the added dice."""
    model = cp_model.CpModel()
    colours: list[cp_model.IntVar] = []
    values: list[cp_model.IntVar] = []
    added: list[tuple[cp_model.IntVar, cp_model.IntVar]] = []
    one_hot: list[list[cp_model.IntVar]] = []
    for i in range(3):
        if i < len(theirs):
            die = theirs[i]
            colours.append(model.new_constant(int(die.colour)))
            values.append(model.new_constant(die.value))
            continue
        col = model.new_int_var(0, 3, f"colour{i}")
        val = model.new_int_var(1, 6, f"value{i}")
        hot = [model.new_bool_var(f"colour{i}_is{c}") for c in range(4)]
        model.add_exactly_one(hot)
        model.add(col == sum(c * hot[c] for c in range(4)))
        colours.append(col)
        values.append(val)
        one_hot.append(hot)
        added.append((col, val))
    # Availability: at most avail[c] added dice of colour c.
    for c in range(4):
        model.add(sum(hot[c] for hot in one_hot) <= avail[c])
    # Symmetry: the added dice's codes do not decrease.
    for (c1, v1), (c2, v2) in itertools.pairwise(added):
        model.add(6 * c1 + v1 <= 6 * c2 + v2)

    pairs = [(0, 1), (0, 2), (1, 2)]
    eqv = {p: _reify_eq(model, values[p[0]], values[p[1]], f"eqv{p}") for p in pairs}
    eqc = {p: _reify_eq(model, colours[p[0]], colours[p[1]], f"eqc{p}") for p in pairs}
    one_colour = _reify_and(model, [eqc[(0, 1)], eqc[(0, 2)]], "one_colour")
    triple = _reify_and(model, [eqv[(0, 1)], eqv[(0, 2)]], "triple")
    some_equal = _reify_or(model, list(eqv.values()), "some_equal")
    twin = _reify_or(
        model, [_reify_and(model, [eqv[p], eqc[p]], f"twin{p}") for p in pairs], "twin"
    )

    hi = model.new_int_var(1, 6, "hi")
    lo = model.new_int_var(1, 6, "lo")
    mid = model.new_int_var(1, 6, "mid")
    model.add_max_equality(hi, values)
    model.add_min_equality(lo, values)
    model.add(hi + mid + lo == sum(values))
    spread2 = model.new_bool_var("spread2")
    model.add(hi - lo == 2).only_enforce_if(spread2)
    model.add(hi - lo != 2).only_enforce_if(~spread2)
    run = _reify_and(model, [spread2, ~some_equal], "run")

    # Categories, worst to best; exactly one holds.
    cat = [model.new_bool_var(f"category{k}") for k in range(7)]
    model.add_exactly_one(cat)
    # colour three of a kind / three of a kind
    model.add_bool_and([triple, one_colour]).only_enforce_if(cat[6])
    model.add_bool_or([~triple, ~one_colour, cat[6]])
    model.add_bool_and([triple, ~one_colour]).only_enforce_if(cat[4])
    model.add_bool_or([~triple, one_colour, cat[4]])
    # colour straight / straight
    model.add_bool_and([run, one_colour]).only_enforce_if(cat[5])
    model.add_bool_or([~run, ~one_colour, cat[5]])
    model.add_bool_and([run, ~one_colour]).only_enforce_if(cat[3])
    model.add_bool_or([~run, one_colour, cat[3]])
    # colour pair / pair: some equal values, not three; a colour pair has identical twins
    model.add_bool_and([some_equal, ~triple, twin]).only_enforce_if(cat[2])
    model.add_bool_or([~some_equal, triple, ~twin, cat[2]])
    model.add_bool_and([some_equal, ~triple, ~twin]).only_enforce_if(cat[1])
    model.add_bool_or([~some_equal, triple, twin, cat[1]])
    # singles: no equal values and no run
    model.add_bool_and([~some_equal, ~run]).only_enforce_if(cat[0])
    model.add_bool_or([some_equal, run, cat[0]])

    # Tie-breaks per category.
    a = model.new_int_var(0, 6, "a")
    b = model.new_int_var(0, 6, "b")
    z = model.new_int_var(0, 6, "c")
    for k in (6, 5, 4, 3):  # by the top value alone
        model.add(a == hi).only_enforce_if(cat[k])
        model.add(b == 0).only_enforce_if(cat[k])
        model.add(z == 0).only_enforce_if(cat[k])
    for k in (2, 1):  # the pair's value is the middle one; the kicker is what is left
        model.add(a == mid).only_enforce_if(cat[k])
        model.add(b == hi + lo - mid).only_enforce_if(cat[k])
        model.add(z == 0).only_enforce_if(cat[k])
    model.add(a == hi).only_enforce_if(cat[0])
    model.add(b == mid).only_enforce_if(cat[0])
    model.add(z == lo).only_enforce_if(cat[0])

    category = sum(k * cat[k] for k in range(7))
    model.add(512 * category + 64 * a + 8 * b + z >= claim_key + 1)
    return model, added


def solve_claim(
    mine: tuple[Die, ...],
    theirs: tuple[Die, ...],
    avail: Availability,
    *,
    time_limit: float | None = None,
    seed: int = 0,
) -> tuple[ClaimVerdict, CpSatStats]:
    """Build and solve the model; the verdict and CP-SAT's statistics. ``time_limit`` in
    seconds (``None``: no limit)."""
    time_limit = check_time_limit(time_limit)
    model, added = build_model(theirs, avail, int(rank(mine)))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    # The model is tiny: presolve, symmetry detection, probing and LP relaxation cost more
    # than they save (about 4x on the benchmark cases). They do not change the answer.
    solver.parameters.cp_model_presolve = False
    solver.parameters.symmetry_level = 0
    solver.parameters.linearization_level = 0
    solver.parameters.cp_model_probing_level = 0
    status = solver.solve(model)
    proto = model.proto
    stats = CpSatStats(
        status=solver.status_name(status),
        wall_time=solver.wall_time,
        deterministic_time=solver.deterministic_time,
        variables=len(proto.variables),
        constraints=len(proto.constraints),
    )
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        witness = tuple(
            Die(Colour(solver.value(col)), solver.value(val)) for col, val in added
        )
        return ClaimVerdict(False, mine, theirs, witness, "cpsat"), stats
    if status == cp_model.INFEASIBLE:
        return ClaimVerdict(True, mine, theirs, None, "cpsat"), stats
    note = f"CP-SAT stopped at its time limit of {time_limit} s ({stats.status})"
    return ClaimVerdict(None, mine, theirs, None, "cpsat", note), stats


def claim_verdict_cpsat(
    mine: tuple[Die, ...],
    theirs: tuple[Die, ...],
    avail: Availability,
    *,
    time_limit: float | None = None,
) -> ClaimVerdict:
    """The claim verdict from the CP-SAT model (see the module docstring)."""
    return solve_claim(mine, theirs, avail, time_limit=time_limit)[0]
