"""The ``banditsolve`` command line: ``banditsolve <game> <command> ...``.

Each game contributes its own sub-commands through a ``register`` function in its ``cli``
module. Only light modules are imported here; solver libraries load when a command needs them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from banditsolve import __version__
from banditsolve.errors import BanditsolveError

Handler = Callable[[argparse.Namespace], int]


def emit(args: argparse.Namespace, text: str, payload: Any) -> None:
    """Print ``payload`` as JSON when ``--json`` was given, else ``text``."""
    if getattr(args, "json", False):
        print(json.dumps(payload, indent=2, sort_keys=False))
    else:
        print(text)


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line on stderr (exit 2), like every other error of the tool."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    from banditsolve.banditos import cli as banditos_cli
    from banditsolve.tunnels import cli as tunnels_cli

    parser = _Parser(
        prog="banditsolve",
        description="Rules engines and solvers for Los Banditos, Bandido and Bandida.",
    )
    parser.add_argument("--version", action="version", version=f"banditsolve {__version__}")
    games = parser.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
    games.required = True
    banditos_cli.register(games)
    tunnels_cli.register(games)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except BanditsolveError as exc:
        print(f"banditsolve: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as other command-line tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as exc:
        print(f"banditsolve: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
