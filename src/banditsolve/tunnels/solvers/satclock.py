"""The SAT finder's clock (:mod:`~banditsolve.tunnels.solvers.sat`): its limits, and each call
of the solver run in a forked process that keeps them (pysat's CaDiCaL cannot be interrupted
and holds the GIL while it solves): killed when a limit runs out, the run is cancelled or a
radius's share of the time passes, and ended with its caller."""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
import time
import warnings
from array import array
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from banditsolve.core.limits import Limits
from banditsolve.errors import InternalError

if TYPE_CHECKING:
    from pysat.solvers import Solver

#: Each solver call runs in a forked process (killed at the limit); without ``fork`` only a
#: question without limits (none to keep) is asked, in this process.
FORK = hasattr(os, "fork")
#: How long a forked process takes to end once killed and be reaped, kept from a solver's time
#: limit (:func:`reap_seconds`): its page tables are torn down, so the time grows with this
#: process's resident memory. A fork, an exit and a reap measured 4.6-5.5 ms at 19 MB, 26-28
#: ms at 322 MB and 46-53 ms at 932 MB: 6 ms, and 0.05 ms a megabyte.
REAP_SECONDS = 0.006
REAP_SECONDS_PER_MB = 5e-5
#: How long past its own time limit a solver run in this process returns (CP-SAT: 2-5 ms
#: measured at 0.2 s limits).
STOP_SECONDS = 0.005
#: Forking a process that holds a large model takes a few milliseconds: with less time left
#: than this before its deadline, a forked solve is not begun.
FORK_SECONDS = 0.02
#: How often a run with a cancel event looks at it, in seconds.
POLL_SECONDS = 0.02
#: ``prctl``'s option that kills a process when its parent ends (Linux).
PR_SET_PDEATHSIG = 1


def reap_seconds() -> float:
    """:data:`REAP_SECONDS` and :data:`REAP_SECONDS_PER_MB` of this process's resident memory
    now (``/proc/self/statm``; where there is none, the peak the process has reached)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            pages = int(f.read().split()[1])
        megabytes = pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # (bytes on macOS, else KB)
        megabytes = peak / 2**20 if sys.platform == "darwin" else peak / 2**10
    return REAP_SECONDS + REAP_SECONDS_PER_MB * megabytes


def end_seconds(forked: bool) -> float:
    """The time a solver's end takes past its deadline, kept from its limit: a forked solve's
    (:func:`reap_seconds`) when it is ``forked`` (and this system forks), else
    :data:`STOP_SECONDS`."""
    return reap_seconds() if forked and FORK else STOP_SECONDS


class Stopped(Exception):
    """A limit ran out or the run was cancelled: its one argument says which."""


class Clock:
    """The limits of one run (the time limit from ``start``, the node limit in conflicts, the
    cancel event), and the solver's runs that keep them (:meth:`run`)."""

    def __init__(self, limits: Limits, cancel: threading.Event | None, start: float) -> None:
        self.limits = limits
        self.cancel = cancel
        self.start = start
        self.deadline = None if limits.time_limit is None else start + limits.time_limit
        #: seconds kept before the deadline for the clean-up (see :meth:`Layers.seal`), and for
        #: ending a forked solve (:func:`reap_seconds`, read once)
        self.reserve = 0.0
        self.reap = 0.0 if self.deadline is None else reap_seconds()
        self.conflicts = 0

    def check(self) -> None:
        """Raise :class:`Stopped` when a limit has run out or the run is cancelled."""
        if self.cancel is not None and self.cancel.is_set():
            raise Stopped("cancelled")
        if self.deadline is not None and time.perf_counter() >= self.deadline - self.kept:
            raise Stopped(self.limits.reason("time"))
        if self.limits.node_limit is not None and self.conflicts >= self.limits.node_limit:
            raise Stopped(self.limits.reason("nodes") + " (counted as the solver's conflicts)")

    @property
    def kept(self) -> float:
        """The seconds kept before the deadline: the clean-up's and a fork's end."""
        return self.reserve + self.reap

    def conflicts_left(self) -> int | None:
        """The conflicts the node limit leaves (None: no node limit)."""
        most = self.limits.node_limit
        return None if most is None else max(1, most - self.conflicts)

    def run(
        self, solver: Solver, assumptions: list[int], until: float | None
    ) -> tuple[bool | None, Sequence[int]]:
        """Solve under ``assumptions``: True with the model, False, or None when ``until``
        (a ``perf_counter`` time short of the deadline) passed first; :class:`Stopped` when a
        limit runs out or the run is cancelled (see :data:`FORK`)."""
        self.check()
        if FORK:
            return self.forked(solver, assumptions, until)
        limits = self.limits
        if self.cancel or until or limits.time_limit or limits.node_limit:
            raise Stopped("the SAT finder keeps its limits in a forked process: no fork here")
        result = bool(solver.solve(assumptions=assumptions))
        return result, solver.get_model() if result else ()

    def forked(
        self, solver: Solver, assumptions: list[int], until: float | None
    ) -> tuple[bool | None, Sequence[int]]:
        """:meth:`run` in a forked process (it holds a copy of the solver), killed when a
        limit runs out, the run is cancelled or ``until`` passes; this process waits
        without holding the GIL."""
        budget = self.conflicts_left()

        def expired() -> bool:
            self.check()
            return until is not None and time.perf_counter() >= until

        data = call_forked(
            lambda: solved(solver, assumptions, budget), lambda: self.wait_for(until), expired
        )
        if data is None:
            return None, ()
        answer = array("q")
        answer.frombytes(data)
        if len(answer) < 2:
            raise InternalError("the SAT solver's process ended without an answer")
        self.conflicts += answer[1]
        if answer[0] == BUDGET:
            raise Stopped(self.limits.reason("nodes") + " (counted as the solver's conflicts)")
        return bool(answer[0]), answer[2:]

    def wait_for(self, until: float | None) -> float | None:
        """How long to wait for the child before looking at the clock and the cancel event
        again (None: until it answers)."""
        ends = [e for e in (self.deadline, until) if e is not None]
        left = [max(0.0, min(ends) - self.kept - time.perf_counter())] if ends else []
        poll = [POLL_SECONDS] if self.cancel is not None else []
        return min(left + poll, default=None)


