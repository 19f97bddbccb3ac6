"""The server's workers: each question runs as its own ``banditsolve`` process, at most
``workers`` at a time, stopped at the server's deadline.

A question is the command line itself (:class:`~banditsolve.web.api.Command`), run with the
same interpreter in a fresh process, with standard input closed and
:data:`~banditsolve.core.io.TEXT_ONLY` set, so that no argument is ever read as a file of the
server. Running each question in a process of its own (not a thread of the server) keeps the
event loop free, gives the solvers both the CPU and the GIL, and makes every fault local: a
question past its deadline is killed (504), a crashed one is a 503 with one line, and the
server serves the next. The cost is the process start (about 0.2 s), which the answer cache of
:mod:`banditsolve.web.app` spares a repeated question.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from banditsolve.core.answer import ExitStatus
from banditsolve.core.io import TEXT_ONLY
from banditsolve.web.api import Command

#: The most output a question may print, in bytes (an answer is at most a few hundred KB).
MAX_OUTPUT_BYTES = 8 * 1024 * 1024


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


class Runner:
    """At most ``workers`` questions at a time; a question waits at most ``queue_wait`` seconds
    for a worker and runs at most ``deadline`` seconds."""

    def __init__(self, workers: int, deadline: float, queue_wait: float) -> None:
        self.workers = workers
        self.deadline = deadline
        self.queue_wait = queue_wait
        self._slots = asyncio.Semaphore(workers)
        #: Questions running now, and processes started since the server began.
        self.running = 0
        self.started = 0

    async def run(self, command: Command, *, picture: bool = False) -> Ran:
        """Run ``command`` (with ``--svg`` into a folder of its own when ``picture``)."""
        try:
            await asyncio.wait_for(self._slots.acquire(), self.queue_wait)
        except TimeoutError:
            raise Busy from None
        self.running += 1
        try:
            with tempfile.TemporaryDirectory(prefix="banditsolve-web-") as folder:
                return await self._run(command, Path(folder) if picture else None)
        finally:
            self.running -= 1
            self._slots.release()

    async def _run(self, command: Command, folder: Path | None) -> Ran:
        argv = list(command.argv)
        target = None
        if folder is not None:
            target = folder / "answer.svg"
            at = argv.index("--json")
            argv[at:at + 1] = ["--svg", str(target)]
        env = {**os.environ, TEXT_ONLY: "1", "PYTHONUNBUFFERED": "1"}
        env.pop("BANDITSOLVE_TRACEBACK", None)
        began = time.perf_counter()
        self.started += 1
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "banditsolve", *argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
            limit=MAX_OUTPUT_BYTES,
        )
        try:
            out, err = await asyncio.wait_for(process.communicate(), self.deadline)
        except TimeoutError:
            process.kill()
            await process.wait()
            return Ran(None, "", "", None, time.perf_counter() - began)
        svg = target.read_text("utf-8") if target is not None and target.is_file() else None
        return Ran(process.returncode, out.decode("utf-8", "replace"),
                   err.decode("utf-8", "replace"), svg, time.perf_counter() - began)
