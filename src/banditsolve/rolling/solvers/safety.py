""" "Is wagon W provably mine?" (RB-SAFE-1, RB-SAFE-2, RB-SAFE-3).

At a position where player ``p`` is not the one to move (their turn is over), wagon W is *safe*
for ``p`` when, whatever the other players roll, whatever the trunks they open hold, and
whatever they do, ``p`` steals W at the start of their next turn. Every roll and every trunk is
the adversary's choice, so the question is one of reachability: is there a line of rolls and
actions after which ``p`` does not steal W? That line is the counterexample.

Backends (``backend=``):

- ``plain``: the plain enumeration of every line (the baseline).
- ``exact``: the same search over the rules engine, made fast by a visited set on
  cheap keys with the symmetry of free symbols (:mod:`.keys`), roll outcomes taken once per
  class of symmetric outcomes, the actions in rounds of doubling size in two orders (ending the
  turn first, then the rules' own order), and a proven bound in the last
  opponent's turn: the opponent's group on W can never exceed the dice they can still play
  less one die for each other wagon their gang must hold to touch W (:func:`reach_bound`); when
  that is below ``p``'s count (and no trunk on W can be opened) the wagon is safe at once.
- ``cpsat`` and ``z3``: one constraint model of every opponent's turn before the player's
  (:mod:`.models`), solved by CP-SAT or Z3; a ``no`` is replayed through the rules engine; what
  the model does not settle (some mercenary-variant lines with an outright theft) is answered
  ``unknown`` with the reason.
- ``auto`` (the default): the exact search when one opponent plays; with several, the exact
  search within a small node budget and half the time limit, then the CP-SAT model with what is
  left of it.

A limit that runs out answers *unknown*, never *no*.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from banditsolve.core.args import expect_whole
from banditsolve.core.limits import SAFE_TIME_LIMIT, Budget, LimitReached, Limits, steady
from banditsolve.core.text import plural
from banditsolve.errors import SolverError
from banditsolve.rolling.notation import format_state
from banditsolve.rolling.rules import BOMB, apply_unchecked, edition_of, legal_actions, unseen_tiles
from banditsolve.rolling.solvers.keys import Key, position_key, roll_orbits
from banditsolve.rolling.solvers.models import check_solver_arguments, covers, model_safe
from banditsolve.rolling.solvers.verdict import Safety
from banditsolve.rolling.state import State, Wagon, expect_state

BACKENDS: tuple[str, ...] = ("auto", "exact", "plain", "cpsat", "z3")


def _check(state: State, player: int | None, wagon: int) -> int:
    state = expect_state(state)
    expect_whole(wagon, "the wagon")
    if player is not None:
        expect_whole(player, "the player")
    if state.is_terminal:
        raise SolverError("the game is over")
    if state.phase in ("deal-wagon", "deal-trunk"):
        raise SolverError("the train is still being dealt")
    if player is None:
        player = (state.to_move - 1) % state.players
    if not 0 <= player < state.players:
        raise SolverError(f"there is no player {player}")
    if state.to_move == player:
        raise SolverError(f"player {player} is still playing their turn: ask once it is over")
    on_train = state.wagon(wagon)
    if on_train is None:
        raise SolverError(f"wagon {wagon} is not on the train")
    if state.stealer(on_train) != player:
        raise SolverError(_not_held(state, on_train, player))
    return player


def _not_held(state: State, wagon: Wagon, player: int) -> str:
    """Why ``player`` does not hold ``wagon``: the question "is it provably mine?" is asked of a
    wagon the player would steal if their turn began now (RB-SAFE-1, RB-STEAL-1)."""
    mine = wagon.count(player)
    most = max((wagon.count(q) for q in range(state.players) if q != player), default=0)
    if mine < wagon.need:
        why = f"it needs {plural(wagon.need, 'die', 'dice')} and they have {mine} there"
    else:
        why = f"they have {plural(mine, 'die', 'dice')} there and another player has {most}"
    return (
        f"player {player} does not hold wagon {wagon.id} ({why}): only a wagon the player "
        "would steal now can be provably theirs"
    )


class _Search:
    """The plain enumeration (``share``: remember positions shown safe, no symmetry)."""

    def __init__(self, player: int, wagon: int, budget: Budget, share: bool) -> None:
        self.player = player
        self.wagon = wagon
        self.budget = budget
        self.safe: set[State] | None = set() if share else None

    def leaf(self, state: State) -> bool | None:
        """True: W is stolen by the player as their turn begins; False: it is not; None: go on."""
        if state.is_terminal or state.to_move == self.player:
            return any(w.id == self.wagon for w in state.won[self.player])
        if state.wagon(self.wagon) is None:
            return False
        return None

    def breaks(self, state: State, line: list[str]) -> bool:
        """Whether some line from ``state`` breaks the claim (``line`` gets it)."""
        verdict = self.leaf(state)
        if verdict is not None:
            return not verdict
        if self.safe is not None and state in self.safe:
            return False
        self.budget.tick()
        for action in legal_actions(state):
            line.append(str(action))
            if self.breaks(apply_unchecked(state, action), line):
                return True
            line.pop()
        if self.safe is not None:
            self.safe.add(state)
        return False


def _bound_options(state: State) -> bool:
    o = state.options
    return (
        o.mercenaries == "off" and o.cut == "join" and o.front == "keep" and o.restart == "last"
    )


def reach_bound(state: State, opponent: int, wagon: int) -> int | None:
    """An upper bound on the dice ``opponent`` can have on wagon ``wagon`` at the end of the turn
    they are playing (``None``: options the bound does not cover).

    Proof sketch (RB-SAFE-2): the opponent can only play the dice on the train, in their roll
    and in the air (or, before rolling, all their dice). Dice reach W only through a group on W,
    and the gang is one block of neighbouring wagons (RB-ATTACK-6) each holding a die, so every
    other wagon of the block costs a die. Before rolling they may take back groups from the rear:
    a group in front of W can only be taken back with W's, and with nothing left on the train
    their first new group goes on the rearmost wagon. After the roll nothing is taken back and new
    groups go only in front of the gang (option front=keep). An ambush swaps two groups of one
    block, so the block and its cost stay; a bomb only lowers counts; an outright theft uses
    every die."""
    if not _bound_options(state):
        return None
    w = state.index(wagon)
    if w < 0:
        return None
    gang = state.gang(opponent)
    rear = len(state.train) - 1
    restart = rear - w
    if state.phase == "start":
        playable = edition_of(state).dice_per_colour
        if w in gang:
            cost = min(sum(1 for i in gang if i < w), restart)
        elif gang and w < gang[0]:
            cost = min(gang[0] - w, restart)
        else:
            cost = restart
    else:
        on = state.on_train(opponent)
        playable = on[0] + on[1] + sum(state.roll) + sum(state.mroll) + sum(state.airborne)
        if w in gang:
            cost = len(gang) - 1
        elif gang and w < gang[0]:
            cost = len(gang) + gang[0] - w - 1
        elif gang:
            return state.train[w].count(opponent)
        else:
            cost = restart
    return max(playable - cost, state.train[w].count(opponent))


def _bounded_safe(state: State, player: int, wagon: int) -> int | None:
    """At a position of the last opponent's turn before ``player``'s: the bound on the
    opponent's group on W when it proves W safe (``None`` otherwise)."""
    q = state.to_move
    if (q + 1) % state.players != player:
        return None
    w = state.wagon(wagon)
    if w is None:
        return None
    mine = w.count(player)
    rivals = (w.count(r) for r in range(state.players) if r not in (player, q))
    if mine < w.need or any(n >= mine for n in rivals):
        return None
    bound = reach_bound(state, q, wagon)
    if bound is None or bound >= mine:
        return None
    if (
        w.trunk is not None
        and bound >= 3
        and any(t.content == BOMB for t in unseen_tiles(state, w.trunk))
    ):
        return None  # the opponent may open W's trunk, and it may be a bomb
    return bound


