"""CP-SAT and Z3 models of "is car W provably mine?" (RB-SAFE-3).

One formulation, two solvers: :func:`_build` writes the question as constraints through a small
set of operations (:class:`_CpOps` for OR-Tools CP-SAT, :class:`_Z3Ops` for Z3 through
:mod:`banditsolve.z3typed`), and the solver looks for a line of play that breaks the claim.
Every opponent's turn before player ``p``'s next one is modelled, in seat order, from the
position's phase (the first) or from the start of the turn (the others):

- the steal at the start of each later opponent's turn (RB-STEAL-1..3): every car where they
  have at least its number and more dice than anyone is taken, its dice go home, the train
  closes up (cars keep their place in the model; taken cars are *gone*);
- take backs (a front part of the gang is kept, RB-TAKE-1), the roll's faces (free: rolls are
  the adversary's; a usable roll-again trunk frees the faces already rolled, RB-AGAIN-1);
- the attack: each rolled symbol the opponent has on the train joins its group or is kept
  (option keep), each new symbol starts a new car, the new cars a block of neighbouring cars in
  front of the kept gang (behind it only under front=behind when the front is reached; with
  nothing kept, a block ending at the rear, or anywhere under restart=any; the locomotive only
  when reachable, option locomotive), one group per car, the gang one block (RB-ATTACK-3..6);
  jokers per car, before or after the group's dice arrive (RB-JOKER-1, option jokers);
- trunks (RB-TRUNK-1..4): on each car the moment the count first qualifies (options
  trunk-count, trunk-jokers) is found from the order of arrivals (jokers before the group's
  dice, the dice, jokers after), the tile is the adversary's choice among the unseen ones (a
  bomb or not: the counts of unseen bombs and other tiles of each symbol bound the choices over
  all turns), a bomb leaves every player one die there, and the dice that arrive after it
  count;
- outright theft (RB-THEFT-1, option theft-trunk) and the ambush swaps of every usable ambush
  trunk, each may carry off trunks (RB-AMBUSH-1).

W is lost when, at the start of ``p``'s turn, W is gone or ``p`` lacks its number or a strict
majority there. A model found is replayed through the rules engine (its tiles chosen as the
model chose) before it is answered as ``no``; positions where a trunk is being opened are
expanded by the engine, each tile a model of its own. In the mercenary variant the lines
with an outright theft are bounded rather than modelled (see :func:`_build`); when the bound
does not settle them the answer is ``unknown`` with that reason.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from banditsolve.core.limits import Budget, LimitReached, Limits
from banditsolve.errors import SolverError
from banditsolve.rolling.edition import JOKER, LETTERS
from banditsolve.rolling.rules import (
    AMBUSH,
    BOMB,
    ROLL_AGAIN,
    Action,
    Ambush,
    End,
    Joker,
    Lay,
    Open,
    Reroll,
    Roll,
    Rolled,
    TakeBack,
    _apply,
    chance_outcomes,
    edition_of,
    is_legal,
    unseen_tiles,
)
from banditsolve.rolling.state import State

if TYPE_CHECKING:
    from banditsolve.rolling.solvers.safety import Safety

T = Any  # a term of either backend: Python int/bool constants, or solver expressions


def _zero(x: T) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x == 0


def covers(state: State, car: int, player: int) -> str | None:
    """``None`` when the models express the question, else why they do not (they then answer
    ``unknown`` with that reason)."""
    if state.car(car) is None:
        return f"car {car} is not on the train"
    if state.options.mercenaries == "on":
        dice = edition_of(state).dice_per_colour
        m = state.to_move
        if any(c.count(m) >= dice for c in state.train):
            return (
                f"a group of {dice} or more dice of player {m} on one car in the mercenary "
                "variant is not modelled"
            )
    return None


# -- the two backends ---------------------------------------------------------------------------


class _Ops:
    """The operations the model is written in. Python ``int``/``bool`` constants fold."""

    def new_bool(self) -> T:
        raise NotImplementedError

    def new_int(self, lo: int, hi: int) -> T:
        raise NotImplementedError

    def _def_bool(self, cond: T) -> T:
        raise NotImplementedError

    def _def_int(self, value: T) -> T:
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


class _CpOps(_Ops):
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


class _Z3Ops(_Ops):
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


# -- the model ------------------------------------------------------------------------------


@dataclass
class _TurnPlan:
    """The decision terms of one opponent's turn, read back into a line for the engine."""

    mover: int
    phase: str
    quiet: bool = False
    has: list[T] = field(default_factory=list)
    kept: list[T] = field(default_factory=list)
    faces: list[T] = field(default_factory=list)
    join: dict[int, T] = field(default_factory=dict)  # car index -> lit: its symbol's dice join
    new: dict[tuple[int, int], T] = field(default_factory=dict)  # (symbol, car) -> lit
    pre: list[T] = field(default_factory=list)  # jokers before the dice arrive, by car
    post: list[T] = field(default_factory=list)  # jokers after
    bombs: dict[int, T] = field(default_factory=dict)  # car -> lit: the attack's tile is a bomb
    mercs: T = 0  # mercenaries added to the roll (RB-MERC-2)
    swaps: list[tuple[list[T], dict[int, T]]] = field(default_factory=list)  # sel, bombs


