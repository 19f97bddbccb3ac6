"""An ``unknown`` closure answer says what its search proved before it stopped (BD-CLOSE-2,
BD-CLOSE-3): that no closure of fewer than ``at_least`` cards exists, in its reason and under
``at_least`` in its JSON details. Each such claim is checked by asking the compiled core the
question with one card fewer than that, to the end; a question with map cards claims nothing
of the kind (a line through a map may lay fewer cards than any closure without it)."""

from __future__ import annotations

import json
from pathlib import Path

from banditsolve.core.text import plural
from banditsolve.tunnels import can_close, min_cards_to_close, parse_position
from banditsolve.tunnels.bandida.state import BandidaOptions
from banditsolve.tunnels.simulate import simulate
from banditsolve.tunnels.solvers.closure import Closure
from banditsolve.tunnels.solvers.goals import is_map
from banditsolve.tunnels.table import Table
from tests.rules import rules

HARD = Path(__file__).parent / "data" / "hard_closure.json"


def regression(index: int) -> tuple[Table, list[str]]:
    """A position of the regression set (1-based, as the benchmark numbers them)."""
    case = json.loads(HARD.read_text(encoding="utf-8"))["cases"][index - 1]
    return parse_position("bandido " + " ".join(case["placements"])).table, case["cards"]


def check_claim(table: Table, cards: list[str], answer: Closure) -> int:
    """The claim of an unknown ``answer``, checked: its words and JSON, and no closure of
    fewer cards by a search to the end. The claim (0: none)."""
    assert answer.status == "unknown", answer.reason
    n = answer.at_least
    details = answer.to_answer().details
    if n <= 1:
        assert "at_least" not in details
        assert "no closure of at most" not in answer.reason
        return 0
    assert answer.reason.endswith(f"; no closure of at most {plural(n - 1, 'card')}")
    assert details["at_least"] == n
    fewer = can_close(table, cards, max_cards=n - 1, backend="exact", time_limit=120)
    assert fewer.status == "impossible", (n, fewer.reason)
    return n


@rules("BD-CLOSE-2", "BD-CLOSE-3")
def test_an_unknown_answer_names_the_fewest_cards_still_possible() -> None:
    """A regression position undecided within 60 s, asked with a short limit of every backend
    and both questions: each claim holds, and every backend but Z3 makes one (each search
    deepens on the card count, CP-SAT in stages)."""
    claims: dict[str, int] = {}
    for index in (4,):
        table, cards = regression(index)
        for backend in ("exact", "auto", "python", "sat", "cpsat"):
            for ask in (can_close, min_cards_to_close):
                answer = ask(table, cards, backend=backend, time_limit=0.5, workers=1)
                n = check_claim(table, cards, answer)
                claims[backend] = max(claims.get(backend, 0), n)
        stopped = can_close(table, cards, backend="exact", node_limit=20_000)
        claims["nodes"] = check_claim(table, cards, stopped)
    assert all(claims[b] > 1 for b in ("exact", "auto", "python", "sat", "cpsat", "nodes")), claims


@rules("BA-CLOSE-2")
def test_a_question_with_a_map_claims_no_fewest_cards() -> None:
    """A Bandida question with a map among its cards, left undecided: no claim, even where
    the search without the maps reached a level."""
    state = simulate(2, 2001, BandidaOptions(mode=1))[12]
    cards = (list(state.hands[state.to_act]) + list(state.pile))[:10]
    assert any(is_map(c) for c in cards)
    answer = can_close(state, cards, time_limit=0.5)
    assert answer.status == "unknown", answer.reason
    assert answer.at_least == 0
    assert "no closure of at most" not in answer.reason
