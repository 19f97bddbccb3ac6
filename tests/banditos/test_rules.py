"""Turn structure, claims, give-ups, resolution, refills and the end (LB-SETUP/TURN/CLAIM/...)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from banditsolve.banditos.dice import ALL_DICE, Die, parse_dice
from banditsolve.banditos.game import GAME
from banditsolve.banditos.notation import format_position, parse_position, to_json
from banditsolve.banditos.players import greedy_player, random_player
from banditsolve.banditos.rules import (
    Action,
    Claim,
    Drawn,
    EndTurn,
    GiveUp,
    Place,
    Reveal,
    Roll,
    apply,
    apply_all,
    chance_outcomes,
    legal_actions,
    parse_action,
)
from banditsolve.banditos.solvers.claims import claim_verdict_at
from banditsolve.banditos.state import Options, initial_state
from banditsolve.errors import (
    ArgumentTypeError,
    IllegalActionError,
    NotationError,
    RuleOptionError,
)
from tests.banditos.strategies import played_states
from tests.rules import rules

START = "1::/2::/3::/1:: 112233 -:- 0A"


def d(text: str) -> Die:
    return Die.parse(text)


@rules("LB-COMP-2", "LB-SETUP-1", "LB-SETUP-2")
def test_setup_turns_up_four_tiles_by_chance() -> None:
    state = initial_state()
    assert state.bag == (6, 6, 6, 6)
    assert state.stack == (4, 3, 3)
    assert state.is_chance
    outcomes = chance_outcomes(state)
    assert outcomes == [(Reveal(1), Fraction(4, 10)), (Reveal(2), Fraction(3, 10)),
                        (Reveal(3), Fraction(3, 10))]
    for value in (3, 3, 3, 2):
        state = apply(state, Reveal(value))
    assert [s.value for s in state.row if s] == [3, 3, 3, 2]
    assert state.stack == (4, 2, 0)
    assert not state.is_chance
    three_threes = apply_all(initial_state(), [Reveal(3), Reveal(3), Reveal(3)])
    assert Reveal(3) not in legal_actions(three_threes)
    with pytest.raises(IllegalActionError, match="no face-down tile worth 3"):
        apply(three_threes, Reveal(3))


@rules("LB-SETUP-3", "LB-TURN-2")
def test_either_player_may_start_with_the_one_die_turn() -> None:
    reveals = ["reveal 1", "reveal 2", "reveal 3", "reveal 1"]
    state = apply_all(initial_state(first_player=1), reveals)
    assert state.to_move == 1
    assert state.opening
    assert state.dice_to_draw == 1
    state = apply_all(state, ["roll", "drawn k1", "place k1 1", "end"])
    assert state.to_move == 0
    assert not state.opening
    assert state.dice_to_draw == 2


@rules("LB-TURN-7")
def test_the_bag_cannot_run_dry() -> None:
    # The fullest legal table: five dice on each of four tiles and two in hand.
    state = parse_position(
        "1:k1k1k1:k1k1/2:g1g1g1:g1g1/3:r1r1r1:r1r1/1:b1b1b1:b1b1 112233 -:- 0h:k2g2"
    )
    assert sum(state.bag) == 2
    with pytest.raises(NotationError):
        parse_position("1:k1k1k1:k1k1k1/2::/3::/1:: 112233 -:- 0a")


@rules("LB-TURN-2")
def test_opening_turn_draws_one_die_then_two() -> None:
    state = apply(parse_position(START), Roll())
    outcomes = chance_outcomes(state)
    assert len(outcomes) == 24
    assert all(p == Fraction(1, 24) for _, p in outcomes)
    state = apply_all(state, [Drawn((d("r5"),)), Place(d("r5"), 1), EndTurn()])
    assert state.to_move == 1
    assert not state.opening
    state = apply(state, Roll())
    probs: dict[Action, Fraction] = dict(chance_outcomes(state))
    assert sum(probs.values()) == 1
    # The bag holds 5 red and 6 of each other colour: 23 dice, two drawn without replacement.
    assert probs[Drawn((d("k1"), d("k1")))] == Fraction(6, 23) * Fraction(5, 22) / 36
    assert probs[Drawn((d("k1"), d("r2")))] == 2 * Fraction(6, 23) * Fraction(5, 22) / 36
    assert probs[Drawn((d("r3"), d("r3")))] == Fraction(5, 23) * Fraction(4, 22) / 36
    with pytest.raises(IllegalActionError):
        apply(state, Drawn((d("k1"),)))


@rules("LB-TURN-1", "LB-TURN-3")
def test_all_rolled_dice_must_be_placed_before_the_turn_ends() -> None:
    state = parse_position("1::/2::/3::/1:: 112233 -:- 0h:k1r6")
    assert EndTurn() not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="placed first"):
        apply(state, EndTurn())
    state = apply_all(state, ["place k1 2", "place r6 2"])
    assert state.row[1] is not None
    assert state.row[1].side(0) == parse_dice("k1 r6")
    assert state.row[1].side(1) == ()
    assert EndTurn() in legal_actions(state)
    after = apply(state, EndTurn())
    assert after.to_move == 1
    assert not after.rolled
    with pytest.raises(IllegalActionError):
        apply(parse_position(START), EndTurn())


@rules("LB-TURN-4")
def test_no_side_holds_more_than_three_dice() -> None:
    state = parse_position("1:k1k2k3:/2::/3::/1:: 112233 -:- 0h:k4")
    assert Place(d("k4"), 1) not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="already holds 3"):
        apply(state, Place(d("k4"), 1))


@rules("LB-TURN-5", "LB-GIVE-1")
def test_claims_and_give_ups_at_any_point_of_the_turn() -> None:
    before = parse_position("1:r6r6r6:/2::/3::/1:: 112233 -:- 0a")
    assert Claim(1) in legal_actions(before)
    assert GiveUp(2) in legal_actions(before)
    between = parse_position("1:r6r6r6:/2:k1:/3::/1:: 112233 -:- 0h:g2")
    assert {Claim(1), GiveUp(1), GiveUp(2), GiveUp(3), GiveUp(4)} <= set(legal_actions(between))
    after = parse_position("1:r6r6r6:/2::/3::/1:: 112233 -:- 0h:")
    assert Claim(1) in legal_actions(after)
    assert EndTurn() in legal_actions(after)


@rules("LB-TURN-6")
def test_a_die_with_no_place_forces_a_give_up() -> None:
    state = parse_position("1:k1k2k4:/2:g1g2g4:/3:r1r2r4:/1:b1b2b4: 112233 -:- 0h:k6")
    actions = legal_actions(state)
    assert all(isinstance(a, GiveUp) for a in actions)
    state = apply_all(state, ["give 4", "reveal 3"])
    assert Place(d("k6"), 4) in legal_actions(state)


@rules("LB-CLAIM-1")
def test_claim_verdicts_need_a_real_player_and_a_full_side() -> None:
    state = parse_position("1:r6r6r6:/2::/3::/1:: 112233 -:- 0a")
    assert claim_verdict_at(state, 1, player=0).safe
    for player in (1, 2, -1):
        with pytest.raises(IllegalActionError):
            claim_verdict_at(state, 1, player=player)
    with pytest.raises(IllegalActionError):
        claim_verdict_at(state, 5)


@rules("LB-CLAIM-1")
def test_a_claim_needs_three_own_dice() -> None:
    state = parse_position("1:r6r6:/2::/3::/1:: 112233 -:- 0a")
    assert Claim(1) not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="needs three"):
        apply(state, Claim(1))


@rules("LB-CLAIM-2", "LB-CLAIM-3", "LB-WIN-1")
def test_claims_win_only_when_unbeatable() -> None:
    state = parse_position("3:k4r5b6:g5g6/2::/1::/1:: 112233 -:- 0a")
    assert Claim(1) not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="unsafe"):
        apply(state, Claim(1))
    safe = parse_position("3:r6r6r6:g5g6/2::/1::/1:: 112233 -:- 0a")
    after = apply(safe, Claim(1))
    assert after.scores == (3, 0)
    assert after.bag == (6, 6, 6, 6)  # all five dice of the tile are back in the bag
    assert after.row[0] is None
    assert after.is_chance


@rules("LB-OPT-1")
def test_proof_option_strict_versus_bag() -> None:
    # No green die is in the bag (they all lie on tiles), so the claim is safe only under 'bag'.
    text = "3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0a"
    strict = parse_position(text)
    assert strict.bag[1] == 0
    assert not claim_verdict_at(strict, 1).safe
    assert claim_verdict_at(strict, 1, proof="bag").safe
    bag = parse_position(text + " proof=bag")
    assert bag.options == Options(proof="bag")
    assert Claim(1) in legal_actions(bag)
    assert Claim(1) not in legal_actions(strict)
    assert strict.availability(1) == (5, 4, 5, 5)


@rules("LB-OPT-3")
def test_an_empty_opposing_side_can_still_beat_a_claim() -> None:
    state = parse_position("3:k5k5g5:/2::/1::/1:: 112233 -:- 0a")
    verdict = claim_verdict_at(state, 1)
    assert not verdict.safe
    assert verdict.witness is not None
    assert len(verdict.witness) == 3


@rules("LB-RESOLVE-1", "LB-WIN-1", "LB-WIN-2")
def test_full_tiles_resolve_at_once_and_refill_in_place() -> None:
    state = parse_position("1::/2:k1k2:r6r6r6/3::/1:: 112233 -:- 0h:k3g4")
    state = apply(state, Place(d("k3"), 2))
    assert state.scores == (0, 2)  # colour three-of-a-kind of 6s beats the colour straight
    assert state.row[1] is None
    assert state.reveal_pending
    assert state.bag == (6, 5, 6, 6)
    assert state.hand == (d("g4"),)
    state = apply(state, Reveal(3))
    assert state.row[1] is not None
    assert state.row[1].value == 3
    assert state.stack == (2, 2, 1)


@rules("LB-RESOLVE-2")
def test_equal_combinations_go_to_the_first_completed_side() -> None:
    # Player 1 completed 6-5-4 first; player 0 matches it exactly and loses the tie.
    state = parse_position("2:k4r5:g4b5k6/2::/3::/1:: 111233 -:- 0h:b6")
    after = apply(state, Place(d("b6"), 1))
    assert after.scores == (0, 2)
    # One pip more and player 0 takes it instead, though player 1 was first.
    state = parse_position("2:k4r5:g3b4k5/2::/3::/1:: 111233 -:- 0h:b6")
    assert apply(state, Place(d("b6"), 1)).scores == (2, 0)


@rules("LB-WIN-2")
def test_row_shrinks_once_the_stack_is_used_up() -> None:
    state = parse_position("1::/2::/3::/1:: - 3321:21 0a")
    after = apply(state, GiveUp(3))
    assert after.row[2] is None
    assert not after.is_chance
    assert GiveUp(3) not in legal_actions(after)


@rules("LB-END-1")
def test_the_game_ends_the_moment_ten_points_are_reached() -> None:
    state = parse_position("1::/3:r6r6r6:/1::/1:: 23 322:1 0h:k1k2")
    assert state.winner is None
    after = apply(state, Claim(2))
    assert after.scores == (10, 1)
    assert after.winner == 0
    assert after.is_terminal
    assert legal_actions(after) == []
    with pytest.raises(IllegalActionError, match="over"):
        apply(after, Place(d("k1"), 1))


@rules("LB-NOTE-2")
def test_action_text_round_trips() -> None:
    actions = [Claim(1), GiveUp(4), Roll(), Place(d("r5"), 2), EndTurn(),
               Drawn((d("g3"), d("r5"))), Reveal(2)]
    for action in actions:
        assert parse_action(str(action)) == action


@rules("LB-NOTE-2")
def test_legal_actions_come_in_a_fixed_order() -> None:
    state = parse_position("1:r6r6r6:/2::/3::/1:: 112233 -:- 0h:k1r6")
    actions = legal_actions(state)
    kinds = [type(a).__name__ for a in actions]
    assert kinds == sorted(kinds, key=["Claim", "GiveUp", "Roll", "Place", "EndTurn"].index)
    places = [a for a in actions if isinstance(a, Place)]
    assert places == sorted(places, key=lambda a: (a.die, a.slot))
    assert legal_actions(state) == actions


def _action_universe() -> list[Action]:
    """Every action of every kind (most illegal in any one state), and some that never are."""
    actions: list[Action] = [Roll(), EndTurn()]
    for slot in (0, 1, 2, 3, 4, 5):
        actions += [Claim(slot), GiveUp(slot)]
        actions += [Place(die, slot) for die in ALL_DICE]
    actions += [Reveal(v) for v in (0, 1, 2, 3, 4)]
    actions += [Drawn((die,)) for die in ALL_DICE]
    actions += [Drawn((a, b)) for a in ALL_DICE[::5] for b in ALL_DICE[::7] if a <= b]
    return actions


@rules("LB-NOTE-2")
def test_illegal_actions_leave_the_state_unchanged() -> None:
    universe = _action_universe()
    states = [initial_state(), parse_position("1::/2::/3::/1:: 112233 -:- 0h:k1")]
    for seed in range(6):
        played = played_states((greedy_player, random_player), seed=seed)
        states += [*played[::max(1, len(played) // 12)], played[-1]]
    illegal = 0
    for state in states:
        legal = legal_actions(state)
        before = (state.notation(), to_json(state), hash(state))
        accepted = []
        for action in universe:
            try:
                apply(state, action)
            except IllegalActionError:
                illegal += 1
                assert (state.notation(), to_json(state), hash(state)) == before, action
            else:
                accepted.append(action)
        # apply accepts exactly the listed actions (and a chance outcome only if it is one).
        listed = [a for a in universe if a in legal]
        assert accepted == listed, state.notation()
        assert (state.notation(), to_json(state), hash(state)) == before
    assert illegal > 1000  # the test really tried illegal actions


@rules("LB-TURN-6", "LB-OPT-4")
def test_unplaceable_dice_must_make_room_by_default_or_go_back_under_the_option() -> None:
    full = "1:k1k2k4:/2:g1g2g4:/3:r1r2r4:/1:b1b2b4: 112233 -:- 0h:k6"
    state = parse_position(full)
    assert state.options.unplaceable == "give_up"
    assert EndTurn() not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="every rolled die must be placed"):
        apply(state, EndTurn())
    returning = parse_position(full + " unplaceable=return")
    assert returning.options == Options(unplaceable="return")
    assert format_position(returning) == full + " unplaceable=return"
    assert legal_actions(returning) == [*legal_actions(state), EndTurn()]
    after = apply(returning, EndTurn())
    assert after.hand == ()
    assert after.to_move == 1
    assert not after.rolled
    assert after.bag == (state.bag[0] + 1, *state.bag[1:])  # the black 6 is back in the bag
    # With room on any own side the die must still be placed, under either reading.
    roomy = parse_position(
        "1:k1k2:/2:g1g2g4:/3:r1r2r4:/1:b1b2b4: 112233 -:- 0h:k6 unplaceable=return"
    )
    assert EndTurn() not in legal_actions(roomy)
    with pytest.raises(IllegalActionError):
        apply(roomy, EndTurn())
    # Giving up stays legal under the option.
    assert GiveUp(1) in legal_actions(returning)


@rules("LB-OPT-4", "LB-OPT-1")
def test_rule_options_are_listed_with_their_default_first_and_validated() -> None:
    assert GAME.option_set.names() == {
        "proof": ("strict", "bag"),
        "unplaceable": ("give_up", "return"),
    }
    assert GAME.new_game(options={"unplaceable": "return"}).options.unplaceable == "return"
    assert Options() == Options(proof="strict", unplaceable="give_up")
    for bad in ({"unplaceable": "pass"}, {"proof": 3}, {"colour": "red"}, {"proof": None}):
        with pytest.raises(RuleOptionError):
            GAME.new_game(options=bad)
    with pytest.raises(ArgumentTypeError):  # not a mapping: a wrong type
        GAME.new_game(options=["proof"])  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="given twice"):
        parse_position("1::/2::/3::/1:: 112233 -:- 0a proof=bag proof=bag")
    with pytest.raises(NotationError, match="option unplaceable takes one of give_up, return"):
        parse_position("1::/2::/3::/1:: 112233 -:- 0a unplaceable=pass")