@dataclass
class _Built:
    ops: _Ops
    plans: list[_TurnPlan]


def _build(
    ops: _Ops,
    state: State,
    car: int,
    player: int,
    free: int | None = None,
    stack: bool = False,
    claim: bool = False,
) -> _Built:
    """The model; with ``free``, every opponent's turn but that one is played the quiet way
    (no take back, nothing laid, no ambush: a restriction, so a line it finds is a line of
    the whole question).

    In the mercenary variant (two players: one opponent's turn) the model covers the lines
    where no car that dice arrive on ends the attack with as many of the mover's dice as a
    colour has (counting the dice a bomb sent back): on those lines no outright theft can
    happen under any option theft-mercenaries, so hoard and mercenary dice behave alike. With
    ``stack`` it asks instead whether some car can get that many (a relaxation of every line
    with an outright theft: the claim and option keep=must-join are dropped; with ``claim`` the
    claim is kept, to look for a line that the engine may confirm)."""
    o = state.options
    merc = o.mercenaries == "on"
    over: dict[int, T] = {}  # merc: car -> it ends with a colour's worth of the mover's dice
    in_hand: T = 0  # merc: the dice of the (only) turn not laid
    stack_open = False  # merc: an ambush or option cut=rear-back could move or send back dice
    fmax = 2 * edition_of(state).dice_per_colour if merc else edition_of(state).dice_per_colour
    ed = edition_of(state)
    dice = ed.dice_per_colour
    P = state.players
    train = state.train
    N = len(train)
    w = state.index(car)
    need = [c.need for c in train]
    tsym = [c.trunk for c in train]
    sym0 = [[None if c.groups[r] is None else c.groups[r].symbol for c in train] for r in range(P)]  # type: ignore[union-attr]
    size: list[list[T]] = [[c.count(r) for c in train] for r in range(P)]
    natural = o.trunk_jokers == "natural"
    nat: list[list[T]] = [
        [0 if c.groups[r] is None or not natural else c.groups[r].natural for c in train]  # type: ignore[union-attr]
        for r in range(P)
    ]
    alive: list[T] = [True] * N
    tp: list[T] = [t is not None for t in tsym]
    bombs_left = [0] * 5
    other_left = [0] * 5
    for s in range(5):
        for tile, n in unseen_tiles(state, s).items():
            if tile.content == BOMB:
                bombs_left[s] += n
            else:
                other_left[s] += n
    tiles: list[tuple[int, T, T]] = []  # (symbol, opened, bomb)
    K = (player - state.to_move) % P
    movers = [(state.to_move + j) % P for j in range(K)]
    plans: list[_TurnPlan] = []
    exactly = o.trunk_count == "exactly"
    discard = o.theft_trunk == "discard"
    loco_last = o.locomotive == "last"
    rear_back = o.cut == "rear-back"

    def reach(i: int, al: list[T]) -> T:
        if not (train[i].loco and loco_last):
            return al[i]
        return ops.and_(al[i], ops.not_(ops.or_(*(al[d] for d in range(N) if d != i))))

    def bomb_tile(s: int, opened: T) -> T:
        if bombs_left[s] == 0 or opened is False:
            b: T = False
        else:
            b = ops.new_bool()
            ops.implies(b, opened)
        tiles.append((s, opened, b))
        return b

    def blast(i: int, m: int, fx: T) -> None:
        """A bomb on car ``i`` (when ``fx``): every other player keeps one die there."""
        for r in range(P):
            if r != m and not _zero(size[r][i]):
                size[r][i] = ops.ite(fx, ops.min1(size[r][i]), size[r][i])
                if natural:
                    nat[r][i] = ops.ite(fx, ops.min1(nat[r][i]), nat[r][i])

    def cut(i: int, taken: T, gone: list[T]) -> None:
        """Option cut=rear-back: car ``i`` taken (``taken``; ``gone``: every car taken at the
        same time) cuts a gang holding it in two; the part behind comes back."""
        for r in range(P):
            if _zero(size[r][i]):
                continue
            stay = [ops.and_(ops.ge(size[r][j], 1), ops.not_(gone[j])) for j in range(N)]
            split = ops.and_(
                taken, ops.ge(size[r][i], 1), ops.or_(*stay[:i]), ops.or_(*stay[i + 1 :])
            )
            for j in range(i + 1, N):
                keep = ops.or_(ops.not_(split), gone[j])
                size[r][j] = ops.ite(keep, size[r][j], 0)
                nat[r][j] = ops.ite(keep, nat[r][j], 0)

    def qualifies(count: T) -> T:
        return ops.eq(count, 3) if exactly else ops.ge(count, 3)

    for t, m in enumerate(movers):
        phase = state.phase if t == 0 else "start"
        quiet = free is not None and free != t
        plan = _TurnPlan(m, phase, quiet=quiet)
        plans.append(plan)
        me = state.trunks[m][: state.usable] if t == 0 else state.trunks[m]
        ambushes = 0 if quiet else sum(1 for h in me if h.content == AMBUSH and not h.used)
        again = any(h.content == ROLL_AGAIN and not h.used for h in me)
        if t > 0:  # the steal at the start of the turn
            stolen: list[T] = []
            for i in range(N):
                st = ops.and_(
                    alive[i],
                    ops.ge(size[m][i], need[i]),
                    *(ops.gt(size[m][i], size[r][i]) for r in range(P) if r != m),
                )
                stolen.append(st)
            for i in range(N):
                if rear_back:
                    cut(i, stolen[i], stolen)
            for i, st in enumerate(stolen):
                alive[i] = ops.and_(alive[i], ops.not_(st))
                tp[i] = ops.and_(tp[i], ops.not_(st))
                for r in range(P):
                    size[r][i] = ops.ite(st, 0, size[r][i])
                    nat[r][i] = ops.ite(st, 0, nat[r][i])
        has = [ops.ge(size[m][i], 1) for i in range(N)]
        plan.has = has
        reachable = [reach(i, alive) for i in range(N)]
        # take backs: a front part of the gang stays
        if phase == "start" and not quiet:
            kept: list[T] = []
            for i in range(N):
                if has[i] is False:
                    kept.append(False)
                    continue
                k = ops.new_bool()
                ops.implies(k, has[i])
                kept.append(k)
            for i, j in itertools.combinations(range(N), 2):
                if kept[j] is not False and has[i] is not False:
                    ops.implies(ops.and_(kept[j], has[i]), kept[i])
        else:
            kept = list(has)
        plan.kept = kept
        for i in range(N):
            size[m][i] = ops.ite(kept[i], size[m][i], 0)
            nat[m][i] = ops.ite(kept[i], nat[m][i], 0)
        # the faces to lay
        if phase == "ambush" or quiet:
            faces: list[T] = [0] * 6
        elif phase == "attack" and (state.laid or not again):
            faces = [state.roll[s] + state.mroll[s] for s in range(6)]
        elif phase in ("roll", "mroll") and not again:
            air = [ops.new_int(0, fmax) for _ in range(6)]
            ops.require(ops.eq(ops.sum(air), sum(state.airborne)))
            faces = [state.roll[s] + state.mroll[s] + air[s] for s in range(6)]
        else:
            if phase == "start" and merc:
                # hoard dice not kept on the train, and the mercenaries added from the reserve
                band = [0 if c.groups[m] is None else c.groups[m].bandits for c in train]  # type: ignore[union-attr]
                reserve = state.reserve[m]
                plan.mercs = ops.new_int(0, reserve) if reserve else 0
                total: T = (
                    dice - ops.sum([ops.ite(kept[i], band[i], 0) for i in range(N)]) + plan.mercs
                )
            elif phase == "start":
                total = dice - ops.sum([size[m][i] for i in range(N)])
            else:
                total = sum(state.roll) + sum(state.mroll) + sum(state.airborne)
            faces = [ops.new_int(0, fmax) for _ in range(6)]
            ops.require(ops.eq(ops.sum(faces), total))
        plan.faces = faces
        in_hand = ops.sum(faces)
        stack_open = stack_open or ambushes > 0 or rear_back
        symv: list[list[T]] = [
            [kept[i] if sym0[m][i] == s else False for s in range(5)] for i in range(N)
        ]
        if phase != "ambush" and not quiet:
            # which symbols join, which start new cars
            kept_sym: list[T] = [
                ops.or_(*(kept[i] for i in range(N) if sym0[m][i] == s)) for s in range(5)
            ]
            block: list[T] = [0] * N
            for i in range(N):
                gs = sym0[m][i]
                if gs is None or kept[i] is False:
                    continue
                s = gs
                j = ops.new_bool() if not _zero(faces[s]) else False
                if j is not False:
                    ops.implies(j, ops.and_(kept[i], ops.ge(faces[s], 1)))
                    if o.keep == "must-join" and not stack:
                        ops.implies(ops.and_(kept[i], ops.ge(faces[s], 1)), j)
                plan.join[i] = j
                block[i] = ops.ite(j, faces[s], 0)
            new_car: list[T] = []
            for i in range(N):
                if kept[i] is True or alive[i] is False:
                    new_car.append(False)
                    continue
                nw = ops.new_bool()
                ops.implies(nw, ops.and_(reachable[i], ops.not_(kept[i])))
                new_car.append(nw)
            for s in range(5):
                ys = []
                for i in range(N):
                    if new_car[i] is False or _zero(faces[s]):
                        continue
                    y = ops.new_bool()
                    ops.implies(y, ops.and_(new_car[i], ops.not_(kept_sym[s]), ops.ge(faces[s], 1)))
                    plan.new[s, i] = y
                    ys.append(y)
                    symv[i][s] = ops.or_(symv[i][s], y)
                    block[i] = block[i] + ops.ite(y, faces[s], 0)
                ops.require(ops.ge(1, ops.sum([ops.b2i(y) for y in ys])))
            for i in range(N):
                if new_car[i] is False:
                    continue
                ys = [plan.new[s, i] for s in range(5) if (s, i) in plan.new]
                ops.require(ops.eq(ops.sum([ops.b2i(y) for y in ys]), ops.b2i(new_car[i])))
            gang = [ops.or_(kept[i], new_car[i]) for i in range(N)]
            # the gang is one block of cars on the train
            started: T = False
            gap: T = False
            for i in range(N):
                ops.implies(gang[i], ops.not_(gap))
                gap = ops.or_(gap, ops.and_(started, alive[i], ops.not_(gang[i])))
                started = ops.or_(started, gang[i])
            any_kept = ops.or_(*kept)
            any_new = ops.or_(*new_car)
            before: T = False  # some kept group in front of car i
            front_open: list[T] = []  # car i is a reachable car in front of every kept group
            for i in range(N):
                front_open.append(ops.and_(reachable[i], ops.not_(before), ops.not_(kept[i])))
                behind = ops.and_(new_car[i], before)
                if o.front == "keep":
                    ops.require(ops.not_(behind))
                else:
                    for d in range(i):
                        ops.implies(ops.and_(behind, front_open[d]), new_car[d])
                before = ops.or_(before, kept[i])
            if o.restart == "last":
                for i in range(N):
                    rear = ops.and_(alive[i], *(ops.not_(alive[d]) for d in range(i + 1, N)))
                    ops.implies(ops.and_(ops.not_(any_kept), any_new, rear), new_car[i])
            # jokers
            pre: list[T] = []
            post: list[T] = []
            for i in range(N):
                if gang[i] is False or _zero(faces[JOKER]):
                    pre.append(0)
                    post.append(0)
                    continue
                a = ops.new_int(0, fmax) if kept[i] is not False else 0
                b = ops.new_int(0, fmax)
                if not _zero(a):
                    ops.implies(ops.ge(a, 1), kept[i])
                ops.implies(ops.ge(b, 1), gang[i])
                if (
                    phase == "attack"
                    and state.joker_car is not None
                    and o.jokers == "together"
                    and train[i].id != state.joker_car
                ):
                    ops.require(ops.eq(a + b, 0))
                pre.append(a)
                post.append(b)
            ops.require(ops.ge(faces[JOKER], ops.sum(pre) + ops.sum(post)))
            if o.jokers == "together":
                used = [ops.b2i(ops.ge(pre[i] + post[i], 1)) for i in range(N)]
                ops.require(ops.ge(1, ops.sum(used)))
            plan.pre, plan.post = pre, post
            # arrivals, trunks, bombs and thefts car by car
            for i in range(N):
                if gang[i] is False:
                    continue
                k, n0, g, a, b = size[m][i], nat[m][i], block[i], pre[i], post[i]
                c1 = k + a
                c2 = c1 + g
                c3 = c2 + b
                ts = tsym[i]
                trig: T = False
                t1: T = False
                post_n: T = 0
                if ts is not None and tp[i] is not False:
                    if natural:
                        base = n0 + g
                        if exactly:
                            t1 = ops.and_(ops.ge(a, 1), ops.eq(n0, 3))
                            t2 = ops.and_(ops.not_(t1), ops.ge(g, 1), ops.eq(base, 3))
                            t3 = ops.and_(ops.not_(t1), ops.not_(t2), ops.ge(b, 1), ops.eq(base, 3))
                        else:
                            t1 = ops.and_(ops.ge(a, 1), ops.ge(n0, 3))
                            t2 = ops.and_(ops.not_(t1), ops.ge(g, 1), ops.ge(base, 3))
                            t3 = ops.and_(ops.not_(t1), ops.not_(t2), ops.ge(b, 1), ops.ge(base, 3))
                        p1 = c3 - k - 1
                        p3 = c3 - c2 - 1
                    elif exactly:
                        t1 = ops.and_(ops.ge(a, 1), ops.ge(2, k), ops.ge(c1, 3))
                        t2 = ops.and_(ops.not_(t1), ops.ge(g, 1), ops.eq(c2, 3))
                        t3 = ops.and_(ops.not_(t1), ops.not_(t2), ops.ge(b, 1), ops.ge(2, c2),
                                      ops.ge(c3, 3))
                        p1 = c3 - 3
                        p3 = c3 - 3
                    else:
                        t1 = ops.and_(ops.ge(a, 1), ops.ge(c1, 3))
                        t2 = ops.and_(ops.not_(t1), ops.ge(g, 1), ops.ge(c2, 3))
                        t3 = ops.and_(ops.not_(t1), ops.not_(t2), ops.ge(b, 1), ops.ge(c3, 3))
                        # the trigger is the arrival that first reaches three (or the first
                        # arrival of all when three were there before)
                        p1 = c3 - ops.ite(ops.ge(k, 3), k + 1, 3)
                        p3 = c3 - ops.ite(ops.ge(c2, 3), c2 + 1, 3)
                    trig = ops.and_(tp[i], symv[i][ts], ops.or_(t1, t2, t3))
                    post_n = ops.ite(t1, p1, ops.ite(t2, b, p3))
                if merc:
                    over[i] = ops.and_(ops.ge(a + g + b, 1), ops.ge(c3, dice))
                    in_hand = in_hand - (a + g + b)
                    full: T = False
                else:
                    full = ops.and_(ops.eq(c3, dice), ops.ge(a + g + b, 1))  # dice arrived
                at_theft = ops.and_(trig, full, ops.eq(post_n, 0))
                opened = ops.and_(trig, ops.not_(at_theft)) if discard else trig
                bomb = bomb_tile(ts, opened) if ts is not None else False
                plan.bombs[i] = bomb
                fx = ops.and_(bomb, ops.not_(at_theft))
                theft = ops.and_(full, ops.not_(fx))
                nat_after = n0 + g if natural else 0
                size[m][i] = ops.ite(theft, 0, ops.ite(fx, 1 + post_n, c3))
                if natural:
                    bombed_nat = ops.ite(t1, ops.min1(n0) + g, ops.min1(nat_after))
                    nat[m][i] = ops.ite(theft, 0, ops.ite(fx, bombed_nat, nat_after))
                blast(i, m, fx)
                if rear_back:
                    cut(i, theft, [theft if d == i else False for d in range(N)])
                for r in range(P):
                    if r != m:
                        size[r][i] = ops.ite(theft, 0, size[r][i])
                        nat[r][i] = ops.ite(theft, 0, nat[r][i])
                tp[i] = ops.and_(tp[i], ops.not_(trig), ops.not_(theft))
                alive[i] = ops.and_(alive[i], ops.not_(theft))
        # ambush swaps
        for _ in range(ambushes):
            sel: list[T] = []
            for i in range(N):
                if _zero(size[m][i]):
                    sel.append(False)
                    continue
                x = ops.new_bool()
                ops.implies(x, ops.ge(size[m][i], 1))
                sel.append(x)
            u = ops.new_bool()
            ops.require(ops.eq(ops.sum([ops.b2i(x) for x in sel]), ops.ite(u, 2, 0)))
            tot_s = ops.sum([ops.ite(sel[i], size[m][i], 0) for i in range(N)])
            tot_n = ops.sum([ops.ite(sel[i], nat[m][i], 0) for i in range(N)]) if natural else 0
            tot_y = [
                ops.sum([ops.b2i(ops.and_(sel[i], symv[i][s])) for i in range(N)])
                for s in range(5)
            ]
            swap_bombs: dict[int, T] = {}
            new_symv: list[list[T]] = []
            for i in range(N):
                x = sel[i]
                size_i = ops.ite(x, tot_s - size[m][i], size[m][i])
                nat_i = ops.ite(x, tot_n - nat[m][i], nat[m][i]) if natural else 0
                if x is False:
                    ys = list(symv[i])
                else:
                    ys = [
                        ops.or_(
                            ops.and_(x, ops.eq(tot_y[s] - ops.b2i(symv[i][s]), 1)),
                            ops.and_(ops.not_(x), symv[i][s]),
                        )
                        for s in range(5)
                    ]
                new_symv.append(ys)
                ts = tsym[i]
                if ts is not None and x is not False:
                    trig = ops.and_(x, tp[i], ys[ts], qualifies(nat_i if natural else size_i))
                    bomb = bomb_tile(ts, trig)
                    swap_bombs[i] = bomb
                    size_i = ops.ite(bomb, 1, size_i)
                    nat_i = ops.ite(bomb, ops.min1(nat_i), nat_i) if natural else 0
                    blast(i, m, bomb)
                    tp[i] = ops.and_(tp[i], ops.not_(trig))
                size[m][i] = size_i
                nat[m][i] = nat_i
            symv = new_symv
            plan.swaps.append((sel, swap_bombs))
    for s in range(5):
        ops.require(ops.ge(bombs_left[s], ops.sum([ops.b2i(b) for sy, _, b in tiles if sy == s])))
        ops.require(
            ops.ge(
                other_left[s],
                ops.sum([ops.b2i(ops.and_(op, ops.not_(b))) for sy, op, b in tiles if sy == s]),
            )
        )
    mine = size[player][w]
    holds = ops.and_(
        alive[w],
        ops.ge(mine, need[w]),
        *(ops.gt(mine, size[r][w]) for r in range(P) if r != player),
    )
    if stack:
        # The first outright theft on car i ends a prefix of the line that the model does
        # express; after it only the dice still in hand can arrive (nothing more is rolled).
        # Without a trunk on W, an ambush or cut=rear-back, player's dice on W stay as they
        # are, so the claim can only break if W is taken or the mover can get as many there.
        ops.require(ops.or_(*over.values()))
        if claim:
            ops.require(ops.not_(holds))
            return _Built(ops, plans)
        if not stack_open and tsym[w] is None:
            mine_w = train[w].count(player)
            reach_w = ops.ge(size[movers[-1]][w] + in_hand, min(mine_w, dice))
            ops.require(ops.or_(over.get(w, False), reach_w))
        return _Built(ops, plans)
    for x in over.values():
        ops.require(ops.not_(x))
    ops.require(ops.not_(holds))
    return _Built(ops, plans)


