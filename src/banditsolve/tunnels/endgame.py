"""The whole game when everything is known: can the team still win, and how?

:func:`solve_game` takes a state whose pile order is known (no unseen cards) and searches every
line of play (placements, hand changes, passes) depth first, with a transposition table on the
table's cells, the hands, the pile, the player to act and the pending flags. The team wins when
some line reaches "no exit"; the game being cooperative, that is plain reachability over the
players' choices, so a visited set is exact. A branch is cut early when the cards still in play
cannot close the table at all (dead exits or the counting bounds of the closure solver). Limits
give ``unknown``, never a false answer.

:func:`win_share` leaves the pile order open: it samples shuffles of the unseen cards with a
seeded random source, solves each exactly and reports the share won with a 95 % Wilson
interval. That is an upper bound on the real chance of winning: the players do not see the pile.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, replace
from typing import Literal

from banditsolve.errors import SolverError
from banditsolve.tunnels.cards import card_name
from banditsolve.tunnels.closure import _check_limits, _Limit, plural, static_reason
from banditsolve.tunnels.game import WON, Action, GameState, _settle, apply, legal_actions
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.table import placements_with_delta

GameStatus = Literal["win", "lose", "unknown"]


@dataclass(frozen=True, slots=True)
class Move:
    """One turn of a winning line: who acted, their hand before, and what they did."""

    turn: int
    player: int
    hand: tuple[int, ...]
    action: Action

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "turn": self.turn,
            "player": self.player,
            "hand": [card_name(c) for c in self.hand],
        }
        a = self.action
        if isinstance(a, Placement):
            out["action"] = "place"
            out["placement"] = {
                "card": card_name(a.card),
                "x": a.x,
                "y": a.y,
                "rotation": a.rotation,
            }
        else:
            out["action"] = str(a)
        return out

    def __str__(self) -> str:
        hand = " ".join(card_name(c) for c in self.hand)
        return f"turn {self.turn}: player {self.player} [{hand}] -> {self.action}"


@dataclass(frozen=True, slots=True)
class GameSolution:
    """``win`` with the winning line, ``lose`` (proven), or ``unknown`` (a limit ran out)."""

    status: GameStatus
    line: tuple[Move, ...]
    reason: str
    nodes: int
    seconds: float

    def to_json(self) -> dict[str, object]:
        return {
            "status": self.status,
            "line": [m.to_json() for m in self.line],
            "reason": self.reason,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def _key(state: GameState) -> object:
    cells = frozenset((c, v & 15) for c, v in state.table._cells.items())
    return (cells, state.hands, state.pile, state.player, state.to_draw, state.changed)


def _ordered(state: GameState) -> list[Action]:
    actions = list(legal_actions(state))
    deltas: dict[Placement, int] = {}
    for code in set(state.hands[state.player]):
        for p, d in placements_with_delta(state.table, code):
            deltas[p] = d
    return sorted(actions, key=lambda a: deltas.get(a, 99) if isinstance(a, Placement) else 100)


def solve_game(
    state: GameState,
    *,
    time_limit: float | None = 10.0,
    node_limit: int | None = None,
) -> GameSolution:
    """Solve a perfect-information state (the whole pile order known)."""
    _check_limits(None, time_limit, node_limit)
    if state.unseen:
        raise SolverError(
            "the pile order is not known (unseen cards): use win_share to sample shuffles"
        )
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    seen: set[object] = set()
    line: list[Move] = []
    nodes = 0

    def dfs(s: GameState) -> bool:
        nonlocal nodes
        if s.outcome is not None:
            return s.outcome == WON
        key = _key(s)
        if key in seen:
            return False
        seen.add(key)
        nodes += 1
        if node_limit is not None and nodes > node_limit:
            raise _Limit
        if deadline is not None and nodes & 63 == 0 and time.perf_counter() > deadline:
            raise _Limit
        if static_reason(s.table, s.remaining()) is not None:
            return False
        for action in _ordered(s):
            line.append(Move(s.turn + 1, s.player, s.hands[s.player], action))
            if dfs(apply(s, action)):
                return True
            line.pop()
        return False

    try:
        won = dfs(state)
    except _Limit:
        return GameSolution(
            "unknown",
            (),
            "a limit ran out before an answer was proven",
            nodes,
            time.perf_counter() - start,
        )
    spent = time.perf_counter() - start
    if won:
        why = f"a winning line of {len(line)} turns"
        return GameSolution("win", tuple(line), why, nodes, spent)
    return GameSolution(
        "lose", (), f"every line of play loses ({plural(nodes, 'state')} searched)", nodes, spent
    )


@dataclass(frozen=True, slots=True)
class WinShare:
    """Sampled shuffles of the unseen cards solved with perfect information."""

    won: int
    lost: int
    unknown: int
    samples: int
    share: float
    low: float
    high: float
    label: str = "upper bound on the real chance (perfect information)"

    def to_json(self) -> dict[str, object]:
        return {
            "won": self.won,
            "lost": self.lost,
            "unknown": self.unknown,
            "samples": self.samples,
            "share": self.share,
            "ci95": [self.low, self.high],
            "label": self.label,
        }


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95 % by default)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def win_share(
    state: GameState,
    *,
    samples: int = 100,
    seed: int = 0,
    time_limit: float | None = 10.0,
) -> WinShare:
    """The share of shuffles of ``state``'s unseen cards that perfect play still wins.

    Each sample puts the unseen cards in a random order (seeded) above the known pile and
    solves the result with :func:`solve_game`. ``time_limit`` is for all the samples together:
    each gets an equal part of the time left. A sample the solver cannot decide in its time is
    counted apart and, so that the share stays an upper bound, as won; the interval is the
    95 % Wilson interval of that share.
    """
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise SolverError(f"samples must be a positive integer, not {samples!r}")
    _check_limits(None, time_limit, None)
    rng = random.Random(seed)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    won = lost = unknown = 0
    for i in range(samples):
        order = list(state.unseen)
        rng.shuffle(order)
        known = replace(state, unseen=(), pile=tuple(order) + state.pile, _legal=[])
        part = None
        if deadline is not None:
            part = (deadline - time.perf_counter()) / (samples - i)
        if part is not None and part <= 0:
            unknown += 1
            continue
        result = solve_game(_settle(known), time_limit=part)
        if result.status == "win":
            won += 1
        elif result.status == "lose":
            lost += 1
        else:
            unknown += 1
    bound = won + unknown
    low, high = wilson(bound, samples)
    label = "upper bound on the real chance (perfect information)"
    if unknown:
        label += f"; the {unknown} undecided sample{'s' if unknown != 1 else ''} counted as won"
    return WinShare(won, lost, unknown, samples, bound / samples, low, high, label)
