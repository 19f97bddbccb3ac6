"""A small typed wrapper around the parts of Z3 that banditsolve uses.

Z3's Python API is untyped; every call to it lives here, so that the rest of the code
type-checks under ``mypy --strict``. The module imports ``z3`` lazily, on the first solver
call: importing this module, and building terms, costs nothing.

Terms (:class:`IntExpr`, :class:`BoolExpr`) are plain Python values holding their SMT-LIB text
and the variables they mention; constants also keep their Python value and are folded in Python
(``int_val(2) + 3`` is the constant 5, ``and_(x, True)`` is ``x``). A :class:`Solver` hands its
assertions to Z3 as one SMT-LIB script. Building terms this way is several times faster than
building Z3's own Python objects one call at a time, and the solver is the same.

Covered: integer and boolean variables, constants, ``+ - *``, comparisons, ``And/Or/Not/
Implies/If``, sums, counts of true terms, native pseudo-Boolean constraints
(:func:`pseudo_boolean`), ``Distinct``, and a solver with a time limit that
answers ``"sat" | "unsat" | "unknown"`` and reads values from its model. Equality is written
``x.eq(y)`` / ``x.ne(y)`` (``==`` keeps its Python meaning on these objects).
"""

from __future__ import annotations

import operator
import time
from collections.abc import Iterable
from types import ModuleType
from typing import Any, Literal

CheckResult = Literal["sat", "unsat", "unknown"]
Sort = Literal["Int", "Bool"]
_Vars = frozenset[tuple[str, Sort]]
_NO_VARS: _Vars = frozenset()

_Z3: ModuleType | None = None


def z3_module() -> ModuleType:
    """The ``z3`` module, imported on first use."""
    global _Z3
    if _Z3 is None:
        import z3

        _Z3 = z3
    return _Z3


def _int_text(value: int) -> str:
    return str(value) if value >= 0 else f"(- {-value})"


def _valid_name(name: str) -> str:
    if not name or not all(ch.isalnum() or ch in "_.!" for ch in name) or name[0].isdigit():
        raise ValueError(f"bad variable name {name!r}: use letters, digits, '_', '.', '!'")
    return name


class IntExpr:
    """An integer-valued term: SMT-LIB text, the variables it mentions, and its value when it
    is a constant."""

    __slots__ = ("const", "text", "vars")

    def __init__(self, text: str, vars: _Vars = _NO_VARS, const: int | None = None) -> None:
        self.text = text
        self.vars = vars
        self.const = const

    def __add__(self, other: IntExpr | int) -> IntExpr:
        return sum_((self, other))

    def __radd__(self, other: int) -> IntExpr:
        return sum_((other, self))

    def __sub__(self, other: IntExpr | int) -> IntExpr:
        o = _int(other)
        if self.const is not None and o.const is not None:
            return int_val(self.const - o.const)
        return IntExpr(f"(- {self.text} {o.text})", self.vars | o.vars)

    def __rsub__(self, other: int) -> IntExpr:
        return int_val(other) - self

    def __mul__(self, other: IntExpr | int) -> IntExpr:
        o = _int(other)
        if self.const is not None and o.const is not None:
            return int_val(self.const * o.const)
        return IntExpr(f"(* {self.text} {o.text})", self.vars | o.vars)

    def __rmul__(self, other: int) -> IntExpr:
        return int_val(other) * self

    def __neg__(self) -> IntExpr:
        return int_val(0) - self

    def _compare(self, other: IntExpr | int, op: str) -> BoolExpr:
        o = _int(other)
        if self.const is not None and o.const is not None:
            a, b = self.const, o.const
            value = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "=": a == b}[op]
            return bool_val(value)
        return BoolExpr(f"({op} {self.text} {o.text})", self.vars | o.vars)

    def __lt__(self, other: IntExpr | int) -> BoolExpr:
        return self._compare(other, "<")

    def __le__(self, other: IntExpr | int) -> BoolExpr:
        return self._compare(other, "<=")

    def __gt__(self, other: IntExpr | int) -> BoolExpr:
        return self._compare(other, ">")

    def __ge__(self, other: IntExpr | int) -> BoolExpr:
        return self._compare(other, ">=")

    def eq(self, other: IntExpr | int) -> BoolExpr:
        return self._compare(other, "=")

    def ne(self, other: IntExpr | int) -> BoolExpr:
        return not_(self._compare(other, "="))

    def __repr__(self) -> str:
        return f"IntExpr({self.text!r})"


