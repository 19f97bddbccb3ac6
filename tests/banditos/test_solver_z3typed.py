"""The typed Z3 wrapper: folding of constants, solving, reading models, time limits."""

from __future__ import annotations

import itertools
import random

import pytest

from banditsolve.z3typed import (
    BoolExpr,
    PbRelation,
    Solver,
    and_,
    bool_val,
    bool_var,
    count_true,
    distinct,
    if_then_else,
    implies,
    int_val,
    int_var,
    not_,
    or_,
    pseudo_boolean,
    sum_,
)


def test_constants_fold_in_python() -> None:
    assert (int_val(2) + 3).const == 5
    assert (int_val(2) * -3).const == -6
    assert (7 - int_val(2)).const == 5
    assert (int_val(2) < 3).const is True
    assert int_val(4).eq(4).const is True
    assert int_val(4).ne(4).const is False
    assert and_(True, bool_val(True)).const is True
    assert or_(False, False).const is False
    assert not_(bool_val(False)).const is True
    assert distinct(1, 2, 3).const is True
    assert distinct(1, 2, 1).const is False
    x = int_var("x")
    assert and_(x > 1, True).text == "(> x 1)"
    assert or_(x > 1, True).const is True
    assert sum_([1, x, 2]).text == "(+ x 3)"


def test_solver_finds_a_model_and_reads_values() -> None:
    x, y, z = int_var("x"), int_var("y"), int_var("z")
    flag = bool_var("flag")
    solver = Solver(timeout_ms=5000)
    solver.add(x >= 1, x <= 3, y >= 1, y <= 3, z >= 1, z <= 3, distinct(x, y, z))
    solver.add(sum_([x, y]).eq(5), implies(flag, x > y), flag)
    solver.add(count_true([x.eq(3), y.eq(3), z.eq(3)]).eq(1))
    assert solver.check() == "sat"
    model = solver.model()
    assert (model.int_value(x), model.int_value(y), model.int_value(z)) == (3, 2, 1)
    assert model.bool_value(flag)
    assert model.int_value(x * 2 + y) == 8
    assert model.int_value(if_then_else(flag, x, -y)) == 3
    assert model.int_value(7) == 7
    assert model.bool_value(~flag | (x > 2))


def test_solver_proves_unsatisfiable() -> None:
    x = int_var("x")
    solver = Solver(timeout_ms=5000)
    solver.add(x > 2, x < 3)
    assert solver.check() == "unsat"
    # Adding after a check re-sends the whole script.
    solver2 = Solver()
    solver2.add(x > 2)
    assert solver2.check() == "sat"
    solver2.add(x < 0)
    assert solver2.check() == "unsat"


def test_false_constant_is_unsatisfiable() -> None:
    solver = Solver()
    solver.add(bool_val(False))
    assert solver.check() == "unsat"
    assert "false" in solver.script()


def _holds(total: int, relation: PbRelation, bound: int) -> bool:
    return {"<=": total <= bound, ">=": total >= bound, "==": total == bound}[relation]


def test_pseudo_boolean_constraints_hold_exactly_when_the_weighted_count_does() -> None:
    """Random weighted counts over three variables and some constants, each relation: with
    the variables fixed every way, Z3 finds the constraint satisfiable exactly when the
    weighted count of the true terms compares as asked."""
    rng = random.Random(3)
    names = [bool_var(f"b{i}") for i in range(3)]
    relations: tuple[PbRelation, ...] = ("<=", ">=", "==")
    for _ in range(12):
        terms: list[tuple[BoolExpr | bool, int]] = [(v, rng.randint(-3, 3)) for v in names]
        terms += [(rng.random() < 0.5, rng.randint(-3, 3)) for _ in range(rng.randint(0, 2))]
        relation = rng.choice(relations)
        bound = rng.randint(-4, 4)
        constraint = pseudo_boolean(terms, relation, bound)
        # SMT-LIB indices are non-negative numerals: no minus sign in the operator's head.
        assert constraint.const is not None or "-" not in constraint.text.split(")")[0]
        for values in itertools.product((False, True), repeat=3):
            solver = Solver(timeout_ms=10_000)
            solver.add(constraint)
            solver.add(*(v if on else not_(v) for v, on in zip(names, values, strict=True)))
            by_name = dict(zip((v.text for v in names), values, strict=True))
            total = 0
            for t, w in terms:
                if t if isinstance(t, bool) else by_name[t.text]:
                    total += w
            assert (solver.check() == "sat") == _holds(total, relation, bound), (
                terms, relation, bound, values,
            )


def test_pseudo_boolean_folds_constants_and_refuses_a_bad_relation() -> None:
    x = bool_var("x")
    assert pseudo_boolean([(True, 2), (False, 5)], "==", 2).const is True
    assert pseudo_boolean([(True, 2)], "<=", 1).const is False
    assert pseudo_boolean([(x, 1), (True, 1)], ">=", 2).text == "((_ pbge 1 1) x)"
    assert pseudo_boolean([(x, -2)], "<=", -1).text == "((_ pble 1 2) (not x))"
    assert pseudo_boolean([(x, 1)], "<=", 1).const is True
    assert pseudo_boolean([(x, 1)], ">=", 2).const is False
    assert pseudo_boolean([(x, 1)], "==", -1).const is False
    with pytest.raises(TypeError):
        pseudo_boolean([(x, 1.5)], "<=", 1)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="bad relation"):
        pseudo_boolean([(x, 1)], "<", 1)  # type: ignore[arg-type]
