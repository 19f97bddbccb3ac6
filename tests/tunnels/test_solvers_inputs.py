"""What the tunnel solvers refuse: cards the real game cannot hold (unless the question says it
is hypothetical) and inputs of the wrong type, always with the library's one-line errors."""

from __future__ import annotations

from dataclasses import replace

import pytest

from banditsolve.errors import ArgumentTypeError, BanditsolveError, NotationError, SolverError
from banditsolve.tunnels import (
    Position,
    Table,
    can_close,
    legal_placements,
    load_puzzles,
    min_cards_to_close,
    parse_position,
    plain_search,
    solve_game,
    win_share,
)
from tests.rules import rules

SOLVERS = (can_close, min_cards_to_close, plain_search)
GAME = next(p for p in load_puzzles() if p.question == "solve").state()


@pytest.mark.parametrize("solve", SOLVERS, ids=lambda f: f.__name__)
def test_more_copies_than_the_deck_holds_are_refused(solve: object) -> None:
    assert callable(solve)
    # The bandido deck holds three L and two L+R.
    with pytest.raises(NotationError, match=r"hypothetical=True.*4 copies of L, .* has 3"):
        solve(Table.start(), ["L"] * 4)
    with pytest.raises(NotationError, match="3 copies of L\\+R"):
        solve(Table.start(), ["L+R"] * 3)
    # Copies on the table count too: one L+TL laid, three more among the cards.
    start = Table.start("super6")
    table = start.place(legal_placements(start, "L+TL")[0])
    with pytest.raises(NotationError, match="4 copies of L\\+TL"):
        solve(table, ["L+TL"] * 3)
    solve(table, ["L+TL"] * 2, time_limit=5)  # within the deck: answered


@pytest.mark.parametrize("solve", SOLVERS, ids=lambda f: f.__name__)
def test_the_super_card_is_not_a_card_to_close_with(solve: object) -> None:
    assert callable(solve)
    for side in ("super6", "super5"):
        with pytest.raises(NotationError, match="super card"):
            solve(Table.start(), ["L", side])


def test_a_hypothetical_position_is_answered_as_one() -> None:
    position = parse_position("bandido hypothetical L+TL+TR+R+BR+BL@0,0,0 | L*5")
    assert position.hypothetical
    r = can_close(position)
    assert r.status == "impossible"
    assert "openings" in r.reason
    real = parse_position("bandido L+TL+TR+R+BR+BL@0,0,0 | L*3")
    with pytest.raises(NotationError, match="copies"):
        can_close(real, ["L"] * 5)


def test_hypothetical_questions_are_answered() -> None:
    r = can_close(Table.start(), ["L"] * 5, hypothetical=True)
    assert r.status == "impossible"
    assert "openings" in r.reason
    r = min_cards_to_close(Table.start("super6"), ["super6", "L"], hypothetical=True)
    assert r.status != "unknown"
    with pytest.raises(ArgumentTypeError, match="hypothetical"):
        can_close(Table.start(), ["L"], hypothetical="yes")  # type: ignore[arg-type]


def test_game_solvers_check_the_cards_of_the_state() -> None:
    too_many = replace(GAME, pile=GAME.pile + (GAME.pile[0],) * 3)
    with pytest.raises(NotationError, match="copies"):
        solve_game(too_many)
    with pytest.raises(NotationError, match="copies"):
        win_share(replace(too_many, unseen=too_many.pile, pile=()), samples=1)
    assert solve_game(too_many, hypothetical=True, time_limit=30).status != "unknown"


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((None,), {}),
        ((Table.start(), 5), {}),
        ((Table.start(), "L"), {}),
        ((Table.start(), b"L"), {}),
        ((Table.start(), [None]), {}),
        ((Table.start(), [2.5]), {}),
        ((Table.start(), [True]), {}),
        ((Table.start(), ["nope"]), {}),
        ((Table.start(), None), {}),
        ((Table.start(), ["L"]), {"time_limit": float("inf")}),
        ((Table.start(), ["L"]), {"time_limit": float("nan")}),
        ((Table.start(), ["L"]), {"time_limit": -1}),
        ((Table.start(), ["L"]), {"node_limit": 2.0}),
        ((Table.start(), ["L"]), {"node_limit": 10**13}),
        ((Table.start(), ["L"]), {"max_cards": None.__class__}),
        ((Table.start(), ["L"]), {"max_cards": -1}),
        ((Table.start(), ["L"]), {"bounds": "0,0,1,1"}),
        ((Table.start(), ["L"]), {"bounds": (0, 0, 1)}),
        ((Table.start(), ["L"]), {"bounds": (0, 0, True, 1)}),
        ((Table.start(), ["L"]), {"bounds": None.__class__}),
        ((Table.start(), ["L"]), {"backend": None}),
        ((Table.start(), ["L"]), {"backend": ["exact"]}),
        ((Table.start(), ["L"]), {"workers": None.__class__}),
        ((Table.start(), ["L"]), {"workers": 257}),  # (--workers' bound: it forked them all)
    ],
)
def test_wrong_types_are_library_errors(
    args: tuple[object, ...], kwargs: dict[str, object]
) -> None:
    with pytest.raises((SolverError, NotationError, ArgumentTypeError)) as info:
        can_close(*args, **kwargs)  # type: ignore[arg-type]
    assert "\n" not in str(info.value)
    assert len(str(info.value)) < 300


