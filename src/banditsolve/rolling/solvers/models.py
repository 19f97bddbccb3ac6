"""CP-SAT and Z3 models of "is car W provably mine?" (RB-SAFE-3).

The models answer the safety question for the positions they cover (:func:`covers`): the last
opponent ``q`` before player ``p`` is about to start the attack part of their turn (phase
``start``, their steal done), and between now and ``p``'s steal only ``q`` plays. Then W is lost
exactly when ``q`` can end the turn with at least as many dice on W as ``p`` (or ``p`` does not
hold W now). Rolls are the adversary's choice, so the model chooses them.

Variables of one model (one per number ``t`` of groups ``q`` takes back first, RB-TAKE-1): the
faces of the roll (their sum is the dice in hand); for each symbol ``q`` still has on the train,
whether its rolled dice join that group (RB-ATTACK-3); for each new symbol, which car in front of
the gang it starts, the new groups filling the cars in front one after another (RB-ATTACK-4,
RB-ATTACK-5; nothing beyond the front: option front=keep); the jokers on each group
(RB-JOKER-1; one car only under jokers=together); and, with an ambush trunk to use, which group
is swapped onto W (RB-AMBUSH-1). Covered: option values mercenaries=off, front=keep,
restart=last, cut=join, keep=allowed (any locomotive, jokers and trunk options); no trunk on W;
with an ambush to use, no trunk on the train. A roll-again trunk changes nothing here (the first
roll may already be anything), and a trunk on another car only changes counts there.

A ``no`` comes with the line (take backs, the roll, the layings, trunks opened, the ambush)
replayed through the rules engine before it is returned; ``unknown`` only when the time limit
runs out. CP-SAT (``ortools``) and Z3 (through :mod:`banditsolve.z3typed`) are imported lazily.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from banditsolve.core.limits import Budget, LimitReached, Limits
from banditsolve.errors import SolverError
from banditsolve.rolling.edition import JOKER, LETTERS
from banditsolve.rolling.rules import (
    AMBUSH,
    BOMB,
    _usable_trunk,
    apply,
    chance_outcomes,
    edition_of,
    parse_action,
)
from banditsolve.rolling.state import State

if TYPE_CHECKING:
    from banditsolve.rolling.solvers.safety import Safety


def covers(state: State, car: int, player: int) -> str | None:
    """``None`` when the models cover the question, else the reason they do not."""
    o = state.options
    q = state.to_move
    if state.phase != "start":
        return f"the position is in phase {state.phase}, not at the start of a turn"
    if (q + 1) % state.players != player:
        return f"more than one player plays before player {player}'s next turn"
    for name, value, want in (
        ("mercenaries", o.mercenaries, "off"),
        ("front", o.front, "keep"),
        ("restart", o.restart, "last"),
        ("cut", o.cut, "join"),
        ("keep", o.keep, "allowed"),
    ):
        if value != want:
            return f"option {name}={value}"
    w = state.car(car)
    if w is None:
        return f"car {car} is not on the train"
    if w.trunk is not None:
        return f"car {car} still has its trunk"
    if _usable_trunk(state, AMBUSH) is not None and any(c.trunk is not None for c in state.train):
        return "an ambush can be used while trunks are on the train"
    return None


@dataclass(frozen=True, slots=True)
class _Shape:
    """The constants of the model for ``t`` groups taken back."""

    t: int
    n: int  # dice in hand
    groups: tuple[tuple[int, int, int], ...]  # (train index, symbol, size) left on the train
    slots: tuple[int, ...]  # train indices the new groups fill, in order
    new_symbols: tuple[int, ...]
    w: int  # W's train index
    need: int  # dice on W that break the claim
    ambush: bool
    together: bool


def _shapes(state: State, car: int, player: int) -> list[_Shape]:
    q = state.to_move
    dice = edition_of(state).dice_per_colour
    gang = state.gang(q)
    w = state.index(car)
    wcar = state.train[w]
    mine = wcar.count(player)
    holds = mine >= wcar.need and all(
        mine > wcar.count(r) for r in range(state.players) if r not in (player, q)
    )
    need = mine if holds else 0
    ambush = _usable_trunk(state, AMBUSH) is not None
    rear = len(state.train) - 1

    def reachable(i: int) -> bool:
        c = state.train[i]
        return not (c.loco and state.options.locomotive == "last" and len(state.train) > 1)

    out: list[_Shape] = []
    for t in range(len(gang) + 1):
        kept = gang[: len(gang) - t]
        groups = []
        for i in kept:
            g = state.train[i].groups[q]
            assert g is not None
            groups.append((i, g.symbol, g.size))
        on = sum(size for _, _, size in groups)
        used = {s for _, s, _ in groups}
        new_symbols = tuple(s for s in range(5) if s not in used)
        start = kept[0] - 1 if kept else rear
        slots: list[int] = []
        for j in range(len(new_symbols)):
            i = start - j
            if i < 0 or not reachable(i):
                break
            slots.append(i)
        out.append(
            _Shape(t, dice - on, tuple(groups), tuple(slots), new_symbols, w, need, ambush,
                   state.options.jokers == "together")
        )
    return out


@dataclass(frozen=True, slots=True)
class _Plan:
    """A solution: faces, symbols joining their groups, new groups by slot, jokers per car
    index, and the group index swapped onto W (or -1)."""

    t: int
    faces: tuple[int, ...]
    joins: tuple[int, ...]
    new: tuple[tuple[int, int], ...]  # (slot train index, symbol)
    jokers: tuple[tuple[int, int], ...]  # (train index, count)
    swap: int


# -- CP-SAT ----------------------------------------------------------------------------------------


def _solve_cpsat(
    shape: _Shape, time_left: float | None, workers: int, seed: int
) -> tuple[str, _Plan | None]:
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    n = shape.n
    f = [m.new_int_var(0, n, f"f{s}") for s in range(6)]
    m.add(sum(f) == n)
    sizes: list[Any] = []  # per group: (train index, size expression, occupied literal or True)
    joins: list[tuple[int, Any]] = []
    jok: list[Any] = []
    has_j: list[Any] = []
    for k, (i, s, size) in enumerate(shape.groups):
        lay = m.new_bool_var(f"lay{s}")
        add = m.new_int_var(0, n, f"add{s}")
        m.add(add == f[s]).only_enforce_if(lay)
        m.add(add == 0).only_enforce_if(lay.negated())
        jk = m.new_int_var(0, n, f"jg{k}")
        hj = m.new_bool_var(f"hg{k}")
        m.add(jk == 0).only_enforce_if(hj.negated())
        joins.append((s, lay))
        jok.append(jk)
        has_j.append(hj)
        sizes.append((i, size + add + jk, None))
    a: dict[tuple[int, int], Any] = {}
    used: list[Any] = []
    for j, i in enumerate(shape.slots):
        for s in shape.new_symbols:
            a[s, j] = m.new_bool_var(f"a{s}_{j}")
            m.add(f[s] >= 1).only_enforce_if(a[s, j])
        u = m.new_bool_var(f"u{j}")
        m.add(sum(a[s, j] for s in shape.new_symbols) == u)
        if used:
            m.add_implication(u, used[-1])
        used.append(u)
        z = []
        for s in shape.new_symbols:
            zs = m.new_int_var(0, n, f"z{s}_{j}")
            m.add(zs == f[s]).only_enforce_if(a[s, j])
            m.add(zs == 0).only_enforce_if(a[s, j].negated())
            z.append(zs)
        jk = m.new_int_var(0, n, f"js{j}")
        hj = m.new_bool_var(f"hs{j}")
        m.add(jk == 0).only_enforce_if(hj.negated())
        m.add_implication(hj, u)
        jok.append(jk)
        has_j.append(hj)
        sizes.append((i, sum(z) + jk, u))
    for s in shape.new_symbols:
        m.add(sum(a[s, j] for j in range(len(shape.slots))) <= 1)
    m.add(sum(jok) <= f[JOKER])
    if shape.together:
        m.add(sum(has_j) <= 1)
    on_w = [k for k, (i, _, _) in enumerate(sizes) if i == shape.w]
    options = []
    swap_vars: list[tuple[int, Any]] = []
    if on_w:
        kw = on_w[0]
        _, w_size, w_occ = sizes[kw]
        b = m.new_bool_var("keep")
        m.add(w_size >= shape.need).only_enforce_if(b)
        options.append(b)
        if shape.ambush:
            for k, (_, size, occ) in enumerate(sizes):
                if k == kw:
                    continue
                sw = m.new_bool_var(f"swap{k}")
                m.add(size >= shape.need).only_enforce_if(sw)
                if occ is not None:
                    m.add_implication(sw, occ)
                if w_occ is not None:
                    m.add_implication(sw, w_occ)
                swap_vars.append((k, sw))
                options.append(sw)
    elif shape.need <= 0:
        options.append(m.new_constant(1))
    if not options:
        return "infeasible", None
    m.add_bool_or(options)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    if time_left is not None:
        solver.parameters.max_time_in_seconds = max(time_left, 0.001)
    status = solver.solve(m)
    if status == cp_model.INFEASIBLE:
        return "infeasible", None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "unknown", None
    faces = tuple(int(solver.value(x)) for x in f)
    plan = _Plan(
        shape.t,
        faces,
        tuple(s for s, lay in joins if solver.value(lay)),
        tuple(
            (i, s)
            for j, i in enumerate(shape.slots)
            for s in shape.new_symbols
            if solver.value(a[s, j])
        ),
        tuple((sizes[k][0], int(solver.value(x))) for k, x in enumerate(jok)),
        next((k for k, sw in swap_vars if solver.value(sw)), -1),
    )
    return "feasible", plan


# -- Z3 -------------------------------------------------------------------------------------


def _solve_z3(shape: _Shape, time_left: float | None, seed: int) -> tuple[str, _Plan | None]:
    from banditsolve import z3typed as z

    n = shape.n
    cons: list[z.BoolExpr] = []
    f = [z.int_var(f"f{s}") for s in range(6)]
    cons += [x >= 0 for x in f] + [z.sum_(f).eq(n)]
    sizes: list[tuple[int, z.IntExpr, z.BoolExpr | bool]] = []
    joins: list[tuple[int, z.BoolExpr]] = []
    jok: list[z.IntExpr] = []
    for k, (i, s, size) in enumerate(shape.groups):
        lay = z.bool_var(f"lay{s}")
        jk = z.int_var(f"jg{k}")
        cons.append(jk >= 0)
        joins.append((s, lay))
        jok.append(jk)
        sizes.append((i, z.sum_((size, z.if_then_else(lay, f[s], 0), jk)), True))
    a: dict[tuple[int, int], z.BoolExpr] = {}
    used: list[z.BoolExpr] = []
    for j, i in enumerate(shape.slots):
        for s in shape.new_symbols:
            a[s, j] = z.bool_var(f"a{s}_{j}")
            cons.append(z.implies(a[s, j], f[s] >= 1))
        u = z.bool_var(f"u{j}")
        cons.append(z.count_true(a[s, j] for s in shape.new_symbols).eq(z.if_then_else(u, 1, 0)))
        if used:
            cons.append(z.implies(u, used[-1]))
        used.append(u)
        jk = z.int_var(f"js{j}")
        cons += [jk >= 0, z.implies(z.not_(u), jk.eq(0))]
        jok.append(jk)
        base = z.sum_(z.if_then_else(a[s, j], f[s], 0) for s in shape.new_symbols)
        sizes.append((i, base + jk, u))
    for s in shape.new_symbols:
        cons.append(z.count_true(a[s, j] for j in range(len(shape.slots))) <= 1)
    cons.append(z.sum_(jok) <= f[JOKER])
    if shape.together:
        cons.append(z.count_true(x >= 1 for x in jok) <= 1)
    on_w = [k for k, (i, _, _) in enumerate(sizes) if i == shape.w]
    options: list[z.BoolExpr | bool] = []
    swaps: list[tuple[int, z.BoolExpr]] = []
    if on_w:
        kw = on_w[0]
        _, w_size, w_occ = sizes[kw]
        options.append(w_size >= shape.need)
        if shape.ambush:
            for k, (_, g_size, occ) in enumerate(sizes):
                if k == kw:
                    continue
                sw = z.bool_var(f"swap{k}")
                cons.append(z.implies(sw, z.and_(g_size >= shape.need, occ, w_occ)))
                swaps.append((k, sw))
                options.append(sw)
    elif shape.need <= 0:
        options.append(True)
    if not options:
        return "infeasible", None
    cons.append(z.or_(*options))
    timeout = None if time_left is None else max(1, int(time_left * 1000))
    solver = z.Solver(timeout_ms=timeout, seed=seed)
    solver.add(*cons)
    result = solver.check()
    if result == "unsat":
        return "infeasible", None
    if result == "unknown":
        return "unknown", None
    model = solver.model()
    plan = _Plan(
        shape.t,
        tuple(model.int_value(x) for x in f),
        tuple(s for s, lay in joins if model.bool_value(lay)),
        tuple(
            (i, s)
            for j, i in enumerate(shape.slots)
            for s in shape.new_symbols
            if model.bool_value(a[s, j])
        ),
        tuple((sizes[k][0], model.int_value(x)) for k, x in enumerate(jok)),
        next((k for k, sw in swaps if model.bool_value(sw)), -1),
    )
    return "feasible", plan


# -- replay ------------------------------------------------------------------------------------


def _open_trunks(state: State, line: list[str]) -> State:
    while state.phase == "reveal":
        outcomes = [a for a, _ in chance_outcomes(state)]
        pick = next((a for a in outcomes if getattr(a, "content", None) != BOMB), outcomes[0])
        line.append(str(pick))
        state = apply(state, pick)
    return state


def replay(state: State, plan: _Plan, shape: _Shape) -> tuple[State, tuple[str, ...]]:
    """The plan as actions through the rules engine: the end position and the line."""
    line: list[str] = []
    q = state.to_move

    def do(text: str) -> None:
        nonlocal state
        line.append(text)
        state = _open_trunks(apply(state, parse_action(text)), line)

    for _ in range(plan.t):
        do("take back")
    do("roll")
    do("rolled " + ("".join(LETTERS[s] * k for s, k in enumerate(plan.faces)) or "-"))
    for s in plan.joins:
        if plan.faces[s]:
            do(f"lay {LETTERS[s]}@{state.train[_index(shape, s, plan)].id}")
    for i, s in plan.new:
        do(f"lay {LETTERS[s]}@{state.train[i].id}")
    for i, count in plan.jokers:
        for _ in range(count):
            do(f"joker@{state.train[i].id}")
    if state.to_move == q and state.phase == "attack":
        do("end")
    if state.to_move == q and state.phase == "ambush":
        if plan.swap >= 0:
            cars = sorted((shape.w, _group_index(shape, plan.swap)))
            do(f"ambush {state.train[cars[0]].id} {state.train[cars[1]].id}")
        if state.to_move == q and state.phase == "ambush":
            do("end")
    return state, tuple(line)


def _index(shape: _Shape, symbol: int, plan: _Plan) -> int:
    return next(i for i, s, _ in shape.groups if s == symbol)


def _group_index(shape: _Shape, k: int) -> int:
    if k < len(shape.groups):
        return shape.groups[k][0]
    return shape.slots[k - len(shape.groups)]


# -- the question -------------------------------------------------------------------------


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
    why = covers(state, car, player)
    if why is not None:
        raise SolverError(
            f"the {backend} model does not cover this question ({why}): use backend exact"
        )
    name = "CP-SAT" if backend == "cpsat" else "Z3"
    budget = Budget(limits)
    shapes = _shapes(state, car, player)
    unknown = False
    q = state.to_move
    try:
        for shape in shapes:
            budget.tick()
            left = budget.time_left()
            if left is not None and left <= 0:
                raise LimitReached("time", limits)
            if backend == "cpsat":
                status, plan = _solve_cpsat(shape, left, workers, seed)
            else:
                status, plan = _solve_z3(shape, left, seed)
            if status == "unknown":
                unknown = True
                continue
            if plan is None:
                continue
            end, line = replay(state, plan, shape)
            if any(w.id == car for w in end.won[player]):
                raise SolverError(f"the {name} counterexample does not replay: {'; '.join(line)}")
            return Safety(
                state.notation(), player, car, False,
                f"car {car} can be lost before player {player}'s next turn ({name} model)",
                line, budget.nodes, backend, limits.to_json(),
            )
    except LimitReached as exc:
        return Safety(state.notation(), player, car, None, exc.reason, (), budget.nodes,
                      backend, limits.to_json())
    if unknown:
        return Safety(state.notation(), player, car, None, limits.reason("time"), (),
                      budget.nodes, backend, limits.to_json())
    return Safety(
        state.notation(), player, car, True,
        f"no take-back, roll and laying of player {q}'s turn gives them as many dice on car "
        f"{car} as player {player} ({name} model, {len(shapes)} models infeasible)",
        (), budget.nodes, backend, limits.to_json(),
    )
