"""The map's removal choices against a brute-force search over every set of cards."""

from __future__ import annotations

import random
from itertools import combinations

from banditsolve.tunnels.bandida.maps import removals
from banditsolve.tunnels.bandida.rules import new_game as bandida_new_game
from banditsolve.tunnels.bandida.state import BandidaOptions
from banditsolve.tunnels.cards import card_kind, load_deck
from banditsolve.tunnels.players import greedy_policy
from banditsolve.tunnels.rules import apply, sample_chance
from banditsolve.tunnels.state import Remove
from banditsolve.tunnels.table import Table
from tests.rules import rules

KEEP = {"ladder", "bandido_super"}
READINGS = (
    ("not_special", "edges", "allowed", "as_many"),
    ("not_super", "tunnels", "forbidden", "none"),
    ("not_super", "edges", "forbidden", "as_many"),
)


def touching(table: Table, tunnels: bool) -> list[set[int]]:
    """Independent adjacency: cells of different cards side by side (with openings meeting
    when ``tunnels``)."""
    out: list[set[int]] = [set() for _ in table.history]
    cells = {c: i for i, p in enumerate(table.history) for c in p.cells}
    for (x, y), i in cells.items():
        for side, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            j = cells.get((x + dx, y + dy))
            if j is None or j == i:
                continue
            if tunnels and not table.open_sides((x, y)) >> side & 1:
                continue
            out[i].add(j)
    return out


def _removable(table: Table, removes: str) -> list[int]:
    """The indices of the laid cards the option ``removes`` lets a map remove (never the first
    card or a super card)."""
    history = table.history
    last = len(history) - 1
    return [
        i
        for i in range(1, len(history))
        if card_kind(history[i].card) != "bandido_super"
        and (removes == "not_super" or (card_kind(history[i].card) not in KEEP and i != last))
    ]


def _reached(links: list[set[int]], gone: set[int]) -> set[int]:
    """The cards reached from the first card through ``links`` without the ``gone`` ones."""
    seen, todo = {0}, [0]
    while todo:
        for j in links[todo.pop()] - gone - seen:
            seen.add(j)
            todo.append(j)
    return seen


def brute(table: Table, removes: str, split: str, reopen: str, short: str) -> tuple[Remove, ...]:
    history = table.history
    pool = _removable(table, removes)
    links = touching(table, split == "tunnels")
    tunnel_links = touching(table, True)
    for k in (3, 2, 1):
        found = []
        for combo in combinations(pool, k):
            gone = set(combo)
            if len(_reached(links, gone)) != len(history) - k:
                continue
            if reopen == "forbidden" and any(tunnel_links[i] - gone for i in combo):
                continue
            found.append(Remove(tuple(history[i] for i in combo)))
        if found or short == "none":
            return tuple(found)
    return ()


@rules("BA-OBJ-6", "BA-OPT-2", "BA-OPT-3", "BA-OPT-4")
def test_removal_choices_match_a_brute_force() -> None:
    deck = load_deck("bandida")
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = bandida_new_game(2, BandidaOptions(mode=1 + seed % 3), deck=deck, rng=rng)
        while state.outcome is None:
            if 3 < len(state.table) < 22 and rng.random() < 0.25:
                for reading in READINGS:
                    assert removals(state.table, *reading) == brute(state.table, *reading)
                    checked += 1
            action = sample_chance(state, rng) if state.is_chance else greedy_policy(state, rng)
            state = apply(state, action)
    assert checked > 10