@pytest.mark.parametrize(
    "kwargs",
    [{"time_limit": "1"}, {"time_limit": float("nan")}, {"node_limit": 0}, {"node_limit": 1.5}],
)
def test_game_solver_limits_are_checked(kwargs: dict[str, object]) -> None:
    with pytest.raises((SolverError, ArgumentTypeError), match=next(iter(kwargs))):
        solve_game(GAME, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "wrong_type"),
    [
        ({"samples": 0}, False),
        ({"samples": 2.5}, True),
        ({"samples": True}, True),
        ({"samples": 10**50}, False),
        ({"seed": "x"}, True),
        ({"time_limit": 0}, False),
    ],
)
def test_win_share_arguments_are_checked(kwargs: dict[str, object], wrong_type: bool) -> None:
    from banditsolve.errors import ArgumentTypeError

    with pytest.raises(ArgumentTypeError if wrong_type else SolverError) as caught:
        win_share(GAME, **kwargs)  # type: ignore[arg-type]
    assert isinstance(caught.value, TypeError) is wrong_type


def test_game_solvers_need_a_game_state() -> None:
    for bad in (None, Table.start(), "bandido"):
        with pytest.raises(BanditsolveError):
            solve_game(bad)  # type: ignore[arg-type]
        with pytest.raises(BanditsolveError):
            win_share(bad)  # type: ignore[arg-type]


@rules("BD-CLOSE-1")
@pytest.mark.parametrize("goal", ["ladder", "join"])
def test_a_bandido_question_has_one_goal(goal: str) -> None:
    """Bandido has no ladder and no second super card: its positions and states are asked to
    close every exit, and a Bandida goal is refused (a bare table may be asked any goal)."""
    position = parse_position("bandido L+TL+TR+R+BR+BL@0,0,0 | L L+TL")
    for solve in (can_close, min_cards_to_close):
        for asked, what in ((position, "position"), (GAME, "game")):
            with pytest.raises(SolverError, match=f"goal {goal} is Bandida's; a bandido {what}"):
                solve(asked, goal=goal)
        assert solve(position, goal="close").status == "impossible"
    assert can_close(position.table, ["L"], goal=goal).status == "impossible"


def test_legal_placements_need_a_table() -> None:
    from banditsolve.errors import ArgumentTypeError

    for bad in (None, 42, "bandido L+TL+TR+R+BR+BL@0,0,0"):
        with pytest.raises(ArgumentTypeError, match="table must be Table") as caught:
            legal_placements(bad, "L")  # type: ignore[arg-type]
        assert isinstance(caught.value, TypeError)


