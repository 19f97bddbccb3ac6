"""Rolling Bandits' part of the studies (:class:`~banditsolve.core.hooks.StudyHooks`): the
wagons taken, each seat's wagons, and the trunks of each kind each seat took, added to a
``simulate`` row. Rolling Bandits adds no policy and no question of its own.
"""

from __future__ import annotations

from collections.abc import Mapping

from banditsolve.core.hooks import Question, Row, Task
from banditsolve.core.protocol import Policy
from banditsolve.core.study import seat_columns, seats
from banditsolve.rolling.rules import Action
from banditsolve.rolling.state import State

#: The trunk contents, in the edition's order (columns ``trunks_<kind>_<seat>``).
TRUNK_KINDS = ("nothing", "bomb", "ambush", "roll-again")


def policy_names() -> tuple[str, ...]:
    return ()


def policies(task: Task) -> Mapping[str, Policy[State, Action]]:
    return {}


def columns() -> tuple[str, ...]:
    return (
        "wagons_taken",
        *(c for kind in TRUNK_KINDS for c in seats(f"trunks_{kind}")),
        *seats("wagons"),
    )


def final_columns(state: State, players: int) -> Row:
    """The wagons taken in all, the trunks of each kind each seat took, each seat's wagons."""
    row: Row = {"wagons_taken": sum(len(w) for w in state.won)}
    for k, kind in enumerate(TRUNK_KINDS):
        counts = [sum(1 for t in state.trunks[p] if t.content == k) for p in range(players)]
        row.update(seat_columns(f"trunks_{kind}", counts))
    row.update(seat_columns("wagons", [len(state.won[p]) for p in range(players)]))
    return row


def questions() -> Mapping[str, tuple[Question, tuple[str, ...]]]:
    return {}
