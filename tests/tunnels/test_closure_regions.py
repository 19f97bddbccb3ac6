"""The exact search's region split: fronts that no small group of cards can span are bounded
region by region, and closures of the regions are combined. Checked against the plain
baseline and an independent brute force over the oracle's rules, on generated positions
where the split happens; the regression set of formerly undecided positions stays honest."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from banditsolve.core.limits import Limits
from banditsolve.tunnels import Table, can_close, card_name, min_cards_to_close, plain_search
from banditsolve.tunnels.cards import PORT_MASK, as_code
from banditsolve.tunnels.geometry import Cell, Placement
from banditsolve.tunnels.simulate import simulate
from banditsolve.tunnels.solvers import exact
from banditsolve.tunnels.solvers.exact import ExactSearch, span_cost, split_front
from banditsolve.tunnels.state import Options
from tests.profiles import scaled
from tests.rules import rules
from tests.tunnels.helpers import plain_copy, to_footprint
from tests.tunnels.oracle import PlainTable, brute_force, is_legal

HARD = Path(__file__).parent / "data" / "hard_closure.json"


def replay(table: Table, placements: tuple[Placement, ...]) -> None:
    """Each placement legal on the oracle's table when laid, no exit at the end."""
    plain = plain_copy(table)
    for p in placements:
        fp = to_footprint(p)
        assert is_legal(plain, fp), f"{p} is not legal when laid"
        plain.add(fp)
    assert not plain.exits()


def oracle_closes(
    table: PlainTable,
    names: list[str],
    budget: int,
    area: tuple[int, int, int, int] | None = None,
) -> bool:
    """Brute force over the oracle's rules alone: some order of at most ``budget`` of the
    cards ``names``, each laid legally anywhere near the table (inside ``area``, inclusive
    ``(min_x, min_y, max_x, max_y)``, when given), leaves no exit."""
    if not table.exits():
        return True
    if budget == 0:
        return False
    for name in sorted(set(names)):
        rest = list(names)
        rest.remove(name)
        for fp in brute_force(table, name, margin=1):
            if area is not None and not all(
                area[0] <= cx <= area[2] and area[1] <= cy <= area[3] for (cx, cy), _o in fp
            ):
                continue
            child = PlainTable()
            child.cells = dict(table.cells)
            child.count = table.count
            child.add(fp)
            if oracle_closes(child, rest, budget - 1, area):
                return True
    return False


def test_split_front_groups_cells_no_small_group_spans() -> None:
    front = [(0, 0), (1, 0), (9, 0), (0, 12)]
    # Budget 2: two cells 3+ steps apart need at least (3 + 2) // 2 = 2 cards... linked up to 3.
    groups = split_front(front, 2)
    assert groups == [[(0, 12)], [(9, 0)], [(0, 0), (1, 0)]]
    assert span_cost(groups) == (8 + 2) // 2
    # With a budget of 5, (9, 0) is 8 steps from (1, 0): linked (8 <= 9).
    assert split_front(front, 5) == [[(0, 12)], [(0, 0), (1, 0), (9, 0)]]
    assert split_front(front, 7) is None


def _split_cases(games: int, lean: bool = True) -> list[tuple[Table, tuple[int, ...], int]]:
    """Positions of seeded games, a few of their remaining cards (with ``lean`` the fewest
    openings first, so that closures exist; else at random) and the smallest budget (2 to 4)
    at which the root's front already falls into regions."""
    out = []
    for seed in range(games):
        side = ("super6", "super5")[seed % 2]
        states = simulate(2, 300 + seed, Options(super_side=side))[:-1]
        rng = random.Random(seed)
        for s in rng.sample(states, min(6, len(states))):
            front = list(s.table.front_rim)
            pool = list(s.remaining())
            rng.shuffle(pool)
            if lean:
                pool.sort(key=lambda c: (c & PORT_MASK).bit_count())
            cards = tuple(sorted(pool[: rng.randint(3, 6)]))
            for budget in (2, 3, 4):
                if len(front) > 1 and split_front(front, budget) is not None:
                    out.append((s.table, cards, budget))
                    break
    return out


@rules("BD-CLOSE-1", "BD-PLACE-1", "BD-PLACE-2", "BD-PLACE-3")
def test_region_split_agrees_with_the_plain_search() -> None:
    splits = Counter[str]()
    original = ExactSearch.split

    def counted(
        self: ExactSearch, key: frozenset[Placement], budget: int, groups: list[list[Cell]]
    ) -> int:
        found = original(self, key, budget, groups)
        splits["closed" if found < 0 else "cut" if found > budget else "kept"] += 1
        return found

    cases = _split_cases(scaled(30, 120)) + _split_cases(scaled(30, 120), lean=False)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(exact, "SPLIT_REGIONS", True)
        mp.setattr(ExactSearch, "split", counted)
        for table, cards, budget in cases:
            mine = can_close(table, cards, max_cards=budget, backend="exact", workers=1)
            least = min_cards_to_close(table, cards, max_cards=budget, backend="exact", workers=1)
            base = plain_search(table, cards, max_cards=budget, time_limit=60)
            assert base.status != "unknown"
            assert mine.status == base.status == least.status, (str(table), cards, budget)
            if mine.status == "closable":
                replay(table, mine.placements)
                replay(table, least.placements)
                assert len(mine.placements) <= budget
                # The plain search finds some closure; the minimum is no larger.
                assert least.cards <= base.cards
    # The split both cut nodes and closed tables here (else this test tests nothing).
    assert splits["cut"]
    assert splits["closed"]


def test_region_split_agrees_with_an_independent_brute_force(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cases = [c for c in _split_cases(12) if len(c[1]) <= 4]
    monkeypatch.setattr(exact, "SPLIT_REGIONS", True)
    for table, cards, budget in cases[: scaled(4, 20)]:
        names = [card_name(c) for c in cards]
        mine = can_close(table, cards, max_cards=min(budget, 2), backend="exact", workers=1)
        assert (mine.status == "closable") == oracle_closes(
            plain_copy(table), names, min(budget, 2)
        )


def test_split_is_off_for_required_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exact, "SPLIT_REGIONS", True)
    table = Table.start("super6")
    search = ExactSearch(table, [as_code("L")] * 6, None, Limits(), (frozenset({1}),))
    assert not search.regions


def _hard_cases() -> list[tuple[dict[str, object], Table, tuple[int, ...]]]:
    data = json.loads(HARD.read_text(encoding="utf-8"))
    out = []
    for item in data["cases"]:
        placements = []
        for text in item["placements"]:
            name, _, at = text.partition("@")
            x, y, r = (int(v) for v in at.split(","))
            placements.append(Placement(as_code(name), x, y, r))
        cards = tuple(as_code(c) for c in item["cards"])
        out.append((item, Table.empty().place_all(placements), cards))
    return out


def test_regression_set_is_stored() -> None:
    cases = _hard_cases()
    assert len(cases) >= 40
    assert all(item["before"]["at_1s"] == "unknown" for item, _t, _c in cases)  # type: ignore[index]


@pytest.mark.slow
def test_regression_set_answers_are_honest() -> None:
    """Every formerly undecided position: a certificate that replays, an impossibility with
    a reason that agrees with what the search answered at 10 s before, or unknown at the
    limit."""
    for item, table, cards in _hard_cases():
        r = can_close(table, cards, time_limit=10, workers=1)
        before = item["before"]["at_10s"]  # type: ignore[index]
        if r.status == "closable":
            replay(table, r.placements)
            assert before != "impossible"
        elif r.status == "impossible":
            assert r.reason
            assert before != "closable"
        else:
            assert "limit" in r.reason
