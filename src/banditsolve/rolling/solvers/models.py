"""CP-SAT and Z3 answers to "is wagon W provably mine?" (RB-SAFE-3).

One formulation (:mod:`.formulation`), two solvers (:mod:`.backends`): the solver looks for a
line of play that breaks the claim. A model found is replayed through the rules engine (its
tiles chosen as the model chose) before it is answered as ``no``; positions where a trunk is
being opened are expanded by the engine, each tile a model of its own. With several opponents a
model with one opponent's turn free and the others quiet is tried first (small models find
most lines that break a claim). In the mercenary variant the lines with an outright theft are
bounded rather than modelled (see :func:`.formulation.build`); when the bound does not settle
them the answer is ``unknown`` with that reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from banditsolve.core.limits import Budget, LimitReached, Limits
from banditsolve.errors import SolverError
from banditsolve.rolling.edition import JOKER
from banditsolve.rolling.notation import format_state
from banditsolve.rolling.rules import (
    BOMB,
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
    apply_unchecked,
    chance_outcomes,
    edition_of,
    is_legal,
)
from banditsolve.rolling.solvers.backends import CpOps, T, Z3Ops
from banditsolve.rolling.solvers.formulation import Built, TurnPlan, build
from banditsolve.rolling.solvers.verdict import Safety
from banditsolve.rolling.state import State

#: A solved model's value of a term.
Value = Callable[[T], int]


def covers(state: State, wagon: int, player: int) -> str | None:
    """``None`` when the models express the question, else why they do not (they then answer
    ``unknown`` with that reason)."""
    if state.wagon(wagon) is None:
        return f"wagon {wagon} is not on the train"
    if state.options.mercenaries == "on":
        dice = edition_of(state).dice_per_colour
        m = state.to_move
        if any(c.count(m) >= dice for c in state.train):
            return (
                f"a group of {dice} or more dice of player {m} on one wagon in the mercenary "
                "variant is not modelled"
            )
    return None


# -- replay --------------------------------------------------------------------------------------


class _Replay:
    """A model's line played through the rules engine, turn by turn."""

    def __init__(self, state: State, value: Value) -> None:
        self.state = state
        self.value = value
        self.line: list[str] = []
        self.want: dict[int, bool] = {}  # wagon id -> whether the tile to open is a bomb
        self.ids = [c.id for c in state.train]

    def do(self, action: Action) -> None:
        if not is_legal(self.state, action):
            raise SolverError(
                f"the model's line is not legal at {action} (phase {self.state.phase})"
            )
        self.line.append(str(action))
        self.state = apply_unchecked(self.state, action)
        while self.state.phase == "reveal":
            self.open_tile()

    def open_tile(self) -> None:
        """Open the trunk being carried off as the model chose: a bomb or not."""
        wagon_id = self.state.pending[0][0]
        bomb = self.want.get(wagon_id, False)
        outcomes = [a for a, _ in chance_outcomes(self.state)]
        pick = next(
            (a for a in outcomes if isinstance(a, Open) and (a.content == BOMB) == bomb), None
        )
        if pick is None:
            raise SolverError(f"the model opened a tile that is not left on wagon {wagon_id}")
        self.line.append(str(pick))
        self.state = apply_unchecked(self.state, pick)

    def in_hand(self) -> list[int]:
        """The faces of the dice in hand, hoard and mercenaries together."""
        return [a + b for a, b in zip(self.state.roll, self.state.mroll, strict=True)]

    def joker(self, wagon_id: int) -> None:
        """Lay a joker on ``wagon_id``: a hoard one while there is one, else a mercenary."""
        self.do(Joker(wagon_id, self.state.roll[JOKER] == 0))

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

    def playing(self, mover: int, phase: str) -> bool:
        return self.state.to_move == mover and self.state.phase == phase

    def turn(self, plan: TurnPlan) -> None:
        """One opponent's turn as the model plays it."""
        m, value = plan.mover, self.value
        has = [bool(value(x)) for x in plan.has]
        kept = [bool(value(x)) for x in plan.kept]
        faces = [value(x) for x in plan.faces]
        self.want = {self.ids[i]: bool(value(b)) for i, b in plan.bombs.items()}
        if plan.quiet:
            self.quiet_turn(m)
            return
        if plan.phase == "start":
            for _ in range(sum(1 for h, k in zip(has, kept, strict=True) if h and not k)):
                self.do(TakeBack())
            self.do(Roll(value(plan.mercs)))
        self.roll_to(m, faces)
        if self.playing(m, "attack"):
            if faces != self.in_hand():
                self.do(Reroll(self.state.roll, self.state.mroll))
                self.roll_to(m, faces)
            self.lay(plan, kept)
            if self.playing(m, "attack"):
                self.do(End())
        self.ambushes(plan)
        if self.playing(m, "ambush"):
            self.do(End())

    def quiet_turn(self, m: int) -> None:
        """Roll, lay nothing, end."""
        if self.state.phase == "start":
            self.do(Roll(0))
        if self.state.phase == "roll":
            self.do(Rolled((0, 0, 0, 0, 0, self.state.airborne[0])))
        while self.state.to_move == m and self.state.phase in ("attack", "ambush"):
            self.do(End())

    def lay(self, plan: TurnPlan, kept: list[bool]) -> None:
        """The groups that join (with their jokers before and after), then the new groups
        from the front of the gang outwards."""
        value, ids = self.value, self.ids
        n = len(ids)
        self.lay_joins(plan, kept)
        new = {i: s for (s, i), y in plan.new.items() if value(y)}
        first_kept = next((i for i in range(n) if kept[i]), n)
        order = sorted((i for i in new if i < first_kept), reverse=True)
        order += sorted(i for i in new if i > first_kept)
        for i in order:
            self.do(Lay(new[i], ids[i]))
            for _ in range(value(plan.post[i])):
                self.joker(ids[i])

    def lay_joins(self, plan: TurnPlan, kept: list[bool]) -> None:
        """The groups kept that the plan's dice join, front to back, each with its jokers
        before and after."""
        value, ids, m = self.value, self.ids, plan.mover
        for i in range(len(ids)):
            if not kept[i]:
                continue
            for _ in range(value(plan.pre[i])):
                self.joker(ids[i])
            if value(plan.join.get(i, False)):
                s = self.state.wagon(ids[i]).groups[m].symbol  # type: ignore[union-attr]
                self.do(Lay(s, ids[i]))
            for _ in range(value(plan.post[i])):
                self.joker(ids[i])

    def ambushes(self, plan: TurnPlan) -> None:
        for sel, bombs in plan.swaps:
            if not self.playing(plan.mover, "ambush"):
                break
            chosen = [i for i in range(len(self.ids)) if self.value(sel[i])]
            if len(chosen) == 2:
                self.want = {self.ids[i]: bool(self.value(b)) for i, b in bombs.items()}
                self.do(Ambush(self.ids[chosen[0]], self.ids[chosen[1]]))


