"""The steal begins every turn: a position still at the start of a turn holds no wagon the player
to move would steal, and the readers refuse one that does (RB-STEAL-1, RB-NOTE-2)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from banditsolve.core.play import simulate
from banditsolve.errors import NotationError
from banditsolve.rolling.game import GAME
from banditsolve.rolling.reachable import trunk_qualifies
from banditsolve.rolling.rules import apply_all
from banditsolve.rolling.state import Group, Options, State, Wagon
from tests.cli_runner import run
from tests.profiles import scaled
from tests.rolling.helpers import position
from tests.rules import rules

#: The README's example before this check: player 1 to move at the start of their turn with
#: M4 on wagon 1 (2 needed) and nobody else there; the steal that began the turn never happened.
OLD_README = (
    "rb ed=default n=2 phase=start turn=1 wagons=6 train=0:5/5L:-:-|-,1:2/2:-:-|M4,"
    "2:2/2:R:H4|R2,3:3/3:-:-|-,4:1/1:-:-|-,5:2/2:-:-|-,6:3/3:-:-|- won=-|- trunks=-|-"
)
#: The README's example now: the four masks wait on the locomotive (5 needed), wagon 1 is theirs.
NEW_README = (
    "rb ed=default n=2 phase=start turn=1 wagons=6 train=0:5/5L:-:-|M4,2:2/2:R:H4|R2,"
    "3:3/3:-:-|-,4:1/1:-:-|-,5:2/2:-:-|-,6:3/3:-:-|- won=-|1:2/2 trunks=-|-"
)


def _refusal(text: str) -> str:
    with pytest.raises(NotationError) as exc:
        GAME.read_state(text)
    message = str(exc.value)
    assert "\n" not in message
    assert len(message) < 300
    return message


@rules("RB-NOTE-2", "RB-STEAL-1")
def test_the_old_readme_position_is_refused_naming_the_wagon_and_the_player() -> None:
    message = _refusal(OLD_README)
    assert "wagon 1 " in message
    assert "player 1" in message
    assert "steal" in message
    assert "turn begins with the steal" in message
    for verb in ("show", "moves", "safe"):
        args = (verb, OLD_README, "2") if verb == "safe" else (verb, OLD_README)
        answer = run("rolling", *args)
        assert answer.code == 2, verb
        assert answer.out == "", verb
        assert answer.err.count("\n") == 1, verb
        assert "wagon 1 " in answer.err, verb
    # the JSON reader says the same: the JSON of the new position with the masks moved back
    doc = GAME.to_json(GAME.from_notation(NEW_README))
    del doc["notation"]
    masks = doc["train"][0]["groups"][1]
    doc["train"][0]["groups"][1] = None
    doc["train"].insert(1, {"id": 1, "need": 2, "points": 2, "locomotive": False,
                            "trunk": None, "groups": [None, masks]})
    doc["won"] = [[], []]
    with pytest.raises(NotationError, match=r"wagon 1 is player 1's to steal"):
        GAME.from_json(doc)
    assert "wagon 1 is player 1's to steal" in _refusal(json.dumps(doc))
    # the roll that follows the steal (nothing laid yet) is judged the same way
    assert "phase roll" in _refusal(OLD_README.replace("phase=start", "phase=roll") + " air=1/0")


@rules("RB-NOTE-2", "RB-STEAL-1")
def test_the_new_readme_position_makes_the_same_point() -> None:
    state = GAME.from_notation(NEW_README)
    assert not any(state.stealer(c) == state.to_move for c in state.train)
    answer = run("rolling", "safe", NEW_README, "2")
    assert answer.code == 1
    assert answer.out.splitlines()[0] == (
        "wagon 2 can be lost before player 0's next turn: roll; rolled R; lay R@2; open R2b; end"
    )
    # after a laying the mover may well lead a wagon: they steal it as their next turn begins
    laid = apply_all(state, ["roll", "rolled M", "lay M@0"])
    assert laid.phase == "attack"
    assert state.stealer(state.train[0]) is None
    assert laid.stealer(laid.train[0]) == 1
    assert GAME.from_notation(GAME.to_notation(laid)) == laid
    assert GAME.from_json(GAME.to_json(laid)) == laid
    # ... and the opponent's turn, which comes first, begins without touching it
    ended = apply_all(laid, ["end"])
    assert ended.to_move == 0
    assert ended.wagon(0) is not None
    assert GAME.from_notation(GAME.to_notation(ended)) == ended


def _stealable(state: State) -> State | None:
    """``state`` with one of the mover's groups grown just enough to be theirs to steal, from
    the dice they hold (the gang and every other count unchanged), if they have the dice."""
    p = state.to_move
    in_hand = 7 - state.on_train(p)[0] - sum(state.roll) - state.airborne[0]
    for i, wagon in enumerate(state.train):
        group = wagon.groups[p]
        if group is None:
            continue
        others = max((wagon.count(q) for q in range(state.players) if q != p), default=0)
        grow = max(wagon.need, others + 1) - group.size
        if 0 < grow <= in_hand:
            bigger = Group(group.symbol, group.bandits + grow, group.mercs, group.natural + grow)
            grown = state.replace(
                train=(*state.train[:i], wagon.with_group(p, bigger), *state.train[i + 1 :])
            )
            if trunk_qualifies(grown, grown.train[i], p):
                continue  # (that group would have carried the wagon's trunk off: another rule)
            return grown
    return None


_OPTIONS = st.sampled_from(
    [{}, {"mercenaries": "on"}, {"jokers": "together", "front": "behind", "restart": "any"},
     {"cut": "rear_back"}, {"cut": "rear_back", "keep": "must_join", "locomotive": "last"}]
)


def _check_game(seed: int, players: int, options: dict[str, str]) -> int:
    """Play a random game; check its start-of-turn positions; how many were flipped."""
    if options.get("mercenaries") == "on":
        players = 2
    _, steps = simulate(GAME, seed=seed, players=players, options=options)
    flipped = 0
    for step in steps:
        state = step.state
        if state.phase not in ("start", "roll", "mroll"):
            continue
        # every position a game reaches is read back, whatever the reader
        assert GAME.from_notation(GAME.to_notation(state)) == state
        assert GAME.from_json(json.loads(json.dumps(GAME.to_json(state)))) == state
        if state.options.cut == "join":
            # the steal step left nothing for the mover (under rear_back it may: see below)
            assert not any(state.stealer(c) == state.to_move for c in state.train)
        bad = _stealable(state)
        if bad is None or state.options.cut == "rear_back":
            continue
        wagon = next(c for c in bad.train if bad.stealer(c) == bad.to_move)
        message = _refusal(GAME.to_notation(bad))
        assert f"wagon {wagon.id} is player {bad.to_move}'s to steal" in message
        with pytest.raises(NotationError, match="a turn begins with the steal"):
            GAME.from_json(GAME.to_json(bad))
        flipped += 1
    return flipped


@rules("RB-NOTE-1", "RB-NOTE-2", "RB-STEAL-1")
@settings(max_examples=scaled(10, 40))
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]), options=_OPTIONS)
def test_start_positions_of_random_games_are_read_back_and_a_steal_left_undone_is_refused(
    seed: int, players: int, options: dict[str, str]
) -> None:
    _check_game(seed, players, options)


@rules("RB-NOTE-2", "RB-STEAL-1")
def test_random_games_give_positions_to_flip() -> None:
    # the property above is not vacuous: these games flip start positions of every size
    for players in (2, 3, 4):
        assert _check_game(players, players, {}) > 0


def _rear_back_cut() -> tuple[State, State]:
    """Player 0 ends their turn; player 1 steals wagon 2 from the middle of player 0's gang, so
    under cut=rear_back player 0's H3 on wagon 3 goes home and leaves player 1's S2 alone there."""
    wagons: list[tuple[int, str | None, list[str | None]]] = [
        (2, None, ["R1", None]),
        (2, None, ["M1", "B3"]),
        (2, None, ["H3", "S2"]),
    ]
    join = position(wagons, loco=[None, None], roll="-")
    cut = position(wagons, loco=[None, None], roll="-", options=Options(cut="rear_back"))
    return apply_all(join, ["end"]), apply_all(cut, ["end"])


@rules("RB-NOTE-2", "RB-OPT-6")
def test_under_rear_back_the_steal_itself_can_leave_a_wagon_to_the_mover() -> None:
    join, cut = _rear_back_cut()
    assert join.phase == cut.phase == "start"
    assert join.to_move == cut.to_move == 1
    assert [w.id for w in cut.won[1]] == [2]
    wagon3 = cut.wagon(3)
    assert wagon3 is not None
    assert wagon3.groups[0] is None
    assert cut.stealer(wagon3) == 1
    assert join.wagon(3) is not None
    assert join.stealer(join.wagon(3)) == 0  # type: ignore[arg-type]
    # reached by play, so read back
    assert GAME.from_notation(GAME.to_notation(cut)) == cut
    assert GAME.from_json(GAME.to_json(cut)) == cut
    # the same train under cut=join cannot happen: the steal would have taken wagon 3 as well
    message = _refusal(GAME.to_notation(cut.replace(options=Options())))
    assert "wagon 3 is player 1's to steal" in message
    # nor under rear_back when nothing the mover took explains it: no wagon won in front of wagon 3
    # (and player 0 back on the rear of it)
    unexplained = cut.replace(won=((), ()), wagons=cut.wagons - 1,
                              train=tuple(_renumber(c) for c in cut.train))
    assert "wagon 2 is player 1's to steal" in _refusal(GAME.to_notation(unexplained))


def _renumber(wagon: Wagon) -> Wagon:
    """The wagons behind the stolen wagon 2 moved up one place (a train that never had wagon 2)."""
    return wagon if wagon.id < 2 else replace(wagon, id=wagon.id - 1)
