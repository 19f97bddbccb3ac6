"""The one way tests run the command line: through ``banditsolve.cli.main``, in process.

``run("banditos", "claim", POSITION, "1")`` returns the exit status and what was printed; usage
errors (argparse's ``SystemExit``) come back as their status too, so every test sees the same
thing a shell would.
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass


@dataclass(frozen=True)
class CliResult:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.out.splitlines()


def run(*argv: str) -> CliResult:
    """Run ``banditsolve ARGV...`` and capture its exit status, stdout and stderr."""
    from banditsolve.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return CliResult(code, out.getvalue(), err.getvalue())
