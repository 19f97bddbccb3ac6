"""The rulebook's worked example, replayed (seed 000, 'Example'; seed 001, 'Örnek Senaryo')."""

from __future__ import annotations

from banditsolve.banditos.dice import Die
from banditsolve.banditos.notation import parse_position
from banditsolve.banditos.rules import (
    Drawn,
    EndTurn,
    GiveUp,
    Place,
    Reveal,
    Roll,
    apply,
    apply_all,
    legal_actions,
)
from tests.rules import rules

# Player 0 ("player 1" in the book) works on a colour three-of-a-kind of 6s at the 3-point tile
# (slot 1) and a three-of-a-kind of 5s at slot 3; slot 2 holds the 2-point tile.
BEFORE = "3:b6b6:k2/2::g4/1:k5r5:/1::g1 112233 -:- 0a"


@rules("LB-TURN-5", "LB-GIVE-1", "LB-WIN-1", "LB-WIN-2", "LB-TURN-3")
def test_rolling_a_one_and_a_six_and_giving_up_the_two() -> None:
    state = parse_position(BEFORE)
    one, six = Die.parse("r1"), Die.parse("g6")
    state = apply_all(state, [Roll(), Drawn((six, one))])
    assert set(state.hand) == {one, six}
    # He puts the 1 on the 2-point tile, then gives that tile up: player 1 takes it.
    state = apply(state, Place(one, 2))
    state = apply(state, GiveUp(2))
    assert state.scores == (0, 2)
    assert state.row[1] is None
    assert state.bag[2] == 5
    # A new tile is turned up in the same place; he places the 6 there and ends his turn.
    state = apply(state, Reveal(3))
    assert state.row[1] is not None
    assert state.row[1].value == 3
    assert Place(six, 2) in legal_actions(state)
    state = apply_all(state, [Place(six, 2), EndTurn()])
    assert state.row[1] is not None
    assert state.row[1].side(0) == (six,)
    assert state.to_move == 1


@rules("LB-TURN-5", "LB-GIVE-1")
def test_giving_up_first_is_also_allowed_but_leaves_the_one_to_place() -> None:
    state = apply_all(parse_position(BEFORE), ["roll", "drawn r1 g6", "give 2", "reveal 1"])
    assert state.scores == (0, 2)
    # The 1 must still go somewhere: onto one of his developing sides or the new tile.
    places = {a.slot for a in legal_actions(state) if isinstance(a, Place) and a.die.value == 1}
    assert places == {1, 2, 3, 4}
