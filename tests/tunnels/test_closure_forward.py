"""The exact search's forward check (:meth:`ExactSearch.screen`): every placement it drops
before laying it (by the exit count, the quick covering bound or the colour balance of the
table after it) has no closure beneath it within the bound it claims, checked by a brute force
over the oracle's rules alone on small random positions."""

from __future__ import annotations

import random
from collections import Counter

from banditsolve.core.limits import Limits
from banditsolve.tunnels import card_name, load_deck
from banditsolve.tunnels.cards import PORT_MASK
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.solvers.bounds import (
    colour_balance,
    min_cards_for_balance,
    min_cards_for_exits,
    port_classes,
    skew,
)
from banditsolve.tunnels.solvers.exact import NEVER, ExactSearch
from banditsolve.tunnels.solvers.options import options_at
from tests.profiles import scaled
from tests.rules import rules
from tests.tunnels.helpers import plain_copy, random_table
from tests.tunnels.test_closure_regression import oracle_closes


@rules("BD-PLACE-1", "BD-PLACE-2", "BD-PLACE-3", "BD-CLOSE-1")
def test_placements_the_forward_check_drops_close_nothing_within_the_bound() -> None:
    """For random small tables and cards, each placement :meth:`ExactSearch.screen` drops at a
    front cell leaves a table that no choice of the cards left closes within the bound the
    screen proves less one (at most the budget less one, and at most two cards: the brute
    force is slow), by the oracle's brute force; and
    some placements are dropped by the colour balance alone (so the check is exercised)."""
    types = load_deck().types
    dropped = by_balance = 0
    for seed in range(scaled(60, 160)):
        rng = random.Random(5000 + seed)
        table = random_table(5000 + seed, rng.randrange(0, 5), rng.choice(("super6", "super5")))
        if not table.exit_count or table.exit_count > 6:
            continue
        cards = [rng.choice(types) for _ in range(rng.randrange(2, 4))]
        budget = len(cards)
        search = ExactSearch(table, cards, None, Limits())
        for t in sorted(table.front_rim):
            options = options_at(table, t, sorted(set(cards)))
            bound, kept = search.screen(list(options), budget, NEVER)
            for _delta, code, x, y, rotation in options:
                p = Placement(code, x, y, rotation)
                if p in kept:
                    continue
                dropped += 1
                child = table.place(p)
                rest = list(cards)
                rest.remove(code)
                # The screen's claim: any closure through p needs at least ``bound`` cards, so
                # the child needs at least bound - 1, and none within the budget less one.
                room = min(bound - 2, budget - 1, len(rest), 2)
                names = [card_name(c) for c in rest]
                assert not oracle_closes(plain_copy(child), names, room), (seed, p)
                # Dropped by the balance alone: the exit count allows a closure in the room.
                need = min_cards_for_exits(port_classes(rest), child.exit_count)
                skews = Counter(skew(c & PORT_MASK) for c in rest)
                balance = min_cards_for_balance(
                    (skews[1], skews[2], skews[3]), abs(colour_balance(child))
                )
                if (
                    need is not None
                    and need <= budget - 1
                    and child.exit_count
                    and (balance is None or balance > budget - 1)
                ):
                    by_balance += 1
    assert dropped >= 20
    assert by_balance >= 3
