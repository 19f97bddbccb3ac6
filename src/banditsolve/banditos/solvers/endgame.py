"""Best play for the current turn: exact expectimax in endgames, Monte Carlo otherwise.

``best_turn(state)`` answers "what should the player to move do this turn, and how likely are
they then to win the game?".

**Exact** (``method="exact"``): expectimax over the real game tree. The player to move maximises
their own chance of winning, the opponent (on their turns) maximises theirs (the game is zero-sum:
somebody always wins), and chance nodes (tiles turned up, dice drawn and rolled) average over
:func:`~banditsolve.banditos.rules.chance_outcomes` with their exact probabilities. The search
(:class:`CompactSolver`, :mod:`~banditsolve.banditos.solvers.expectimax`) runs on compact tuples
with its own unchecked moves and the claim table, keeps exact values as pairs of integers, and
memoises them in a transposition table keyed up to the slot symmetry
(:mod:`~banditsolve.banditos.solvers.compact`), with full sides reduced to their class, the last
tile solved on its own (:mod:`~banditsolve.banditos.solvers.lasttile`), moves tried
lazily, give-ups last, and every decision first probed for a certain win of its player (a yes-or-no
search that stops at the first escape); only the reported values become
:class:`~fractions.Fraction`. Its values and its choices are those of the plain search on
rules-engine states (:class:`ExactSolver`, kept as the reference and the benchmark's baseline): the
best action is the first, in the order of ``legal_actions``, that no later one beats. The game has
no cycles (every action places a die, wins a tile, rolls or ends a turn, and a game ends within a
bounded number of turns), so the memoised recursion is sound. It runs under a node budget and a
deadline.

With ``method="exact"`` nothing else runs: a search that a limit stops (or a game tree too deep
to search) gives an *unknown* answer, ``complete=False`` with no actions and no probability,
whose ``note`` names what stopped it. ``method="auto"`` (the default) gives the exact search the
node limit and half of the time limit, then answers with a Monte Carlo estimate if it did not
finish.

**Monte Carlo** (``method="monte-carlo"``, or ``"auto"`` when the exact search does not finish
within its budget): at each decision of the turn every legal action is tried with
playouts (chance sampled as the table draws; both players then follow the built-in greedy
player). Playouts are spent by sequential halving: every candidate gets a quarter of
``samples`` (at least 16), the better half twice as many, and so on, until the survivors have
``samples`` each. The action with the best mean is chosen and the reported probability is its
estimate, with a 95 % Wilson confidence interval. It measures the action *followed by greedy
play*, so it is an estimate, labelled as such, never a proof.

The answer for the turn: ``actions`` are the decisions in order up to the first chance step,
the end of the turn or the end of the game. In an exact answer, ``plan`` is the whole policy
for the turn: after a chance step (the roll, a tile turned up) it gives the decisions for every
outcome. A time limit that cuts the Monte Carlo playouts short gives the best estimate found so
far with ``complete=False``.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from banditsolve.banditos.actions import Action, ChanceAction, EndTurn
from banditsolve.banditos.answers import best_ascii, best_svg
from banditsolve.banditos.players import greedy_player
from banditsolve.banditos.rules import (
    apply,
    chance_outcomes,
    legal_actions,
    sample_chance,
)
from banditsolve.banditos.solvers.compact import compact
from banditsolve.banditos.solvers.expectimax import CompactSearch
from banditsolve.banditos.state import DEFAULT_OPTIONS, Options, State, expect_state
from banditsolve.core.answer import Answer
from banditsolve.core.args import expect_choice, expect_whole
from banditsolve.core.limits import (
    BANDITOS_BEST_NODE_LIMIT,
    BANDITOS_BEST_TIME_LIMIT,
    MAX_SEED,
    Budget,
    LimitReached,
    Limits,
    check_node_limit,
    check_time_limit,
    steady,
)
from banditsolve.core.stats import wilson
from banditsolve.core.text import plural
from banditsolve.errors import SolverError

Method = Literal["exact", "monte-carlo"]
METHODS = ("auto", "exact", "monte-carlo")
DEFAULT_SAMPLES = 100
#: The most playouts per candidate accepted (beyond it an answer takes days).
MAX_SAMPLES = 10_000_000


@dataclass(frozen=True, slots=True)
class Plan:
    """The decisions of the turn from one state: ``actions`` in order, then, if the turn meets
    a chance step, one sub-plan per outcome (``branches``: outcome, probability, plan).

    ``value`` is the probability that the turn's player wins, playing this plan and best play
    afterwards."""

    actions: tuple[Action, ...]
    value: Fraction
    branches: tuple[tuple[ChanceAction, Fraction, Plan], ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "actions": [str(a) for a in self.actions],
            "probability": str(self.value),
            "probability_float": float(self.value),
            "branches": [
                {"outcome": str(o), "p": str(p), "plan": sub.to_json()}
                for o, p, sub in self.branches
            ],
        }

    def lines(self, indent: str = "") -> list[str]:
        """A summary: the decisions, then the outcomes of a chance step grouped by the
        decisions that follow them (with their total probability)."""
        out = [f"{indent}{', '.join(str(a) for a in self.actions) or '(no decision)'}"]
        groups: dict[str, list[tuple[ChanceAction, Fraction, Plan]]] = {}
        for outcome, p, sub in self.branches:
            key = ", ".join(str(a) for a in sub.actions) or "(no decision)"
            groups.setdefault(key, []).append((outcome, p, sub))
        for key, members in sorted(groups.items(), key=lambda g: -sum(m[1] for m in g[1])):
            p_total = sum((m[1] for m in members), Fraction(0))
            win = sum((m[1] * m[2].value for m in members), Fraction(0)) / p_total
            examples = " ".join(str(m[0]).split(" ", 1)[-1].replace(" ", "") for m in members[:4])
            more = f" +{len(members) - 4} more" if len(members) > 4 else ""
            out.append(
                f"{indent}  after {plural(len(members), 'outcome')} (p={p_total}, e.g. "
                f"{examples}{more})"
                f": {key}  [win {float(win):.4f}]"
            )
        return out


@dataclass(frozen=True, slots=True)
class BestTurn:
    """The best play found for this turn and the chance that the player to move then wins.

    Three kinds: exact and complete (``method="exact"``, ``complete=True``: a proof); a Monte
    Carlo estimate (``method="monte-carlo"``); or unknown (``method="exact"``,
    ``complete=False``: a limit stopped the exact search, ``actions`` is empty, ``probability``
    is ``None`` and ``note`` says what stopped it)."""

    player: int
    actions: tuple[Action, ...]
    probability: Fraction | float | None
    method: Method
    complete: bool
    plan: Plan | None = None
    confidence_interval: tuple[float, float] | None = None
    samples: int | None = None
    nodes: int = 0
    elapsed: float = 0.0
    #: Monte Carlo only: each first action tried, its estimate and its number of playouts.
    candidates: tuple[tuple[str, float, int], ...] = field(default=())
    note: str = ""
    limits: Limits = field(default=Limits())
    #: The position the turn starts from (``best_turn`` fills it in; the pictures draw the
    #: line from it, a numbered list without it).
    start: State | None = field(default=None, repr=False, compare=False)

    @property
    def is_estimate(self) -> bool:
        return self.method != "exact"

    @property
    def is_unknown(self) -> bool:
        """An exact search that a limit stopped: no answer (see :attr:`note` for why)."""
        return self.method == "exact" and not self.complete

    def explain(self) -> str:
        if self.is_unknown:
            return f"unknown: {self.note}"
        moves = ", ".join(str(a) for a in self.actions) or "(nothing to decide)"
        if self.method == "exact":
            assert isinstance(self.probability, Fraction)
            head = (
                f"exact: player {self.player} wins with probability {self.probability} "
                f"≈ {float(self.probability):.6f} ({plural(self.nodes, 'position')}, complete)"
            )
        else:
            assert self.probability is not None
            low, high = self.confidence_interval or (0.0, 1.0)
            status = (
                "every planned playout done"
                if self.complete
                else "BEST SO FAR: the time limit cut the playouts short"
            )
            head = (
                f"ESTIMATE (Monte Carlo, {self.samples} playouts of the chosen action, greedy "
                f"play after; {status}): player {self.player} wins with probability ≈ "
                f"{float(self.probability):.4f}, 95% CI [{low:.4f}, {high:.4f}]"
            )
        lines = [head, f"best this turn: {moves}"]
        if self.candidates:
            lines.append("first actions tried (estimate, playouts):")
            lines.extend(f"  {a}: {p:.4f} ({n})" for a, p, n in self.candidates)
        if self.plan is not None and self.plan.branches:
            lines.append("plan:")
            lines.extend(self.plan.lines("  "))
        if self.note:
            lines.append(self.note)
        return "\n".join(lines)

    def ascii(self) -> str:
        """The turn drawn in text: its value and numbered steps, then the position at the end
        of the line (see :func:`~banditsolve.banditos.answers.best_ascii`)."""
        return best_ascii(self)

    def svg(self) -> str:
        """The turn as SVG: a strip of numbered boards, or a numbered list without the start
        (see :func:`~banditsolve.banditos.answers.best_svg`)."""
        return best_svg(self)

    def _repr_svg_(self) -> str:
        return self.svg()

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "actions": [str(a) for a in self.actions],
            "probability": None if self.probability is None else str(self.probability),
            "probability_float": None if self.probability is None else float(self.probability),
            "method": self.method,
            "estimate": self.is_estimate,
            "complete": self.complete,
            "confidence_interval": None
            if self.confidence_interval is None
            else list(self.confidence_interval),
            "samples": self.samples,
            "nodes": self.nodes,
            "elapsed_seconds": self.elapsed,
            "candidates": [
                {"actions": a, "estimate": p, "samples": n} for a, p, n in self.candidates
            ],
            "plan": None if self.plan is None else self.plan.to_json(),
            "note": self.note,
        }

    def to_answer(self) -> Answer:
        """The shared answer shape: yes/``"best turn"`` with the actions (as text) as the
        certificate when exact; unknown/``"estimate"`` for a Monte Carlo answer, with the
        samples and the interval in ``details``; unknown/``"unknown"`` when a limit stopped
        the exact search of ``method="exact"``, with the reason."""
        moves = [str(a) for a in self.actions]
        stats = {"nodes": self.nodes, "elapsed_seconds": self.elapsed}
        if self.is_unknown:
            return Answer(
                game="banditos",
                question="best",
                status="unknown",
                answer="unknown",
                reason=self.note,
                limits=self.limits.to_json(),
                stats=stats,
            )
        if self.method == "exact":
            return Answer(
                game="banditos",
                question="best",
                status="yes",
                answer="best turn",
                reason=(
                    f"player {self.player} wins with probability {self.probability} "
                    f"playing {', '.join(moves) or 'nothing'} and best play after"
                ),
                certificate=moves,
                limits=self.limits.to_json(),
                stats=stats,
                details={"probability": str(self.probability), "plan": (
                    None if self.plan is None else self.plan.to_json()
                )},
            )
        assert self.probability is not None
        low, high = self.confidence_interval or (0.0, 1.0)
        return Answer(
            game="banditos",
            question="best",
            status="unknown",
            answer="estimate",
            reason=(
                f"a Monte Carlo estimate, not a proof: {', '.join(moves)} wins for player "
                f"{self.player} with probability about {float(self.probability):.4f} "
                "(greedy play after)"
                + (f"; {self.note.splitlines()[0]}" if self.note else "")
            ),
            limits=self.limits.to_json(),
            stats={**stats, "samples": self.samples},
            details={
                "actions": moves,
                "estimate": float(self.probability),
                "samples": self.samples,
                "confidence_interval": [low, high],
                "complete": self.complete,
            },
        )


class _Planner:
    """What both exact searches share: the turn's plan from the values."""

    def value(self, state: State) -> Fraction:  # pragma: no cover - overridden
        raise NotImplementedError

    def best_action(self, state: State) -> Action:  # pragma: no cover - overridden
        raise NotImplementedError

    def for_player(self, state: State, player: int) -> Fraction:
        v = self.value(state)
        return v if player == 0 else 1 - v

    def plan(self, state: State, player: int) -> Plan:
        """The turn's policy from ``state`` (all values already known)."""
        actions: list[Action] = []
        value = self.for_player(state, player)
        while True:
            if state.winner is not None:
                return Plan(tuple(actions), value)
            if state.is_chance:
                if state.to_move != player:
                    return Plan(tuple(actions), value)
                branches = tuple(
                    (o, p, self.plan(apply(state, o), player)) for o, p in chance_outcomes(state)
                )
                return Plan(tuple(actions), value, branches)
            if state.to_move != player:
                return Plan(tuple(actions), value)
            action = self.best_action(state)
            actions.append(action)
            state = apply(state, action)
            if isinstance(action, EndTurn):
                return Plan(tuple(actions), value)


