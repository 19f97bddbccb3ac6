"""What every study question needs, for the study runner and for the games' own questions
alike (:class:`~banditsolve.core.hooks.StudyHooks`): the task's players, policies and setting,
the per-seat columns, and the seeded game of a task.

A study is a list of :class:`~banditsolve.core.hooks.Task` values; running one gives one
:data:`~banditsolve.core.hooks.Row` of flat scalars. :func:`play` plays a task's seeded game
by the policies it names (the game's own, and those its study hooks add), so that every
question that plays a game plays the same one.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

from banditsolve.core.hooks import QuestionError, Row, Scalar, Task
from banditsolve.core.play import Step, playout, resolve_policies
from banditsolve.core.protocol import Game, Policy
from banditsolve.core.registry import load_game, load_study

#: The most seats any registered game has (the per-seat columns go up to this).
SEATS = 4


# -- policies ------------------------------------------------------------------------------------


def policy_names(game_name: str) -> tuple[str, ...]:
    """Every policy a task may name for ``game_name``: the game's own and those its study
    hooks add (Los Banditos: ``claim-aware`` and ``montecarlo``)."""
    hooks = load_study(game_name)
    return (*load_game(game_name).policies(), *(() if hooks is None else hooks.policy_names()))


def task_policies(
    task: Task, game: Game[object, object], players: int
) -> tuple[list[Policy[object, object]], list[str]]:
    """The policies of the task's seats, and their names (parameter ``policies``)."""
    raw = task.param("policies", "random")
    if not isinstance(raw, str) or not raw.strip():
        raise QuestionError(f"task {task.index}: policies must be names, not {raw!r}")
    names = [n.strip() for n in raw.split(",")]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise QuestionError(f"task {task.index}: {len(names)} policies for {players} players")
    hooks = load_study(task.game)
    extra = {} if hooks is None else hooks.policies(task)
    out: list[Policy[object, object]] = []
    for name in names:
        if name in extra:
            out.append(extra[name])
        else:
            out.extend(resolve_policies(game, [name], 1))
    return out, names


def task_players(task: Task) -> int | None:
    """The task's ``players`` parameter (None: the game's own default)."""
    raw = task.param("players")
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise QuestionError(f"task {task.index}: players must be a whole number, not {raw!r}")
    return raw


def setting(task: Task) -> str:
    """The task's ``setting`` parameter (the study's name for its group of tasks), else ``""``."""
    value = task.param("setting", "")
    return value if isinstance(value, str) else str(value)


def options_text(options: Sequence[tuple[str, str]]) -> str:
    """The task's rule options as one text, ``name=value`` joined by commas (``""``: defaults)."""
    return ",".join(f"{k}={v}" for k, v in options)


# -- simulate ------------------------------------------------------------------------------------


def seat_columns(prefix: str, values: Sequence[Scalar]) -> Row:
    """``prefix_0`` .. ``prefix_3``: a value per seat, ``None`` beyond the players."""
    return {f"{prefix}_{i}": values[i] if i < len(values) else None for i in range(SEATS)}


def play(task: Task) -> tuple[Game[object, object], object, list[Step[object, object]], list[str]]:
    """Play the task's game: ``(game, start, steps, policy names)``; the same game as
    :func:`banditsolve.core.play.simulate` (same seed, same random stream)."""
    game = load_game(task.game)
    options: Mapping[str, object] = dict(task.options)
    start = game.new_game(task_players(task), options, seed=task.seed)
    policies, names = task_policies(task, game, game.players(start))
    steps = list(playout(game, start, policies, random.Random(task.seed)))
    return game, start, steps, names


def states(start: object, steps: Sequence[Step[object, object]]) -> Iterator[object]:
    """The start, then the state after every step."""
    yield start
    for step in steps:
        yield step.state


def seats(prefix: str) -> tuple[str, ...]:
    """The column names of :func:`seat_columns`."""
    return tuple(f"{prefix}_{i}" for i in range(SEATS))


