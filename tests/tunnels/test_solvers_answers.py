"""Every tunnel solver result in the shared answer shape (``to_answer()``)."""

from __future__ import annotations

import json
import re
from dataclasses import replace

from banditsolve.core.answer import Answer
from banditsolve.tunnels import (
    Table,
    apply,
    can_close,
    load_puzzles,
    min_cards_to_close,
    parse_position,
    solve_game,
    win_share,
)
from banditsolve.tunnels.solvers.endgame import WinShare
from banditsolve.tunnels.state import WON

NOTATION = re.compile(r"([A-Z+]+)@(-?\d+),(-?\d+),(0|90|180|270)")
PUZZLES = load_puzzles()


def shaped(answer: Answer, question: str) -> dict[str, object]:
    data = answer.to_json()
    json.dumps(data)  # plain JSON all through
    assert data["game"] == "bandido"
    assert data["question"] == question
    return data


def test_closable_answer_carries_the_placements_in_notation() -> None:
    table = Table.start("super6")
    r = min_cards_to_close(table, ["TL+TR"] * 2 + ["L"] * 2, time_limit=5, max_cards=4)
    a = r.to_answer()
    data = shaped(a, "close")
    assert (a.status, a.answer, a.exit_code) == ("yes", "closable", 0)
    assert a.reason == r.reason
    assert isinstance(a.certificate, list)
    assert len(a.certificate) == r.cards == 4
    # The certificate read back is the closure: same cards, cells and rotations, legal in order.
    laid = table
    for text, p in zip(a.certificate, r.placements, strict=True):
        m = NOTATION.fullmatch(text)
        assert m is not None, text
        assert (int(m[2]), int(m[3]), int(m[4])) == (p.x, p.y, p.rotation)
        laid = laid.place(p)
    assert laid.exit_count == 0
    assert data["limits"] == {"time_limit": 5.0, "node_limit": None, "max_cards": 4}
    stats = data["stats"]
    assert isinstance(stats, dict)
    assert stats["backend"] == "exact"
    assert stats["nodes"] >= 0
    assert data["details"] == {"cards": 4, "minimum": True}


def test_impossible_and_unknown_answers() -> None:
    table = Table.start("super6")
    cards = ["TL+TR"] * 2 + ["L"] * 2
    no = can_close(table, cards, max_cards=3).to_answer()
    assert (no.status, no.answer, no.exit_code) == ("no", "impossible", 1)
    assert no.certificate is None
    assert no.reason
    assert no.limits["max_cards"] == 3
    unknown = can_close(
        Table.start(), ["L", "L+TL+TR", "L+R", "L+TL+TR+R", "L+BL", "TL+BL"], node_limit=2,
        backend="exact",
    ).to_answer()  # fmt: skip
    assert (unknown.status, unknown.answer, unknown.exit_code) == ("unknown", "unknown", 3)
    assert unknown.certificate is None
    # (and what was proven before: six front cells, two pairs side by side, need four cards)
    assert unknown.reason == (
        "the node limit ran out (2 nodes) before an answer was proven;"
        " no closure of at most 3 cards"
    )
    assert unknown.details["at_least"] == 4
    assert unknown.limits == {"time_limit": 10.0, "node_limit": 2, "max_cards": None}


def test_every_backend_answers_in_the_same_shape() -> None:
    position = parse_position("bandido L+TL+TR+R+BR+BL@0,0,0 | TL+TR*2 L*2")
    answers = [
        min_cards_to_close(position, backend=b, time_limit=30).to_answer()
        for b in ("exact", "cpsat", "z3")
    ]
    assert {a.status for a in answers} == {"yes"}
    assert {len(a.certificate) for a in answers} == {4}
    assert [a.stats["backend"] for a in answers] == ["exact", "cpsat", "z3"]
    assert all(a.details == {"cards": 4, "minimum": True} for a in answers)
    plain = can_close(position, backend="plain", time_limit=30).to_answer()
    assert plain.stats["backend"] == "plain"
    assert plain.status == "yes"


def test_game_solution_answers() -> None:
    won = next(p for p in PUZZLES if p.question == "solve" and p.expected["status"] == "win")
    state = won.state()
    r = solve_game(state, time_limit=30)
    a = r.to_answer()
    data = shaped(a, "solve")
    assert (a.status, a.answer, a.exit_code) == ("yes", "win", 0)
    assert isinstance(a.certificate, list)
    assert len(a.certificate) == len(r.line)
    s = state
    for text, move in zip(a.certificate, r.line, strict=True):
        assert NOTATION.fullmatch(text) or text in ("change", "pass"), text
        s = apply(s, move.action)
    assert s.outcome == WON
    assert data["limits"] == {"time_limit": 30.0, "node_limit": None}
    assert data["stats"] == {"nodes": r.nodes, "seconds": round(r.seconds, 6)}
    lost = next(p for p in PUZZLES if p.question == "solve" and p.expected["status"] == "lose")
    b = solve_game(lost.state(), time_limit=30).to_answer()
    assert (b.status, b.answer, b.exit_code, b.certificate) == ("no", "lose", 1, None)
    c = solve_game(state, node_limit=1).to_answer()
    assert (c.status, c.answer, c.exit_code) == ("unknown", "unknown", 3)
    assert "node limit" in c.reason


def test_win_share_answer_is_a_labelled_estimate() -> None:
    puzzle = next(p for p in PUZZLES if p.question == "solve" and p.expected["status"] == "win")
    state = puzzle.state()
    hidden = replace(state, unseen=tuple(sorted(state.pile)), pile=())
    share = win_share(hidden, samples=4, seed=3, time_limit=2)
    a = share.to_answer()
    data = shaped(a, "win-share")
    # an estimate is not a proof either way: unknown, as every game's estimate (exit 3)
    assert (a.status, a.answer, a.certificate, a.exit_code) == ("unknown", "estimate", None, 3)
    details = data["details"]
    assert isinstance(details, dict)
    assert details["share"] == share.share
    assert details["samples"] == 4
    assert details["interval"] == [share.low, share.high]
    assert details["upper_bound"] is True
    assert "upper bound" in str(details["label"])
    assert data["limits"] == {"time_limit": 2.0, "samples": 4, "seed": 3}
    assert "upper bound" in a.reason


def test_a_win_share_with_undecided_samples_says_at_most_and_estimates_none_without_any() -> None:
    """Undecided samples count as won, so the share is a bound: said so in the headline; with
    no sample decided there is no estimate at all (a user's trial: 0 won, 3 undecided read
    "perfect play wins 100.0%" under status yes)."""
    some = WinShare(won=1, lost=1, unknown=1, samples=3, share=2 / 3, low=0.2, high=0.9)
    assert "wins at most 66.7% of 3 sampled shuffles" in some.to_answer().reason
    assert some.to_answer().answer == "estimate"
    none = WinShare(won=0, lost=0, unknown=3, samples=3, share=1.0, low=0.4, high=1.0)
    a = none.to_answer()
    assert (a.status, a.answer, a.exit_code) == ("unknown", "unknown", 3)
    assert "at most 100.0%" in a.reason
    exact = WinShare(won=2, lost=1, unknown=0, samples=3, share=2 / 3, low=0.2, high=0.9)
    assert "wins 66.7% of 3" in exact.to_answer().reason