class ExactSolver(_Planner):
    """The plain memoised expectimax on rules-engine states, with :class:`~fractions.Fraction`
    values; ``value(state)`` is the probability that player 0 wins. The reference (and the
    baseline of the benchmark) for :class:`CompactSolver`."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.memo: dict[State, Fraction] = {}
        self.best: dict[State, Action] = {}
        self.budget = Budget(limits or Limits(), check_every=16)

    @property
    def nodes(self) -> int:
        return self.budget.nodes

    def value(self, state: State) -> Fraction:
        winner = state.winner
        if winner is not None:
            return Fraction(1 if winner == 0 else 0)
        known = self.memo.get(state)
        if known is not None:
            return known
        self.budget.tick()
        if state.is_chance:
            total = Fraction(0)
            for outcome, p in chance_outcomes(state):
                total += p * self.value(apply(state, outcome))
            result = total
        else:
            maximise = state.to_move == 0
            target = Fraction(1 if maximise else 0)
            best_value: Fraction | None = None
            best_action: Action | None = None
            for action in legal_actions(state):
                v = self.value(apply(state, action))
                if best_value is None or (v > best_value if maximise else v < best_value):
                    best_value, best_action = v, action
                    if v == target:
                        break  # nothing can do better
            assert best_value is not None
            assert best_action is not None
            self.best[state] = best_action
            result = best_value
        self.memo[state] = result
        return result

    def best_action(self, state: State) -> Action:
        return self.best[state]


class CompactSolver(_Planner):
    """The exact expectimax of :mod:`~banditsolve.banditos.solvers.expectimax`: compact states,
    a transposition table keyed up to the symmetry of slots that lives as long as the solver,
    exact integer fractions inside, a :class:`~fractions.Fraction` only for a value reported.
    Its values are those of :class:`ExactSolver`, and so are its choices: the best action is
    the first, in the order of ``legal_actions``, whose value no later one beats."""

    def __init__(
        self, limits: Limits | None = None, options: Options = DEFAULT_OPTIONS,
        *, probe: bool = True,
    ) -> None:
        self.budget = Budget(limits or Limits(), check_every=16)
        self.search = CompactSearch(options, self.budget, probe=probe)

    @property
    def nodes(self) -> int:
        return self.budget.nodes

    def value(self, state: State) -> Fraction:
        num, den = self.search.solve(compact(state))
        return Fraction(num, den)

    def best_action(self, state: State) -> Action:
        """The action :class:`ExactSolver` picks: the first strictly best in the rules' order,
        stopping at a certain result."""
        maximise = state.to_move == 0
        target = (1, 1) if maximise else (0, 1)
        best: tuple[int, int] | None = None
        chosen: Action | None = None
        for action in legal_actions(state):
            after = apply(state, action)
            winner = after.winner
            if winner is not None:
                v = (1, 1) if winner == 0 else (0, 1)
            else:
                v = self.search.value(compact(after))
            if best is None or (
                v[0] * best[1] > best[0] * v[1] if maximise else v[0] * best[1] < best[0] * v[1]
            ):
                best, chosen = v, action
                if v == target:
                    break
        assert chosen is not None
        return chosen


def playout(state: State, rng: random.Random, max_steps: int = 10_000) -> int:
    """Play to the end: chance as the table draws, both players greedy. The winner.

    The rules' fast path for ``core.play.playout(GAME, state, greedy_player, rng)``: the same
    random stream gives the same game (the tests check it)."""
    for _ in range(max_steps):
        winner = state.winner
        if winner is not None:
            return winner
        if state.is_chance:
            state = apply(state, sample_chance(state, rng))
        else:
            state = apply(state, greedy_player(state, rng))
    raise SolverError("a playout did not end")  # pragma: no cover - games are finite


def _monte_carlo(
    state: State, samples: int, rng: random.Random, deadline: float | None
) -> BestTurn:
    start = time.perf_counter()
    player = state.to_move
    actions: list[Action] = []
    complete = True
    chosen_wins, chosen_n = 0, 0
    first_candidates: tuple[tuple[str, float, int], ...] = ()
    while state.winner is None and not state.is_chance and state.to_move == player:
        options = legal_actions(state)
        afters = [apply(state, a) for a in options]
        wins, runs, survivors, cut = _halving(afters, player, samples, rng, deadline)
        contenders = [i for i in survivors if runs[i]] or list(range(len(options)))
        complete = complete and not cut
        best = max(contenders, key=lambda i: (wins[i] / runs[i], -i))
        if not actions:
            first_candidates = _candidates(options, wins, runs)
        actions.append(options[best])
        chosen_wins, chosen_n = wins[best], runs[best]
        state = afters[best]
        if isinstance(options[best], EndTurn) or cut:
            break
    if not actions:  # pragma: no cover - callers never pass a chance or terminal state
        raise SolverError("nothing to decide in this position")
    return BestTurn(
        player=player,
        actions=tuple(actions),
        probability=chosen_wins / chosen_n,
        method="monte-carlo",
        complete=complete,
        confidence_interval=wilson(chosen_wins, chosen_n),
        samples=chosen_n,
        elapsed=time.perf_counter() - start,
        candidates=first_candidates,
        note=_continues_note(state, player),
    )


def _continues_note(state: State, player: int) -> str:
    """The note of an estimate whose turn stopped at a chance step within ``player``'s turn
    (``state`` where it stopped): ask again after it; empty otherwise."""
    if state.winner is None and state.is_chance and state.to_move == player:
        return (
            "the turn continues after a chance step; ask again once its outcome is known "
            "for the rest of the turn"
        )
    return ""


def _halving(
    afters: list[State], player: int, samples: int, rng: random.Random, deadline: float | None
) -> tuple[list[int], list[int], list[int], bool]:
    """One decision of :func:`_monte_carlo` among the states ``afters`` its actions lead to:
    each candidate's wins for ``player`` and playouts, the surviving candidates, and whether
    the deadline cut the playouts short.

    Sequential halving: every surviving candidate gets the same number of playouts, the
    worse half is dropped, and the target doubles, until the survivors have ``samples``."""
    wins = [0] * len(afters)
    runs = [0] * len(afters)
    cut = False
    survivors = list(range(len(afters)))
    # Start with a quarter of the samples (at least 16) so that no candidate is dropped on
    # a handful of playouts.
    target = min(samples, max(16, samples // 4))
    while not cut:
        cut = _round_robin(afters, survivors, target, (wins, runs), player, rng, deadline)
        if target >= samples:
            break
        if len(survivors) > 2:
            survivors.sort(key=lambda i: (-wins[i] / max(runs[i], 1), i))
            survivors = survivors[: (len(survivors) + 1) // 2]
        target = min(samples, target * 2)
    return wins, runs, survivors, cut


def _round_robin(
    afters: list[State],
    survivors: list[int],
    target: int,
    tally: tuple[list[int], list[int]],
    player: int,
    rng: random.Random,
    deadline: float | None,
) -> bool:
    """Playouts for the ``survivors`` until each has ``target`` of them, counted in ``tally``
    (wins for ``player``, playouts, by candidate); whether the deadline cut them short.

    Round robin, one playout at a time, so that a deadline finds every candidate tried about
    equally often (and each at least once)."""
    wins, runs = tally
    while any(runs[i] < target for i in survivors):
        for i in survivors:
            if runs[i] >= target:
                continue
            if deadline is not None and time.perf_counter() > deadline and min(runs) > 0:
                return True
            wins[i] += playout(afters[i], rng) == player
            runs[i] += 1
    return False


def _candidates(
    options: list[Action], wins: list[int], runs: list[int]
) -> tuple[tuple[str, float, int], ...]:
    """The candidates of a decision that had playouts: each action's text, its share of wins
    and its playouts, the most tried first (then the best)."""
    return tuple(
        (str(options[i]), wins[i] / runs[i], runs[i])
        for i in sorted(range(len(options)), key=lambda i: (-runs[i], -wins[i] / runs[i]))
        if runs[i]
    )


@steady
def best_turn(
    state: object,
    *,
    time_limit: float | None = BANDITOS_BEST_TIME_LIMIT,
    node_limit: int | None = BANDITOS_BEST_NODE_LIMIT,
    samples: int = DEFAULT_SAMPLES,
    method: Literal["auto", "exact", "monte-carlo"] = "auto",
    seed: int = 0,
) -> BestTurn:
    """The best play for this turn of ``state`` and the mover's chance of winning.

    ``method="auto"`` tries the exact search within ``node_limit`` positions and half of
    ``time_limit`` (seconds; by default :data:`~banditsolve.core.limits.BANDITOS_BEST_NODE_LIMIT`
    and :data:`~banditsolve.core.limits.BANDITOS_BEST_TIME_LIMIT`, as on the command line;
    ``None``: no limit), then falls back to Monte Carlo with ``samples`` playouts per candidate
    action in the time left (labelled an estimate, with the reason the exact search
    stopped in ``note``). ``"exact"`` is exact or unknown, never an estimate: the search gets
    the whole ``time_limit`` and ``node_limit``, and if a limit stops it the result is unknown
    (:attr:`BestTurn.is_unknown`: ``complete=False``, no actions, no probability) with the
    reason in ``note``. ``"monte-carlo"`` skips the exact search.
    """
    position = expect_state(state)
    limits = Limits(
        time_limit=check_time_limit(time_limit), node_limit=check_node_limit(node_limit)
    )
    expect_whole(samples, "the number of samples", 1, MAX_SAMPLES)
    expect_choice(method, METHODS, "method")
    expect_whole(seed, "the seed", 0, MAX_SEED)
    if position.is_terminal:
        raise SolverError(f"the game is over: player {position.winner} has won")
    if position.is_chance:
        raise SolverError(
            "chance moves next (a tile to turn up or dice to draw): give the position after "
            "its outcome"
        )
    start = time.perf_counter()
    seconds = limits.time_limit
    deadline = None if seconds is None else start + seconds
    nodes = 0
    note = ""
    if method in ("auto", "exact"):
        exact, stopped, nodes = _exact_turn(position, method, limits, start)
        if exact is not None:
            return exact
        note = f"{stopped}; this is a Monte Carlo estimate"
    rng = random.Random(seed)
    result = _monte_carlo(position, samples, rng, deadline)
    return BestTurn(
        player=result.player,
        actions=result.actions,
        probability=result.probability,
        method="monte-carlo",
        complete=result.complete,
        confidence_interval=result.confidence_interval,
        samples=result.samples,
        nodes=nodes,
        elapsed=time.perf_counter() - start,
        candidates=result.candidates,
        note="\n".join(n for n in (note, result.note) if n),
        limits=limits,
        start=position,
    )


def _exact_turn(
    position: State, method: str, limits: Limits, start: float
) -> tuple[BestTurn | None, str, int]:
    """:func:`best_turn`'s exact search (``method`` ``"auto"`` or ``"exact"``, begun at
    ``start``): the answer, or, when a limit or the depth stopped it, the unknown answer under
    ``"exact"`` and ``None`` under ``"auto"``; then why it stopped (empty when it did not) and
    the positions it searched."""
    seconds = limits.time_limit
    player = position.to_move
    exact_seconds = seconds
    if method == "auto" and seconds is not None:
        exact_seconds = seconds / 2  # keep half for the estimate
    solver = CompactSolver(
        Limits(time_limit=exact_seconds, node_limit=limits.node_limit), position.options
    )
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20_000))
    try:
        solver.value(position)
        plan = solver.plan(position, player)
        return BestTurn(
            player=player,
            actions=plan.actions,
            probability=plan.value,
            method="exact",
            complete=True,
            plan=plan,
            nodes=solver.nodes,
            elapsed=time.perf_counter() - start,
            limits=limits,
            start=position,
        ), "", solver.nodes
    except LimitReached as exc:
        reason = exc.reason
        if exc.kind == "time" and method == "auto" and seconds is not None:
            # The search had only its share of the user's limit: say so, with both numbers.
            reason = (
                f"the exact search's share of the time limit ({exact_seconds:g} s of "
                f"{seconds:g} s) ran out before an answer was proven"
            )
        stopped = (
            f"the exact search stopped after {plural(solver.nodes, 'position')}: {reason}"
        )
    except RecursionError:
        stopped = (
            f"the exact search stopped after {plural(solver.nodes, 'position')}: the game "
            "tree is too deep to search"
        )
    finally:
        sys.setrecursionlimit(old_limit)
    nodes = solver.nodes
    if method == "exact":
        return BestTurn(
            player=player,
            actions=(),
            probability=None,
            method="exact",
            complete=False,
            nodes=nodes,
            elapsed=time.perf_counter() - start,
            note=stopped,
            limits=limits,
            start=position,
        ), stopped, nodes
    return None, stopped, nodes