class BoolExpr:
    """A boolean-valued term. ``&``, ``|`` and ``~`` build And, Or and Not."""

    __slots__ = ("const", "text", "vars")

    def __init__(self, text: str, vars: _Vars = _NO_VARS, const: bool | None = None) -> None:
        self.text = text
        self.vars = vars
        self.const = const

    def __and__(self, other: BoolExpr | bool) -> BoolExpr:
        return and_(self, other)

    def __or__(self, other: BoolExpr | bool) -> BoolExpr:
        return or_(self, other)

    def __invert__(self) -> BoolExpr:
        return not_(self)

    def eq(self, other: BoolExpr | bool) -> BoolExpr:
        o = _bool(other)
        if self.const is not None and o.const is not None:
            return bool_val(self.const == o.const)
        return BoolExpr(f"(= {self.text} {o.text})", self.vars | o.vars)

    def __repr__(self) -> str:
        return f"BoolExpr({self.text!r})"


def _int(value: IntExpr | int) -> IntExpr:
    return value if isinstance(value, IntExpr) else int_val(value)


def _bool(value: BoolExpr | bool) -> BoolExpr:
    return value if isinstance(value, BoolExpr) else bool_val(value)


def _union(terms: Iterable[IntExpr | BoolExpr]) -> _Vars:
    """The variables of ``terms``, gathered once (a running frozenset union copies the whole
    set per term: quadratic on a count over thousands of literals)."""
    first: _Vars = _NO_VARS
    gathered: set[tuple[str, Sort]] | None = None
    for t in terms:
        v = t.vars
        if not v or v is first:
            continue
        if not first:
            first = v
        elif gathered is None:
            gathered = set(first)
            gathered |= v
        else:
            gathered |= v
    return first if gathered is None else frozenset(gathered)


def int_var(name: str) -> IntExpr:
    name = _valid_name(name)
    return IntExpr(name, frozenset({(name, "Int")}))


def int_val(value: int) -> IntExpr:
    value = int(value)
    return IntExpr(_int_text(value), _NO_VARS, value)


def bool_var(name: str) -> BoolExpr:
    name = _valid_name(name)
    return BoolExpr(name, frozenset({(name, "Bool")}))


def bool_val(value: bool) -> BoolExpr:
    return BoolExpr("true" if value else "false", _NO_VARS, bool(value))


def and_(*terms: BoolExpr | bool) -> BoolExpr:
    """Conjunction; constant terms are folded (``and_()`` is true)."""
    rest: list[BoolExpr] = []
    for t in terms:
        b = _bool(t)
        if b.const is False:
            return bool_val(False)
        if b.const is None:
            rest.append(b)
    if not rest:
        return bool_val(True)
    if len(rest) == 1:
        return rest[0]
    return BoolExpr("(and " + " ".join(t.text for t in rest) + ")", _union(rest))


def or_(*terms: BoolExpr | bool) -> BoolExpr:
    """Disjunction; constant terms are folded (``or_()`` is false)."""
    rest: list[BoolExpr] = []
    for t in terms:
        b = _bool(t)
        if b.const is True:
            return bool_val(True)
        if b.const is None:
            rest.append(b)
    if not rest:
        return bool_val(False)
    if len(rest) == 1:
        return rest[0]
    return BoolExpr("(or " + " ".join(t.text for t in rest) + ")", _union(rest))


def not_(term: BoolExpr | bool) -> BoolExpr:
    b = _bool(term)
    if b.const is not None:
        return bool_val(not b.const)
    return BoolExpr(f"(not {b.text})", b.vars)


def implies(premise: BoolExpr | bool, conclusion: BoolExpr | bool) -> BoolExpr:
    return or_(not_(premise), conclusion)


def if_then_else(cond: BoolExpr | bool, then: IntExpr | int, other: IntExpr | int) -> IntExpr:
    c, a, b = _bool(cond), _int(then), _int(other)
    if c.const is not None:
        return a if c.const else b
    return IntExpr(f"(ite {c.text} {a.text} {b.text})", _union((c, a, b)))