#: The nodes of the exact search's first round in each order (see :meth:`_Fast.search`).
FIRST_ROUND = 256


class _RoundOver(Exception):
    """A round of the exact search spent its nodes (control flow inside :class:`_Fast`)."""


class _Fast:
    """The exact search: reachability over the engine with keys, symmetry and the bound."""

    def __init__(self, player: int, wagon: int, budget: Budget) -> None:
        self.player = player
        self.wagon = wagon
        self.budget = budget
        self.seen: set[Key] = set()
        self.end_first = True
        self.round_end = 0  # the budget's node count at which the round stops

    def search(self, state: State, line: list[str]) -> bool:
        """:meth:`breaks` from ``state`` in rounds of doubling size, each in two orders of the
        players' actions: ending the turn first (short lines, which most breaks need), then
        the rules' own order (attacks first, which some lines of many turns need: two
        positions of three and four players went 47,000-51,000 positions and 5 s without an
        answer in the first order alone, and take 700-1,300 in the second). Every round keeps
        the positions shown safe before it (``seen``: a position is put there only once every
        line from it was searched), so a round only searches again what an unfinished round
        left open."""
        size = FIRST_ROUND
        while True:
            for end_first in (True, False):
                self.end_first = end_first
                self.round_end = self.budget.nodes + size
                line.clear()
                try:
                    return self.breaks(state, line)
                except _RoundOver:
                    pass
            size *= 2

    def breaks(self, state: State, line: list[str]) -> bool:
        if state.is_terminal or state.to_move == self.player:
            return not any(w.id == self.wagon for w in state.won[self.player])
        if state.wagon(self.wagon) is None:
            return True
        if _bounded_safe(state, self.player, self.wagon) is not None:
            return False
        key = position_key(state)
        if key in self.seen:
            return False
        if self.budget.nodes >= self.round_end:
            raise _RoundOver
        self.budget.tick()
        if state.phase in ("roll", "mroll"):
            n = state.airborne[0] if state.phase == "roll" else state.airborne[1]
            actions: tuple[Any, ...] = tuple(a for a, _ in roll_orbits(state, n))
        elif state.is_chance or not self.end_first:
            actions = legal_actions(state)
        else:
            actions = legal_actions(state)[::-1]  # end first: the shortest lines
        for action in actions:
            line.append(str(action))
            if self.breaks(apply_unchecked(state, action), line):
                return True
            line.pop()
        self.seen.add(key)
        return False


