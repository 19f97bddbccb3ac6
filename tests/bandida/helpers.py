"""Small Bandida states for the rule tests: any start card, chosen hands and a known pile."""

from __future__ import annotations

from collections.abc import Sequence
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
