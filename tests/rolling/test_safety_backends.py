"""The safety question's backends agree: the fast exact search with the plain enumeration, and
the CP-SAT and Z3 models with the exact search, on generated cases; every counterexample is
replayed through the rules engine; the proven bound holds against an independent walk
(RB-SAFE-1, RB-SAFE-2, RB-SAFE-3)."""

from __future__ import annotations

import pytest

from banditsolve.errors import SolverError
from banditsolve.rolling.game import GAME
from banditsolve.rolling.rules import apply, parse_action
from banditsolve.rolling.solvers.models import covers
from banditsolve.rolling.solvers.safety import is_safe, plain_safe, reach_bound
from banditsolve.rolling.solvers.verdict import Safety
from banditsolve.rolling.state import State
from tests.profiles import scaled
from tests.rolling import cases, reference
from tests.rules import rules


def _replays(state: State, verdict: Safety) -> None:
    """The counterexample is a legal line after which the player does not steal the wagon: the
    wagon left the train, or the player's turn begins (or the game ends) without it."""
    s = state
    for text in verdict.counterexample:
        s = apply(s, parse_action(text))
    assert s.is_terminal or s.to_move == verdict.player or s.wagon(verdict.wagon) is None
    assert not any(w.id == verdict.wagon for w in s.won[verdict.player]), state.notation()


