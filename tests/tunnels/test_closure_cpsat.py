"""CP-SAT closure in stages of growing card budgets: whole-pile questions are modelled (small
stages first) instead of refused, each verdict agrees with the exact search, certificates
replay through the oracle's rules, and an exit no placement can ever cover is impossible at
once whatever the budget."""

from __future__ import annotations

import random
from collections import Counter

from banditsolve.tunnels import Table, can_close, min_cards_to_close
from banditsolve.tunnels.game import Options, simulate
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.solvers import cpsat
from banditsolve.tunnels.table import dead_exits
from tests.profiles import scaled
from tests.tunnels.helpers import plain_copy, to_footprint
from tests.tunnels.oracle import is_legal


def replay(table: Table, placements: tuple[Placement, ...]) -> None:
    plain = plain_copy(table)
    for p in placements:
        fp = to_footprint(p)
        assert is_legal(plain, fp), f"{p} is not legal when laid"
        plain.add(fp)
    assert not plain.exits()


def _pile_cases(games: int, more_than: int = 0) -> list[tuple[Table, tuple[int, ...]]]:
    """One open position from each of `games` seeded games, with more than `more_than` cards
    left (a game's last turns can leave fewer, so those are not drawn)."""
    out = []
    for seed in range(games):
        side = ("super6", "super5")[seed % 2]
        states = simulate(2, 900 + seed, Options(super_side=side))[:-1]
        pool = [s for s in states if s.table.exit_count and len(s.remaining()) > more_than]
        s = random.Random(seed).choice(pool)
        out.append((s.table, tuple(s.remaining())))
    return out


def test_whole_pile_is_modelled_and_agrees_with_the_exact_search() -> None:
    decided = 0
    for table, cards in _pile_cases(scaled(4, 20), more_than=10):
        assert len(cards) > 10
        mine = can_close(table, cards, backend="cpsat", time_limit=5)
        if mine.status == "unknown":
            # Only a limit, never a refusal of the whole pile for its size.
            assert "time limit" in mine.reason
            continue
        decided += 1
        exact = can_close(table, cards, backend="exact", time_limit=20, workers=1)
        assert exact.status in (mine.status, "unknown")
        if mine.status == "closable":
            replay(table, mine.placements)
    assert decided


def test_an_exit_no_model_covers_is_impossible_at_once() -> None:
    # A table with an exit no card left fits (the table's own dead-exit rule): the first
    # stage's model has no placement covering its cell, so no budget's model has one.
    found = 0
    for table, cards in _pile_cases(scaled(12, 30)):
        if not dead_exits(table, cards):
            continue
        r = can_close(table, cards, backend="cpsat", time_limit=20)
        assert r.status == "impossible"
        # Either the dead cell itself, or the whole budget's (small) model is infeasible.
        assert r.reason.startswith(cpsat.DEAD) or "infeasible" in r.reason
        found += r.reason.startswith(cpsat.DEAD)
    assert found


def test_staged_minimum_matches_the_exact_minimum() -> None:
    # Ten cards: stages of 6 and then 10 cards; the minimum of a stage is the minimum of all.
    checked = 0
    for seed in range(scaled(9, 40)):
        states = simulate(2, 950 + seed)[:-1]
        s = random.Random(seed).choice([s for s in states if s.table.exit_count])
        cards = (list(s.hands[s.player]) + list(s.pile))[:10]
        # Lean towards closable cases: a small closure's cards first, if one exists.
        small = min_cards_to_close(s.table, s.remaining(), max_cards=5, time_limit=2, workers=1)
        if small.status == "closable":
            first = [p.card for p in small.placements]
            left = Counter(s.remaining()) - Counter(first)
            for c in list(s.hands[s.player]) + list(s.pile):
                if left[c] > 0:
                    left[c] -= 1
                    first.append(c)
            cards = first[:10]
        exact = min_cards_to_close(s.table, cards, backend="exact", time_limit=3, workers=1)
        if exact.status == "unknown":
            continue
        mine = min_cards_to_close(s.table, cards, backend="cpsat", time_limit=10)
        if mine.status == "unknown":
            continue
        assert mine.status == exact.status
        checked += 1
        if mine.status == "closable":
            replay(s.table, mine.placements)
            if exact.minimum:
                assert mine.cards >= exact.cards
                if mine.minimum:
                    assert mine.cards == exact.cards
    assert checked