def _replay(state: State, built: Built, value: Value) -> tuple[State, tuple[str, ...]]:
    rp = _Replay(state, value)
    for plan in built.plans:
        if rp.state.is_terminal or rp.state.to_move != plan.mover:
            break
        rp.turn(plan)
    return rp.state, tuple(rp.line)


# -- the question -----------------------------------------------------------------------------

#: (safe, counterexample, note): ``None`` unknown, with the note saying why.
Verdict = tuple[bool | None, tuple[str, ...], str]


#: What the first model of a call is assumed to take to build, before one is measured (the
#: builds measured on two-to-four-player questions took 4-15 ms).
FIRST_BUILD_SECONDS = 0.01


class _Question:
    """One position's question for the models: ``wagon`` ``player``'s at their next turn?"""

    def __init__(
        self, state: State, wagon: int, player: int, backend: str, budget: Budget, workers: int,
        seed: int,
    ) -> None:
        self.state, self.wagon, self.player = state, wagon, player
        self.backend, self.budget, self.workers, self.seed = backend, budget, workers, seed
        # The longest a model took to build so far (every question of one call shares it),
        # from a first guess: a model reads no clock while it is built.
        self.builds: list[float] = [FIRST_BUILD_SECONDS]

    def at(self, state: State) -> _Question:
        other = _Question(
            state, self.wagon, self.player, self.backend, self.budget, self.workers, self.seed
        )
        other.builds = self.builds
        return other

    def time_for_a_model(self) -> None:
        """Raise :class:`LimitReached` unless the time left exceeds the longest build so far
        (or :data:`FIRST_BUILD_SECONDS` before one): a model's build reads no clock, so one
        begun with less time would end past the limit."""
        left = self.budget.time_left()
        if left is not None and left <= self.builds[0]:
            raise LimitReached("time", self.budget.limits)

    def solve(self) -> Verdict:
        """(safe, counterexample, note) for the position (``None``: unknown, note the reason)."""
        state, wagon, player = self.state, self.wagon, self.player
        if state.is_terminal or state.to_move == player:
            lost = not any(w.id == wagon for w in state.won[player])
            return (not lost), (), ""
        if state.wagon(wagon) is None:
            return False, (), ""
        why = covers(state, wagon, player)
        if why is not None:
            return None, (), why
        if state.phase == "reveal":
            return self.each_tile()
        self.budget.tick()
        left = self.budget.time_left()
        if left is not None and left <= 0:
            raise LimitReached("time", self.budget.limits)
        return self.staged()

    def each_tile(self) -> Verdict:
        """A trunk being opened: the tile is the adversary's, every one a model."""
        unknown = ""
        for action, _ in chance_outcomes(self.state):
            safe, line, note = self.at(apply_unchecked(self.state, action)).solve()
            if safe is False:
                return False, (str(action), *line), ""
            if safe is None:
                unknown = note
        return (None, (), unknown) if unknown else (True, (), "")

    def run(self, free: int | None, stack: bool, claim: bool = False) -> tuple[str, Built, Any]:
        """Build and solve one model: (status, the model, its values)."""
        self.time_for_a_model()
        began = time.perf_counter()
        ops: CpOps | Z3Ops = CpOps() if self.backend == "cpsat" else Z3Ops()
        built = build(ops, self.state, self.wagon, self.player, free, stack, claim)
        self.builds[0] = max(self.builds[0], time.perf_counter() - began)
        if ops.infeasible:
            return "infeasible", built, None
        left = self.budget.time_left()
        if left is not None and left <= 0:
            raise LimitReached("time", self.budget.limits)
        if isinstance(ops, CpOps):
            status, value = ops.solve(left, self.workers, self.seed)
        else:
            status, value = ops.solve(left, self.seed)
        return status, built, value

    def staged(self) -> Verdict:
        """One opponent's turn at a time with the others quiet, then the whole question."""
        state = self.state
        movers = (self.player - state.to_move) % state.players
        stages: list[int | None] = list(range(movers)) if movers > 1 else []
        if state.options.keep == "must_join" and state.phase == "attack":
            stages = []  # the first opponent may have to lay what they rolled
        for free in [*stages, None]:
            status, built, value = self.run(free, False)
            if status == "feasible":
                end, line = _replay(state, built, value)
                if _lost(end, self.wagon, self.player):
                    return False, line, ""
                raise SolverError(
                    f"the {self.backend} counterexample does not replay: {'; '.join(line)}"
                )
            if status == "unknown" and free is None:
                return None, (), self.budget.limits.reason("time")
        if state.options.mercenaries == "on":
            return self.stacked()
        return True, (), ""

    def stacked(self) -> Verdict:
        """The mercenary variant's lines left out: a wagon getting a colour's worth of the
        mover's dice."""
        stacked, _, _ = self.run(None, True)
        if stacked == "unknown":
            return None, (), self.budget.limits.reason("time")
        if stacked != "feasible":
            return True, (), ""
        # a stacking line the model reads as breaking the claim: kept only if the engine,
        # playing it, confirms that the wagon is lost
        found, built, value = self.run(None, True, True)
        if found == "feasible":
            try:
                end, line = _replay(self.state, built, value)
            except SolverError:
                end, line = self.state, ()
            if line and _lost(end, self.wagon, self.player):
                return False, line, ""
        return None, (), (
            "a line stacking a colour's worth of dice on one wagon (an outright theft in the "
            "mercenary variant) is not modelled"
        )


