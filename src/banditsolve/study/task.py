"""The unit of a study: one :class:`Task`, a pure function of its fields, and its result row.

A study is a list of tasks. Each task names a registered game, a question, a seed, the rule
options and the question's parameters; running it gives one :data:`Row` of flat scalars. The
batch layer (:mod:`banditsolve.study.batch`) runs tasks through any executor and stores rows;
the question functions live in :mod:`banditsolve.study.questions`; the shipped studies (which
tasks, and the report made of their rows) in :mod:`banditsolve.study.catalog`.

A task's result depends on nothing but its fields: not on the worker, the executor, the order of
the tasks or the number of workers. ``index`` is the task's place in its study and the key that
resume uses.
"""

from __future__ import annotations

from dataclasses import dataclass

#: A value of a row, a rule option or a question parameter.
Scalar = int | float | str | bool | None

#: One result: column name to value. Every row of a question has the same columns.
Row = dict[str, Scalar]


@dataclass(frozen=True, slots=True)
class Task:
    """One unit of work of a study."""

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
