"""The two solver backends of the safety models (RB-SAFE-3): one small set of operations on
terms, written once for OR-Tools CP-SAT (:class:`CpOps`) and once for Z3 (:class:`Z3Ops`,
through :mod:`banditsolve.z3typed`). Python ``int``/``bool`` constants fold, so a model built
over a position's known numbers stays small. Each backend imports its library only when made.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

T = Any  # a term of either backend: Python int/bool constants, or solver expressions


def is_zero(x: T) -> bool:
    """Whether the term is the constant 0 (not ``False``)."""
    return isinstance(x, int) and not isinstance(x, bool) and x == 0


class Ops:
    """The operations the model is written in. Python ``int``/``bool`` constants fold."""

    def new_bool(self) -> T:
        raise NotImplementedError

    def new_int(self, lo: int, hi: int) -> T:
        raise NotImplementedError

    def require(self, cond: T) -> None:
        raise NotImplementedError

    def ite(self, c: T, a: T, b: T) -> T:
        raise NotImplementedError

    # derived, shared by both backends
    infeasible = False
    #: reified comparisons made once per pair of terms (the terms are kept alive with them)
    memo: dict[tuple[object, ...], tuple[T, T, T]]

    @staticmethod
    def const(x: T) -> bool:
        return isinstance(x, int)

    def ge(self, a: T, b: T) -> T:
        if self.const(a) and self.const(b):
            return bool(a >= b)
        return self._memo_compare("ge", a, b, self._ge)

    def _memo_compare(self, op: str, a: T, b: T, build: Callable[[T, T], T]) -> T:
        """``build(a, b)`` once per pair of terms: solver terms by identity (each is kept alive
        in the memo), constants by value."""
        key = (op, id(a), id(b) if not self.const(b) else b, a if self.const(a) else None)
        hit = self.memo.get(key)
        if hit is None:
            hit = self.memo[key] = (build(a, b), a, b)
        return hit[0]

    def _ge(self, a: T, b: T) -> T:
        raise NotImplementedError

    def eq(self, a: T, b: T) -> T:
        if self.const(a) and self.const(b):
            return bool(a == b)
        return self._memo_compare("eq", a, b, self._eq)

    def _eq(self, a: T, b: T) -> T:
        raise NotImplementedError

    def gt(self, a: T, b: T) -> T:
        return self.ge(a, b + 1) if self.const(b) else self.ge(a - b, 1)

    def and_(self, *xs: T) -> T:
        return self._junction(xs, False, self._and)

    def _and(self, xs: list[T]) -> T:
        raise NotImplementedError

    def or_(self, *xs: T) -> T:
        return self._junction(xs, True, self._or)

    @staticmethod
    def _junction(xs: tuple[T, ...], absorbing: bool, combine: Callable[[list[T]], T]) -> T:
        """``xs`` joined by ``combine`` with the constants folded: ``absorbing`` (False for
        and, True for or) decides at once, the other constant drops out."""
        rest = []
        for x in xs:
            if x is absorbing:
                return absorbing
            if x is not (not absorbing):
                rest.append(x)
        if not rest:
            return not absorbing
        if len(rest) == 1:
            return rest[0]
        return combine(rest)

    def _or(self, xs: list[T]) -> T:
        raise NotImplementedError

    def not_(self, x: T) -> T:
        if x is True or x is False:
            return not x
        return self._not(x)

    def _not(self, x: T) -> T:
        raise NotImplementedError

    def implies(self, a: T, b: T) -> None:
        self.require(self.or_(self.not_(a), b))

    def b2i(self, x: T) -> T:
        if x is True or x is False:
            return int(x)
        return self.ite(x, 1, 0)

    def sum(self, xs: Sequence[T]) -> T:
        total: T = 0
        for x in xs:
            total = total + x
        return total

    def min1(self, x: T) -> T:
        """``min(x, 1)`` for ``x >= 0``."""
        return self.b2i(self.ge(x, 1))


class CpOps(Ops):
    def __init__(self) -> None:
        from ortools.sat.python import cp_model

        self.cp = cp_model
        self.m = cp_model.CpModel()
        self.k = 0
        self.memo = {}

    def _name(self) -> str:
        self.k += 1
        return f"v{self.k}"

    def new_bool(self) -> T:
        return self.m.new_bool_var(self._name())

    def new_int(self, lo: int, hi: int) -> T:
        return self.m.new_int_var(lo, hi, self._name())

    def require(self, cond: T) -> None:
        if cond is True:
            return
        if cond is False:
            self.infeasible = True
            return
        self.m.add_bool_or([cond])

    def ite(self, c: T, a: T, b: T) -> T:
        if c is True or c is False:
            return a if c else b
        if self.const(a) and self.const(b) and a == b:
            return a
        z = self.new_int(-16, 32)
        self.m.add(z == a).only_enforce_if(c)
        self.m.add(z == b).only_enforce_if(c.Not())
        return z

    def _ge(self, a: T, b: T) -> T:
        lit = self.new_bool()
        self.m.add(a >= b).only_enforce_if(lit)
        self.m.add(a <= b - 1).only_enforce_if(lit.Not())
        return lit

    def _eq(self, a: T, b: T) -> T:
        lit = self.new_bool()
        self.m.add(a == b).only_enforce_if(lit)
        self.m.add(a != b).only_enforce_if(lit.Not())
        return lit

    def _and(self, xs: list[T]) -> T:
        lit = self.new_bool()
        self.m.add_bool_and(xs).only_enforce_if(lit)
        self.m.add_bool_or([x.Not() for x in xs] + [lit])
        return lit

    def _or(self, xs: list[T]) -> T:
        lit = self.new_bool()
        self.m.add_bool_or(xs).only_enforce_if(lit)
        for x in xs:
            self.m.add_implication(x, lit)
        return lit

    def _not(self, x: T) -> T:
        return x.Not()

    def solve(self, time_left: float | None, workers: int, seed: int) -> tuple[str, Any]:
        solver = self.cp.CpSolver()
        solver.parameters.num_workers = workers
        solver.parameters.random_seed = seed
        # small models: presolve costs more than it saves (measured on generated questions)
        solver.parameters.cp_model_presolve = False
        if time_left is not None:
            solver.parameters.max_time_in_seconds = max(time_left, 0.001)
        status = solver.solve(self.m)
        if status == self.cp.INFEASIBLE:
            return "infeasible", None
        if status not in (self.cp.OPTIMAL, self.cp.FEASIBLE):
            return "unknown", None

        def value(x: T) -> int:
            if x is True or x is False or isinstance(x, int):
                return int(x)
            return int(solver.value(x))

        return "feasible", value


class Z3Ops(Ops):
    def __init__(self) -> None:
        from banditsolve import z3typed

        self.z = z3typed
        self.cons: list[Any] = []
        self.k = 0
        self.memo = {}

    def _name(self) -> str:
        self.k += 1
        return f"v{self.k}"

    def _fold(self, x: T) -> T:
        const = getattr(x, "const", None)
        if const is None:
            return x
        return bool(const) if isinstance(x, self.z.BoolExpr) else int(const)

    def new_bool(self) -> T:
        return self.z.bool_var(self._name())

    def new_int(self, lo: int, hi: int) -> T:
        v = self.z.int_var(self._name())
        self.cons += [v >= lo, v <= hi]
        return v

    def require(self, cond: T) -> None:
        if cond is True:
            return
        if cond is False:
            self.infeasible = True
            return
        self.cons.append(cond)

    def ite(self, c: T, a: T, b: T) -> T:
        if c is True or c is False:
            return a if c else b
        if self.const(a) and self.const(b) and a == b:
            return a
        v = self.z.int_var(self._name())
        self.cons.append(v.eq(self.z.if_then_else(c, a, b)))
        return v

    def _def(self, cond: Any) -> T:
        cond = self._fold(cond)
        if cond is True or cond is False:
            return cond
        v = self.z.bool_var(self._name())
        self.cons.append(v.eq(cond))
        return v

    def _ge(self, a: T, b: T) -> T:
        return self._def(self.z.sum_((a,)) >= b)

    def _eq(self, a: T, b: T) -> T:
        return self._def(self.z.sum_((a,)).eq(b))

    def _and(self, xs: list[T]) -> T:
        return self._def(self.z.and_(*xs))

    def _or(self, xs: list[T]) -> T:
        return self._def(self.z.or_(*xs))

    def _not(self, x: T) -> T:
        return self.z.not_(x)

    def sum(self, xs: Sequence[T]) -> T:
        return self._fold(self.z.sum_(xs)) if xs else 0

    def solve(self, time_left: float | None, seed: int) -> tuple[str, Any]:
        timeout = None if time_left is None else max(1, int(time_left * 1000))
        solver = self.z.Solver(timeout_ms=timeout, seed=seed)
        solver.add(*self.cons)
        result = solver.check()
        if result == "unsat":
            return "infeasible", None
        if result == "unknown":
            return "unknown", None
        model = solver.model()
        z = self.z

        def value(x: T) -> int:
            if x is True or x is False or isinstance(x, int):
                return int(x)
            if isinstance(x, z.BoolExpr):
                return int(model.bool_value(x))
            return model.int_value(x)

        return "feasible", value
