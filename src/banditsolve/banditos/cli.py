"""Command line for Los Banditos (``banditsolve banditos ...``)."""

from __future__ import annotations

import argparse
from typing import Any


def register(games: Any) -> None:
    parser: argparse.ArgumentParser = games.add_parser(
        "banditos", help="Los Banditos: dice duel"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