# -- replay --------------------------------------------------------------------------------------


def _faces_str(faces: Sequence[int]) -> str:
    return "".join(LETTERS[s] * n for s, n in enumerate(faces)) or "-"


class _Replay:
    def __init__(self, state: State) -> None:
        self.state = state
        self.line: list[str] = []
        self.want: dict[int, bool] = {}  # car id -> whether the tile to open is a bomb

    def do(self, action: Action) -> None:
        if not is_legal(self.state, action):
            raise SolverError(
                f"the model's line is not legal at {action} (phase {self.state.phase})"
            )
        self.line.append(str(action))
        self.state = _apply(self.state, action)
        while self.state.phase == "reveal":
            car_id = self.state.pending[0][0]
            bomb = self.want.get(car_id, False)
            outcomes = [a for a, _ in chance_outcomes(self.state)]
            pick = next(
                (a for a in outcomes if isinstance(a, Open) and (a.content == BOMB) == bomb),
                None,
            )
            if pick is None:
                raise SolverError(f"the model opened a tile that is not left on car {car_id}")
            self.line.append(str(pick))
            self.state = _apply(self.state, pick)

    def in_hand(self) -> list[int]:
        """The faces of the dice in hand, hoard and mercenaries together."""
        return [a + b for a, b in zip(self.state.roll, self.state.mroll, strict=True)]

    def joker(self, car_id: int) -> None:
        """Lay a joker on ``car_id``: a hoard one while there is one, else a mercenary."""
        self.do(Joker(car_id, self.state.roll[JOKER] == 0))

    def roll_to(self, mover: int, faces: Sequence[int]) -> None:
        """Play the roll's chance steps (hoard, then mercenaries) so that the dice in hand show
        ``faces``; when they cannot, every die shows a joker (a reroll follows)."""
        while self.state.phase in ("roll", "mroll") and self.state.to_move == mover:
            st = self.state
            rest = [f - c for f, c in zip(faces, self.in_hand(), strict=True)]
            n = st.airborne[0] if st.phase == "roll" else st.airborne[1]
            later = st.airborne[1] if st.phase == "roll" else 0
            if min(rest) >= 0 and sum(rest) == n + later:
                take: list[int] = []
                left = n
                for k in rest:
                    take.append(min(k, left))
                    left -= take[-1]
                self.do(Rolled(tuple(take)))
            else:
                self.do(Rolled((0, 0, 0, 0, 0, n)))


