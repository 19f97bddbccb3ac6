"""The progress bar of a study: tqdm on a terminal (rate and time left), nothing otherwise.

A :class:`Progress` is told the total and how many tasks were already done (a resumed study),
then each batch of results as it arrives. :func:`make_progress` picks the bar: ``None`` means a
tqdm bar when standard error is a terminal, ``False`` none, ``True`` a bar anyway; any object
with the :class:`Progress` methods may be given instead (a test uses one to stop a study).
"""

from __future__ import annotations

import sys
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Progress(Protocol):
    def start(self, total: int, done: int, description: str) -> None: ...

    def update(self, count: int, failed: int) -> None: ...

    def close(self) -> None: ...


class NoProgress:
    """Shows nothing."""

    def start(self, total: int, done: int, description: str) -> None:
        pass

    def update(self, count: int, failed: int) -> None:
        pass

    def close(self) -> None:
        pass


class BarProgress:
    """A tqdm bar on standard error: done/total, tasks per second, time left, failures."""

    def __init__(self) -> None:
        self._bar: Any = None
        self._failed = 0

    def start(self, total: int, done: int, description: str) -> None:
        from tqdm import tqdm

        self._bar = tqdm(
            total=total,
            initial=done,
            desc=description,
            unit="task",
            file=sys.stderr,
            dynamic_ncols=True,
            smoothing=0.1,
            mininterval=0.25,
        )

    def update(self, count: int, failed: int) -> None:
        if self._bar is None:
            return
        if failed:
            self._failed += failed
            self._bar.set_postfix(failed=self._failed, refresh=False)
        self._bar.update(count)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def make_progress(progress: bool | Progress | None) -> Progress:
    if isinstance(progress, Progress) and not isinstance(progress, bool):
        return progress
    if progress is None:
        progress = bool(getattr(sys.stderr, "isatty", lambda: False)())
    return BarProgress() if progress else NoProgress()
