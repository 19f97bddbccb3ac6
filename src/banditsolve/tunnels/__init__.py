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
from banditsolve.tunnels.game import (
    CHANGE,
    PASS,
    Action,
    Change,
    Draw,
    GameState,
    Options,
    Pass,
    apply,
    chance_outcomes,
    greedy_policy,
    legal_actions,
    new_game,
    play_game,
    playout,
    sample_chance,
)
from banditsolve.tunnels.geometry import Placement, normalise
from banditsolve.tunnels.notation import (
    Position,
    from_json,
    from_notation,
    parse_position,
    position_of,
    read_position,
    to_json,
    to_notation,
)
from banditsolve.tunnels.render import ascii_art, svg
from banditsolve.tunnels.table import (
    DeadExit,
    Exit,
    Table,
    creates_hole,
    dead_exits,
    legal_placements,
    placements_with_delta,
)

__all__ = [
    "CHANGE",
    "KINDS",
    "PASS",
    "PORTS",
    "Action",
    "Change",
    "DeadExit",
    "Deck",
    "Draw",
    "Exit",
    "GameState",
    "Options",
    "Pass",
    "Placement",
    "Position",
    "Table",
    "apply",
    "as_code",
    "ascii_art",
    "canonical",
    "card_name",
    "chance_outcomes",
    "creates_hole",
    "dead_exits",
    "from_json",
    "from_notation",
    "greedy_policy",
    "half_turn",
    "is_dead_end",
    "legal_actions",
    "legal_placements",
    "load_deck",
    "new_game",
    "normalise",
    "parse_card",
    "parse_position",
    "placements_with_delta",
    "play_game",
    "playout",
    "position_of",
    "read_position",
    "sample_chance",
    "svg",
    "to_json",
    "to_notation",
]
