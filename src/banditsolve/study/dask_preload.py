"""A Dask preload for the scheduler of a study cluster: ``dask scheduler --preload
banditsolve.study.dask_preload`` has the workers beat every
:data:`~banditsolve.study.executors.HEARTBEAT_SECONDS` instead of every 0.5 s, as a
``LocalCluster`` opened by the study command does (see
:func:`banditsolve.study.executors.slow_heartbeats`)."""

from __future__ import annotations

from typing import Any

from banditsolve.study.executors import HEARTBEAT_SECONDS, slow_heartbeats


def dask_setup(scheduler: Any) -> None:
    """Called by Dask when the scheduler starts."""
    slow_heartbeats(scheduler, HEARTBEAT_SECONDS)
