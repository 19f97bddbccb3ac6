"""``rules.validate``, the one place that says which states Los Banditos can reach: every rule it
checks refuses a state that breaks that rule alone, with one line naming the rule's ID; every
state a game reaches passes; the readers and the adapter go through it (LB-NOTE-1)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from banditsolve.banditos import rules
from banditsolve.banditos.dice import DICE_PER_COLOUR, Die, parse_dice
from banditsolve.banditos.game import GAME
from banditsolve.banditos.notation import format_position, parse_position, to_json
from banditsolve.banditos.players import greedy_player, random_player
from banditsolve.banditos.state import Options, Slot, State, initial_state
from banditsolve.errors import ArgumentTypeError, NotationError
from tests.banditos.strategies import played_states
from tests.rules import rules as rule_ids

#: A reachable middle-game position: player 0 to move, before rolling (the README's).
POSITION = "3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0a"
BASE = parse_position(POSITION)

#: The rules about the kinds of the fields: the others read the fields, so only these may meet
#: a state whose fields are of the wrong kind.
KIND_RULES = (rules.check_row_kinds, rules.check_count_kinds, rules.check_turn_kinds)


def tile(text: str) -> Slot | None:
    """A slot in the notation's form, ``V:DICE0:DICE1`` or ``-``, read without any check."""
    if text == "-":
        return None
    value, mine, theirs = text.split(":")
    return Slot(int(value), (tuple(sorted(parse_dice(mine))), tuple(sorted(parse_dice(theirs)))))


def state(base: State = BASE, *, row: str | None = None, **changes: Any) -> State:
    """``base`` with ``changes`` (``row`` in the notation's form) and the bag holding every die
    not on a tile or in hand, so that a case breaks its own rule and not the bag's."""
    if row is not None:
        slots = tuple(tile(t) for t in row.split("/"))
        changes["row"] = (slots[0], slots[1], slots[2], slots[3])
    built = replace(base, **changes)
    used = rules.dice_out(built)
    bag = tuple(DICE_PER_COLOUR - n for n in used)
    return replace(built, bag=(bag[0], bag[1], bag[2], bag[3]))


def d(text: str) -> Die:
    return Die.parse(text)


# Each case: the rule it breaks, its ID, a state breaking it, and a fragment of the message.
Case = tuple[Callable[[State], None], str, State, str]
CASES: list[Case] = [
    (rules.check_row_kinds, "LB-SETUP-1", replace(BASE, row=(None, None, None)),  # type: ignore[arg-type]
     "the row is 4 slots"),
    (rules.check_row_kinds, "LB-COMP-2", replace(BASE, row=(Slot(4), None, None, None)),
     "slot 1 holds"),
    (rules.check_row_kinds, "LB-SETUP-1",
     replace(BASE, row=(Slot(1, ("r5", ())), None, None, None)),  # type: ignore[arg-type]
     "a tile has two sides of dice"),
    (rules.check_count_kinds, "LB-COMP-2", replace(BASE, stack=(1, 2)),  # type: ignore[arg-type]
     "the stack is three counts"),
    (rules.check_count_kinds, "LB-COMP-1", replace(BASE, bag=(6, 6, 6)),  # type: ignore[arg-type]
     "the bag is four counts"),
    (rules.check_count_kinds, "LB-COMP-2", replace(BASE, won=((4,), ())),
     "the won tiles are two lists of tile values"),
    (rules.check_turn_kinds, "LB-SETUP-1", replace(BASE, to_move=2),
     "the player to move is 0 or 1"),
    (rules.check_turn_kinds, "LB-TURN-2", replace(BASE, rolled="yes"),  # type: ignore[arg-type]
     "true or false"),
    (rules.check_turn_kinds, "LB-TURN-2", replace(BASE, hand=["r5"]),  # type: ignore[arg-type]
     "the dice in hand are a tuple of dice"),
    (rules.check_turn_kinds, "LB-OPT-1", replace(BASE, options="bag"),  # type: ignore[arg-type]
     "the rule options are Options"),
    (rules.check_order, "LB-NOTE-1",
     replace(BASE, row=(Slot(3, ((d("r5"), d("k4"), d("b6")), (d("g5"), d("g6")))), *BASE.row[1:])),
     "slot 1, player 0's side r5 k4 b6 is not in ascending order"),
    (rules.check_order, "LB-NOTE-1",
     state(rolled=True, hand=(d("r1"), d("k1"))), "the hand r1 k1 is not in ascending order"),
    (rules.check_order, "LB-NOTE-1", state(won=((1, 2), (3,))),
     "player 0's won tiles are not listed largest first"),
    (rules.check_side_size, "LB-TURN-4",
     state(row="3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3b3:"),
     "slot 4, player 0's side: 4 dice, but at most 3 may lie on a side"),
    (rules.check_resolved, "LB-RESOLVE-1",
     state(row="3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4b4b5/1:b2b2k3:"),
     "slot 3: both sides hold 3 dice, but such a tile is resolved at once"),
    (rules.check_tile_counts, "LB-COMP-2", state(stack=(2, 1, 1)),
     "tiles worth 1: the row, stack and won tiles hold 5, the game has 4"),
    (rules.check_tile_counts, "LB-COMP-2", state(won=((2, 1), (3, 3))),
     "tiles worth 3: the row, stack and won tiles hold 4, the game has 3"),
    (rules.check_dice_counts, "LB-COMP-1",
     state(row="3:k4r5b6:b5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2b3:b4b5"),
     "7 blue dice on the tiles and in hand, but the game has only 6"),
    (rules.check_bag, "LB-COMP-1", replace(BASE, bag=(2, 0, 2, 2)),
     "the bag holds (2, 0, 2, 2) dice per colour, but the dice not on a tile or in hand are "
     "(2, 0, 2, 3)"),
    (rules.check_phase, "LB-TURN-2", state(rolled=True, roll_pending=True),
     "the dice cannot be rolled and their draw pending at once"),
    (rules.check_phase, "LB-TURN-2", state(hand=(d("r1"),)),
     "1 die in hand, but this turn's dice are not drawn yet"),
    (rules.check_hand_size, "LB-TURN-2",
     state(row="3:k4r5b6:g5g6/2:k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3:", rolled=True,
           hand=(d("k1"), d("k2"), d("r1"))),
     "3 dice in hand, but this turn draws only 2 dice"),
    (rules.check_opening, "LB-TURN-2", state(opening=True),
     "an opening turn (A, R or H) cannot have tiles won by the player to move"),
    (rules.check_opening, "LB-TURN-2", state(parse_position("1::/2::/3::/1:: 112233 -:- 0A"),
                                              row="1:k1:g2/2::/3::/1::"),
     "dice on the tiles other than that player's one die"),
    (rules.check_after_opening, "LB-TURN-2",
     state(parse_position("1::/2::/3::/1:: 112233 -:- 0A"), opening=False),
     "after the opening turn a die lies on a tile or a tile has been won"),
    (rules.check_refill, "LB-WIN-2", state(row="-/-/1:r6r6r6:g4/1:b2b2k3:", stack=(1, 2, 2)),
     "slots 1, 2 wait for a tile while face-down tiles remain"),
    (rules.check_refill, "LB-WIN-2",
     state(parse_position("-/-/-/- 1111222333 -:- 0A"),
           row="-/3::/3::/-", stack=(4, 3, 1)),
     "slots 1, 4 wait for a tile"),
    (rules.check_refill_first, "LB-WIN-2",
     state(row="-/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3:", stack=(1, 1, 2), roll_pending=True),
     "a draw cannot be pending while a slot waits for a tile"),
    (rules.check_over, "LB-END-1",
     state(parse_position("1::/3:r1:/1::/1:: 12 3322:- 1a"), roll_pending=True),
     "the game is over, so no draw can be pending"),
]


