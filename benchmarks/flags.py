"""The flags of the benchmark scripts that read ``sys.argv`` themselves: ``-h``/``--help`` prints
the script's docstring and exits 0, an unknown flag (or a missing value) is one line on standard
error and exit 2, so a mistyped flag never starts an hour-long run."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def read_flags(
    doc: str | None,
    switches: Sequence[str] = ("--quick",),
    valued: Sequence[str] = (),
    argv: Sequence[str] | None = None,
) -> tuple[set[str], dict[str, str]]:
    """The switches given and the values of the ``valued`` flags (``--name VALUE`` or
    ``--name=VALUE``) in ``argv`` (``sys.argv[1:]`` by default)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if "-h" in args or "--help" in args:
        print((doc or "").strip())
        known = ", ".join([*switches, *(f"{v} VALUE" for v in valued)]) or "none"
        print(f"\nflags: {known}")
        raise SystemExit(0)
    on: set[str] = set()
    values: dict[str, str] = {}
    while args:
        arg = args.pop(0)
        name, eq, value = arg.partition("=")
        if name in valued:
            if not eq:
                if not args:
                    _refuse(f"{name} needs a value")
                value = args.pop(0)
            values[name] = value
        elif arg in switches:
            on.add(arg)
        else:
            _refuse(f"unknown argument {arg!r} (known: {', '.join([*switches, *valued])})")
    return on, values


def _refuse(message: str) -> None:
    print(f"{sys.argv[0]}: error: {message}", file=sys.stderr)
    raise SystemExit(2)