def _replay(
    state: State, built: _Built, value: Callable[[T], int]
) -> tuple[State, tuple[str, ...]]:
    rp = _Replay(state)
    ids = [c.id for c in state.train]
    N = len(ids)
    for plan in built.plans:
        m = plan.mover
        if rp.state.is_terminal or rp.state.to_move != m:
            break
        has = [bool(value(x)) for x in plan.has]
        kept = [bool(value(x)) for x in plan.kept]
        faces = [value(x) for x in plan.faces]
        rp.want = {ids[i]: bool(value(b)) for i, b in plan.bombs.items()}
        if plan.quiet:
            if rp.state.phase == "start":
                rp.do(Roll(0))
            if rp.state.phase == "roll":
                rp.do(Rolled((0, 0, 0, 0, 0, rp.state.airborne[0])))
            while rp.state.to_move == m and rp.state.phase in ("attack", "ambush"):
                rp.do(End())
            continue
        if plan.phase == "start":
            for _ in range(sum(1 for i in range(N) if has[i] and not kept[i])):
                rp.do(TakeBack())
            rp.do(Roll(value(plan.mercs)))
        rp.roll_to(m, faces)
        if rp.state.phase == "attack" and rp.state.to_move == m:
            if faces != rp.in_hand():
                rp.do(Reroll(rp.state.roll, rp.state.mroll))
                rp.roll_to(m, faces)
            for i in range(N):
                if not kept[i]:
                    continue
                for _ in range(value(plan.pre[i])):
                    rp.joker(ids[i])
                j = plan.join.get(i, False)
                if value(j):
                    s = rp.state.car(ids[i]).groups[m].symbol  # type: ignore[union-attr]
                    rp.do(Lay(s, ids[i]))
                for _ in range(value(plan.post[i])):
                    rp.joker(ids[i])
            new = {i: s for (s, i), y in plan.new.items() if value(y)}
            first_kept = next((i for i in range(N) if kept[i]), N)
            order = sorted((i for i in new if i < first_kept), reverse=True)
            order += sorted(i for i in new if i > first_kept)
            for i in order:
                rp.do(Lay(new[i], ids[i]))
                for _ in range(value(plan.post[i])):
                    rp.joker(ids[i])
            if rp.state.to_move == m and rp.state.phase == "attack":
                rp.do(End())
        for sel, bombs in plan.swaps:
            if rp.state.to_move != m or rp.state.phase != "ambush":
                break
            chosen = [i for i in range(N) if value(sel[i])]
            if len(chosen) == 2:
                rp.want = {ids[i]: bool(value(b)) for i, b in bombs.items()}
                rp.do(Ambush(ids[chosen[0]], ids[chosen[1]]))
        if rp.state.to_move == m and rp.state.phase == "ambush":
            rp.do(End())
    return rp.state, tuple(rp.line)