def _label(case: Case) -> str:
    return f"{case[0].__name__}:{case[3][:40]}"


@rule_ids("LB-NOTE-1")
def test_every_rule_validate_checks_has_a_case_here() -> None:
    assert {case[0] for case in CASES} == set(rules.REACHABILITY)


@rule_ids(
    "LB-NOTE-1", "LB-SETUP-1", "LB-SETUP-2", "LB-COMP-1", "LB-COMP-2", "LB-TURN-2", "LB-TURN-4",
    "LB-RESOLVE-1", "LB-WIN-2", "LB-END-1",
)
@pytest.mark.parametrize("case", CASES, ids=_label)
def test_each_rule_refuses_a_state_that_breaks_it_alone(case: Case) -> None:
    rule, rule_id, broken, fragment = case
    with pytest.raises(NotationError) as info:
        rules.validate(broken)
    message = str(info.value)
    assert fragment in message, message
    assert message.endswith(f"({rule_id})"), message
    assert "\n" not in message
    with pytest.raises(NotationError, match=rule_id):
        rule(broken)  # the rule itself refuses it
    with pytest.raises(NotationError, match=rule_id):
        GAME.validate(broken)  # and so does the adapter
    if rule in KIND_RULES:
        return
    for other in rules.REACHABILITY:  # every other rule accepts it: it breaks this one alone
        if other is not rule:
            other(broken)


@rule_ids("LB-NOTE-1")
def test_every_reached_state_is_valid() -> None:
    checked = 0
    for seed in range(12):
        for options in (Options(), Options(proof="bag", unplaceable="return")):
            for reached in played_states((greedy_player, random_player), seed=seed,
                                         options=options):
                rules.validate(reached)
                GAME.validate(reached)
                checked += 1
    rules.validate(initial_state())
    assert checked > 400


@rule_ids("LB-NOTE-1")
def test_the_readers_refuse_what_validate_refuses() -> None:
    for rule, rule_id, broken, _fragment in CASES:
        if rule in (*KIND_RULES, rules.check_order, rules.check_bag, rules.check_phase):
            continue  # the forms cannot write these: they sort, derive the bag, name one phase
        with pytest.raises(NotationError, match=rule_id):
            parse_position(format_position(broken))
        with pytest.raises(NotationError, match=rule_id):
            GAME.from_json(to_json(broken))
        with pytest.raises(NotationError, match=rule_id):
            GAME.read_state(format_position(broken))


def test_validate_refuses_what_is_not_a_state() -> None:
    with pytest.raises(ArgumentTypeError, match="must be a State"):
        rules.validate(POSITION)
