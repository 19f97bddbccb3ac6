"""Equal Bandida states have the same future: the table's equality holds the last card laid,
which decides what a map just laid may take off (BA-OPT-1)."""

from __future__ import annotations

import random
from dataclasses import replace

from banditsolve.tunnels.bandida.ends import is_map
from banditsolve.tunnels.bandida.rules import expect, new_game
from banditsolve.tunnels.bandida.state import BandidaOptions, BandidaState
from banditsolve.tunnels.cards import parse_card
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.rules import legal_actions
from banditsolve.tunnels.table import Table, legal_placements
from tests.rules import rules


def _laid(order: list[Placement]) -> Table | None:
    """The table of these placements laid in this order, or None when the order is illegal."""
    table = Table.empty()
    try:
        for p in order:
            table = table.place(p)
    except ValueError:
        return None
    return table


def _map_owed_with_an_earlier_map(seed: int) -> tuple[BandidaState, BandidaState] | None:
    """From a seeded random game: a state owing a map's removals with another map laid before
    it, and the same state with that earlier map laid last instead (both pass validation)."""
    rng = random.Random(seed)
    state = new_game(2, BandidaOptions(mode=rng.choice((1, 2, 3))), rng=rng)
    rules_ = state.variant
    assert rules_ is not None
    while not state.is_terminal:
        history = state.table.history
        earlier = [i for i, p in enumerate(history[:-1]) if is_map(p.card)]
        if state.pending == "map" and earlier:
            i = earlier[0]
            table = _laid([*history[:i], *history[i + 1 :], history[i]])
            if table is not None:
                other = replace(state, table=table)
                rules_.validate(other)
                return state, other
        action = (
            rules_.sample_chance(state, rng)
            if state.is_chance
            else rng.choice(legal_actions(state))
        )
        state = expect(rules_.apply(state, action))
    return None


@rules("BA-OPT-1")
def test_states_whose_last_maps_differ_are_not_equal() -> None:
    # Under map_removes=not_special the map just laid stays: with two maps on the table, which
    # was laid last changes the removals offered, so the two states must not compare equal.
    pairs = [p for seed in range(40) if (p := _map_owed_with_an_earlier_map(seed)) is not None]
    assert len(pairs) >= 3
    for state, other in pairs:
        assert set(legal_actions(state)) != set(legal_actions(other))
        assert state != other
        assert state.table != other.table
        assert len({state, other}) == 2


@rules("BA-OPT-1")
def test_tables_laid_in_other_orders_with_the_same_last_card_are_equal() -> None:
    # The order of the cards before the last one decides nothing: such tables (and states) are
    # equal and hash alike, and offer the same actions.
    seen = 0
    for seed in range(40):
        pair = _map_owed_with_an_earlier_map(seed)
        if pair is None:
            continue
        state = pair[0]
        history = list(state.table.history)
        for i in range(1, len(history) - 2):
            order = [*history[:i], history[i + 1], history[i], *history[i + 2 :]]
            table = _laid(order)
            if table is None:
                continue
            other = replace(state, table=table)
            assert other.table.history != state.table.history
            assert other == state
            assert hash(other) == hash(state)
            assert set(legal_actions(other)) == set(legal_actions(state))
            seen += 1
    assert seen >= 10


@rules("BA-OPT-1")
def test_tables_with_another_first_card_are_not_equal() -> None:
    # A map never takes the first card off: the same cards laid from another first card can
    # offer other removals, so the tables differ.
    first = Table.start()
    for _ in range(2):
        first = first.place(legal_placements(first, parse_card("L+R"))[0])
    super_card = first.history[0]
    second = _laid([first.history[1], super_card, first.history[2]])
    assert second is not None
    assert set(first.history) == set(second.history)
    assert first.history[-1] == second.history[-1]
    assert first != second
