"""Bandido's and Bandida's part of the studies (:class:`~banditsolve.core.hooks.StudyHooks`):
the counts a finished game adds to a ``simulate`` row, and the question ``solve``: the seed's
shuffled deal solved with perfect information (the whole pile order known) by the endgame
solver under a node limit (parameter ``node_limit``: a node limit, not a clock, so that the
answer does not depend on the machine): ``win`` (with the winning line as the certificate),
``lose`` or ``unknown``. The same deal is also played by the shipped policies (``greedy`` and
``random``) so that the two shares compare deal by deal.

Imported only when a study asks about a tunnel game; the solver loads when ``solve`` runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from banditsolve.core.hooks import Question, QuestionError, Row, Task
from banditsolve.core.protocol import Policy
from banditsolve.core.study import options_text, play, setting, task_players
from banditsolve.tunnels.state import Action, GameState

#: The endgame solver's node limit for ``"solve"``, unless the task says.
DEFAULT_NODE_LIMIT = 20_000

SOLVE_COLUMNS = (
    "setting", "seed", "players", "options", "status", "win", "nodes", "node_limit",
    "line_length", "certificate", "win_chance", "reason", "greedy_won", "random_won",
)


def policy_names() -> tuple[str, ...]:
    """No policies besides the game's own."""
    return ()


def policies(task: Task) -> Mapping[str, Policy[GameState, Action]]:
    return {}


def columns() -> tuple[str, ...]:
    return ("exits_left", "cards_left", "game_turns")


def final_columns(state: GameState, players: int) -> Row:
    """The exits still open, the cards not laid, and the turns played."""
    return {
        "exits_left": int(state.table.exit_count),
        "cards_left": len(state.pile) + len(state.unseen),
        "game_turns": int(state.turn),
    }


def _policy_won(task: Task, policy: str) -> bool:
    """Whether ``policy`` (every seat) wins the task's deal (the same seed, so the same deal)."""
    params = (*((k, v) for k, v in task.params if k != "policies"), ("policies", policy))
    game, start, steps, _ = play(replace(task, question="simulate", params=params))
    outcome = game.outcome(steps[-1].state if steps else start)
    return bool(outcome is not None and outcome.winners)


def solve(task: Task) -> Row:
    """The seed's shuffled deal solved with perfect information (see the module notes)."""
    from banditsolve.core.registry import load_game
    from banditsolve.tunnels.solvers.endgame import action_text, solve_game

    game = load_game(task.game)
    limit = task.param("node_limit", DEFAULT_NODE_LIMIT)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise QuestionError(f"task {task.index}: node_limit must be a positive whole number")
    start = game.new_game(task_players(task), dict(task.options), seed=task.seed)
    if not isinstance(start, GameState):
        raise QuestionError(f"task {task.index}: solve is a question of the tunnel games")
    solution = solve_game(start, time_limit=None, node_limit=limit)
    won = solution.status == "win"
    certificate = " ".join(action_text(m.action) for m in solution.line) if won else ""
    return {
        "setting": setting(task),
        "seed": task.seed,
        "players": game.players(start),
        "options": options_text(task.options),
        "status": solution.status,
        "win": True if won else (False if solution.status == "lose" else None),
        "nodes": solution.nodes,
        "node_limit": limit,
        "line_length": len(solution.line) if won else 0,
        "certificate": certificate,
        "win_chance": None if solution.win_chance is None else float(solution.win_chance),
        "reason": solution.reason,
        "greedy_won": _policy_won(task, "greedy"),
        "random_won": _policy_won(task, "random"),
    }


def questions() -> Mapping[str, tuple[Question, tuple[str, ...]]]:
    return {"solve": (solve, SOLVE_COLUMNS)}
