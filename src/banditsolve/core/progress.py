"""Progress of long searches: a callback told, about four times a second, what is running.

Every public search passes through :func:`banditsolve.core.limits.steady`. While a callback is
set (:func:`progress`), the outermost search starts a small daemon thread that calls it with a
:class:`Tick`: the first call after :data:`FIRST_CALL` seconds (a short search stays silent),
then every :data:`EVERY` seconds until the search returns, and one last call with
``done=True`` (only when there was a first one). The thread runs beside the search, so it also
reports while the compiled closure core runs without the GIL. With no callback set a search
pays one context-variable read.

>>> import banditsolve
>>> seen = []
>>> with banditsolve.progress(seen.append):
...     pass  # a search run here reports to seen.append
>>> seen
[]

The callback runs on that thread, not the caller's (all but the last call, ``done``, which the
search's own thread makes as it returns): it should be quick, and it must not call a search
itself. An exception it raises stops its calls and is raised again when the search
returns. The command line's callback is :class:`TerminalProgress`, one line on standard error.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import IO, Any, Protocol

__all__ = [
    "EVERY", "FIRST_CALL", "ProgressCallback", "TerminalProgress", "Tick", "current", "progress",
    "track", "watch",
]

#: Seconds a search runs before its first call: searches shorter than this stay silent.
FIRST_CALL = 1.0
#: Seconds between two calls.
EVERY = 0.25


@dataclass(frozen=True, slots=True)
class Tick:
    """What a progress callback is told: ``what`` is running (``"tunnels.can_close"``), for
    ``elapsed`` seconds, within ``time_limit`` seconds (``None``: no limit), having visited
    ``nodes`` search nodes (``None``: not counted, as in the compiled core); ``done`` on the
    last call, when the search has returned."""

    what: str
    elapsed: float
    time_limit: float | None = None
    nodes: int | None = None
    done: bool = False


#: A progress callback: called with each :class:`Tick`, on the watcher's thread.
ProgressCallback = Callable[[Tick], None]


class _Counted(Protocol):
    """A running budget (:class:`banditsolve.core.limits.Budget`): its nodes so far."""

    nodes: int


_CALLBACK: ContextVar[ProgressCallback | None] = ContextVar("banditsolve_progress", default=None)
_WATCH: ContextVar[Watch | None] = ContextVar("banditsolve_progress_watch", default=None)


@contextmanager
def progress(callback: ProgressCallback | None) -> Iterator[None]:
    """Within the ``with`` block, every search that runs past :data:`FIRST_CALL` seconds
    calls ``callback`` (``None``: no progress, whatever an outer block set). The setting is
    the current context's (a thread started inside does not inherit it)."""
    if callback is not None and not callable(callback):
        from banditsolve.errors import ArgumentTypeError

        raise ArgumentTypeError(
            f"the progress callback must be callable, not {type(callback).__name__}"
        )
    token = _CALLBACK.set(callback)
    try:
        yield
    finally:
        _CALLBACK.reset(token)


#: The callback set in the current context, or ``None`` (the one read a search pays).
current = _CALLBACK.get


def track(budget: _Counted) -> Watch | None:
    """Count ``budget``'s nodes in the running search's ticks; the watch that counts them, or
    ``None`` when no search reports. The watch holds the budget weakly: the budget hands its
    count over with :meth:`Watch.settle` when it is freed, so a search of many inner searches
    keeps one number for the finished ones, not a list that grows with each."""
    watch = _WATCH.get()
    if watch is not None:
        watch.live.add(budget)
    return watch


