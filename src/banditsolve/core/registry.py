"""The registry of games: names and aliases mapped to where each game's objects are, imported on
first use.

The core imports no game: an entry names the game object as ``"module:attribute"`` text, and
its command-line hooks and its study hooks as a module (whose functions are the hooks: a module
is an object like any other) or ``"module:attribute"``. :func:`load_game` returns the game on
the contract
(:class:`~banditsolve.core.protocol.Game`), :func:`load_cli` and :func:`load_study` its hooks
(:class:`~banditsolve.core.hooks.CliHooks`, :class:`~banditsolve.core.hooks.StudyHooks`), each
checked against its Protocol when it is loaded. A plug-in game is a package of its own that
calls :func:`register` with its entry.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, cast, overload

from banditsolve.core.hooks import CliHooks, StudyHooks
from banditsolve.core.protocol import Game
from banditsolve.errors import ArgumentTypeError, InternalError, RuleOptionError

if TYPE_CHECKING:
    from banditsolve.banditos.actions import Action as BanditosAction
    from banditsolve.banditos.state import State as BanditosState
    from banditsolve.rolling.actions import Action as RollingAction
    from banditsolve.rolling.state import State as RollingState
    from banditsolve.tunnels.state import Action as TunnelAction
    from banditsolve.tunnels.state import GameState as TunnelState


@dataclass(frozen=True, slots=True)
class GameEntry:
    """A registered game: its name, title, aliases, a one-line summary, and where its game
    object (``game``), command-line hooks (``cli``) and study hooks (``study``) are, each as
    ``"module:attribute"`` or a module (``cli`` and ``study`` may be None: the shared verbs and the
    ``simulate`` study question then serve it alone)."""

    name: str
    title: str
    aliases: tuple[str, ...]
    summary: str
    game: str
    cli: str | None = None
    study: str | None = None


_ENTRIES: tuple[GameEntry, ...] = (
    GameEntry(
        "banditos",
        "Los Banditos",
        ("los-banditos", "losbanditos", "lb"),
        "two-player dice duel over booty tiles (seeds 000, 001)",
        "banditsolve.banditos.game:GAME",
        "banditsolve.banditos.cli",
        "banditsolve.banditos.study",
    ),
    GameEntry(
        "bandido",
        "Bandido",
        ("bd",),
        "cooperative tunnel cards: close every exit (seed 004)",
        "banditsolve.tunnels.game:BANDIDO",
        "banditsolve.tunnels.cli",
        "banditsolve.tunnels.study",
    ),
    GameEntry(
        "bandida",
        "Bandida",
        ("bda",),
        "cooperative tunnel cards with objects, alarms, a ladder and three modes (seed 003)",
        "banditsolve.tunnels.game:BANDIDA",
        "banditsolve.tunnels.cli",
        "banditsolve.tunnels.study",
    ),
    GameEntry(
        "rolling",
        "Rolling Bandits",
        ("rolling-bandits", "rb"),
        "2-4 players roll bandit dice to rob a train of wagons (seed 002)",
        "banditsolve.rolling.game:GAME",
        "banditsolve.rolling.cli",
        "banditsolve.rolling.study",
    ),
)

_GAMES: dict[str, Game[object, object]] = {}
_CLIS: dict[str, CliHooks] = {}
_STUDIES: dict[str, StudyHooks[object, object]] = {}


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


def unregister(name: str) -> None:
    """Remove a game added by :func:`register` (and forget what was loaded of it)."""
    global _ENTRIES
    e = entry(name)
    _ENTRIES = tuple(x for x in _ENTRIES if x is not e)
    for loaded in (_GAMES, _CLIS, _STUDIES):
        loaded.pop(e.name, None)


def entry(name: str) -> GameEntry:
    """The entry for ``name`` or one of its aliases (case-insensitive)."""
    if not isinstance(name, str):
        raise ArgumentTypeError(f"a game name is text, not {type(name).__name__}")
    key = name.strip().lower()
    for e in _ENTRIES:
        if key == e.name or key in e.aliases:
            return e
    known = ", ".join(e.name for e in _ENTRIES)
    shown = name if len(name) <= 30 else name[:27] + "..."
    raise RuleOptionError(f"unknown game {shown!r}: the games are {known}")


def _load(where: str, what: str) -> object:
    """The object at ``"module:attribute"`` (or the module ``"module"``)."""
    module_name, _, attribute = where.partition(":")
    try:
        module = importlib.import_module(module_name)
        found: object = getattr(module, attribute) if attribute else module
    except (ImportError, AttributeError) as exc:
        raise InternalError(f"{what} {where!r} is registered but cannot load: {exc}") from exc
    return found


def _wrong(what: str, where: str, protocol: str) -> InternalError:
    return InternalError(f"{what} {where!r} does not have the methods of {protocol}")


@overload
def load_game(
    name: Literal["banditos", "los-banditos", "losbanditos", "lb"],
) -> Game[BanditosState, BanditosAction]: ...
@overload
def load_game(
    name: Literal["bandido", "bd", "bandida", "bda"],
) -> Game[TunnelState, TunnelAction]: ...
@overload
def load_game(
    name: Literal["rolling", "rolling-bandits", "rb"],
) -> Game[RollingState, RollingAction]: ...
@overload
def load_game(name: str) -> Game[object, object]: ...
def load_game(name: str) -> object:
    """The game registered as ``name`` or one of its aliases (imported on first use), on the
    contract. A registered name of the library gives the game's own state and action types;
    any other name (a plug-in's) the contract over opaque states."""
    e = entry(name)
    if e.name not in _GAMES:
        found = _load(e.game, "the game")
        if not isinstance(found, Game):
            raise _wrong("the game", e.game, "the game contract (Game)")
        _GAMES[e.name] = cast("Game[object, object]", found)
    return _GAMES[e.name]


def load_cli(name: str) -> CliHooks | None:
    """The command-line hooks of the game ``name`` (None when it has none)."""
    e = entry(name)
    if e.cli is None:
        return None
    if e.name not in _CLIS:
        found = _load(e.cli, "the command line")
        if not isinstance(found, CliHooks):
            raise _wrong("the command line", e.cli, "CliHooks")
        _CLIS[e.name] = found
    return _CLIS[e.name]


def load_study(name: str) -> StudyHooks[object, object] | None:
    """The study hooks of the game ``name`` (None when it has none)."""
    e = entry(name)
    if e.study is None:
        return None
    if e.name not in _STUDIES:
        found = _load(e.study, "the study hooks")
        if not isinstance(found, StudyHooks):
            raise _wrong("the study hooks", e.study, "StudyHooks")
        _STUDIES[e.name] = cast("StudyHooks[object, object]", found)
    return _STUDIES[e.name]


def games() -> tuple[str, ...]:
    """The names of the registered games."""
    return tuple(e.name for e in _ENTRIES)
