"""The toy's part of the studies: the size of the pile, and a question of its own
(``value``: the first player's exact chance with perfect play, for the task's options)."""

from __future__ import annotations

from collections.abc import Mapping

from banditsolve.core.hooks import Question, Row, Task
from banditsolve.core.protocol import Policy
from banditsolve.core.study import options_text, setting, task_players
from tests.toy.state import Action, State


def policy_names() -> tuple[str, ...]:
    return ()


def policies(task: Task) -> Mapping[str, Policy[State, Action]]:
    return {}


def columns() -> tuple[str, ...]:
    return ("start",)


def final_columns(state: State, players: int) -> Row:
    return {"start": state.options.pile}


def value(task: Task) -> Row:
    from tests.toy.game import GAME
    from tests.toy.solver import values

    start = GAME.new_game(task_players(task), dict(task.options), seed=task.seed)
    return {
        "setting": setting(task),
        "options": options_text(task.options),
        "first_player": float(values(start)[0]),
    }


def questions() -> Mapping[str, tuple[Question, tuple[str, ...]]]:
    return {"value": (value, ("setting", "options", "first_player"))}
