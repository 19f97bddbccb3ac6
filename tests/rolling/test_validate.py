"""``rules.validate`` says what a reachable state is: one check per rule (RB-NOTE-2).

Each case takes a reachable position, breaks exactly one rule, and sees the state refused by
``rules.validate`` (and ``GAME.validate``) with one line ending with that rule's ID, and by the
notation and JSON readers too, which hold no rule of their own and call it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

import pytest

from banditsolve.errors import NotationError
from banditsolve.rolling import reachable
from banditsolve.rolling.edition import BOMB, NOTHING
from banditsolve.rolling.game import GAME
from banditsolve.rolling.rules import DealWagon, apply, chance_outcomes, parse_faces, validate
from banditsolve.rolling.state import Group, Held, Options, State, Wagon, Won
from tests.rules import rules

#: Player 1 to move at the start of their turn: the locomotive (M4 of player 1), wagon 1 taken by
#: player 1, wagon 2 (revolver trunk) with H4 of player 0 and R2 of player 1, wagons 3 to 6 empty.
START = GAME.from_notation(
    "rb ed=default n=2 phase=start turn=1 wagons=6 train=0:5/5L:-:-|M4,2:2/2:R:H4|R2,"
    "3:3/3:-:-|-,4:1/1:-:-|-,5:2/2:-:-|-,6:3/3:-:-|- won=-|1:2/2 trunks=-|-"
)
#: Player 0 attacking with a revolver and a joker rolled, one roll-again trunk held (wagon 3's:
#: one trunk was dealt to each of the three wagons).
ATTACK = GAME.from_notation(
    "rb ed=default n=2 phase=attack turn=0 wagons=3 train=0:5/5L:-:-|-,1:2/2:R:M1|H2,"
    "2:3/3:H:B1|S1,3:1/1:-:-|- won=-|- trunks=M1r|- roll=RJ usable=1"
)
#: Three players, the train being dealt (two wagons so far).
SETUP = apply(apply(GAME.new_game(3), DealWagon(1, 1)), DealWagon(2, 2))


def _wagon(state: State, wagon_id: int, **changes: object) -> State:
    """``state`` with wagon ``wagon_id`` changed."""
    train = tuple(replace(c, **changes) if c.id == wagon_id else c for c in state.train)  # type: ignore[arg-type]
    return state.replace(train=train)


def _group(state: State, wagon_id: int, player: int, group: Group | None) -> State:
    wagon = state.wagon(wagon_id)
    assert wagon is not None
    return _wagon(state, wagon_id, groups=wagon.with_group(player, group).groups)


def _complete_setup() -> State:
    """The three-player set-up once every wagon is dealt (trunks next)."""
    state = GAME.new_game(3)
    while state.phase == "deal-wagon":
        state = apply(state, chance_outcomes(state)[0][0])
    return state


def _all_taken(state: State) -> State:
    """Every wagon taken by player 1, the turn still going on."""
    train = tuple(Won(c.id, c.need, c.points, c.loco) for c in state.train)
    return state.replace(train=(), won=((), (*train, *state.won[1])))


def _all_revolvers_held() -> State:
    """Player 0 holds every revolver tile, while wagon 2 still shows a revolver trunk."""
    tiles = [t for t in GAME.edition.trunks if t.symbol == 0]
    held = tuple(Held(t.symbol, t.value, t.content, t.content != NOTHING) for t in tiles)
    return START.replace(trunks=(held, ()))


def _more_trunks_than_wagons() -> State:
    """Six wagons dealt, wagon 2's trunk still down, and six more opened in player 0's hands."""
    tiles = [t for t in GAME.edition.trunks if t.symbol != 0][:6]
    held = tuple(Held(t.symbol, t.value, t.content, t.content in (BOMB,)) for t in tiles)
    return START.replace(trunks=(held, ()))


#: (the check, its rule ID, a word of its message, the state breaking that rule alone).
CASES: list[tuple[str, str, str, Callable[[], State]]] = [
    ("check_players", "RB-SETUP-3", "2 to 4 players", lambda: START.replace(players=5)),
    ("check_players", "RB-SETUP-3", "per player", lambda: START.replace(reserve=(0, 0, 0))),
    ("check_phase", "RB-TURN-1", "phase", lambda: START.replace(phase="lunch")),
    ("check_groups", "RB-ATTACK-2", "a die", lambda: _group(START, 3, 0, Group(0, 0, 0, 0))),
    ("check_groups", "RB-ATTACK-2", "natural", lambda: _group(START, 2, 0, Group(2, 4, 0, 5))),
    ("check_wagons_once", "RB-SETUP-1", "twice",
     lambda: START.replace(won=((Won(2, 2, 2, False),), START.won[1]))),
    ("check_locomotive_first", "RB-SETUP-1", "locomotive", lambda: _wagon(START, 3, loco=True)),
    ("check_wagon_numbers", "RB-SETUP-1", "larger than the train",
     lambda: START.replace(wagons=5)),
    ("check_wagon_count", "RB-SETUP-1", "only 16 wagons", lambda: START.replace(wagons=17)),
    ("check_wagons_accounted", "RB-STEAL-2", "in play and taken",
     lambda: START.replace(train=START.train[:-1])),
    ("check_train_order", "RB-STEAL-3", "train order",
     lambda: START.replace(train=(*START.train[:2], START.train[3], START.train[2],
                                  *START.train[4:]))),
    ("check_end", "RB-END-1", "only when the train is empty",
     lambda: START.replace(phase="over")),
    ("check_end", "RB-END-1", "empty train", lambda: _all_taken(START)),
    ("check_hoard", "RB-SETUP-3", "hoard dice", lambda: _group(START, 3, 0, Group(1, 4, 0, 4))),
    ("check_mercenary_count", "RB-MERC-1", "mercenaries",
     lambda: START.replace(options=Options(mercenaries="on"), reserve=(8, 0))),
    ("check_gang", "RB-ATTACK-6", "neighbouring", lambda: _group(START, 4, 0, Group(0, 1, 0, 1))),
    ("check_one_group_per_symbol", "RB-ATTACK-3", "two groups of one symbol",
     lambda: _group(START, 3, 0, Group(2, 1, 0, 1))),
    ("check_mercenaries_in_variant", "RB-OPT-8", "mercenary variant",
     lambda: START.replace(reserve=(1, 0))),
    ("check_mercenary_players", "RB-MERC-1", "two players",
     lambda: SETUP.replace(options=Options(mercenaries="on"))),
    ("check_usable", "RB-TRUNK-5", "usable", lambda: START.replace(usable=1)),
    ("check_rolled_dice", "RB-ATTACK-1", "outside the attack",
     lambda: START.replace(roll=parse_faces("R"))),
    ("check_dice_in_the_air", "RB-ROLL-2", "in the air", lambda: ATTACK.replace(airborne=(1, 0))),
    ("check_mercenary_roll", "RB-MERC-2", "mercenary roll", lambda: ATTACK.replace(phase="mroll")),
    ("check_pending", "RB-TRUNK-2", "pending", lambda: ATTACK.replace(phase="reveal")),
    ("check_pending_wagons", "RB-TRUNK-1", "pending trunk on wagon 3",
     lambda: ATTACK.replace(phase="reveal", pending=((3, False),))),
    ("check_joker_wagon", "RB-OPT-1", "jc", lambda: START.replace(joker_wagon=2)),
    ("check_wagon_deal", "RB-SETUP-1", "complete",
     lambda: _complete_setup().replace(phase="deal-wagon")),
    ("check_setup_untouched", "RB-SETUP-1", "set-up",
     lambda: _group(SETUP, 2, 1, Group(0, 1, 0, 1))),
    ("check_trunk_deal", "RB-SETUP-2", "front to back", lambda: SETUP.replace(phase="deal-trunk")),
    ("check_locomotive_trunk", "RB-SETUP-2", "locomotive has no trunk",
     lambda: _wagon(START, 0, trunk=3)),
    ("check_wagons", "RB-COMP-6", "wagons", lambda: _wagon(START, 3, need=9, points=9)),
    ("check_locomotive", "RB-COMP-3", "locomotive differs", lambda: _wagon(START, 0, need=6)),
    ("check_trunk_tiles", "RB-COMP-5", "trunks that the edition does not have",
     lambda: START.replace(trunks=((Held(0, 2, 1, True),) * 2, ()))),
    ("check_face_down_trunks", "RB-TRUNK-2", "no revolver trunk is left for wagon 2",
     _all_revolvers_held),
    ("check_steal_step", "RB-STEAL-1", "wagon 0 is player 1's to steal",
     lambda: _group(START, 0, 1, Group(1, 5, 0, 5))),
    ("check_groups", "RB-JOKER-1", "all jokers", lambda: _group(START, 2, 0, Group(2, 4, 0, 0))),
    ("check_pending_wagons", "RB-TRUNK-1", "does not carry it off",
     lambda: ATTACK.replace(phase="reveal", pending=((1, False),))),
    ("check_trunks_left_on_the_train", "RB-TRUNK-1", "would have carried its trunk off",
     lambda: _group(START, 2, 1, Group(0, 3, 0, 3))),
    ("check_trunk_count", "RB-SETUP-2", "more than the 6 wagons", _more_trunks_than_wagons),
    ("check_used_trunks", "RB-TRUNK-3", "a bomb not marked used",
     lambda: START.replace(trunks=((Held(1, 2, BOMB, False),), ()))),
    ("check_used_trunks", "RB-TRUNK-5", "an empty trunk marked used",
     lambda: START.replace(trunks=((), (Held(1, 1, NOTHING, True),)))),
    ("check_ambush_step", "RB-AMBUSH-1", "no unused ambush trunk",
     lambda: START.replace(phase="ambush")),
]


def _refused(check: Callable[[], object], rule: str, word: str) -> str:
    with pytest.raises(NotationError) as exc:
        check()
    message = str(exc.value)
    assert "\n" not in message
    assert message.endswith(f"({rule})"), message
    assert word in message, message
    return message


@rules("RB-NOTE-2", "RB-SETUP-1", "RB-SETUP-2", "RB-SETUP-3", "RB-STEAL-1", "RB-STEAL-2",
       "RB-STEAL-3", "RB-END-1", "RB-ATTACK-1", "RB-ATTACK-2", "RB-ATTACK-3", "RB-ATTACK-6",
       "RB-MERC-1", "RB-MERC-2", "RB-OPT-1", "RB-OPT-8", "RB-ROLL-2", "RB-TRUNK-1", "RB-TRUNK-2",
       "RB-TRUNK-5", "RB-COMP-3", "RB-COMP-5", "RB-COMP-6", "RB-TURN-1", "RB-JOKER-1",
       "RB-TRUNK-3", "RB-AMBUSH-1")
@pytest.mark.parametrize(("check", "rule", "word", "make"), CASES,
                         ids=[f"{c}-{i}" for i, (c, *_) in enumerate(CASES)])
def test_a_state_breaking_one_rule_is_refused_naming_it(
    check: str, rule: str, word: str, make: Callable[[], State]
) -> None:
    state = make()
    message = _refused(lambda: validate(state), rule, word)
    assert _refused(lambda: GAME.validate(state), rule, word) == message
    # the check named is the one that refuses it: every check before it lets the state pass
    edition = GAME.edition
    names = [c.__name__ for c in reachable.CHECKS]
    for earlier in reachable.CHECKS[: names.index(check)]:
        earlier(state, edition)
    _refused(lambda: getattr(reachable, check)(state, edition), rule, word)
    # the readers refuse it the same way (the shape of a state is the readers' own: a wrong
    # number of players or an unknown phase never gets as far as the rules)
    if check in ("check_players", "check_phase"):
        return
    text, doc = GAME.to_notation(state), GAME.to_json(state)
    assert message in _refused(lambda: GAME.from_notation(text), rule, word)
    assert message in _refused(lambda: GAME.read_state(json.dumps(doc)), rule, word)


@rules("RB-NOTE-2")
def test_every_check_has_a_case_and_the_bases_are_reachable() -> None:
    assert {c.__name__ for c in reachable.CHECKS} == {check for check, *_ in CASES}
    for state in (START, ATTACK, SETUP, _complete_setup()):
        validate(state)
    assert GAME.from_json(GAME.to_json(ATTACK)) == ATTACK


@rules("RB-NOTE-2", "RB-TRUNK-2")
def test_more_face_down_trunks_than_tiles_are_refused() -> None:
    # wagon 2's revolver trunk and wagon 3's: all the revolver tiles but one are held
    tiles = [t for t in GAME.edition.trunks if t.symbol == 0][1:]
    held = tuple(Held(t.symbol, t.value, t.content, t.content != NOTHING) for t in tiles)
    two = _wagon(START, 3, trunk=0).replace(trunks=(held, ()))
    # one revolver tile is left, for either wagon: accepted, and read back the same
    assert GAME.from_notation(GAME.to_notation(two)) == two
    # every tile of every symbol but that revolver held: two face-down trunks, one tile
    box = GAME.edition.trunks
    rest = tuple(Held(t.symbol, t.value, t.content, t.content != NOTHING) for t in box)
    every = tuple(h for h in rest if h.symbol != 0) + held
    state = _wagon(START, 3, trunk=0).replace(trunks=(every, ()))
    _refused(lambda: validate(state), "RB-TRUNK-2", "more face-down trunks than tiles left")


@rules("RB-NOTE-2")
def test_validate_refuses_what_is_not_a_state() -> None:
    with pytest.raises(NotationError, match="not a Rolling Bandits state"):
        validate("rb ed=default")  # type: ignore[arg-type]
    with pytest.raises(NotationError, match="not a Rolling Bandits state"):
        GAME.validate(Wagon(0, 5, 5, True, None, (None, None)))  # type: ignore[arg-type]
