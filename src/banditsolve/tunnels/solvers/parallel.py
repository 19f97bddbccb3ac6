"""A long level of the exact search shared among forked processes.

:func:`run_split` walks two cards down from the root and hands each subtree to a worker of a
``fork`` pool (each inherits the board and the memo). The subtrees are taken in a fixed order
and the first closure in that order is returned, so the answer and the certificate never
depend on timing. A level is worth the forks only when the previous one took ``SPLIT_AFTER``
seconds (the deepening in :mod:`banditsolve.tunnels.solvers.closure` decides).
"""

from __future__ import annotations

import os
import threading

from banditsolve.core.limits import LimitReached
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.solvers.exact import ExactSearch

#: Seconds a level of the exact search must have taken before the next one is shared among
#: processes.
SPLIT_AFTER = 0.25

#: The fewest cores on which the exact search shares long levels by default.
MIN_CORES_TO_FORK = 4

#: The search a forked worker continues (set just before forking).
_SPLIT: ExactSearch | None = None


def run_split(search: ExactSearch, budget: int, workers: int) -> tuple[Placement, ...] | int:
    """:meth:`ExactSearch.run` with the subtrees two cards below the root searched by
    ``workers`` forked processes. The bound returned is ``budget + 1``; a worker that runs out
    of time raises :class:`~banditsolve.core.limits.LimitReached` here."""
    global _SPLIT
    search.path = []
    jobs: list[tuple[Placement, ...]] = []
    if search.collect(budget, frozenset(), 2, jobs):
        return tuple(search.path)
    if not jobs:
        return budget + 1
    import multiprocessing  # only here: forking is the exception, and the import costs

    _SPLIT = search
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for status, path, nodes in pool.imap(split_job, [(j, budget) for j in jobs]):
                search.budget.nodes += nodes
                if status == "closed":
                    return path
                if status == "limit":
                    # Never a node limit: the deepening shares no level under one.
                    raise LimitReached("time", search.budget.limits)
    finally:
        _SPLIT = None
    return budget + 1


def split_job(job: tuple[tuple[Placement, ...], int]) -> tuple[str, tuple[Placement, ...], int]:
    """In a worker process: search the subtree below ``prefix`` with the budget left;
    ``("closed", path, nodes)``, ``("open", (), nodes)`` or ``("limit", (), nodes)``."""
    prefix, budget = job
    search = _SPLIT
    assert search is not None
    before = search.nodes
    search.path = []
    records = [(p, search.push(p)) for p in prefix]
    try:
        found = search.dfs(budget - len(prefix), frozenset(prefix))
    except LimitReached:
        return "limit", (), search.nodes - before
    if found < 0:
        return "closed", tuple(search.path), search.nodes - before
    for p, record in reversed(records):
        search.pop(p, record)
    return "open", (), search.nodes - before


def default_workers() -> int:
    """How many processes the exact search may use: one on a machine with at most
    :data:`MIN_CORES_TO_FORK` - 1 cores (on two cores the forks cost more than they win: the
    closure benchmark measured no position decided by them that one process missed), else
    the machine's cores (at most 4) where forking is safe (a "fork" start method, one thread,
    not a daemon process)."""
    import multiprocessing

    cores = os.cpu_count() or 1
    if cores < MIN_CORES_TO_FORK:
        return 1
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    if threading.active_count() != 1 or multiprocessing.current_process().daemon:
        return 1
    return min(4, cores)