# -- the question -----------------------------------------------------------------------------


def _solve(
    state: State, car: int, player: int, backend: str, budget: Budget, workers: int, seed: int
) -> tuple[bool | None, tuple[str, ...], str]:
    """(safe, counterexample, note) for one position (``None``: unknown, note the reason)."""
    if state.is_terminal or state.to_move == player:
        lost = not any(w.id == car for w in state.won[player])
        return (not lost), (), ""
    if state.car(car) is None:
        return False, (), ""
    why = covers(state, car, player)
    if why is not None:
        return None, (), why
    if state.phase == "reveal":  # the tile is the adversary's: every one is a model
        unknown = ""
        for action, _ in chance_outcomes(state):
            safe, line, note = _solve(
                _apply(state, action), car, player, backend, budget, workers, seed
            )
            if safe is False:
                return False, (str(action), *line), ""
            if safe is None:
                unknown = note
        return (None, (), unknown) if unknown else (True, (), "")
    budget.tick()
    left = budget.time_left()
    if left is not None and left <= 0:
        raise LimitReached("time", budget.limits)
    movers = (player - state.to_move) % state.players
    # One opponent's turn at a time with the others quiet (small models, most lines that
    # break a claim are found so), then the whole question.
    stages: list[int | None] = list(range(movers)) if movers > 1 else []
    if state.options.keep == "must-join" and state.phase == "attack":
        stages = []  # the first opponent may have to lay what they rolled
    def _run(free: int | None, stack: bool, claim: bool = False) -> tuple[str, _Built, Any]:
        ops: _CpOps | _Z3Ops = _CpOps() if backend == "cpsat" else _Z3Ops()
        built = _build(ops, state, car, player, free, stack, claim)
        if ops.infeasible:
            return "infeasible", built, None
        left = budget.time_left()
        if isinstance(ops, _CpOps):
            status, value = ops.solve(left, workers, seed)
        else:
            status, value = ops.solve(left, seed)
        return status, built, value

    for free in [*stages, None]:
        status, built, value = _run(free, False)
        if status == "feasible":
            break
        if status == "unknown" and free is None:
            return None, (), budget.limits.reason("time")
    if status != "feasible":
        if state.options.mercenaries == "on":
            # the lines left out: a car getting a colour's worth of the mover's dice
            stacked, _, _ = _run(None, True)
            if stacked == "unknown":
                return None, (), budget.limits.reason("time")
            if stacked == "feasible":
                # a stacking line the model reads as breaking the claim: kept only if the
                # engine, playing it, confirms that the car is lost
                found, b_built, b_value = _run(None, True, True)
                if found == "feasible":
                    try:
                        end, line = _replay(state, b_built, b_value)
                    except SolverError:
                        end, line = state, ()
                    if line and _lost(end, car, player):
                        return False, line, ""
                return None, (), (
                    "a line stacking a colour's worth of dice on one car (an outright theft "
                    "in the mercenary variant) is not modelled"
                )
        return True, (), ""
    end, line = _replay(state, built, value)
    if _lost(end, car, player):
        return False, line, ""
    raise SolverError(f"the {backend} counterexample does not replay: {'; '.join(line)}")