class Watch:
    """The thread that reports one running search (started by :func:`watch`)."""

    __slots__ = ("_called", "_error", "_stop", "_thread", "callback", "live", "settled",
                 "start", "time_limit", "what")

    def __init__(self, what: str, time_limit: float | None, callback: ProgressCallback) -> None:
        self.what = what
        self.time_limit = time_limit
        self.callback = callback
        #: The budgets still running (held weakly), and the nodes of those already freed.
        self.live: weakref.WeakSet[_Counted] = weakref.WeakSet()
        self.settled = 0
        self.start = time.perf_counter()
        self._called = False
        self._error: BaseException | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="banditsolve-progress", daemon=True)

    def begin(self) -> None:
        self._thread.start()

    def settle(self, budget: _Counted) -> None:
        """``budget`` is being freed: its nodes join the settled count (called from its
        finaliser, once)."""
        self.live.discard(budget)
        self.settled += budget.nodes

    def tick(self, done: bool = False) -> Tick:
        live = list(self.live)
        counted = bool(live) or self.settled > 0
        nodes = self.settled + sum(b.nodes for b in live) if counted else None
        return Tick(self.what, time.perf_counter() - self.start, self.time_limit, nodes, done)

    def _run(self) -> None:
        if self._stop.wait(FIRST_CALL):
            return
        try:
            while True:
                self.callback(self.tick())
                self._called = True
                if self._stop.wait(EVERY):
                    return
        except BaseException as exc:  # raised again in the caller's thread by close()
            self._error = exc

    def close(self, *, failed: bool = False) -> None:
        """Stop the thread; the last call (``done``) when there was a first one. The
        callback's own error is raised here, unless the search itself ``failed``."""
        self._stop.set()
        self._thread.join()
        if self._error is not None:
            if failed:
                return
            raise self._error
        if self._called:
            self.callback(self.tick(done=True))


@contextmanager
def watch(what: str, time_limit: object) -> Iterator[None]:
    """Report the search ``what`` (limited to ``time_limit`` seconds when that is a number)
    to the current callback while the block runs; a no-op when none is set, or when an outer
    search of this context reports already."""
    callback = _CALLBACK.get()
    if callback is None or _WATCH.get() is not None:
        yield
        return
    limit = (float(time_limit) if isinstance(time_limit, int | float)
             and not isinstance(time_limit, bool) else None)
    running = Watch(what, limit, callback)
    token = _WATCH.set(running)
    running.begin()
    try:
        yield
    except BaseException:
        _WATCH.reset(token)
        running.close(failed=True)
        raise
    _WATCH.reset(token)
    running.close()


def _size(stream: IO[str]) -> tuple[int, int]:
    """The terminal's columns and rows, 80 and 24 where it says 0 or nothing (a new
    pseudo-terminal says 0, and tqdm draws nothing on a screen of 0 rows)."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return (80, 24)
    return (size.columns if size.columns > 0 else 80, size.lines if size.lines > 0 else 24)


class TerminalProgress:
    """A progress callback that draws one line on standard error (a tqdm bar: seconds spent
    of the time limit, nodes when counted) and erases it when the search is done."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self._stream = stream
        self._bar: Any = None

    def __call__(self, tick: Tick) -> None:
        if tick.done:
            self.close()
            return
        if self._bar is None:
            self._bar = self._open(tick)
        bar = self._bar
        bar.n = min(tick.elapsed, tick.time_limit) if tick.time_limit else tick.elapsed
        if tick.nodes is not None:
            bar.set_postfix_str(f"{tick.nodes:,} nodes", refresh=False)
        bar.refresh()

    def _open(self, tick: Tick) -> Any:
        from tqdm import tqdm

        stream = self._stream or sys.stderr
        columns, rows = _size(stream)
        limited = "{percentage:3.0f}%|{bar}| {n:.1f} of {total:g} s{postfix}"
        return tqdm(
            total=tick.time_limit,
            initial=min(tick.elapsed, tick.time_limit or tick.elapsed),
            postfix=None if tick.nodes is None else f"{tick.nodes:,} nodes",
            desc=tick.what,
            file=stream,
            bar_format="{desc}: " + (limited if tick.time_limit else "{n:.1f} s{postfix}"),
            ncols=columns,
            nrows=rows,
            leave=False,
            mininterval=0,
        )

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