def _result(
    state: State,
    p: int,
    wagon: int,
    safe: bool | None,
    reason: str,
    line: tuple[str, ...],
    nodes: int,
    method: str,
    limits: Limits,
) -> Safety:
    position = format_state(state)
    return Safety(position, p, wagon, safe, reason, line, nodes, method, limits.to_json())


def _unsafe_reason(wagon: int, p: int) -> str:
    return f"wagon {wagon} can be lost before player {p}'s next turn"


def _safe_reason(wagon: int, p: int, nodes: int) -> str:
    return (
        f"whatever the others roll and do, player {p} steals wagon {wagon} at the start of their "
        f"next turn ({nodes} positions searched)"
    )


def _check_backend(backend: str | None, share: bool) -> str:
    """The backend :func:`is_safe` runs: ``backend``, by default ``auto`` (``plain`` when
    ``share`` is false); refused when it is unknown or clashes with ``share=False``."""
    if not share and backend not in (None, "plain"):
        raise SolverError(
            f"share=False (the plain enumeration) clashes with backend {_shown(backend)!r}: "
            "give one of them"
        )
    if backend is None:
        return "auto" if share else "plain"
    if backend not in BACKENDS:
        raise SolverError(
            f"unknown safety backend {_shown(backend)!r}: choose from {', '.join(BACKENDS)}"
        )
    return backend


def _shown(backend: object) -> str:
    """A backend as a message shows it: itself if it is short text, else ``that``."""
    return backend if isinstance(backend, str) and len(backend) <= 20 else "that"


