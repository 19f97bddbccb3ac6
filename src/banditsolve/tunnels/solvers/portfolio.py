"""The ``auto`` closure backend: the compiled search and the SAT finder raced, the first
definite answer kept (:func:`race`).

The compiled core (:mod:`~banditsolve.tunnels.solvers.compiled`) proves impossibility and
finds closures by exhaustion; the SAT finder (:mod:`~banditsolve.tunnels.solvers.sat`) finds
closures far from the table where the depth-first search gets lost, and proves impossibility
only from its complete radius. Most questions are decided by the core alone within
:data:`SOLO_NODES` nodes (a few milliseconds), so it runs alone first; the race starts only for
a question that outlasts that.

In the race the core runs in a thread of its own (it releases the GIL for its whole search)
and the SAT finder in the caller's thread (each CaDiCaL call runs in a forked process, which
the caller's thread awaits without the GIL; see the SAT module). The one that finishes first
with a definite answer stops the other: the core through its cancel byte, the SAT finder
through its cancel event, which kills its solver process. A definite answer is
``impossible``, or ``closable`` (for the minimum, only a proven minimum). Both keep the same
time limit, so the race ends within it. The answer names the solver that gave it (``exact``
or ``sat``).
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace

from banditsolve.core.limits import Limits
from banditsolve.tunnels.solvers.compiled import solve_compiled
from banditsolve.tunnels.solvers.goals import Required
from banditsolve.tunnels.solvers.inputs import Bounds
from banditsolve.tunnels.solvers.result import Closure
from banditsolve.tunnels.solvers.sat import solve_sat
from banditsolve.tunnels.table import Table

__all__ = ["SOLO_NODES", "race"]

#: The nodes the compiled core searches alone before the SAT finder joins in (about 20 ms).
SOLO_NODES = 5_000
#: Seconds the racers stop short of the deadline: the time to stop the loser (its thread
#: joined, the SAT finder's process killed and reaped) and to build the answer, measured at
#: 2-4 ms on this project's machines.
WRAP_UP = 0.003


def definite(result: Closure, minimum: bool) -> bool:
    """Whether ``result`` answers the question for good (the minimum needs a proven one)."""
    if result.status == "impossible":
        return True
    return result.status == "closable" and (result.minimum or not minimum)


def race(
    table: Table,
    codes: tuple[int, ...],
    max_cards: int | None,
    area: Bounds | None,
    limits: Limits,
    minimum: bool,
    required: Required = (),
) -> Closure | None:
    """The first definite answer of the compiled core and the SAT finder, or the core's
    ``unknown`` when neither gives one within the limits; None when the question is too large
    for the core (the caller runs the Python reference)."""
    start = time.perf_counter()
    solo_limits = Limits(limits.time_limit, SOLO_NODES if limits.node_limit is None else None)
    if limits.node_limit is not None:
        # A node limit is the core's: no race, whose SAT conflicts are no nodes.
        return solve_compiled(
            table, codes, max_cards=max_cards, bounds=area, limits=limits, required=required
        )
    solo = solve_compiled(
        table, codes, max_cards=max_cards, bounds=area, limits=solo_limits, required=required
    )
    if solo is None or solo.status != "unknown" or "time limit" in solo.reason:
        return solo
    deadline = None if limits.time_limit is None else start + limits.time_limit
    if deadline is not None and deadline - time.perf_counter() <= 0.01:
        return replace(solo, reason=limits.reason("time"))

    def left() -> Limits:
        """The time left to the deadline, as each racer starts (a thread starts late)."""
        if deadline is None:
            return Limits()
        return Limits(max(0.001, deadline - time.perf_counter() - WRAP_UP))
    flag = bytearray(1)
    core_won = threading.Event()  # set when the core's answer is definite: the SAT finder stops
    box: list[Closure | None] = []

    def run_core() -> None:
        result = solve_compiled(
            table,
            codes,
            max_cards=max_cards,
            bounds=area,
            limits=left(),
            required=required,
            cancel=flag,
        )
        box.append(result)
        if result is not None and definite(result, minimum):
            core_won.set()

    worker = threading.Thread(target=run_core, name="closure-core", daemon=True)
    worker.start()
    try:
        sat = solve_sat(
            table, codes, max_cards, area, left(), minimum, required, cancel=core_won
        )
    finally:
        flag[0] = 1  # the SAT finder has answered (or failed): the core stops if it still runs
        worker.join()
    core = box[0] if box else None
    return _race_answer(core, sat, minimum, limits, time.perf_counter() - start)


def _race_answer(
    core: Closure | None, sat: Closure, minimum: bool, limits: Limits, seconds: float
) -> Closure | None:
    """The race's answer from the core's (None: too large for it) and the SAT finder's, with
    the race's ``seconds``: the first definite one, else SAT's closure, else the core's
    ``unknown`` naming the time limit asked."""
    for result in (core, sat):
        if result is not None and definite(result, minimum):
            return replace(result, stats=replace(result.stats, seconds=seconds))
    if core is None:
        return None
    if sat.status == "closable":  # a closure, its minimum not proven
        return replace(sat, stats=replace(sat.stats, seconds=seconds))
    why = limits.reason("time") if limits.time_limit is not None else core.reason
    at_least = max(core.at_least, sat.at_least)  # (each proved its own)
    return replace(core, reason=why, stats=replace(core.stats, seconds=seconds), at_least=at_least)
