"""The questions a study task asks, each a pure function of the task's fields.

:func:`run` dispatches on :attr:`Task.question`:

- ``"simulate"`` (every game): one seeded game played to the end by the policies named in the
  task, exactly :func:`banditsolve.core.play.simulate` with the same seed, players, options and
  policies. The row gives the winner, each seat's policy, return and score, the length of the
  game, and the columns the game's study hooks add for a finished game
  (:meth:`~banditsolve.core.hooks.StudyHooks.final_columns`).
- ``"mcts"`` (every game): one seeded game played through OpenSpiel by seats that are
  OpenSpiel's MCTS at a budget (``mcts:N``) or the game's policies
  (:mod:`banditsolve.study.versus`).
- Any question a game's study hooks add (:meth:`~banditsolve.core.hooks.StudyHooks.questions`):
  Bandido's and Bandida's ``"solve"`` (the seed's deal solved with perfect information), Los
  Banditos' ``"claim"`` (how often a claim's verdict depends on the proof reading).

Parameters (``task.params``): ``setting`` (a label the study gives a group of tasks, copied
into the row's ``setting`` column), ``players`` (default: the game's own default), ``policies``
(one name for every seat, or names joined by commas, one per seat; default ``"random"``; the
game's own policies and those its study hooks add), and whatever a game's question or policy
reads (``node_limit``, ``samples``). Rule options come from ``task.options``.

Every row of one question and game has the same columns, all flat scalars; a column that does
not apply (the score of a seat beyond the number of players) is ``None``. Nothing here asks
which game it holds: what differs between games comes through the registry's hooks.
"""

from __future__ import annotations

from collections.abc import Mapping

from banditsolve.core.hooks import Question, QuestionError, Row, Task
from banditsolve.core.protocol import CHANCE
from banditsolve.core.registry import load_game, load_study
from banditsolve.core.study import (
    options_text,
    play,
    seat_columns,
    seats,
    setting,
)


def simulate(task: Task) -> Row:
    """One seeded game played to the end (see the module notes)."""
    game, start, steps, names = play(task)
    final = steps[-1].state if steps else start
    players = game.players(final)
    outcome = game.outcome(final)
    if outcome is None:  # pragma: no cover - playout only stops at the end
        raise QuestionError(f"task {task.index}: the game did not end")
    winners = outcome.winners
    row: Row = {
        "setting": setting(task),
        "seed": task.seed,
        "players": players,
        "options": options_text(task.options),
        "policies": ",".join(names),
        "won": bool(winners),
        "winner": winners[0] if len(winners) == 1 else -1,
        "winners": len(winners),
        "steps": len(steps),
        "decisions": sum(1 for step in steps if step.actor != CHANCE),
        "reason": outcome.reason,
    }
    row.update(seat_columns("policy", names))
    row.update(seat_columns("return", [float(r) for r in outcome.returns]))
    row.update(seat_columns("score", list(outcome.scores)))
    hooks = load_study(task.game)
    if hooks is not None:
        row.update(hooks.final_columns(final, players))
    return row




#: The columns of a ``"simulate"`` row common to every game, in order.
SIMULATE_COLUMNS = (
    "setting", "seed", "players", "options", "policies", "won", "winner", "winners", "steps",
    "decisions", "reason", *seats("policy"), *seats("return"), *seats("score"),
)


def _questions(game: str) -> Mapping[str, tuple[Question, tuple[str, ...]]]:
    """Every question of ``game``: ``simulate``, then those its study hooks add."""
    hooks = load_study(game)
    extra = {} if hooks is None else hooks.questions()
    simulate_columns = SIMULATE_COLUMNS + (() if hooks is None else hooks.columns())
    from banditsolve.study.versus import MCTS_COLUMNS, mcts_game

    return {"simulate": (simulate, simulate_columns), "mcts": (mcts_game, MCTS_COLUMNS), **extra}


def questions(game: str) -> tuple[str, ...]:
    """The names of the questions a study may ask about ``game``."""
    return tuple(_questions(game))


def columns(question: str, game: str) -> tuple[str, ...]:
    """The columns of every row of ``question`` about ``game``, in order."""
    found = _questions(game).get(question)
    if found is None:
        raise QuestionError(
            f"{question!r} is not a question about {load_game(game).title}: the questions are "
            f"{', '.join(questions(game))}"
        )
    return found[1]


def run(task: Task) -> Row:
    """The row answering ``task`` (raises on a task that cannot be answered)."""
    found = _questions(task.game).get(task.question)
    if found is None:
        raise QuestionError(
            f"task {task.index}: {task.question!r} is not a question about "
            f"{load_game(task.game).title}: the questions are {', '.join(questions(task.game))}"
        )
    return found[0](task)
