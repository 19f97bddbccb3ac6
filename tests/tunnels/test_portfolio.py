"""The ``auto`` backend's race of the compiled core and the SAT finder (BD-CLOSE-8): whichever
answers first, the verdict and the minimum are the Python reference's, and every closure is
replayed by the oracle; a race neither wins says which limit ran out."""

from __future__ import annotations

import random

import pytest

from banditsolve.tunnels import Table, can_close, min_cards_to_close
from banditsolve.tunnels.solvers import portfolio
from tests.profiles import scaled
from tests.rules import rules
from tests.tunnels.test_compiled import hard_case, leaning_closable, replay, states, unplayed


@rules("BD-CLOSE-7", "BD-CLOSE-8")
@pytest.mark.parametrize("minimum", [False, True])
def test_the_race_gives_the_references_verdicts(
    monkeypatch: pytest.MonkeyPatch, minimum: bool
) -> None:
    """With the core's solo start cut to nothing, every question goes to the race."""
    monkeypatch.setattr(portfolio, "SOLO_NODES", 1)
    ask = min_cards_to_close if minimum else can_close
    rng = random.Random(2603)
    seen = {"exact": 0, "sat": 0}
    verdicts = {"closable": 0, "impossible": 0}
    for i, s in enumerate(states(range(900, 900 + scaled(12, 40)), 4)):
        n = rng.choice((5, 6, 7))
        cards = unplayed(s)[:n] if i % 2 else leaning_closable(s, n)
        raced = ask(s.table, cards, backend="auto", time_limit=60)
        reference = ask(s.table, cards, backend="python", time_limit=60)
        assert raced.status == reference.status != "unknown", (raced.reason, reference.reason)
        verdicts[raced.status] += 1
        seen[raced.backend] += 1
        if raced.status == "closable":
            replay(s.table, raced)
            if minimum:
                assert raced.minimum
                assert raced.cards == reference.cards
            else:
                assert raced.cards >= reference.cards or not reference.minimum
    assert verdicts["closable"] >= 3
    assert verdicts["impossible"] >= 3


@rules("BD-CLOSE-2")
def test_a_race_neither_wins_names_the_time_limit() -> None:
    hard = hard_case()
    answer = can_close(hard.table, hard.cards, backend="auto", time_limit=0.5)
    if answer.status == "unknown":
        # (then what the searches proved: no closure of fewer cards than ...)
        why = "the time limit ran out (0.5 s) before an answer was proven; no closure of at most "
        assert answer.reason.startswith(why)
    else:  # (a faster machine may decide it: then it is right)
        reference = can_close(hard.table, hard.cards, backend="exact", time_limit=120)
        assert answer.status == reference.status


def test_the_sat_finders_closures_replay() -> None:
    """The SAT finder alone (backend sat) on questions the core finds closable."""
    table = Table.start()
    result = can_close(table, ["L", "L", "L", "TL", "TL", "TL", "BL", "BL"], backend="sat")
    assert result.status == "closable"
    assert result.backend == "sat"
    replay(table, result)
