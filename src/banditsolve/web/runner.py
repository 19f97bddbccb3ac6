"""The server's workers: each question runs as the ``banditsolve`` command in a process of its
own, at most ``workers`` at a time, killed at the server's deadline.

A question is the command line itself (:class:`~banditsolve.web.api.Command`). Its process is
forked from a fork server that has imported the command line and every game's command-line
module once (:data:`PRELOAD`, named as text the way the registry names them), so a question
costs a fork (a few milliseconds), not an interpreter start and its imports (about 0.2 s). The
child runs ``python -m banditsolve`` in place (:func:`runpy.run_module`), with standard input
closed, its output in files of the question's own folder, and
:data:`~banditsolve.core.io.TEXT_ONLY` set, so that no argument is ever read as a file of the
server. A process per question (not a thread of the server) keeps the event loop free, gives the
solvers a CPU and the GIL of their own, and keeps every fault local: a question past its
deadline is killed (504), a crashed one is a 503 with one line, and the server serves the next.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import runpy
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from banditsolve.core.answer import ExitStatus
from banditsolve.core.flags import TIME_LIMIT_CAP
from banditsolve.core.io import TEXT_ONLY
from banditsolve.web.api import Command

#: The most output a question may print that the server reads, in bytes.
MAX_OUTPUT_BYTES = 8 * 1024 * 1024

#: What the fork server imports once, for every question's process to start with (beside
#: every registered game's object and command-line module, see :func:`preload`).
PRELOAD = ("banditsolve.cli", "banditsolve.cli.verbs", "banditsolve.core.flags")


def preload() -> list[str]:
    """The modules the fork server imports: :data:`PRELOAD`, each game's object and its
    command-line hooks (the registry's names, as text), and this module."""
    from banditsolve.core.registry import entries

    games = [name for e in entries() for name in (e.game.partition(":")[0], e.cli) if name]
    return [*PRELOAD, *games, __name__]


@dataclass(frozen=True, slots=True)
class Ran:
    """What one question's process did: its exit status (``None``: killed at the deadline),
    what it printed, the picture it drew (``svg``), and how long it took."""

    status: int | None
    out: str
    err: str
    svg: str | None
    seconds: float

    @property
    def crashed(self) -> bool:
        """Ended by a signal or an exit status the command line never uses."""
        return self.status is not None and self.status not in set(ExitStatus)


class Busy(Exception):
    """No worker became free within the queue's wait."""


def _question(
    argv: list[str], folder: str, cap: float
) -> None:  # pragma: no cover - runs in the child
    """The child: ``banditsolve ARGV`` with its output in ``folder``, every time limit (its
    default too) at most ``cap`` seconds, then exit with its status."""
    os.environ[TEXT_ONLY] = "1"
    os.environ[TIME_LIMIT_CAP] = repr(cap)
    os.environ.pop("BANDITSOLVE_TRACEBACK", None)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, name in ((1, "out"), (2, "err")):
        target = os.open(os.path.join(folder, name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(target, fd)
    sys.stdin = open(0, closefd=False)  # noqa: SIM115 - the child's own standard streams
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.argv = ["banditsolve", *argv]
    code = 0
    try:
        runpy.run_module("banditsolve", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    sys.stdout.flush()
    sys.stderr.flush()
    sys.exit(code)  # multiprocessing makes it the process's exit status


def _read(path: Path) -> str:
    try:
        with path.open("rb") as stream:
            return stream.read(MAX_OUTPUT_BYTES).decode("utf-8", "replace")
    except FileNotFoundError:
        return ""


class Runner:
    """At most ``workers`` questions at a time; a question waits at most ``queue_wait`` seconds
    for a worker and runs at most ``deadline`` seconds."""

    def __init__(
        self, workers: int, deadline: float, queue_wait: float, max_time_limit: float
    ) -> None:
        self.workers = workers
        self.deadline = deadline
        self.queue_wait = queue_wait
        self.max_time_limit = max_time_limit
        self._slots = asyncio.Semaphore(workers)
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(preload())
        #: Questions running now, and processes started since the server began.
        self.running = 0
        self.started = 0

    async def run(self, command: Command, *, picture: bool = False) -> Ran:
        """Run ``command`` (with ``--svg`` into the question's folder when ``picture``)."""
        try:
            await asyncio.wait_for(self._slots.acquire(), self.queue_wait)
        except TimeoutError:
            raise Busy from None
        self.running += 1
        try:
            with tempfile.TemporaryDirectory(prefix="banditsolve-web-") as folder:
                return await self._run(command, Path(folder), picture)
        finally:
            self.running -= 1
            self._slots.release()

    async def _run(self, command: Command, folder: Path, picture: bool) -> Ran:
        argv = list(command.argv)
        target = folder / "answer.svg"
        if picture:
            at = argv.index("--json")
            argv[at:at + 1] = ["--svg", str(target)]
        began = time.perf_counter()
        self.started += 1
        process = self._context.Process(
            target=_question, args=(argv, str(folder), self.max_time_limit), daemon=True
        )
        process.start()
        loop = asyncio.get_running_loop()
        ended: asyncio.Future[None] = loop.create_future()

        def done() -> None:
            if not ended.done():
                ended.set_result(None)

        loop.add_reader(process.sentinel, done)
        try:
            await asyncio.wait_for(ended, self.deadline)
        except TimeoutError:
            process.kill()
            process.join()
            return Ran(None, "", "", None, time.perf_counter() - began)
        finally:
            loop.remove_reader(process.sentinel)
        process.join()
        code = process.exitcode
        svg = _read(target) if picture and target.is_file() else None
        status = code if code is None or code >= 0 else 128 - code
        return Ran(status, _read(folder / "out"), _read(folder / "err"), svg,
                   time.perf_counter() - began)
