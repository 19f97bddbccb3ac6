"""Bandido and Bandida: the cooperative tunnel games, on one engine.

Cards are small ints (*codes*): the canonical 6-bit port mask (ports ``L, TL, TR, R, BR, BL``)
plus a kind index for Bandida's special cards. Names such as ``"L+TL+BR"`` (or its half turn
``"R+BR+TL"``, or ``"super6"``) are accepted wherever a card is expected.

>>> from banditsolve.tunnels import Table, legal_placements
>>> table = Table.start("super6")
>>> table.exit_count
6
>>> len(legal_placements(table, "L"))
6
"""

from __future__ import annotations

import importlib
import inspect
from typing import TYPE_CHECKING, Any

from banditsolve.core.args import checked

# render is imported for its registration of the pictures (str(table), str(state), _repr_svg_).
from banditsolve.tunnels import render as render

if TYPE_CHECKING:
    from banditsolve.tunnels.bandida.ends import mode_end
    from banditsolve.tunnels.cards import (
        KINDS,
        PORTS,
        Deck,
        as_code,
        canonical,
        card_name,
        half_turn,
        is_dead_end,
        load_deck,
        parse_card,
    )
    from banditsolve.tunnels.game import BANDIDA, BANDIDO, GameSpec, TunnelGame
    from banditsolve.tunnels.geometry import Placement, normalise
    from banditsolve.tunnels.notation import (
        Position,
        from_json,
        from_notation,
        parse_action,
        parse_position,
        position_of,
        read_position,
        to_json,
        to_notation,
    )
    from banditsolve.tunnels.players import greedy_policy
    from banditsolve.tunnels.puzzles import Puzzle, game_state, load_puzzles
    from banditsolve.tunnels.render import ascii_art, svg
    from banditsolve.tunnels.rules import (
        apply,
        chance_outcomes,
        legal_actions,
        new_game,
        sample_chance,
        state_from,
    )
    from banditsolve.tunnels.simulate import play_game, playout
    from banditsolve.tunnels.solvers.closure import (
        Closure,
        can_close,
        min_cards_to_close,
        plain_search,
    )
    from banditsolve.tunnels.solvers.endgame import GameSolution, WinShare, solve_game, win_share
    from banditsolve.tunnels.state import (
        CHANGE,
        PASS,
        Action,
        Change,
        Discard,
        Draw,
        GameState,
        Options,
        Pass,
        Remove,
    )
    from banditsolve.tunnels.table import (
        DeadExit,
        Exit,
        Table,
        creates_hole,
        dead_exits,
        legal_placements,
        placements_with_delta,
    )