def _mixed(count: int, seed: int) -> list[cases.Case]:
    n = max(1, count // 4)
    return (
        cases.built_cases(2 * n, seed)
        + cases.built_cases(n, seed + 1, players=3)
        + cases.game_cases(cases.TINYX, n // 2 + 1, seed + 2)
        + cases.game_cases(cases.TINY, n // 2 + 1, seed + 3, players=3)
    )


@rules("RB-SAFE-1", "RB-SAFE-2")
def test_exact_agrees_with_plain_on_generated_cases() -> None:
    decided = 0
    answers = set()
    for state, wagon, player in _mixed(scaled(120, 2000), 21):
        exact = is_safe(state, wagon, player, backend="exact", node_limit=50_000)
        plain = plain_safe(state, wagon, player, node_limit=50_000)
        if exact.safe is None or plain.safe is None:
            continue
        decided += 1
        answers.add(exact.safe)
        assert exact.safe == plain.safe, (state.notation(), wagon, player)
        if exact.safe is False:
            _replays(state, exact)
            _replays(state, plain)
    assert decided >= scaled(100, 1500)
    assert answers == {True, False}


@rules("RB-SAFE-2")
def test_the_bound_holds_against_every_line_of_the_turn() -> None:
    checked = 0
    for state, wagon, _ in cases.built_cases(scaled(25, 400), 31, held_chance=0.15):
        bound = reach_bound(state, state.to_move, wagon)
        if bound is None:
            continue
        most = reference.max_on_wagon_after_turn(state, wagon)
        assert most == 99 or most <= bound, (state.notation(), wagon, bound, most)
        checked += 1
    assert checked >= scaled(6, 100)


def _model_cases(count: int, seed: int) -> list[cases.Case]:
    """2, 3 and 4 players: built positions (every option), positions far along a longer train
    (many safe answers), positions of random games in every phase, and two-player positions of
    the mercenary variant (built ones in the start, roll and attack phases, and of games)."""
    n = max(1, count // 12)
    merc = {"mercenaries": "on"}
    return (
        cases.merc_cases(n, seed + 10)
        + cases.far_cases(n, seed + 12, merc=True)
        + cases.game_cases(cases.TINYX, n // 2 + 1, seed + 11, options=merc)
        +
        cases.built_cases(2 * n, seed, held_chance=0.5)
        + cases.built_cases(n, seed + 1, edition="default", trunk_chance=0.3)
        + cases.built_cases(n, seed + 2, players=3)
        + cases.built_cases(n, seed + 3, players=4)
        + cases.far_cases(2 * n, seed + 4)
        + cases.far_cases(n, seed + 5, players=3)
        + cases.far_cases(n // 2 + 1, seed + 6, players=4)
        + cases.game_cases(cases.TINYX, n // 2 + 1, seed + 7)
        + cases.game_cases(cases.TINYX, n // 2 + 1, seed + 8, players=3)
        + cases.game_cases(cases.TINY, n // 2 + 1, seed + 9, players=4)
    )


@rules("RB-SAFE-3")
def test_models_agree_with_the_exact_search() -> None:
    """One exact answer per case, then CP-SAT and Z3 on the same case (shared set-up): the
    three agree wherever the exact search decides within its node limit, and every
    counterexample of a model replays through the rules engine. The models may answer
    ``unknown`` only in the mercenary variant, for what they state they leave out. Under the ci
    profile: 2,505 cases, 2,391 decided by the exact search, 2,328 answered by all three (380
    of them mercenary positions), about 4.6 CPU-minutes."""
    answers = set()
    players = set()
    merc_answers = set()
    checked = 0
    for state, wagon, player in _model_cases(scaled(48, 2400), 41):
        exact = is_safe(state, wagon, player, backend="exact", node_limit=1500)
        if exact.safe is None:
            continue
        merc = state.options.mercenaries == "on"
        verdicts = []
        for backend in ("cpsat", "z3"):
            model = is_safe(state, wagon, player, backend=backend, time_limit=30, seed=1)
            if model.safe is None:  # only what the models state they leave out
                assert merc, (backend, state.notation())
                assert "not modelled" in model.reason, (backend, state.notation())
            else:
                assert model.safe is exact.safe, (backend, state.notation(), wagon, player)
            if model.safe is False:
                _replays(state, model)
            verdicts.append(model.safe)
        if None in verdicts:
            continue
        answers.add(exact.safe)
        players.add(state.players)
        if merc:
            merc_answers.add(exact.safe)
        checked += 1
    assert checked >= scaled(30, 2000)
    assert answers == {True, False}
    assert players == {2, 3, 4}
    assert merc_answers == {True, False}


@rules("RB-SAFE-3")
def test_models_cover_mid_turn_positions_and_several_opponents() -> None:
    # two opponents play before player 0: player 1 in the middle of an attack (mask rolled),
    # then player 2 from the start of their turn
    state = cases.TINYX.from_notation(
        "rb ed=tinyx n=3 phase=attack turn=1 wagons=5 train=0:3/3L:-:-|-|-,1:1/1:-:R1|-|-,"
        "2:2/2:-:-|-|-,3:1/1:-:-|-|-,4:1/1:-:-|H1|B1,5:2/2:-:-|-|- won=-|-|- trunks=-|-|- "
        "roll=MJ"
    )
    verdicts = [is_safe(state, 1, 0, backend=b) for b in ("exact", "cpsat", "z3")]
    assert {v.safe for v in verdicts} == {True}
    # the same with player 2's gang two wagons closer: a new group of theirs ties wagon 1
    closer = cases.TINYX.from_notation(
        state.notation().replace("2:2/2:-:-|-|-", "2:2/2:-:-|-|S1").replace("|H1|B1", "|H1|-")
    )
    verdicts = [is_safe(closer, 1, 0, backend=b) for b in ("exact", "cpsat", "z3")]
    assert {v.safe for v in verdicts} == {False}
    for v in verdicts:
        _replays(closer, v)


@rules("RB-SAFE-3")
def test_backends_answer_unknown_for_what_they_do_not_model_and_refuse_bad_arguments() -> None:
    # mercenary variant, player 1 to move with a group of three (a colour's worth) on wagon 1
    # (held by player 0's four)
    merc = cases.TINYX.from_notation(
        "rb ed=tinyx n=2 phase=start turn=1 wagons=3 train=0:3/3L:-:-|-,1:2/2:-:R2+2|M2+1,"
        "2:1/1:-:-|-,3:1/1:-:-|- won=-|- trunks=-|- reserve=0|0 opt=mercenaries:on"
    )
    assert covers(merc, 1, 0) is not None
    verdict = is_safe(merc, 1, 0, backend="cpsat")
    assert verdict.safe is None
    assert "mercenary variant" in verdict.reason
    # player 1 can lose wagon 1 for player 0 only on lines with an outright theft (three
    # mercenaries stacked on one wagon): the stacking model's line, confirmed by the engine
    stack = cases.TINYX.from_notation(
        "rb ed=tinyx n=2 phase=start turn=1 wagons=3 train=0:3/3L:-:-|-,1:2/2:-:R3|-,"
        "2:1/1:-:-|-,3:1/1:-:-|- won=-|- trunks=-|- reserve=0|3 opt=mercenaries:on"
    )
    assert covers(stack, 1, 0) is None
    assert is_safe(stack, 1, 0).safe is False
    for backend in ("cpsat", "z3"):
        verdict = is_safe(stack, 1, 0, backend=backend)
        assert verdict.safe is False
        _replays(stack, verdict)
    # safe, but with a hat trunk on wagon 1 a line with an outright theft elsewhere is not
    # settled by the bound: unknown, saying so
    hat = GAME.from_notation(
        "rb ed=default n=2 phase=start turn=1 wagons=4 train=0:5/5L:-:-|-,1:2/2:H:R5|-,"
        "2:3/3:-:-|-,3:4/4:-:-|-,4:1/1:-:-|- won=-|- trunks=-|- opt=mercenaries:on"
    )
    assert is_safe(hat, 1, 0).safe is True
    for backend in ("cpsat", "z3"):
        verdict = is_safe(hat, 1, 0, backend=backend)
        assert verdict.safe is None
        assert "outright theft" in verdict.reason
    state = cases.TINYX.from_notation(
        "rb ed=tinyx n=2 phase=start turn=1 wagons=2 train=0:3/3L:-:-|-,1:2/2:R:M2|-,"
        "2:1/1:-:-|- won=-|- trunks=-|-"
    )
    with pytest.raises(SolverError, match="unknown safety backend"):
        is_safe(state, 1, 0, backend="magic")
    with pytest.raises(SolverError, match="workers"):
        is_safe(state, 1, 0, backend="cpsat", workers=0)
    auto = is_safe(state, 1, 0, backend="auto")
    assert auto.safe == is_safe(state, 1, 0, backend="plain").safe


@rules("RB-SAFE-2")
def test_the_bound_answers_at_once_with_its_reason() -> None:
    # my six dice on wagon 5; the opponent needs two other wagons to reach it: at most five dice
    state = GAME.from_notation(
        "rb ed=default n=2 phase=start turn=1 wagons=7 train=0:5/5L:-:-|-,1:2/2:-:-|-,"
        "2:3/3:-:-|-,3:4/4:-:-|-,4:1/1:-:-|-,5:2/2:-:R6|-,6:3/3:-:-|-,7:4/4:-:-|- "
        "won=-|- trunks=-|-"
    )
    verdict = is_safe(state, 5, 0)
    assert verdict.safe is True
    assert verdict.nodes == 0
    assert "at most 5 dice" in verdict.reason


@rules("RB-SAFE-2")
@pytest.mark.parametrize(
    ("notation", "wagon", "player"),
    [
        # a user's trial: three opponents take the two rearmost wagons outright, then a chain
        # of five groups reaches wagon 1 (plain enumeration: 0.07 s)
        ("rb ed=default n=4 phase=start turn=0 wagons=7 train=0:5/5L:-:-|-|-|-,"
         "1:3/3:-:-|-|-|B3,2:1/1:-:-|-|-|M3,3:2/2:-:-|-|-|-,4:3/3:-:-|-|-|-,"
         "5:4/4:-:M3|-|-|-,6:2/2:-:-|-|-|-,7:2/2:-:-|-|-|- won=-|-|-|- trunks=-|-|-|-", 1, 3),
        ("rb ed=default n=3 phase=start turn=0 wagons=6 train=0:5/5L:-:R2|-|-,1:1/1:-:-|-|H2,"
         "2:4/4:-:-|-|-,3:3/3:-:-|-|-,4:4/4:-:-|-|-,5:3/3:-:-|-|-,6:1/1:-:-|-|- won=-|-|- "
         "trunks=-|-|-", 1, 2),
    ],
)
def test_the_exact_search_finds_long_lines_that_attack_before_ending_the_turn(
    notation: str, wagon: int, player: int
) -> None:
    # Ending each turn first, the search spent 47,000-51,000 positions (5 s) on these without
    # an answer; the plain enumeration's order finds their lines in 700-1,300.
    state = GAME.from_notation(notation)
    exact = is_safe(state, wagon, player, backend="exact", node_limit=20_000)
    assert exact.safe is False
    _replays(state, exact)
    assert plain_safe(state, wagon, player, node_limit=20_000).safe is False


@rules("RB-SAFE-4")
def test_auto_takes_the_exact_search_then_the_model_when_several_opponents_play() -> None:
    # one opponent: the exact search (here its bound)
    two = GAME.from_notation(
        "rb ed=default n=2 phase=start turn=1 wagons=4 train=0:5/5L:-:-|-,1:2/2:-:R5|-,"
        "2:3/3:-:-|-,3:4/4:-:-|-,4:1/1:-:-|- won=-|- trunks=-|-"
    )
    assert is_safe(two, 1, 0, backend="auto").method == "exact"
    # three opponents and seven of my dice on wagon 1: the search needs more than 50,000
    # positions; auto answers with the CP-SAT model, and Z3 agrees
    four = GAME.from_notation(
        "rb ed=default n=4 phase=start turn=1 wagons=6 train=0:5/5L:-:-|-|-|-,1:2/2:-:R7|-|-|-,"
        "2:3/3:-:-|-|-|-,3:4/4:-:-|-|-|-,4:1/1:-:-|-|-|-,5:2/2:-:-|-|-|-,6:3/3:-:-|-|-|- "
        "won=-|-|-|- trunks=-|-|-|-"
    )
    auto = is_safe(four, 1, 0, backend="auto")
    assert auto.safe is True
    assert auto.method == "cpsat"
    assert is_safe(four, 1, 0, backend="exact", node_limit=3000).safe is None
    assert is_safe(four, 1, 0, backend="z3").safe is True
    # several opponents, but the search finds the line at once
    near = GAME.from_notation(
        "rb ed=default n=4 phase=start turn=1 wagons=6 train=0:5/5L:-:-|-|-|-,1:2/2:-:-|-|-|-,"
        "2:3/3:-:R4|-|-|-,3:4/4:-:-|-|-|H1,4:1/1:-:-|-|-|-,5:2/2:-:-|-|-|-,6:3/3:-:-|-|-|- "
        "won=-|-|-|- trunks=-|-|-|-"
    )
    found = is_safe(near, 2, 0, backend="auto")
    assert found.safe is False
    assert found.method == "exact"
    _replays(near, found)
    # the answer reports the limits asked, not the search's share of them; the models'
    # arguments are checked whichever search answers
    asked = is_safe(near, 2, 0, time_limit=10)
    assert asked.limits == {"time_limit": 10.0, "node_limit": None}
    for bad in ({"workers": 0}, {"seed": -1}):
        with pytest.raises(SolverError):
            is_safe(near, 2, 0, **bad)  # type: ignore[arg-type]
