"""Odds, best turn and the safety question against independent references (RB-ODDS/BEST/SAFE)."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from functools import partial

import pytest

from banditsolve.core.play import sample_chance
from banditsolve.errors import SolverError
from banditsolve.rolling.game import GAME
from banditsolve.rolling.rules import Roll, apply, apply_unchecked, legal_actions
from banditsolve.rolling.solvers.safety import is_safe, plain_safe
from banditsolve.rolling.solvers.turn import (
    best_turn,
    chance_stealable,
    chance_to_lay,
    odds,
    roll_distribution,
)
from banditsolve.rolling.state import State
from tests.profiles import scaled
from tests.rolling import reference
from tests.rolling.helpers import position
from tests.rules import rules

TINY = GAME.with_edition(reference.TINY)


@rules("RB-ODDS-1")
@pytest.mark.parametrize("n", range(5))
def test_roll_distribution(n: int) -> None:
    assert roll_distribution(n) == reference.roll_distribution(n)


@rules("RB-ODDS-1")
def test_chance_to_lay_and_steal() -> None:
    # Player 1 has H2 on wagon 1 and rolls 3 dice.
    s = position([(2, "R", ["M3", "H2"]), (3, "H", ["B1", "S2"])], loco=[None, None],
                 phase="start", to_move=1)
    for sym, has in (("H", True), ("S", True), ("R", False)):
        got = chance_to_lay(s, "RMHBS".index(sym), 3)
        # a new symbol goes in front of the gang: wagon 0 (the locomotive) is free
        assert got == reference.chance_to_lay(3, sym, 3, has, True), sym
    # wagon 2 needs 3: one more S or joker; wagon 1: three more H/J to beat M3 ... or 2 + tie-free
    assert chance_stealable(s, 2) == 1 - Fraction(4, 6) ** 3
    with pytest.raises(SolverError):
        chance_stealable(s, 9)


#: Small positions for the brute-force odds: the README's (one die; laying R opens a trunk), a
#: gang in the middle with a trunk in front, a gang at the locomotive (no wagon in front: new
#: symbols cannot be laid, option front=keep) and the same with front=behind, and a tiny-edition
#: player with nothing on the train (three dice, the rearmost wagon; an outright theft is possible).
LAY_CASES = [
    "rb ed=default n=2 phase=start turn=1 wagons=6 train=0:5/5L:-:-|M4,2:2/2:R:H4|R2,"
    "3:3/3:-:-|-,4:1/1:-:-|-,5:2/2:-:-|-,6:3/3:-:-|- won=-|1:2/2 trunks=-|-",
    "rb ed=default n=2 phase=start turn=0 wagons=3 train=0:5/5L:-:-|-,1:2/2:H:-|-,"
    "2:3/3:-:M2|B1,3:2/2:-:R2|S3 won=-|- trunks=-|-",
    "rb ed=default n=2 phase=start turn=0 wagons=2 train=0:5/5L:-:R3|-,1:2/2:-:M2|B2,"
    "2:3/3:-:-|- won=-|- trunks=-|-",
    "rb ed=default n=2 phase=start turn=0 wagons=2 train=0:5/5L:-:R3|-,1:2/2:-:M2|B2,"
    "2:3/3:-:-|- opt=front:behind won=-|- trunks=-|-",
    "rb ed=tiny n=2 phase=start turn=0 wagons=3 train=0:3/3L:-:-|-,1:1/1:-:-|-,2:2/2:-:-|R1,"
    "3:2/2:-:-|- won=-|- trunks=-|-",
]


@rules("RB-ODDS-1", "RB-JOKER-1")
@pytest.mark.parametrize("text", LAY_CASES)
def test_lay_odds_against_every_dice_sequence(text: str) -> None:
    """``chance_to_lay`` and ``odds`` for every symbol and every ``k`` from 0 (certain: laying
    nothing is always possible) to one more than the dice rolled, against the ``6**n`` ordered
    rolls each searched through the rules engine's actions."""
    from banditsolve.rolling.solvers.turn import odds

    state = GAME.from_notation(text)
    for s, letter in enumerate("RMHBS"):
        expected = reference.lay_chances_by_sequences(state, s)
        assert expected[0] == 1
        assert expected[-1] == 0
        for k, want in enumerate(expected):
            assert chance_to_lay(state, s, k) == want, (letter, k)
            assert chance_to_lay(state, s, k, rerolls=False) == want, (letter, k)
    for k in (0, 1):
        lay = odds(state, k=k).lay
        assert lay == {
            f"{k}+ {letter}": str(reference.lay_chances_by_sequences(state, s)[k])
            for s, letter in enumerate("RMHBS")
        }
    assert set(odds(state, k=0).lay.values()) == {"1"}