def sum_(terms: Iterable[IntExpr | int]) -> IntExpr:
    """Sum; the constant part is added up in Python."""
    constant = 0
    rest: list[IntExpr] = []
    for t in terms:
        e = _int(t)
        if e.const is not None:
            constant += e.const
        else:
            rest.append(e)
    if not rest:
        return int_val(constant)
    if constant:
        rest.append(int_val(constant))
    if len(rest) == 1:
        return rest[0]
    return IntExpr("(+ " + " ".join(t.text for t in rest) + ")", _union(rest))


def count_true(terms: Iterable[BoolExpr | bool]) -> IntExpr:
    """How many of ``terms`` hold."""
    return sum_(if_then_else(t, 1, 0) for t in terms)


PbRelation = Literal["<=", ">=", "=="]
#: The seconds per character that writing an SMT-LIB script and Z3's loading of it take (22 and
#: 71-90 ns measured on closure models of 1.4 and 1.8 million characters), so a check under a
#: deadline is begun only with the time they take.
LOAD_SECONDS_PER_CHAR = 1.2e-7
_PB_NAMES = {"<=": "pble", ">=": "pbge", "==": "pbeq"}


def pseudo_boolean(
    weighted: Iterable[tuple[BoolExpr | bool, int]], relation: PbRelation, bound: int
) -> BoolExpr:
    """The weighted count ``sum(w for term, w in weighted if term)`` compared with ``bound``
    by ``relation``, as one native pseudo-Boolean constraint of Z3 (``(_ pble ...)``,
    ``pbge``, ``pbeq``). Z3 reasons on these directly and stops at its time limit; the same
    comparison written with :func:`count_true` goes through integer arithmetic, whose
    preprocessing can run far past the limit on large models. Constant terms are folded, and
    the text keeps to SMT-LIB's non-negative indices: a negative weight ``w`` on ``x`` is
    written as ``-w`` on ``(not x)`` with ``w`` taken off the bound."""
    if relation not in _PB_NAMES:
        raise ValueError(f"bad relation {relation!r}: expected <=, >= or ==")
    rest, bound = _pb_terms(weighted, operator.index(bound))
    decided = _pb_decided(relation, bound, sum(w for _b, w in rest), bool(rest))
    if decided is not None:
        return decided
    head = " ".join([_PB_NAMES[relation], str(bound), *(str(w) for _b, w in rest)])
    terms = " ".join(b.text for b, _w in rest)
    return BoolExpr(f"((_ {head}) {terms})", _union(b for b, _w in rest))


def _pb_terms(
    weighted: Iterable[tuple[BoolExpr | bool, int]], bound: int
) -> tuple[list[tuple[BoolExpr, int]], int]:
    """The weighted terms of :func:`pseudo_boolean` with positive weights only, and the bound
    that goes with them: a constant term folded into the bound, a negative weight ``w`` on
    ``x`` turned into ``-w`` on ``(not x)`` with ``w`` taken off the bound, a zero weight
    dropped."""
    rest: list[tuple[BoolExpr, int]] = []
    for term, weight in weighted:
        b = _bool(term)
        w = operator.index(weight)
        if b.const is not None:
            if b.const:
                bound -= w
            continue
        if w < 0:
            bound -= w
            b, w = not_(b), -w
        if w:
            rest.append((b, w))
    return rest, bound


def _pb_decided(relation: PbRelation, bound: int, total: int, terms: bool) -> BoolExpr | None:
    """The comparison's value when the bound alone decides it, else None. Every weight is
    positive, so the count lies in [0, total]: a bound outside that range (or no term left)
    decides the comparison."""
    if relation == "<=" and (bound < 0 or bound >= total):
        return bool_val(bound >= total)
    if relation == ">=" and (bound <= 0 or bound > total):
        return bool_val(bound <= 0)
    if relation == "==" and (bound < 0 or bound > total or not terms):
        return bool_val(bound == 0 and not terms)
    return None


def distinct(*terms: IntExpr | int) -> BoolExpr:
    exprs = [_int(t) for t in terms]
    if len(exprs) < 2:
        return bool_val(True)
    consts = [e.const for e in exprs]
    if all(c is not None for c in consts):
        return bool_val(len(set(consts)) == len(consts))
    return BoolExpr("(distinct " + " ".join(e.text for e in exprs) + ")", _union(exprs))


