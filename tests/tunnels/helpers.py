"""Shared helpers for the tunnel tests: random tables built through the public API."""

from __future__ import annotations

import random

from banditsolve.tunnels import Placement, Table, card_name, legal_placements, load_deck
from tests.tunnels.oracle import Footprint, PlainTable, footprint


def plain_copy(table: Table) -> PlainTable:
    """The oracle's table holding the same placements."""
    plain = PlainTable()
    for p in table.history:
        plain.add(to_footprint(p))
    return plain


def to_footprint(p: Placement) -> Footprint:
    return footprint(card_name(p.card), p.x, p.y, p.rotation)


def random_table(seed: int, cards: int, side: str = "super6") -> Table:
    """A table grown by ``cards`` random legal placements of random deck types."""
    rng = random.Random(seed)
    types = load_deck().types
    table = Table.start(side)
    for _ in range(cards * 4):
        if len(table) > cards:
            break
        options = legal_placements(table, rng.choice(types))
        if options:
            table = table.place(rng.choice(options))
    return table