def test_lay_odds_refuse_impossible_questions() -> None:
    from banditsolve.rolling.solvers.turn import odds

    state = GAME.from_notation(LAY_CASES[0])
    for k in (-1, 31, True):
        with pytest.raises(SolverError, match="dice to lay"):
            chance_to_lay(state, 0, k)
        with pytest.raises(SolverError, match="dice to lay"):
            odds(state, k=k)
    with pytest.raises(SolverError, match="symbol"):
        chance_to_lay(state, 5, 1)


def _random_positions(game: object, count: int, seed: int) -> list[tuple[State, int]]:
    """Start-of-turn positions of random tiny games with a wagon the previous player would
    steal: (state, wagon)."""
    rng = random.Random(seed)
    out: list[tuple[State, int]] = []
    while len(out) < count:
        state = TINY.new_game(2, seed=rng.randrange(10**6))
        for _ in range(400):
            if state.is_terminal:
                break
            if state.phase == "start" and len(out) < count:
                prev = (state.to_move - 1) % state.players
                mine = [c.id for c in state.train if state.stealer(c) == prev]
                if mine:
                    out.append((state, rng.choice(mine)))
            if state.is_chance:
                action = sample_chance(TINY, state, rng)
            else:
                acts = legal_actions(state)
                action = acts[rng.randrange(len(acts))]
            state = apply(state, action)
    return out


def _gang(rng: random.Random, wagons: int, dice: int) -> dict[int, str]:
    """A random gang: neighbouring wagons (1..wagons), distinct symbols, at most ``dice`` dice."""
    length = rng.randrange(0, min(wagons, dice) + 1)
    if not length:
        return {}
    start = rng.randrange(0, wagons - length + 1)
    symbols = rng.sample("RMHBS", length)
    left = dice - length
    out: dict[int, str] = {}
    for k in range(length):
        extra = rng.randrange(0, left + 1)
        left -= extra
        out[start + k] = f"{symbols[k]}{1 + extra}"
    return out


def _built_positions(count: int, seed: int) -> list[tuple[State, int]]:
    """Positions of the tiny edition built at random: player 1 about to start their turn, and a
    wagon player 0 would steal."""
    rng = random.Random(seed)
    out: list[tuple[State, int]] = []
    while len(out) < count:
        n = 3
        mine, theirs = _gang(rng, n + 1, 3), _gang(rng, n + 1, 3)
        wagons = []
        for i in range(n + 1):
            groups = f"{mine.get(i, '-')}|{theirs.get(i, '-')}"
            if i == 0:
                wagons.append(f"0:3/3L:-:{groups}")
            else:
                need = rng.choice((1, 2))
                trunk = rng.choice("RMHBS--")
                wagons.append(f"{i}:{need}/{need}:{trunk}:{groups}")
        text = (f"rb ed=tiny n=2 phase=start turn=1 wagons={n} train={','.join(wagons)} "
                "won=-|- trunks=-|-")
        try:
            state = TINY.from_notation(text)
        except ValueError:
            continue
        targets = [c.id for c in state.train if state.stealer(c) == 0]
        if targets:
            out.append((state, rng.choice(targets)))
    return out