def _declarations(vars: _Vars | set[tuple[str, Sort]]) -> str:
    return "".join(f"(declare-const {name} {sort})" for name, sort in sorted(vars))


class Model:
    """A satisfying assignment found by :class:`Solver`."""

    __slots__ = ("_raw",)

    def __init__(self, raw: Any) -> None:
        self._raw: Any = raw

    def _eval(self, text: str, vars: _Vars) -> Any:
        z3 = z3_module()
        if len(vars) == 1:
            ((name, sort),) = vars
            if text == name:
                term = z3.Int(name) if sort == "Int" else z3.Bool(name)
                return self._raw.eval(term, model_completion=True)
        # A compound term: let Z3 parse it with its variables declared.
        parsed = z3.parse_smt2_string(
            _declarations(vars) + f"(declare-const banditsolve_probe Bool)"
            f"(assert (= banditsolve_probe (= {text} {text})))"
        )
        return self._raw.eval(parsed[0].arg(1).arg(0), model_completion=True)

    def int_value(self, term: IntExpr | int) -> int:
        e = _int(term)
        if e.const is not None:
            return e.const
        return int(self._eval(e.text, e.vars).as_long())

    def bool_value(self, term: BoolExpr | bool) -> bool:
        b = _bool(term)
        if b.const is not None:
            return b.const
        return bool(z3_module().is_true(self._eval(b.text, b.vars)))


class Solver:
    """A Z3 solver. ``timeout_ms`` bounds every ``check`` (``None``: no limit); ``seed`` fixes
    Z3's random seed."""

    __slots__ = ("_asserts", "_dirty", "_late", "_raw", "_timeout_ms", "_vars")

    def __init__(self, *, timeout_ms: int | None = None, seed: int | None = 0) -> None:
        z3 = z3_module()
        self._raw: Any = z3.SimpleSolver()
        self._timeout_ms = None if timeout_ms is None else int(timeout_ms)
        if seed is not None:
            self._raw.set("random_seed", int(seed))
        self._asserts: list[str] = []
        self._vars: set[tuple[str, Sort]] = set()
        self._dirty = False
        self._late = False  # the last check was not begun: its deadline was too near

    def add(self, *constraints: BoolExpr | bool) -> None:
        for c in constraints:
            b = _bool(c)
            if b.const is True:
                continue
            self._asserts.append(f"(assert {b.text})")
            self._vars |= b.vars
            self._dirty = True

    def script(self) -> str:
        """Every assertion so far as one SMT-LIB script."""
        return _declarations(self._vars) + "".join(self._asserts)

    def check(self, deadline: float | None = None) -> CheckResult:
        """Solve; with ``deadline`` (a :func:`time.perf_counter` reading) this check's time
        limit is the time left once the script is loaded (loading a large one takes a while),
        or ``timeout_ms`` if that is shorter; ``"unknown"`` at once when the deadline has
        passed before or while the script is loaded."""
        z3 = z3_module()
        self._late = False
        if self._dirty and deadline is not None:
            # (Writing and loading the script cannot be stopped: begun only with their time.)
            cost = LOAD_SECONDS_PER_CHAR * sum(map(len, self._asserts))
            self._late = time.perf_counter() + cost >= deadline
        if self._late or (deadline is not None and time.perf_counter() >= deadline):
            self._late = True
            return "unknown"
        if self._dirty:
            self._raw.reset()
            self._raw.from_string(self.script())
            self._dirty = False
        limit = self._timeout_ms
        if deadline is not None:
            if time.perf_counter() >= deadline:
                return "unknown"
            left = max(1, int(1000 * (deadline - time.perf_counter())))
            limit = left if limit is None else min(limit, left)
        if limit is not None:
            self._raw.set("timeout", limit)
        result = self._raw.check()
        if result == z3.sat:
            return "sat"
        if result == z3.unsat:
            return "unsat"
        return "unknown"

    def reason_unknown(self) -> str:
        """Why the last check answered unknown (``"timeout"`` when its deadline came first)."""
        return "timeout" if self._late else str(self._raw.reason_unknown())

    def model(self) -> Model:
        return Model(self._raw.model())