@rules("BD-NOTE-1", "BD-CLOSE-8")
@pytest.mark.parametrize("backend", ["exact", "python", "sat"])
def test_a_closure_that_could_leave_the_coordinates_is_refused(backend: str) -> None:
    """A position near the edge of the coordinates a placement may have (±10,000): a closure
    could name placements the rules refuse, so the question is refused in one line, unless
    bounds inside them keep the closure there; one far enough in is answered, and every card
    of its closure stays inside."""
    cards = " | L*2 TL*2 L+TL TL+BL R+BR"
    edge = parse_position("bandido L+TL+TR+R+BR+BL@9999,0,0" + cards)
    with pytest.raises(SolverError, match=r"reaches 15 cells .* edge .*±10000.*nearer to"):
        can_close(edge, backend=backend)
    inside = can_close(edge, backend=backend, bounds=(9990, -10, 10000, 10), time_limit=30)
    assert inside.status != "unknown", inside.reason
    assert all(abs(p.x) <= 10_000 for p in inside.placements)
    near = parse_position("bandido L+TL+TR+R+BR+BL@9984,0,0" + cards)
    closed = min_cards_to_close(near, backend=backend, time_limit=30)
    assert closed.status == "closable"
    assert max(x for p in closed.placements for x, _ in p.cells) <= 10_000
    # (the same question a little nearer the edge is the refused one)
    with pytest.raises(SolverError, match="reaches 15 cells"):
        min_cards_to_close(parse_position("bandido L+TL+TR+R+BR+BL@9985,0,0" + cards))


@rules("BD-NOTE-1")
def test_a_closure_too_long_for_the_coordinates_is_not_told_to_move_the_table() -> None:
    """Thousands of cards (a hypothetical position) reach farther than the coordinates allow
    wherever the table lies: the refusal names the card cap and the bounds, not a move (a
    user's trial: "move it nearer to (0, 0)" of a table at (0, 0))."""
    cards = " ".join(f"{c}*999" for c in ("L", "TL", "L+TL", "TL+BL", "TR", "L+TL+TR+R"))
    many = parse_position(f"bandido hypothetical super6@0,0,0 | {cards}")
    with pytest.raises(SolverError, match="card cap") as info:
        can_close(many)
    assert "nearer" not in str(info.value)
    assert can_close(many, max_cards=20).status == "closable"


@rules("BD-NOTE-1")
def test_the_refusal_tells_to_move_the_table_wherever_a_move_helps() -> None:
    """A table six cells wide with 4,998 cards to close it: their reach (9,997 cells) on both
    sides of it fits inside the coordinates only with the table near (0, 0), so far out the
    refusal advises the move, and the moved question is answered."""
    cards = " ".join(f"{c}*999" for c in ("L", "TL", "L+TL", "TL+BL", "TR")) + " L+TL+TR+R*3"

    def row(x: int) -> Position:
        laid = f"L+TL+TR+R+BR+BL@{x},0,0 L+R@{x + 2},0,0 L+R@{x + 4},0,0"
        return parse_position(f"bandido hypothetical {laid} | {cards}")

    with pytest.raises(SolverError, match=r"reaches 9997 cells.*move the table nearer"):
        can_close(row(9000), time_limit=2)
    assert can_close(row(-3), time_limit=2).status == "closable"


@rules("BD-CLOSE-2")
def test_thousands_of_cards_are_answered_or_stopped_by_the_time_limit() -> None:
    """A question with thousands of cards: the searches answer (the colour balance's knapsack
    over the cards took 5 s of a 2 s limit on 1,500 cards), and the z3 model, whose region
    is millions of cells, stops at the limit while it is built, unknown (it was walked past
    any limit). (Time limits are measured in benchmarks/bench_limits.py.)"""
    cards = " ".join(f"{c}*300" for c in ("L", "TL", "L+TL", "TL+BL", "TR"))
    many = parse_position(f"bandido hypothetical super6@0,0,0 | {cards}")
    for backend in ("exact", "python"):
        assert can_close(many, backend=backend, time_limit=5.0).status == "closable"
    stopped = can_close(many, backend="z3", time_limit=0.5)
    assert stopped.status == "unknown"
    assert "time limit" in stopped.reason


@pytest.mark.parametrize("solve", SOLVERS, ids=lambda f: f.__name__)
def test_a_bad_card_is_named_by_its_place_among_the_cards(solve: object) -> None:
    assert callable(solve)
    with pytest.raises(NotationError, match=r"^cards\[1\]: not a card code: 99999$"):
        solve(Table.start(), ["L", 99999])
    with pytest.raises(NotationError, match=r"^cards\[0\]: unknown port 'XX'"):
        solve(Table.start(), ["XX"])


@rules("BD-SETUP-1")
@pytest.mark.parametrize("solve", SOLVERS, ids=lambda f: f.__name__)
def test_a_table_without_its_start_card_is_refused(solve: object) -> None:
    # No game reaches a table with no card: it would be "closed" with no card laid.
    assert callable(solve)
    with pytest.raises(SolverError, match="the table has no card"):
        solve(Table.empty(), ["L"])
