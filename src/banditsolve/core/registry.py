"""The registry of games: names and aliases mapped to module paths, imported on first use.

The core imports no game: each entry names the module and attribute holding the game object.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from banditsolve.errors import RuleOptionError


@dataclass(frozen=True, slots=True)
class GameEntry:
    """A registered game: its name, title, aliases and where its object and command line are."""

    name: str
    title: str
    aliases: tuple[str, ...]
    module: str
    attribute: str
    cli_module: str
    summary: str


_ENTRIES: tuple[GameEntry, ...] = (
    GameEntry(
        "banditos",
        "Los Banditos",
        ("los-banditos", "losbanditos", "lb"),
        "banditsolve.banditos.game",
        "GAME",
        "banditsolve.banditos.cli",
        "two-player dice duel over booty tiles (seeds 000, 001)",
    ),
    GameEntry(
        "bandido",
        "Bandido",
        ("bd",),
        "banditsolve.tunnels.variants",
        "BANDIDO",
        "banditsolve.tunnels.cli",
        "cooperative tunnel cards: close every exit (seed 004)",
    ),
    GameEntry(
        "bandida",
        "Bandida",
        ("bda",),
        "banditsolve.tunnels.variants",
        "BANDIDA",
        "banditsolve.tunnels.cli",
        "cooperative tunnel cards with objects, alarms, a ladder and three modes (seed 003)",
    ),
    GameEntry(
        "rolling",
        "Rolling Bandits",
        ("rolling-bandits", "rb"),
        "banditsolve.rolling.game",
        "GAME",
        "banditsolve.rolling.cli",
        "2-4 players roll bandit dice to rob a train of wagons (seed 002)",
    ),
)

_LOADED: dict[str, Any] = {}


def entries() -> tuple[GameEntry, ...]:
    """Every registered game, in registry order (nothing is imported)."""
    return _ENTRIES


def register(entry: GameEntry) -> None:
    """Add a game (a plug-in package registers itself this way)."""
    global _ENTRIES
    names = {n for e in _ENTRIES for n in (e.name, *e.aliases)}
    clash = names & {entry.name, *entry.aliases}
    if clash:
        raise RuleOptionError(f"game name {sorted(clash)[0]!r} is already registered")
    _ENTRIES = (*_ENTRIES, entry)


def entry(name: str) -> GameEntry:
    """The entry for ``name`` or one of its aliases (case-insensitive)."""
    if not isinstance(name, str):
        raise RuleOptionError(f"a game name is text, not {type(name).__name__}")
    key = name.strip().lower()
    for e in _ENTRIES:
        if key == e.name or key in e.aliases:
            return e
    known = ", ".join(e.name for e in _ENTRIES)
    shown = name if len(name) <= 30 else name[:27] + "..."
    raise RuleOptionError(f"unknown game {shown!r}: the games are {known}")


def load_game(name: str) -> Any:
    """The game object for ``name`` (imported on first use)."""
    e = entry(name)
    if e.name not in _LOADED:
        module = importlib.import_module(e.module)
        _LOADED[e.name] = getattr(module, e.attribute)
    return _LOADED[e.name]


def games() -> tuple[str, ...]:
    """The names of the registered games."""
    return tuple(e.name for e in _ENTRIES)
