"""The typed seams a game plugs into: its command line (:class:`CliHooks`, and its shipped
puzzles: :class:`PuzzleHooks`) and its studies
(:class:`StudyHooks`, over the unit of a study: :class:`~banditsolve.core.study.Task`).

The shared command line and the study runner are written once over these Protocols and the
game contract (:class:`~banditsolve.core.protocol.Game`); they never ask which game they hold.
A game's registry entry (:class:`~banditsolve.core.registry.GameEntry`) names the objects
that implement them, as ``"module:attribute"`` text, so that nothing of a game is imported
before a command names it.

A game's hooks
==============
The hooks of a game are its ``cli`` module and its ``study`` module: a module is an object like
any other, and its functions are the methods of the Protocol. ``cli.py`` of a game package::

    def register(commands: CommandTable) -> None:
        claim = add_query(commands, "claim", "is a claim on a tile provably safe?")
        ...

    def demo(out_dir: Path, game: str) -> Iterator[DemoItem]:
        yield DemoItem("an unsafe-looking claim", text, answer, svg_path)

and the entry names it (``GameEntry(..., cli="banditsolve.banditos.cli", ...)``; an object
``"module:attribute"`` with the same methods does as well). A game with no questions of its own
and no demo of its own leaves ``cli`` out of its entry: it gets the shared verbs (``show``,
``moves``, ``apply``, ``play``) and a played demo. ``study.py`` has the functions of
:class:`StudyHooks` (its extra policies, the columns its finished games add to a ``simulate``
row, and the study questions only it answers); a game without one is studied with the
``simulate`` question alone. ``tests/test_hooks.py`` has mypy check each shipped game's modules
against the Protocols.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from banditsolve.core.answer import DemoItem
from banditsolve.core.protocol import Policy
from banditsolve.errors import RuleOptionError

if TYPE_CHECKING:
    import argparse

    from banditsolve.core.puzzles import PuzzleCard, PuzzleView, SolvedPuzzle

#: A value of a row, a rule option or a question parameter.
Scalar = int | float | str | bool | None

#: One result of a study task: column name to value. Every row of a question has the same
#: columns.
Row = dict[str, Scalar]


@dataclass(frozen=True, slots=True)
class Task:
    """One unit of work of a study: a pure function of its fields.

    ``game`` is a registered game, ``question`` a study question (``"simulate"``, or one a
    game's :class:`StudyHooks` adds), ``options`` the rule options as ``(name, text)`` pairs,
    ``params`` the question's parameters. Its result depends on nothing but these fields: not
    on the worker, the executor, the order of the tasks or the number of workers. ``index`` is
    the task's place in its study and the key that resume uses."""

    study: str
    index: int
    game: str
    question: str
    seed: int
    options: tuple[tuple[str, str], ...] = ()
    params: tuple[tuple[str, Scalar], ...] = ()

    def option(self, name: str, default: str) -> str:
        for key, value in self.options:
            if key == name:
                return value
        return default

    def param(self, name: str, default: Scalar = None) -> Scalar:
        for key, value in self.params:
            if key == name:
                return value
        return default


#: A study question: the row that answers a task.
Question = Callable[[Task], Row]


class QuestionError(RuleOptionError):
    """A task asks a question that does not exist, or not of this game, or with bad
    parameters."""


S = TypeVar("S", contravariant=True)
A = TypeVar("A", covariant=True)

class CommandTable(Protocol):
    """What :meth:`CliHooks.register` adds its commands to (``argparse``'s sub-command table)."""

    @property
    def choices(self) -> Mapping[str, argparse.ArgumentParser]:
        """The commands added so far, by name."""
        ...

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


@runtime_checkable
class CliHooks(Protocol):
    """A game's own part of the command line."""

    def register(self, commands: CommandTable) -> None:
        """Add the game's own questions (the shared verbs are already there). The module is
        imported only when a command names the game, so it must import nothing heavy at module
        level: the handlers import the game's solvers."""
        ...

    def demo(self, out_dir: Path, game: str) -> Iterator[DemoItem]:
        """The game's strongest answers, once each, with their pictures written to
        ``out_dir`` (``game``: the registered name shown, for hooks that serve several)."""
        ...


@runtime_checkable
class StudyHooks(Protocol[S, A]):
    """A game's own part of the studies: what the generic ``simulate`` question cannot know."""

    def policy_names(self) -> tuple[str, ...]:
        """The policies a study may name besides the game's own (``Game.policies``)."""
        ...

    def policies(self, task: Task) -> Mapping[str, Policy[S, A]]:
        """Those policies, made for ``task`` (a parameter such as ``samples`` may shape
        them); a bad parameter is refused with :class:`~banditsolve.errors.RuleOptionError`."""
        ...

    def columns(self) -> tuple[str, ...]:
        """The columns a ``simulate`` row of this game adds, in order."""
        ...

    def final_columns(self, state: S, players: int) -> Row:
        """Those columns' values for a finished game (exactly the keys of :meth:`columns`)."""
        ...

    def questions(self) -> Mapping[str, tuple[Question, tuple[str, ...]]]:
        """The study questions only this game answers: each name with its function and the
        columns of its rows, in order."""
        ...


@runtime_checkable
class PuzzleHooks(Protocol):
    """A game's shipped puzzles on the command line (``banditsolve GAME puzzles`` and
    ``banditsolve GAME puzzle ID [--solve]``): a game's ``cli`` module adds these three
    functions to its :class:`CliHooks` (``game`` is the registered name, for hooks that serve
    several games)."""

    def puzzle_list(self, game: str) -> tuple[PuzzleCard, ...]:
        """The collection, in its file's order."""
        ...

    def puzzle_view(self, game: str, puzzle_id: str) -> PuzzleView:
        """One puzzle's position (an unknown id: a
        :class:`~banditsolve.errors.DataError` naming it)."""
        ...

    def solve_puzzle(self, game: str, puzzle_id: str) -> SolvedPuzzle:
        """The solver's answer to the puzzle's question, checked against the stored one and
        drawn (``result._repr_svg_()`` where the answer draws itself)."""
        ...
