"""Los Banditos' part of the studies (:class:`~banditsolve.core.hooks.StudyHooks`): two more
policies (``claim-aware``, and ``montecarlo``: the endgame solver's sampled best turn, with
``samples`` playouts per candidate action), the tiles each seat won, and the question
``claim``: along one seeded game played by the policies, at every decision the verdict of every
claim the mover could make (their side of a tile full) is found under both proof readings
(rule option ``proof``: ``strict`` and ``bag``), and the row counts how often they disagree.

Imported only when a study asks about Los Banditos; the solvers load when a task needs them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING

from banditsolve.banditos.actions import Action
from banditsolve.banditos.players import claim_aware_player
from banditsolve.banditos.state import MAX_SIDE, State
from banditsolve.core.hooks import Question, QuestionError, Row, Task
from banditsolve.core.protocol import Policy
from banditsolve.core.study import options_text, play, seat_columns, seats, setting

if TYPE_CHECKING:
    from collections.abc import Iterable

#: Samples per candidate action of the ``montecarlo`` policy, unless the task says.
DEFAULT_MC_SAMPLES = 16

CLAIM_COLUMNS = (
    "setting", "seed", "options", "policies", "claims_checked", "strict_safe", "bag_safe",
    "strict_only", "bag_only", "differ", "winner", "steps",
)


def policy_names() -> tuple[str, ...]:
    return ("claim-aware", "montecarlo")


def _montecarlo(samples: int) -> Policy[State, Action]:
    def policy(state: State, rng: random.Random) -> Action:
        from banditsolve.banditos.solvers.endgame import best_turn

        seed = rng.getrandbits(32)
        turn = best_turn(state, method="monte-carlo", samples=samples, seed=seed)
        return turn.actions[0]

    return policy


def policies(task: Task) -> Mapping[str, Policy[State, Action]]:
    """``claim-aware``, and ``montecarlo`` with the task's ``samples`` (refused unless a
    positive whole number)."""
    samples = task.param("samples", DEFAULT_MC_SAMPLES)
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise QuestionError(f"task {task.index}: samples must be a positive whole number")
    return {"claim-aware": claim_aware_player, "montecarlo": _montecarlo(samples)}


def columns() -> tuple[str, ...]:
    return seats("tiles")


def final_columns(state: State, players: int) -> Row:
    """The tiles each seat won."""
    return seat_columns("tiles", [len(state.won[p]) for p in range(players)])


class _Tally:
    """The claims looked at along one game, and how the two proof readings judged them."""

    def __init__(self) -> None:
        self.seen: set[tuple[object, ...]] = set()
        self.checked = self.strict_safe = self.bag_safe = self.strict_only = self.bag_only = 0

    def look(self, state: State) -> None:
        from banditsolve.banditos.claim import exact_verdict, normalise_availability

        if state.is_terminal or state.is_chance:
            return
        me = state.to_move
        for number, tile in state.tiles_in_play():
            mine = tile.side(me)
            if len(mine) != MAX_SIDE:
                continue
            other = tile.side(1 - me)
            strict = normalise_availability(state.availability(number, "strict"))
            bag = normalise_availability(state.availability(number, "bag"))
            key = (number, tuple(d.code for d in mine), tuple(d.code for d in other), strict, bag)
            if key in self.seen:  # the same question again later in the turn
                continue
            self.seen.add(key)
            a = exact_verdict(mine, other, strict).safe is True  # the closed form decides all
            b = exact_verdict(mine, other, bag).safe is True
            self.checked += 1
            self.strict_safe += a
            self.bag_safe += b
            self.strict_only += a and not b
            self.bag_only += b and not a


def _states(start: object, later: Iterable[object]) -> Iterable[State]:
    for s in (start, *later):
        if not isinstance(s, State):
            raise QuestionError(f"claim is a question of Los Banditos, not of {type(s).__name__}")
        yield s


def claim(task: Task) -> Row:
    """How often a claim's verdict depends on the proof reading, along one seeded game."""
    game, start, steps, names = play(task)
    tally = _Tally()
    final = start
    for state in _states(start, (step.state for step in steps)):
        tally.look(state)
        final = state
    outcome = game.outcome(final)
    if outcome is None:  # pragma: no cover - playout only stops at the end
        raise QuestionError(f"task {task.index}: the game did not end")
    winners = outcome.winners
    return {
        "setting": setting(task),
        "seed": task.seed,
        "options": options_text(task.options),
        "policies": ",".join(names),
        "claims_checked": tally.checked,
        "strict_safe": tally.strict_safe,
        "bag_safe": tally.bag_safe,
        "strict_only": tally.strict_only,
        "bag_only": tally.bag_only,
        "differ": tally.strict_only + tally.bag_only,
        "winner": winners[0] if len(winners) == 1 else -1,
        "steps": len(steps),
    }


def questions() -> Mapping[str, tuple[Question, tuple[str, ...]]]:
    return {"claim": (claim, CLAIM_COLUMNS)}
