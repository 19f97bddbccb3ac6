""" "Is car W provably mine?" (RB-SAFE-1).

At a position where player ``p`` is not the one to move (their turn is over), car W is *safe*
for ``p`` when, whatever the other players roll, whatever the trunks they open hold, and
whatever they do, ``p`` steals W at the start of their next turn. The exact search looks for one
line of rolls and actions that breaks it (a counterexample); it shares positions already shown
safe. :func:`plain_safe` is the plain enumeration without sharing, the baseline. A limit that
runs out answers *unknown*, never *no*.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from banditsolve.core.answer import Answer
from banditsolve.core.limits import Budget, LimitReached, Limits
from banditsolve.errors import SolverError
from banditsolve.rolling.rules import _apply, legal_actions
from banditsolve.rolling.state import State


@dataclass(frozen=True, slots=True)
class Safety:
    """The verdict: ``safe`` True/False, or ``None`` when a limit ran out."""

    position: str
    player: int
    car: int
    safe: bool | None
    reason: str
    counterexample: tuple[str, ...] = ()
    nodes: int = 0
    method: str = "exact"
    limits: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "player": self.player,
            "car": self.car,
            "safe": self.safe,
            "reason": self.reason,
            "counterexample": list(self.counterexample),
            "nodes": self.nodes,
            "method": self.method,
        }

    def explain(self) -> str:
        if self.safe is False:
            return f"{self.reason}: {'; '.join(self.counterexample)}"
        return self.reason

    def to_answer(self) -> Answer:
        stats = {"nodes": self.nodes, "method": self.method}
        if self.safe is None:
            return Answer(
                "rolling", "safe", "unknown", "unknown", self.reason, None, self.limits, stats
            )
        if self.safe:
            return Answer("rolling", "safe", "yes", "safe", self.reason, None, self.limits, stats)
        return Answer(
            "rolling",
            "safe",
            "no",
            "unsafe",
            self.reason,
            list(self.counterexample),
            self.limits,
            stats,
        )


def _check(state: State, player: int | None, car: int) -> int:
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
    if state.car(car) is None:
        raise SolverError(f"car {car} is not on the train")
    return player


class _Search:
    def __init__(self, player: int, car: int, budget: Budget, share: bool) -> None:
        self.player = player
        self.car = car
        self.budget = budget
        self.safe: set[State] | None = set() if share else None

    def leaf(self, state: State) -> bool | None:
        """True: W is stolen by the player as their turn begins; False: it is not; None: go on."""
        if state.is_terminal or state.to_move == self.player:
            return any(w.id == self.car for w in state.won[self.player])
        if state.car(self.car) is None:
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
            if self.breaks(_apply(state, action), line):
                return True
            line.pop()
        if self.safe is not None:
            self.safe.add(state)
        return False


def is_safe(
    state: State,
    car: int,
    player: int | None = None,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    share: bool = True,
) -> Safety:
    """Whether ``player`` (default: the player who just moved) surely steals ``car`` at the start
    of their next turn."""
    limits = Limits(time_limit, node_limit)
    p = _check(state, player, car)
    search = _Search(p, car, Budget(limits), share)
    line: list[str] = []
    method = "exact" if share else "plain"
    try:
        broken = search.breaks(state, line)
    except LimitReached as exc:
        return Safety(
            state.notation(),
            p,
            car,
            None,
            exc.reason,
            (),
            search.budget.nodes,
            method,
            limits.to_json(),
        )
    if broken:
        return Safety(
            state.notation(),
            p,
            car,
            False,
            f"car {car} can be lost before player {p}'s next turn",
            tuple(line),
            search.budget.nodes,
            method,
            limits.to_json(),
        )
    return Safety(
        state.notation(),
        p,
        car,
        True,
        f"whatever the others roll and do, player {p} steals car {car} at the start of their "
        f"next turn (all {search.budget.nodes} positions checked)",
        (),
        search.budget.nodes,
        method,
        limits.to_json(),
    )


def plain_safe(state: State, car: int, player: int | None = None, **kw: Any) -> Safety:
    """The same question by plain enumeration (no sharing)."""
    return is_safe(state, car, player, share=False, **kw)
