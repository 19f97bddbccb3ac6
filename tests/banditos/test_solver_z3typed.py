"""The typed Z3 wrapper: folding of constants, solving, reading models, time limits."""

from __future__ import annotations

from banditsolve.z3typed import (
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
