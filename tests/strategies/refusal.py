"""What a clean refusal looks like, from Python and from the command line, and a time bound.

- :func:`assert_clean` calls a reader and fails the test unless the reader either accepts the
  input (allowed unless ``must_refuse``) or raises a
  :class:`~banditsolve.errors.BanditsolveError` whose message is one short line; anything else
  (``AttributeError``, ``TypeError``, ``KeyError``, ``IndexError``, ``RecursionError``, a bare
  ``ValueError``, ...) fails, and so does a call that runs longer than the bound.
- :func:`assert_cli_refuses` runs ``banditsolve ARGV...`` in process and fails the test unless it
  exits 2 with exactly one non-empty line on stderr starting ``banditsolve: error:`` and no
  traceback.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from banditsolve.errors import BanditsolveError
from tests.cli_runner import CliResult, run

#: The longest one reader call or one command may take (generous: the machine is shared).
BOUND_SECONDS = 20.0
#: The longest message a refusal may have, whatever the input's size.
MAX_MESSAGE = 300


class TookTooLong(Exception):
    """Raised inside a call that ran past :data:`BOUND_SECONDS` (a hang)."""


@contextmanager
def bounded(seconds: float = BOUND_SECONDS) -> Iterator[None]:
    """Interrupt the block after ``seconds`` (SIGALRM; main thread only)."""

    def alarm(signum: int, frame: object) -> None:
        raise TookTooLong(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def shown(value: object, limit: int = 80) -> str:
    """A short repr of a fuzz input for failure messages."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def message_problem(message: str) -> str | None:
    """Why ``message`` is not a clean one-line message, or None."""
    if not message.strip():
        return "the message is empty"
    if "\n" in message or "\r" in message:
        return f"the message is more than one line: {message[:120]!r}"
    if len(message) >= MAX_MESSAGE:
        return f"the message has {len(message)} characters: {message[:120]!r}..."
    return None


def assert_clean(
    label: str, call: Callable[[Any], object], value: object, *, must_refuse: bool = False
) -> BanditsolveError | None:
    """Call ``call(value)`` and fail the test unless it is accepted (when ``must_refuse`` is
    false) or cleanly refused (see the module notes). Returns the error raised, if any."""
    start = time.monotonic()
    try:
        with bounded():
            call(value)
    except BanditsolveError as exc:
        message = str(exc)
        name = os.fspath(value) if isinstance(value, str | os.PathLike) else ""
        if "/" in name and len(name) <= 200:
            message = message.replace(name, "FILE")  # a file name quoted whole
        problem = message_problem(message)
        # the call may also be accepted (unless must_refuse): pytest.raises does not fit
        assert problem is None, (  # noqa: PT017
            f"{label}({shown(value)}): {type(exc).__name__}: {problem}"
        )
        return exc
    except TookTooLong:
        raise AssertionError(f"{label}({shown(value)}) hangs") from None
    except Exception as exc:
        raise AssertionError(
            f"{label}({shown(value)}) raised {type(exc).__name__}: {shown(str(exc), 200)}"
        ) from exc
    elapsed = time.monotonic() - start
    assert elapsed < BOUND_SECONDS, f"{label}({shown(value)}) took {elapsed:.1f} s"
    assert not must_refuse, f"{label} accepted {shown(value)}"
    return None


def cli_problem(result: CliResult, argv: tuple[str, ...] = ()) -> str | None:
    """Why a command's result is not a clean refusal (exit 2, one error line), or None. A file
    name from ``argv`` quoted whole in the message does not count towards its length."""
    for stream in (result.out, result.err):
        if "Traceback" in stream:
            return f"a traceback: {stream[-300:]!r}"
    if result.code != 2:
        return f"exit status {result.code}, not 2 (stderr {result.err[:200]!r})"
    lines = [line for line in result.err.splitlines() if line.strip()]
    if len(lines) != 1 or len(result.err.splitlines()) != 1:
        return f"{len(result.err.splitlines())} lines on stderr: {result.err[:300]!r}"
    if not lines[0].startswith("banditsolve: error:"):
        return f"stderr does not start 'banditsolve: error:': {lines[0][:200]!r}"
    line = lines[0]
    for arg in argv:
        if "/" in arg and len(arg) <= 200:
            line = line.replace(arg, "FILE")
    problem = message_problem(line)
    if problem:
        return problem
    return None


def run_bounded(*argv: str) -> CliResult:
    """Run a command within the time bound."""
    try:
        with bounded():
            return run(*argv)
    except TookTooLong:
        raise AssertionError(f"banditsolve {shown(' '.join(argv), 200)} hangs") from None


def assert_cli_refuses(*argv: str) -> CliResult:
    """Run ``banditsolve ARGV...`` and require a clean refusal."""
    result = run_bounded(*argv)
    problem = cli_problem(result, argv)
    assert problem is None, f"banditsolve {shown(' '.join(argv), 200)}: {problem}"
    return result


def assert_cli_clean(*argv: str) -> CliResult:
    """Run a command whose input may or may not be valid: exit 0, 1 or 3 with no traceback,
    or a clean refusal."""
    result = run_bounded(*argv)
    if result.code == 2:
        problem = cli_problem(result, argv)
        assert problem is None, f"banditsolve {shown(' '.join(argv), 200)}: {problem}"
    else:
        assert result.code in (0, 1, 3), (
            f"banditsolve {shown(' '.join(argv), 200)}: exit status {result.code}"
        )
        assert "Traceback" not in result.err + result.out, (
            f"banditsolve {shown(' '.join(argv), 200)}: a traceback"
        )
    return result
