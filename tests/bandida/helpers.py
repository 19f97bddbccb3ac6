"""Small Bandida states for the rule tests: any start card, chosen hands and a known pile."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from banditsolve.tunnels.bandida.rules import expect, rules_for
from banditsolve.tunnels.bandida.state import BandidaOptions, BandidaState
from banditsolve.tunnels.cards import hand_code, parse_card
from banditsolve.tunnels.game import BANDIDA
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.rules import legal_actions, settle
from banditsolve.tunnels.state import GameState, Remove
from banditsolve.tunnels.table import Table

GAME = BANDIDA


def codes(names: Sequence[str]) -> tuple[int, ...]:
    return tuple(parse_card(n) for n in names)


def make(
    hands: Sequence[Sequence[str]],
    pile: Sequence[str] = ("L+BL",) * 10,
    *,
    start: str = "L+R",
    table: Table | None = None,
    player: int = 0,
    options: dict[str, object] | None = None,
    **fields: Any,
) -> BandidaState:
    """A settled Bandida state: the table (a start card, by default ``L+R`` with two exits),
    the hands and a known pile (top first); Bandida's options over ``mode=1``."""
    chosen = GAME.options({"mode": 1, **(options or {})})
    assert isinstance(chosen, BandidaOptions)
    state = BandidaState(
        table or Table.start(start),
        tuple(tuple(sorted(codes(h))) for h in hands),
        (),
        codes(pile),
        player,
        (),
        chosen,
        variant=rules_for(GAME.deck),
        sizes=fields.pop("sizes", (3,) * len(hands)),
        **fields,
    )
    after = settle(state)
    assert isinstance(after, BandidaState)
    return after


def bandida(state: object) -> BandidaState:
    """``state`` as a Bandida state (for the type checker: the adapter's states are typed as
    the tunnel games' common state)."""
    return expect(state)


def placements(state: GameState, name: str) -> list[Placement]:
    code = parse_card(name)
    return [
        a
        for a in legal_actions(state)
        if isinstance(a, Placement) and hand_code(a.card) == code
    ]


def leaving(state: GameState, name: str, exits: int) -> Placement:
    """A legal placement of ``name`` after which the table has ``exits`` exits."""
    for p in placements(state, name):
        if state.table.place(p).exit_count == exits:
            return p
    raise AssertionError(f"no placement of {name} leaves {exits} exits")


def removals(state: GameState) -> list[Remove]:
    return [a for a in legal_actions(state) if isinstance(a, Remove)]


#: The tunnel of :func:`chained_map_game`: 21 cards laid, two exits left.
CHAINED_TABLE = (
    ("L+TL+TR+R+BR+BL", 0, 0, 0), ("L+BL", 0, 1, 90), ("L+TL+R+BR:dynamite", 1, -2, 90),
    ("L+TL+R:alarm_discard_one", 1, -3, 180), ("L+TL+R:water_bottle", -1, 1, 90),
    ("L+TL", 1, 1, 90), ("L+TR+BR", -1, -3, 180), ("L+TL+R+BR:dynamite", -2, -5, 90),
    ("L+TL+BR+BL", 2, 0, 90), ("L+TL+R+BL", 3, -2, 180), ("TL+BL", -1, -5, 90),
    ("TR+BL:water_bottle", 2, -1, 0), ("L+TL", -1, 0, 180), ("L+TL", 0, -1, 180),
    ("L+BR", 2, -3, 0), ("TL", -2, -2, 0), ("TL", -1, 3, 0), ("TR", 0, -4, 270),
    ("TR", -3, -5, 90), ("TL", -2, -6, 180), ("L", 4, -2, 0),
)


def chained_map_game(chain: str, **options: str) -> GameState:
    """A one-player mode 1 game (a review's) whose last three cards, the broken tool, a map
    and ``TL+TR``, close the tunnel only with the map laid under the tool as a plain tunnel
    card: won under ``chain=no`` (BA-OPT-8), lost under ``chain=yes`` (the map must remove).
    ``options``: more rule options."""
    table = Table.empty()
    for name, x, y, rotation in CHAINED_TABLE:
        table = table.place(Placement(parse_card(name), x, y, rotation), check=False)
    hand = tuple(sorted(codes(("L+R:broken_tool", "L+TL+TR:map", "TL+TR"))))
    chosen = {"mode": "1", "chain": chain, "pile_out": "play_on", **options}
    start = GAME.new_game(1, chosen, seed=0)
    return settle(replace(  # type: ignore[call-arg]
        start, table=table, hands=(hand,), pile=(), unseen=(), to_draw=(), phase=(),
        sizes=(3,), discard=(), top="", turn=0, player=0,
    ))
