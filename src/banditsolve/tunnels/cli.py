"""Command line for the tunnel games (``banditsolve bandido ...``)."""

from __future__ import annotations

import argparse
from typing import Any


def register(games: Any) -> None:
    parser: argparse.ArgumentParser = games.add_parser("bandido", help="Bandido: the tunnel game")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
