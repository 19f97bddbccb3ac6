"""One loader for the puzzle files every game ships (``<game>/data/puzzles.json``).

A puzzle file is a JSON list of objects, each with a unique string ``"id"``; what else an entry
holds is the game's business: it passes a function that turns one entry into its puzzle type.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import Any, TypeVar

from banditsolve.core.io import expect_object, load_json
from banditsolve.errors import BanditsolveError, DataError

P = TypeVar("P")


def parse_puzzle_list(doc: Any, make: Callable[[dict[str, Any], str], P], source: str) -> list[P]:
    """Every entry of ``doc`` through ``make(entry, where)``; ids must be unique strings."""
    if not isinstance(doc, list):
        raise DataError(f"{source}: a puzzle file is a JSON list of puzzles")
    out: list[P] = []
    seen: set[str] = set()
    for index, raw in enumerate(doc):
        where = f"{source}: puzzle {index + 1}"
        try:
            entry = expect_object(raw, where)
        except BanditsolveError as exc:
            raise DataError(str(exc)) from None
        pid = entry.get("id")
        if not isinstance(pid, str) or not pid:
            raise DataError(f"{where} has no string id")
        if pid in seen:
            raise DataError(f"{where}: id {pid!r} appears twice")
        seen.add(pid)
        named = f"{source}: puzzle {pid}"
        try:
            out.append(make(entry, named))
        except DataError:
            raise
        except BanditsolveError as exc:  # one line, naming the puzzle once
            text = str(exc)
            raise DataError(text if text.startswith(named) else f"{named}: {text}") from None
    return out


def load_packaged_puzzles(
    package: str, make: Callable[[dict[str, Any], str], P], name: str = "puzzles.json"
) -> list[P]:
    """The puzzles shipped in ``package``'s ``data/`` folder."""
    source = f"{package}/data/{name}"
    text = resources.files(package).joinpath("data", name).read_text(encoding="utf-8")
    return parse_puzzle_list(load_json(text, source), make, source)
