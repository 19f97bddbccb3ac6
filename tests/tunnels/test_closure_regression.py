"""The regression set of closure positions the exact search once left undecided within 1 s
(``data/hard_closure.json``), and the independent brute force over the oracle's rules that
the closure tests share (:func:`oracle_closes`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from banditsolve.tunnels import Table, can_close
from banditsolve.tunnels.cards import as_code
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.notation import parse_position
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


def hard_cases() -> list[tuple[dict[str, object], Table, tuple[int, ...]]]:
    """The regression set: per position its stored item, its table and its cards."""
    data = json.loads(HARD.read_text(encoding="utf-8"))
    out = []
    for item in data["cases"]:
        cards = tuple(as_code(c) for c in item["cards"])
        table = parse_position("bandido " + " ".join(item["placements"])).table
        out.append((item, table, cards))
    return out


def test_regression_set_is_stored() -> None:
    cases = hard_cases()
    assert len(cases) >= 40
    assert all(item["before"]["at_1s"] == "unknown" for item, _t, _c in cases)  # type: ignore[index]


@pytest.mark.slow
def test_regression_set_answers_are_honest() -> None:
    """Every formerly undecided position: a certificate that replays, an impossibility with
    a reason that agrees with what the search answered at 10 s before, or unknown at the
    limit."""
    for item, table, cards in hard_cases():
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
