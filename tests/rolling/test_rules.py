"""The rules of Rolling Bandits, one test per rule of specs/rolling-bandits.md."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from banditsolve.errors import DataError, IllegalActionError, RuleOptionError
from banditsolve.rolling.edition import default_edition, load_edition, parse_edition
from banditsolve.rolling.game import GAME
from banditsolve.rolling.rules import (
    Ambush,
    DealTrunk,
    DealWagon,
    End,
    Joker,
    Lay,
    Open,
    Reroll,
    Roll,
    Rolled,
    TakeBack,
    apply,
    chance_outcomes,
    legal_actions,
    roll_outcomes,
    unseen_tiles,
    winners,
)
from banditsolve.rolling.state import Held, Options
from tests.rolling.helpers import position
from tests.rules import rules

R, M, H, B, S = range(5)


def texts(state: object) -> list[str]:
    return [str(a) for a in legal_actions(state)]  # type: ignore[arg-type]


@rules("RB-COMP-1", "RB-COMP-2", "RB-COMP-3", "RB-COMP-4", "RB-COMP-5")
def test_default_edition() -> None:
    ed = default_edition()
    assert ed.dice_per_colour == 7
    assert len(ed.wagons) == 16
    assert len(ed.trunks) == 21
    assert (ed.locomotive.need, ed.locomotive.points) == (5, 5)
    assert Counter(w.need for w in ed.wagons) == {1: 4, 2: 4, 3: 4, 4: 4}
    assert all(w.points == w.need for w in ed.wagons)
    contents = Counter(t.content_name for t in ed.trunks)
    assert contents == {"nothing": 11, "bomb": 4, "ambush": 3, "roll-again": 3}
    assert {t.value for t in ed.trunks} == {1, 2}
    assert len(roll_outcomes(1)) == 6


@rules("RB-COMP-6")
def test_edition_files_are_validated(tmp_path: object) -> None:
    doc = {
        "name": "mini",
        "locomotive": {"need": 3, "points": 3},
        "wagons": [{"need": 1, "points": 1, "count": 2}],
        "trunks": [{"symbol": "hat", "value": 1, "content": "bomb", "count": 2}],
    }
    ed = parse_edition(doc)
    assert len(ed.wagons) == 2
    game = GAME.with_edition(ed)
    state = game.new_game(2, seed=3)
    assert len(state.train) == 2  # 2 wagons - 6 leaves one wagon, plus the locomotive
    bad = dict(doc, trunks=[])
    with pytest.raises(DataError, match="cannot give one to each"):
        parse_edition(bad)
    with pytest.raises(DataError, match="symbol"):
        parse_edition(dict(doc, trunks=[{"symbol": "gun", "value": 1, "content": "bomb"}]))
    with pytest.raises(DataError, match="unknown field"):
        parse_edition(dict(doc, colour="red"))
    with pytest.raises(DataError):
        load_edition("{not json")


@rules("RB-SETUP-1", "RB-SETUP-2", "RB-SETUP-5")
def test_setup_is_chance() -> None:
    state = GAME.new_game(2)
    assert state.phase == "deal-wagon"
    assert [c.id for c in state.train] == [0]
    outcomes = chance_outcomes(state)
    assert [(str(a), p) for a, p in outcomes] == [
        ("wagon 1/1", Fraction(1, 4)),
        ("wagon 2/2", Fraction(1, 4)),
        ("wagon 3/3", Fraction(1, 4)),
        ("wagon 4/4", Fraction(1, 4)),
    ]
    state = apply(state, DealWagon(4, 4))
    assert {str(a): p for a, p in chance_outcomes(state)}["wagon 4/4"] == Fraction(3, 15)
    for _ in range(9):
        state = apply(state, chance_outcomes(state)[0][0])
    assert state.phase == "deal-trunk"
    assert len(state.train) == 11
    first = {str(a): p for a, p in chance_outcomes(state)}
    assert first == {
        "trunk R": Fraction(5, 21),
        "trunk M": Fraction(4, 21),
        "trunk H": Fraction(4, 21),
        "trunk B": Fraction(4, 21),
        "trunk S": Fraction(4, 21),
    }
    for _ in range(10):
        state = apply(state, DealTrunk(R) if any(
            isinstance(a, DealTrunk) and a.symbol == R for a in legal_actions(state)) else
            legal_actions(state)[0])
    assert state.phase == "start"
    assert all(c.trunk is not None for c in state.train[1:])
    assert state.train[0].trunk is None
    assert len(GAME.new_game(3, seed=1).train) == 17


@rules("RB-SETUP-3", "RB-SETUP-4", "RB-SETUP-6", "RB-ROLL-1")
def test_first_turn() -> None:
    state = GAME.new_game(4, seed=5)
    assert GAME.new_game(4, seed=5) == state
    assert state.to_move == 0
    assert state.phase == "start"
    assert texts(state) == ["roll"]
    state = apply(state, Roll())
    assert state.airborne == (7, 0)
    assert len(chance_outcomes(state)) == 792


@rules("RB-ROLL-2")
def test_roll_probabilities() -> None:
    for n in range(8):
        outcomes = roll_outcomes(n)
        assert sum(p for _, p in outcomes) == 1
        assert all(sum(f) == n for f, _ in outcomes)
    d = dict(roll_outcomes(2))
    assert d[(2, 0, 0, 0, 0, 0)] == Fraction(1, 36)
    assert d[(1, 1, 0, 0, 0, 0)] == Fraction(2, 36)
    assert roll_outcomes(0) == (((0,) * 6, Fraction(1)),)


@rules("RB-TURN-1", "RB-ATTACK-1", "RB-ATTACK-4", "RB-ROLL-3")
def test_first_groups_go_back_to_front() -> None:
    state = position([(1, "R", [None, None]), (2, "M", [None, None]), (3, "H", [None, None])],
                     loco=[None, None], roll="RRMJJBS")
    assert texts(state) == ["lay R@3", "lay M@3", "lay B@3", "lay S@3", "end"]
    state = apply(state, Lay(M, 3))
    assert texts(state) == ["lay R@2", "lay B@2", "lay S@2", "joker@3", "end"]
    state = apply(state, Lay(R, 2))
    state = apply(state, Joker(2))
    state = apply(state, Joker(3))
    state = apply(state, End())
    assert state.to_move == 1
    assert state.phase == "start"
    wagons = {c.id: c for c in state.train}
    assert wagons[2].groups[0].size == 3  # type: ignore[union-attr]
    assert wagons[3].groups[0].size == 2  # type: ignore[union-attr]


@rules("RB-ATTACK-2", "RB-ATTACK-3", "RB-ATTACK-5", "RB-ATTACK-6")
def test_known_symbols_join_their_wagon() -> None:
    state = position([(1, None, ["R1", None]), (2, None, ["M1", None]), (3, None, [None, None])],
                     loco=[None, None], roll="RMH")
    # R joins wagon 1, M joins wagon 2, a new H goes in front of the gang (the locomotive).
    assert texts(state) == ["lay R@1", "lay M@2", "lay H@0", "end"]
    state = apply(state, Lay(H, 0))
    assert state.wagon(0).groups[0].size == 1  # type: ignore[union-attr]
    assert state.gang(0) == (0, 1, 2)
    with pytest.raises(IllegalActionError):
        apply(state, Lay(R, 3))


@rules("RB-JOKER-1")
def test_jokers_only_join_groups() -> None:
    state = position([(1, None, [None, None])], loco=[None, None], roll="JJ")
    assert texts(state) == ["end"]
    state = position([(1, None, ["R2", None]), (2, None, ["M1", None])], loco=[None, None],
                     roll="JJ")
    assert texts(state) == ["joker@1", "joker@2", "end"]
    after = apply(apply(state, Joker(1)), Joker(2))
    assert after.wagon(1).groups[0].size == 3  # type: ignore[union-attr]
    assert after.wagon(2).groups[0].symbol == M  # type: ignore[union-attr]


@rules("RB-OPT-1")
def test_jokers_together_option() -> None:
    state = position([(1, None, ["R2", None]), (2, None, ["M1", None])], loco=[None, None],
                     roll="JJ", options=Options(jokers="together"))
    after = apply(state, Joker(2))
    assert texts(after) == ["joker@2", "end"]


@rules("RB-STEAL-1", "RB-STEAL-2", "RB-STEAL-3")
def test_steal_at_start_of_turn() -> None:
    state = position(
        [(2, "R", ["M2", "H1"]), (1, "M", ["H1", "M1"]), (2, "B", [None, "B2"])],
        loco=[None, None], to_move=1, phase="attack", roll="-",
    )
    after = apply(state, End())  # player 0's turn begins: steals wagon 1 (2 > 1, needs 2)
    assert [w.id for w in after.won[0]] == [1]
    assert [c.id for c in after.train] == [0, 2, 3]
    assert after.wagon(2).groups == (after.wagon(2).groups[0], after.wagon(2).groups[1])  # type: ignore[union-attr]
    assert after.phase == "start"
    assert after.to_move == 0
    # wagon 2: a tie 1-1 is no steal; wagon 3: player 0 has none.
    assert after.wagon(2) is not None
    assert after.wagon(3) is not None


@rules("RB-THEFT-1")
def test_outright_theft() -> None:
    state = position([(4, "B", ["R4", "R2"]), (1, None, [None, None])], loco=[None, None],
                     roll="RRJ")
    after = apply(state, Lay(R, 1))
    after = apply(after, Joker(1))
    assert [w.id for w in after.won[0]] == [1]
    assert after.wagon(1) is None
    assert after.phase == "attack"


@rules("RB-TAKE-1")
def test_take_back_from_the_rear() -> None:
    state = position([(3, None, ["R2", None]), (4, None, ["M3", None])], loco=[None, None],
                     phase="start")
    assert texts(state) == ["take back", "roll"]
    after = apply(state, TakeBack())
    assert after.wagon(2).groups[0] is None  # type: ignore[union-attr]
    assert after.wagon(1).groups[0] is not None  # type: ignore[union-attr]
    after = apply(after, Roll())
    assert after.airborne == (7 - 2, 0)


@rules("RB-TRUNK-1", "RB-TRUNK-2", "RB-TRUNK-5")
def test_three_of_the_symbol_open_the_trunk() -> None:
    state = position([(3, "H", ["H2", None])], loco=[None, None], roll="H")
    after = apply(state, Lay(H, 1))
    assert after.phase == "reveal"
    outcomes = {str(a): p for a, p in chance_outcomes(after)}
    assert outcomes == {"open H1n": Fraction(1, 4), "open H2n": Fraction(1, 4),
                        "open H1a": Fraction(1, 4), "open H1r": Fraction(1, 4)}
    opened = apply(after, Open(H, 1, 2))
    assert opened.trunks[0] == (Held(H, 1, 2, False),)
    assert opened.wagon(1).trunk is None  # type: ignore[union-attr]
    assert opened.phase == "attack"
    assert opened.score(0) == 1
    assert Counter(dict(unseen_tiles(opened, H).items())).total() == 3
    # taken this turn: not usable until the next turn
    ended = apply(opened, End())
    assert ended.to_move == 1


@rules("RB-TRUNK-3")
def test_bomb() -> None:
    state = position([(3, "S", ["S2", "R4"])], loco=[None, None], roll="S")
    after = apply(apply(state, Lay(S, 1)), Open(S, 2, 1))
    wagon = after.wagon(1)
    assert wagon is not None
    assert wagon.count(0) == 1
    assert wagon.count(1) == 1
    assert after.trunks[0] == (Held(S, 2, 1, True),)
    assert after.score(0) == 2


@rules("RB-TRUNK-4", "RB-OPT-11")
def test_bomb_after_outright_theft() -> None:
    # (Only jokers beside two rolled revolvers: with jokers counted the trunk would be gone.)
    natural = Options(trunk_jokers="natural")
    state = position([(4, "R", ["R5~2", None])], loco=[None, None], roll="RR", options=natural)
    after = apply(state, Lay(R, 1))
    assert after.phase == "reveal"
    assert after.pending == ((1, True),)
    bombed = apply(after, Open(R, 2, 1))
    assert bombed.trunks[0] == ()
    assert bombed.discarded == (Held(R, 2, 1, True),)
    assert [w.id for w in bombed.won[0]] == [1]
    kept = apply(after, Open(R, 2, 0))
    assert kept.trunks[0] == (Held(R, 2, 0, False),)
    plain = position([(4, "R", ["R5~2", None])], loco=[None, None], roll="RR",
                     options=Options(theft_trunk="discard", trunk_jokers="natural"))
    gone = apply(plain, Lay(R, 1))
    assert gone.phase == "attack"
    assert gone.trunks[0] == ()
    assert gone.wagon(1) is None


@rules("RB-AMBUSH-1")
def test_ambush_swaps_and_takes_two_trunks() -> None:
    # (A third wagon, its trunk the one held: one trunk was dealt to each wagon.)
    state = position([(2, "M", ["R3", None]), (2, "R", ["M3", None]), (1, None, [None, None])],
                     loco=[None, None], roll="-", trunks=[[Held(H, 1, 2)], []])
    ended = apply(state, End())
    assert ended.phase == "ambush"
    assert texts(ended) == ["ambush 1 2", "end"]
    after = apply(ended, Ambush(1, 2))
    assert after.phase == "reveal"
    assert [c for c, _ in after.pending] == [1, 2]
    after = apply(after, Open(M, 1, 0))
    after = apply(after, Open(R, 1, 0))
    assert len(after.trunks[0]) == 3
    assert after.to_move == 1


@rules("RB-AGAIN-1")
def test_roll_again() -> None:
    state = position([(1, None, [None, None])], loco=[None, None], roll="RRJ",
                     trunks=[[Held(M, 1, 3)], []])
    acts = texts(state)
    assert acts[:3] == ["reroll J", "reroll R", "reroll RJ"]
    assert "reroll RRJ" in acts
    after = apply(state, Reroll((0, 0, 0, 0, 0, 1)))
    assert after.phase == "roll"
    assert after.airborne == (1, 0)
    assert after.trunks[0][0].used
    after = apply(after, Rolled((1, 0, 0, 0, 0, 0)))
    assert after.roll == (3, 0, 0, 0, 0, 0)
    assert not any(isinstance(a, Reroll) for a in legal_actions(after))  # used up
    laid = apply(state, Lay(R, 1))
    assert not any(isinstance(a, Reroll) for a in legal_actions(laid))


@rules("RB-MERC-1", "RB-MERC-2", "RB-MERC-3", "RB-OPT-8")
def test_mercenaries() -> None:
    with pytest.raises(RuleOptionError):
        GAME.new_game(3, {"mercenaries": "on"})
    state = GAME.new_game(2, {"mercenaries": "on"}, seed=2)
    assert state.reserve == (7, 7)
    assert texts(state) == ["roll", "roll +1", "roll +2", "roll +3", "roll +4", "roll +5",
                            "roll +6", "roll +7"]
    state = apply(state, Roll(2))
    assert (state.phase == "roll" and state.airborne == (7, 0)) or state.airborne == (7, 2)
    state = apply(state, Rolled((7, 0, 0, 0, 0, 0)))
    assert state.phase == "mroll"
    state = apply(state, Rolled((1, 1, 0, 0, 0, 0)))
    rear = state.train[-1].id
    state = apply(state, Lay(R, rear))
    if state.phase == "reveal":  # the rear wagon had a revolver trunk
        state = apply(state, Open(R, 2, 0))
    # seven hoard dice: outright theft; the mercenary on it leaves the game
    assert state.wagon(rear) is None
    assert state.reserve == (5, 7)
    state = apply(state, End())  # the mask mercenary goes back to the reserve
    assert state.reserve == (6, 7)


@rules("RB-OPT-9")
def test_mercenary_theft_option() -> None:
    opts = Options(mercenaries="on", theft_mercenaries="any")
    state = position([(4, None, ["R5", None])], loco=[None, None], roll="-", mroll="RR",
                     options=opts, reserve=[5, 7])
    after = apply(state, Lay(R, 1))
    assert after.wagon(1) is None
    colour = position([(4, None, ["R5", None])], loco=[None, None], roll="-", mroll="RR",
                      options=Options(mercenaries="on"), reserve=[5, 7])
    assert apply(colour, Lay(R, 1)).wagon(1) is not None


@rules("RB-END-1", "RB-END-2", "RB-END-3")
def test_end_and_ties() -> None:
    state = position([(4, "B", ["R6", None])], loco=None, roll="R")
    over = apply(state, Lay(R, 1))
    assert over.is_terminal
    assert GAME.outcome(over) is not None
    assert over.scores == (9, 0)
    assert winners(over) == (0,)
    # tie on points: more wagons wins; then more trunks; then shared
    tie = over.replace(won=(over.won[0][:1], over.won[0][1:]), trunks=((), ()))
    assert tie.scores == (5, 4) or winners(tie)


@rules("RB-OPT-2", "RB-OPT-3")
def test_trunk_count_options() -> None:
    four = position([(3, "H", ["H2", None])], loco=[None, None], roll="HH")
    assert apply(four, Lay(H, 1)).phase == "reveal"
    exact = position([(3, "H", ["H2", None])], loco=[None, None], roll="HH",
                     options=Options(trunk_count="exactly"))
    assert apply(exact, Lay(H, 1)).phase == "attack"
    natural = position([(3, "H", ["H2", None])], loco=[None, None], roll="J",
                       options=Options(trunk_jokers="natural"))
    assert apply(natural, Joker(1)).phase == "attack"
    counted = position([(3, "H", ["H2", None])], loco=[None, None], roll="J")
    assert apply(counted, Joker(1)).phase == "reveal"


@rules("RB-OPT-4", "RB-OPT-5")
def test_front_and_locomotive_options() -> None:
    at_front = position([(1, None, ["R1", None]), (2, None, [None, None])], loco=["M1", None],
                        roll="H")
    assert texts(at_front) == ["end"]
    behind = position([(1, None, ["R1", None]), (2, None, [None, None])], loco=["M1", None],
                      roll="H", options=Options(front="behind"))
    assert texts(behind) == ["lay H@2", "end"]
    last = position([(1, None, ["R1", None])], loco=[None, None], roll="H",
                    options=Options(locomotive="last"))
    assert texts(last) == ["end"]
    assert texts(position([(1, None, ["R1", None])], loco=[None, None], roll="H")) == [
        "lay H@0", "end"]


@rules("RB-OPT-6")
def test_cut_option() -> None:
    wagons: list[tuple[int, str | None, list[str | None]]] = [
        (2, None, ["R1", None]),
        (2, None, ["M2", "H1"]),
        (2, None, ["H1", None]),
    ]
    join = apply(position(wagons, loco=[None, None], to_move=1, roll="-"), End())
    assert [w.id for w in join.won[0]] == [2]
    assert join.gang(0) == (1, 2)
    cut = apply(position(wagons, loco=[None, None], to_move=1, roll="-",
                         options=Options(cut="rear_back")), End())
    assert cut.wagon(3).groups[0] is None  # type: ignore[union-attr]
    assert cut.wagon(1).groups[0] is not None  # type: ignore[union-attr]


@rules("RB-OPT-7")
def test_restart_option() -> None:
    wagons = [(1, None, [None, None]), (2, None, [None, None])]
    assert texts(position(wagons, loco=[None, None], roll="R")) == ["lay R@2", "end"]
    anywhere = position(wagons, loco=[None, None], roll="R", options=Options(restart="any"))
    assert texts(anywhere) == ["lay R@0", "lay R@1", "lay R@2", "end"]


@rules("RB-OPT-10")
def test_keep_option() -> None:
    wagons = [(1, None, ["R1", None])]
    assert texts(position(wagons, loco=[None, None], roll="R")) == ["lay R@1", "end"]
    must = position(wagons, loco=[None, None], roll="R", options=Options(keep="must_join"))
    assert texts(must) == ["lay R@1"]


@rules("RB-ENGINE-1", "RB-ENGINE-2")
def test_apply_is_pure_and_refuses_illegal() -> None:
    state = GAME.new_game(2, seed=7)
    before = GAME.to_notation(state)
    with pytest.raises(IllegalActionError):
        apply(state, End())
    with pytest.raises(IllegalActionError):
        apply(apply(state, Roll()), Rolled((1, 0, 0, 0, 0, 0)))
    assert GAME.to_notation(state) == before
    rng = random.Random(3)
    s = apply(state, Roll())
    s = apply(s, GAME.sample_chance(s, rng))
    acts = legal_actions(s)
    assert acts == legal_actions(s)
    assert isinstance(acts[-1], End)