def _lost(end: State, car: int, player: int) -> bool:
    """After a replayed line: the player's turn has begun (or the game ended) without the car,
    or the car has left the train."""
    if end.is_terminal or end.to_move == player:
        return not any(w.id == car for w in end.won[player])
    return end.car(car) is None


def model_safe(
    state: State,
    car: int,
    player: int,
    backend: str,
    limits: Limits,
    *,
    workers: int = 1,
    seed: int = 0,
) -> Safety:
    """The safety verdict by the CP-SAT or Z3 model."""
    from banditsolve.rolling.solvers.safety import Safety

    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 64:
        raise SolverError(f"workers must be a whole number from 1 to 64, not {workers!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**31:
        raise SolverError("the seed must be a whole number from 0 to 2**31 - 1")
    name = "CP-SAT" if backend == "cpsat" else "Z3"
    budget = Budget(limits)
    try:
        safe, line, note = _solve(state, car, player, backend, budget, workers, seed)
    except LimitReached as exc:
        safe, line, note = None, (), exc.reason
    lim = limits.to_json()
    if safe is None:
        return Safety(state.notation(), player, car, None, f"{note} ({name} model)", (),
                      budget.nodes, backend, lim)
    if safe is False:
        return Safety(
            state.notation(), player, car, False,
            f"car {car} can be lost before player {player}'s next turn ({name} model)",
            line, budget.nodes, backend, lim,
        )
    movers = (player - state.to_move) % state.players
    return Safety(
        state.notation(), player, car, True,
        f"no play of the {movers} turn{'s' if movers != 1 else ''} before player {player}'s "
        f"gives anyone as many dice on car {car} or takes it ({name} model, infeasible)",
        (), budget.nodes, backend, lim,
    )