@rules("RB-SAFE-1")
def test_safety_exact_agrees_with_plain_and_counterexamples_replay() -> None:
    cases = _random_positions(TINY, scaled(30, 300), 11) + _built_positions(scaled(80, 1500), 4)
    decided = 0
    for state, wagon in cases:
        exact = is_safe(state, wagon, backend="exact", node_limit=20000)
        plain = plain_safe(state, wagon, node_limit=60000)
        if exact.safe is None or plain.safe is None:
            continue
        decided += 1
        assert exact.safe == plain.safe, state.notation()
        if exact.safe is False:
            # replay the counterexample: it is legal and the wagon is not stolen
            s = state
            for text in exact.counterexample:
                s = apply(s, GAME.parse_action(s, text))
            assert s.is_terminal or s.to_move == exact.player or s.wagon(wagon) is None
            assert not any(w.id == wagon for w in s.won[exact.player])
    assert decided >= len(cases) // 2


@rules("RB-SAFE-1")
def test_safety_against_the_closed_form() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(scaled(40, 400)):
        length = 3
        wagons: list[tuple[int, str | None, list[str | None]]] = []
        # player 0's gang: one group on a chosen wagon, maybe another in front
        target = rng.randrange(1, length + 1)
        mine = rng.randrange(1, 4)
        for i in range(1, length + 1):
            need = rng.choice((1, 2))
            groups: list[str | None] = [f"R{mine}" if i == target else None, None]
            wagons.append((need, None, groups))
        state = position(wagons, loco=[None, None], phase="start", to_move=1)
        state = state.replace(edition="default")
        # rebuild for the tiny edition (3 dice per colour)
        tiny_state = TINY.from_notation(state.notation().replace("ed=default", "ed=tiny")
                                        .replace("0:5/5L", "0:3/3L"))
        distance = len(tiny_state.train) - 1 - tiny_state.index(target)
        need = wagons[target - 1][0]
        if mine < need:  # not held: the question is refused (RB-SAFE-1)
            with pytest.raises(SolverError, match=f"does not hold wagon {target}"):
                is_safe(tiny_state, target, 0)
            continue
        expected = reference.safe_from_empty_opponent(3, distance, mine, need)
        got = is_safe(tiny_state, target, 0)
        assert got.safe is expected, tiny_state.notation()
        checked += 1
    assert checked


@rules("RB-SAFE-1")
def test_safety_limits_answer_unknown_and_refuse_bad_questions() -> None:
    state = GAME.from_notation(
        "rb ed=default n=2 phase=start turn=1 wagons=2 train=0:5/5L:-:-|-,1:2/2:R:M3|H2,"
        "2:3/3:H:B1|S2 won=-|- trunks=-|-"
    )
    unknown = is_safe(state, 1, 0, node_limit=2)
    assert unknown.safe is None
    assert unknown.to_answer().status == "unknown"
    no = is_safe(state, 1, 0)
    assert no.safe is False
    assert no.to_answer().status == "no"
    assert no.to_answer().certificate
    with pytest.raises(SolverError):
        is_safe(state, 1, 1)  # player 1 is to move
    with pytest.raises(SolverError):
        is_safe(state, 7, 0)


@rules("RB-BEST-1")
def test_best_turn_shared_equals_plain() -> None:
    state = position([(2, "R", ["M1", "H2"]), (3, "H", ["B1", "S1"])], loco=[None, None],
                     phase="attack", roll="MJS")
    shared = best_turn(state)
    plain = best_turn(state, plain=True)
    assert shared.value == plain.value
    assert shared.plan == plain.plan
    assert shared.to_answer().status == "yes"
    # laying M and the joker on wagon 1 makes it 3-2 (stealable, 2 points), the S on wagon 2 ties
    assert (shared.value == 2 and shared.plan[:2] == ("lay M@1", "lay S@2")) or shared.value == 2
    tiny = TINY.new_game(2, seed=3)
    after_roll = apply_unchecked(tiny, Roll())
    for a, _ in TINY.chance_outcomes(after_roll)[:5]:
        s = apply_unchecked(after_roll, a)
        assert best_turn(s).value == best_turn(s, plain=True).value
    limited = best_turn(tiny, node_limit=5)
    assert limited.value is None
    assert limited.to_answer().status == "unknown"