#: The status a forked solver reports when the conflict budget (the node limit) ran out.
BUDGET = 2


def die_with_parent(parent: int) -> None:  # pragma: no cover - runs in the forked process
    """In the forked process: end it as soon as ``parent`` ends, so that a caller killed
    (SIGTERM, SIGKILL) leaves no solver running on (Linux: ``prctl(PR_SET_PDEATHSIG)``, then
    a check that the parent had not already gone; elsewhere the parent's own clean-up)."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            return
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)


def solved(
    solver: Solver, assumptions: list[int], budget: int | None
) -> bytes:  # pragma: no cover - runs in the forked process
    """Solve: ``[status, conflicts, *model]`` (status 0 unsat, 1 sat, :data:`BUDGET`)."""
    if budget is None:
        result = solver.solve(assumptions=assumptions)
    else:
        solver.conf_budget(budget)
        result = solver.solve_limited(assumptions=assumptions)
    status = BUDGET if result is None else int(bool(result))
    model = solver.get_model() if result else []
    conflicts = int(solver.accum_stats().get("conflicts", 0))
    return array("q", [status, conflicts, *model]).tobytes()


def call_forked(
    work: Callable[[], bytes],
    wait: Callable[[], float | None],
    expired: Callable[[], bool],
) -> bytes | None:
    """``work()`` in a forked process (a solver that cannot be interrupted, with a copy of
    everything it needs), its bytes read back through a pipe; None once ``expired()`` says so
    (``wait()``: how long to wait for the child before asking again, None for as long as it
    takes). The child is killed when it must stop, ends with this process, and is always
    reaped; this process waits without the GIL."""
    read, write = os.pipe()
    parent = os.getpid()
    with warnings.catch_warnings():
        # Python 3.12 warns of forking a process with threads; the child runs only the
        # solver and writes its answer (no lock of another thread is ever taken).
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # pragma: no cover - the child process (its coverage is not collected)
        os.close(read)
        in_child(parent, work, write)
    os.close(write)
    try:
        return _collect(read, pid, wait, expired)
    finally:
        os.close(read)


def forked_until(work: Callable[[], bytes], until: float) -> bytes | None:
    """``work()`` in a forked process killed at ``until`` (a ``perf_counter`` time): its bytes,
    or None when it was killed or too little time was left to begin (:data:`FORK_SECONDS`)."""
    if until - time.perf_counter() < FORK_SECONDS:
        return None
    return call_forked(
        work,
        lambda: max(0.0, until - time.perf_counter()),
        lambda: time.perf_counter() >= until,
    )


def _collect(
    fd: int, pid: int, wait: Callable[[], float | None], expired: Callable[[], bool]
) -> bytes | None:
    """The child's answer read from ``fd`` to its end (None once ``expired()``)."""
    chunks: list[bytes] = []
    done = False
    poller = select.poll()  # (not select.select: it fails on descriptors past 1023)
    poller.register(fd, select.POLLIN)
    try:
        while True:
            left = wait()
            if poller.poll(None if left is None else int(left * 1000) + 1):
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    done = True
                    return b"".join(chunks)
                chunks.append(chunk)
                continue
            if expired():
                return None
    finally:
        if not done:
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def in_child(
    parent: int, work: Callable[[], bytes], fd: int
) -> None:  # pragma: no cover - runs in the forked process
    """In the forked process: end with ``parent``, write what ``work()`` gives to ``fd``, and
    end the process by killing it (so that, whatever happens, it never returns into the
    caller's code, runs no exit handler of the parent's and flushes none of its buffers; the
    parent reads the answer to the end of the pipe)."""
    try:
        die_with_parent(parent)
        view = memoryview(work())
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.kill(os.getpid(), signal.SIGKILL)