@steady
def is_safe(
    state: State,
    wagon: int,
    player: int | None = None,
    *,
    time_limit: float | None = SAFE_TIME_LIMIT,
    node_limit: int | None = None,
    share: bool = True,
    backend: str | None = None,
    workers: int = 1,
    seed: int = 0,
) -> Safety:
    """Whether ``player`` (default: the player who just moved) surely steals ``wagon`` at the start
    of their next turn. ``backend``: ``auto`` (default: the exact search with one opponent to
    play, else the exact search within a small node budget and then the CP-SAT model, see
    :func:`_auto`; ``plain`` when ``share`` is false, which no other backend may be given with),
    ``exact``, ``plain``, ``cpsat`` or ``z3``.
    ``workers`` and ``seed`` go to CP-SAT (and the seed to Z3)."""
    limits = Limits(time_limit, node_limit)
    backend = _check_backend(backend, share)
    p = _check(state, player, wagon)
    if backend in ("auto", "cpsat", "z3"):
        check_solver_arguments(workers, seed)
    if backend == "auto":
        return _auto(state, wagon, p, limits, workers, seed)
    if backend in ("cpsat", "z3"):
        return model_safe(state, wagon, p, backend, limits, workers=workers, seed=seed)
    budget = Budget(limits, check_every=16)
    line: list[str] = []
    if backend == "plain":
        search = _Search(p, wagon, budget, False)
        run = search.breaks
        method = "plain"
    else:
        bound = _bounded_safe(state, p, wagon)
        if bound is not None:
            mine = state.wagon(wagon).count(p)  # type: ignore[union-attr]
            q = state.to_move
            return _result(
                state, p, wagon, True,
                f"player {q} plays the last turn before player {p}'s and can have at most "
                f"{bound} dice on wagon {wagon}, fewer than player {p}'s {mine}: player {p} steals "
                f"it at the start of their next turn",
                (), 0, "exact", limits,
            )
        fast = _Fast(p, wagon, budget)
        run = fast.search
        method = "exact"
    try:
        broken = run(state, line)
    except LimitReached as exc:
        return _result(state, p, wagon, None, exc.reason, (), budget.nodes, method, limits)
    if broken:
        return _result(
            state, p, wagon, False, _unsafe_reason(wagon, p), tuple(line), budget.nodes, method,
            limits,
        )
    return _result(
        state, p, wagon, True, _safe_reason(wagon, p, budget.nodes), (), budget.nodes, method,
        limits,
    )


#: The exact search's node budget under ``auto`` before the CP-SAT model is asked instead.
AUTO_EXACT_NODES = 2000
#: The exact search's share of the time limit under ``auto`` (2,000 positions take 0.15-0.2 s
#: on four players: under a 0.2 s limit, the model had the time left after the whole limit).
AUTO_EXACT_SHARE = 0.5


def _auto(state: State, wagon: int, p: int, limits: Limits, workers: int, seed: int) -> Safety:
    """``backend=auto``: the exact search when one opponent plays before ``p`` (it is fastest
    there: usually the proven bound, or a few hundred positions); with several opponents the
    exact search first within :data:`AUTO_EXACT_NODES` positions, then the CP-SAT model (whose
    size grows with the turns, not with their positions: about 0.1 s where the search needs
    10^4 to 10^6 positions, measured in ``benchmarks/bench_rolling.py``); the mercenary
    variant (two players) and what the model does not settle stay with the exact search."""
    start = time.perf_counter()
    opponents = (p - state.to_move) % state.players
    if opponents <= 1 or covers(state, wagon, p) is not None:
        return is_safe(state, wagon, p, time_limit=limits.time_limit,
                       node_limit=limits.node_limit, backend="exact")
    nodes = AUTO_EXACT_NODES if limits.node_limit is None else min(
        AUTO_EXACT_NODES, limits.node_limit)
    # (A limit so small that its share rounds to 0 is given whole.)
    share = None if limits.time_limit is None else (
        limits.time_limit * AUTO_EXACT_SHARE or limits.time_limit)
    first = is_safe(state, wagon, p, time_limit=share, node_limit=nodes, backend="exact")
    if first.safe is not None:
        return replace(first, limits=limits.to_json())  # the caller's limits, not the share
    # The model gets what the search left of the time limit (its clock started with this call).
    return model_safe(state, wagon, p, "cpsat", limits, workers=workers, seed=seed, start=start)


def plain_safe(state: State, wagon: int, player: int | None = None, **kw: Any) -> Safety:
    """The same question by plain enumeration (no sharing): the baseline."""
    return is_safe(state, wagon, player, backend="plain", **kw)