@rules("RB-BEST-1")
def test_monte_carlo_is_labelled_an_estimate() -> None:
    from banditsolve.rolling.solvers.montecarlo import win_chances

    state = TINY.new_game(2, seed=4)
    result = win_chances(state, samples=4, policy="random", seed=1)
    answer = result.to_answer()
    assert answer.status == "unknown"
    assert answer.answer == "estimate"
    for e in result.estimates:
        assert e.samples == 4
        assert 0.0 <= e.low <= e.wins / e.samples <= e.high <= 1.0
    assert win_chances(state, samples=4, policy="random", seed=1) == result
    with pytest.raises(SolverError):
        win_chances(state, samples=0)


@rules("RB-ODDS-2", "RB-AGAIN-1")
@pytest.mark.parametrize("k", [1, 2, 3])
def test_odds_use_a_roll_again_trunk(k: int) -> None:
    from banditsolve.rolling.solvers.turn import odds

    state = GAME.from_notation(
        "rb ed=default n=2 phase=start turn=0 wagons=2 train=0:5/5L:-:-|-,1:2/2:-:R4|M4,"
        "2:3/3:-:-|- won=-|- trunks=M1r|- usable=1"
    )
    with_again = chance_to_lay(state, 0, k)
    assert with_again == reference.chance_to_lay_with_reroll(3, "R", k)
    without = reference.chance_to_lay(3, "R", k, True, True)
    assert chance_to_lay(state, 0, k, rerolls=False) == without
    assert with_again > chance_to_lay(state, 0, k, rerolls=False)
    result = odds(state, symbol=0, k=k)
    assert result.roll_again
    assert result.to_json()["roll_again"] is True
    assert result.lay[f"{k}+ R"] == str(with_again)


def _points_of(state: State, player: int) -> Fraction:
    from banditsolve.rolling.solvers.turn import steal_points

    return steal_points(state, player)


@rules("RB-BEST-1", "RB-ODDS-1")
def test_symmetric_tables_agree_with_plain_enumeration() -> None:
    """Best turns, trunk and steal odds keyed by symmetric positions (free symbols renamed,
    trunks out of reach forgotten) equal the plain enumeration on positions of random games."""
    from banditsolve.rolling.solvers.turn import chance_of_trunk, plain_turn_value
    from tests.rolling.cases import TINYX

    rng = random.Random(8)
    checked = 0
    while checked < scaled(40, 400):
        players = rng.choice((2, 3))
        state = TINYX.new_game(players, seed=rng.randrange(10**6))
        for _ in range(rng.randrange(0, 60)):
            if state.is_terminal:
                break
            if state.is_chance:
                action = sample_chance(TINYX, state, rng)
            else:
                acts = legal_actions(state)
                action = acts[rng.randrange(len(acts))]
            state = apply(state, action)
        if state.is_terminal or state.is_chance:
            continue
        p = state.to_move
        shared = best_turn(state)
        plain = plain_turn_value(state, partial(_points_of, player=p))
        assert shared.value == plain, state.notation()
        if state.phase == "start":
            for wagon in state.train:
                if wagon.trunk is not None:
                    assert chance_of_trunk(state, wagon.id) == plain_turn_value(
                        apply(state, Roll()),
                        lambda s: Fraction(0),
                        stop=lambda s, c=wagon.id: s.phase == "reveal"
                        and any(x == c for x, _ in s.pending),
                    )
                    break
        checked += 1