# Submodules load on first use, so that importing the package (and the CLI) stays light.
_WHERE: dict[str, str] = {
    "Closure": "banditsolve.tunnels.solvers.closure",
    "can_close": "banditsolve.tunnels.solvers.closure",
    "min_cards_to_close": "banditsolve.tunnels.solvers.closure",
    "plain_search": "banditsolve.tunnels.solvers.closure",
    "GameSolution": "banditsolve.tunnels.solvers.endgame",
    "solve_game": "banditsolve.tunnels.solvers.endgame",
    "win_share": "banditsolve.tunnels.solvers.endgame",
    "WinShare": "banditsolve.tunnels.solvers.endgame",
    "Puzzle": "banditsolve.tunnels.puzzles",
    "load_puzzles": "banditsolve.tunnels.puzzles",
    "game_state": "banditsolve.tunnels.puzzles",
    "state_from": "banditsolve.tunnels.rules",
    "BANDIDO": "banditsolve.tunnels.game",
    "BANDIDA": "banditsolve.tunnels.game",
    "Discard": "banditsolve.tunnels.state",
    "Remove": "banditsolve.tunnels.state",
    "mode_end": "banditsolve.tunnels.bandida.ends",
    "TunnelGame": "banditsolve.tunnels.game",
    "GameSpec": "banditsolve.tunnels.game",
    "parse_action": "banditsolve.tunnels.notation",
    "Action": "banditsolve.tunnels.state",
    "CHANGE": "banditsolve.tunnels.state",
    "Change": "banditsolve.tunnels.state",
    "DeadExit": "banditsolve.tunnels.table",
    "Deck": "banditsolve.tunnels.cards",
    "Draw": "banditsolve.tunnels.state",
    "Exit": "banditsolve.tunnels.table",
    "GameState": "banditsolve.tunnels.state",
    "KINDS": "banditsolve.tunnels.cards",
    "Options": "banditsolve.tunnels.state",
    "PASS": "banditsolve.tunnels.state",
    "PORTS": "banditsolve.tunnels.cards",
    "Pass": "banditsolve.tunnels.state",
    "Placement": "banditsolve.tunnels.geometry",
    "Position": "banditsolve.tunnels.notation",
    "Table": "banditsolve.tunnels.table",
    "apply": "banditsolve.tunnels.rules",
    "as_code": "banditsolve.tunnels.cards",
    "ascii_art": "banditsolve.tunnels.render",
    "svg": "banditsolve.tunnels.render",
    "normalise": "banditsolve.tunnels.geometry",
    "canonical": "banditsolve.tunnels.cards",
    "card_name": "banditsolve.tunnels.cards",
    "chance_outcomes": "banditsolve.tunnels.rules",
    "creates_hole": "banditsolve.tunnels.table",
    "dead_exits": "banditsolve.tunnels.table",
    "from_json": "banditsolve.tunnels.notation",
    "from_notation": "banditsolve.tunnels.notation",
    "greedy_policy": "banditsolve.tunnels.players",
    "half_turn": "banditsolve.tunnels.cards",
    "is_dead_end": "banditsolve.tunnels.cards",
    "legal_actions": "banditsolve.tunnels.rules",
    "legal_placements": "banditsolve.tunnels.table",
    "load_deck": "banditsolve.tunnels.cards",
    "new_game": "banditsolve.tunnels.rules",
    "parse_card": "banditsolve.tunnels.cards",
    "parse_position": "banditsolve.tunnels.notation",
    "placements_with_delta": "banditsolve.tunnels.table",
    "play_game": "banditsolve.tunnels.simulate",
    "playout": "banditsolve.tunnels.simulate",
    "position_of": "banditsolve.tunnels.notation",
    "read_position": "banditsolve.tunnels.notation",
    "sample_chance": "banditsolve.tunnels.rules",
    "to_json": "banditsolve.tunnels.notation",
    "to_notation": "banditsolve.tunnels.notation",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'banditsolve.tunnels' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    if callable(value) and not inspect.isclass(value):
        # The public boundary: arguments of the wrong type are refused by their type hints
        # (an ArgumentTypeError naming the argument), before the function runs.
        value = checked(value)
    globals()[name] = value
    return value


__all__ = [
    "BANDIDA",
    "BANDIDO",
    "CHANGE",
    "KINDS",
    "PASS",
    "PORTS",
    "Action",
    "Change",
    "Closure",
    "DeadExit",
    "Deck",
    "Discard",
    "Draw",
    "Exit",
    "GameSolution",
    "GameSpec",
    "GameState",
    "Options",
    "Pass",
    "Placement",
    "Position",
    "Puzzle",
    "Remove",
    "Table",
    "TunnelGame",
    "WinShare",
    "apply",
    "as_code",
    "ascii_art",
    "can_close",
    "canonical",
    "card_name",
    "chance_outcomes",
    "creates_hole",
    "dead_exits",
    "from_json",
    "from_notation",
    "game_state",
    "greedy_policy",
    "half_turn",
    "is_dead_end",
    "legal_actions",
    "legal_placements",
    "load_deck",
    "load_puzzles",
    "min_cards_to_close",
    "mode_end",
    "new_game",
    "normalise",
    "parse_action",
    "parse_card",
    "parse_position",
    "placements_with_delta",
    "plain_search",
    "play_game",
    "playout",
    "position_of",
    "read_position",
    "sample_chance",
    "solve_game",
    "state_from",
    "svg",
    "to_json",
    "to_notation",
    "win_share",
]
