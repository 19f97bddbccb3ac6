"""A Monte Carlo estimate of each action's win chance (labelled as an estimate).

Each legal action is followed by ``samples`` seeded playouts with the given policy for every
player; the win share (1 split among tied winners) is reported with its sample count and a
Wilson 95 % interval. It is an estimate, never a proof: ``to_answer()`` says ``unknown``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from banditsolve.core.answer import Answer
from banditsolve.core.stats import wilson
from banditsolve.errors import SolverError
from banditsolve.rolling.players import PLAYERS
from banditsolve.rolling.rules import apply_unchecked, legal_actions, sample_chance, winners
from banditsolve.rolling.state import State

MAX_STEPS = 100_000


@dataclass(frozen=True, slots=True)
class WinEstimate:
    action: str
    wins: float
    samples: int
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class WinChances:
    position: str
    player: int
    policy: str
    estimates: tuple[WinEstimate, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "player": self.player,
            "policy": self.policy,
            "estimates": [
                {"action": e.action, "win_share": e.wins / e.samples, "samples": e.samples,
                 "interval": [e.low, e.high]}
                for e in self.estimates
            ],
        }

    def explain(self) -> str:
        return "; ".join(
            f"{e.action}: about {e.wins / e.samples:.3f} ({e.samples} samples, 95 % "
            f"{e.low:.3f}-{e.high:.3f})"
            for e in self.estimates
        )

    def svg(self) -> str:
        """The estimated win shares as a bar chart, in SVG (:func:`.pictures.wins_svg`)."""
        from banditsolve.rolling.solvers.pictures import wins_svg

        return wins_svg(self)

    def ascii(self) -> str:
        """The same picture in text (:func:`.pictures.wins_ascii`)."""
        from banditsolve.rolling.solvers.pictures import wins_ascii

        return wins_ascii(self)

    def _repr_svg_(self) -> str:
        """Jupyter's rich display: :meth:`svg`."""
        return self.svg()

    def to_answer(self) -> Answer:
        return Answer("rolling", "win-share", "unknown", "estimate",
                      "Monte Carlo estimate: " + self.explain(), None, {}, {}, self.to_json())


def _playout(state: State, policy: str, rng: random.Random) -> State:
    play = PLAYERS[policy]
    for _ in range(MAX_STEPS):
        if state.is_terminal:
            return state
        action = sample_chance(state, rng) if state.is_chance else play(state, rng)
        state = apply_unchecked(state, action)
    raise SolverError("a playout did not end")  # pragma: no cover


def win_chances(state: State, *, samples: int = 100, policy: str = "greedy",
                seed: int = 0) -> WinChances:
    """The estimated win share of the player to move after each legal action."""
    if state.is_chance or state.is_terminal:
        raise SolverError("win chances are asked when a player is to move")
    if policy not in PLAYERS:
        raise SolverError(f"unknown policy {policy!r}: choose from {', '.join(PLAYERS)}")
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= 10**6:
        raise SolverError("samples must be a whole number from 1 to 1000000")
    p = state.to_move
    out: list[WinEstimate] = []
    for i, action in enumerate(legal_actions(state)):
        rng = random.Random(seed * 1000003 + i)
        share = 0.0
        whole = 0
        for _ in range(samples):
            end = _playout(apply_unchecked(state, action), policy, rng)
            won = winners(end)
            if p in won:
                share += 1.0 / len(won)
                whole += 1 if len(won) == 1 else 0
        low, high = wilson(round(share), samples)
        out.append(WinEstimate(str(action), share, samples, low, high))
    return WinChances(state.notation(), p, policy, tuple(out))