@rules("RB-BEST-1")
def test_best_turn_equals_plain_enumeration_after_rolls_of_the_default_edition() -> None:
    """After a roll of up to seven dice of the bundled edition (jokers, trunks of every kind,
    2 to 4 players): the shared search (tables, roll classes, deferred jokers, scored ends)
    gives the plain enumeration's value."""
    rng = random.Random(12)
    checked = 0
    while checked < scaled(25, 250):
        state = GAME.new_game(rng.choice((2, 3, 4)), seed=rng.randrange(10**6))
        for _ in range(rng.randrange(0, 120)):
            if state.is_terminal:
                break
            if state.is_chance:
                action = sample_chance(GAME, state, rng)
            else:
                acts = legal_actions(state)
                action = acts[rng.randrange(len(acts))]
            state = apply(state, action)
        if state.phase != "attack" or sum(state.roll) < 3:
            continue
        assert best_turn(state).value == best_turn(state, plain=True).value, state.notation()
        checked += 1


TEN_WAGONS = (
    "rb ed=default n=2 phase=start turn=0 wagons=10 train=0:5/5L:-:-|-,1:1/1:M:-|-,"
    "2:4/4:S:-|-,3:2/2:M:-|-,4:2/2:H:-|-,5:1/1:H:-|-,6:3/3:B:-|-,7:4/4:S:-|-,8:3/3:R:-|-,"
    "9:1/1:M:-|-,10:2/2:R:-|- won=-|- trunks=-|-"
)


def ten_wagon_start() -> State:
    """The start of a two-player game, the train dealt: its odds take about 90 s in all."""
    return GAME.from_notation(TEN_WAGONS)


@rules("RB-ODDS-1")
def test_odds_stop_at_their_limit_and_say_so() -> None:
    """The limits hold for all the odds of one call: once they run out, the odds not worked out
    are unknown, the answer says which limit stopped it, and its status is unknown (exit 3);
    the odds worked out before are the exact ones."""
    start = ten_wagon_start()
    cut = odds(start, node_limit=3000)
    assert cut.cut_short.startswith("the node limit ran out (3000 nodes)")
    values = [*cut.lay.values(), *cut.trunks.values(), *cut.stealable.values()]
    assert values[-1] == "unknown"
    known = [v for v in cut.lay.values() if v != "unknown"]
    assert known
    assert known == [str(chance_to_lay(start, s, 3)) for s in range(len(known))]
    answer = cut.to_answer()
    assert answer.status == "unknown"
    assert answer.exit_code == 3
    assert "cut short" in answer.reason


@rules("RB-SAFE-1", "RB-ODDS-1", "RB-BEST-1")
def test_the_solvers_refuse_arguments_of_the_wrong_type() -> None:
    """A wrong type is the library's error and a TypeError, in one line; never an
    AttributeError or a TypeError from inside (``is_safe(state, 2, 1.5)`` once answered)."""
    from banditsolve.errors import ArgumentTypeError, BanditsolveError
    from banditsolve.rolling.solvers.turn import chance_of_trunk, steal_chance

    state = ten_wagon_start()
    calls: list[Callable[[], object]] = [
        lambda: is_safe(state, 2, 1.5),  # type: ignore[arg-type]
        lambda: is_safe(state, 2.0),  # type: ignore[arg-type]
        lambda: is_safe(state, 2, True),
        lambda: is_safe(42, 2),  # type: ignore[arg-type]
        lambda: is_safe(None, 2),  # type: ignore[arg-type]
        lambda: best_turn("rb ed=default"),  # type: ignore[arg-type]
        lambda: odds(None),  # type: ignore[arg-type]
        lambda: chance_to_lay(42, 0, 3),  # type: ignore[arg-type]
        lambda: chance_of_trunk(state, "2"),  # type: ignore[arg-type]
        lambda: steal_chance(state, 2.5),  # type: ignore[arg-type]
        lambda: chance_stealable(state, None),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(ArgumentTypeError) as caught:
            call()
        assert isinstance(caught.value, TypeError)
        assert isinstance(caught.value, BanditsolveError)
        assert "\n" not in str(caught.value)
