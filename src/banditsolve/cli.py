"""The ``banditsolve`` command line: ``banditsolve <game> <command> ...``.

Each game contributes its own sub-commands through a ``register`` function in its ``cli``
module. Only light modules are imported here; solver libraries load when a command needs them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from banditsolve import __version__
from banditsolve.errors import BanditsolveError

Handler = Callable[[argparse.Namespace], int]


def emit(args: argparse.Namespace, text: str, payload: Any) -> None:
    """Print ``payload`` as JSON when ``--json`` was given, else ``text``."""
    if getattr(args, "json", False):
        print(json.dumps(payload, indent=2, sort_keys=False))
    else:
        print(text)


def build_parser() -> argparse.ArgumentParser:
    from banditsolve.banditos import cli as banditos_cli
    from banditsolve.tunnels import cli as tunnels_cli

    parser = argparse.ArgumentParser(
        prog="banditsolve",
        description="Rules engines and solvers for Los Banditos, Bandido and Bandida.",
    )
    parser.add_argument("--version", action="version", version=f"banditsolve {__version__}")
    games = parser.add_subparsers(dest="game", metavar="GAME")
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
    except OSError as exc:
        print(f"banditsolve: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