def _lost(end: State, wagon: int, player: int) -> bool:
    """After a replayed line: the player's turn has begun (or the game ended) without the wagon,
    or the wagon has left the train."""
    if end.is_terminal or end.to_move == player:
        return not any(w.id == wagon for w in end.won[player])
    return end.wagon(wagon) is None


def check_solver_arguments(workers: object, seed: object) -> None:
    """Refuse the models' ``workers`` (1 to 64) or ``seed`` (0 to 2**31 - 1) when bad."""
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 64:
        raise SolverError(f"workers must be a whole number from 1 to 64, not {workers!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**31:
        raise SolverError("the seed must be a whole number from 0 to 2**31 - 1")


def model_safe(
    state: State,
    wagon: int,
    player: int,
    backend: str,
    limits: Limits,
    *,
    workers: int = 1,
    seed: int = 0,
    start: float | None = None,
) -> Safety:
    """The safety verdict by the CP-SAT or Z3 model. ``start``: the ``time.perf_counter()``
    reading the time limit counts from (now when None; ``auto`` passes its own start)."""
    check_solver_arguments(workers, seed)
    name = "CP-SAT" if backend == "cpsat" else "Z3"
    budget = Budget(limits, start=start)
    try:
        safe, line, note = _Question(state, wagon, player, backend, budget, workers, seed).solve()
    except LimitReached as exc:
        safe, line, note = None, (), exc.reason
    lim = limits.to_json()
    position = format_state(state)
    if safe is None:
        return Safety(
            position, player, wagon, None, f"{note} ({name} model)", (), budget.nodes, backend, lim
        )
    if safe is False:
        return Safety(
            position, player, wagon, False,
            f"wagon {wagon} can be lost before player {player}'s next turn ({name} model)",
            line, budget.nodes, backend, lim,
        )
    movers = (player - state.to_move) % state.players
    return Safety(
        position, player, wagon, True,
        f"no play of the {movers} turn{'s' if movers != 1 else ''} before player {player}'s "
        f"gives anyone as many dice on wagon {wagon} or takes it ({name} model, infeasible)",
        (), budget.nodes, backend, lim,
    )
