"""Bandida's rules (specs/bandida.md): set-up, turns, objects, alarms, modes and the end."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

import pytest

from banditsolve.core.protocol import CHANCE
from banditsolve.errors import IllegalActionError, RuleOptionError
from banditsolve.tunnels.cards import (
    BANDIDO_SUPER5,
    BANDIDO_SUPER6,
    card_kind,
    is_alarm,
    load_deck,
    parse_card,
)
from banditsolve.tunnels.game import BANDIDO
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.rules import apply, legal_actions, settle
from banditsolve.tunnels.state import CHANGE, PASS, Discard, Draw
from banditsolve.tunnels.table import Table
from tests.bandida.helpers import GAME, bandida, codes, leaving, make, placements, removals
from tests.rules import rules

DECK = load_deck("bandida")


def odds_of(outcomes: Sequence[tuple[object, Fraction]], card: int) -> Fraction:
    """The chance of drawing ``card`` (whatever back shows next)."""
    total = Fraction(0)
    for action, p in outcomes:
        if isinstance(action, Draw) and action.card == card:
            total += p
    return total


@rules("BA-SETUP-1", "BA-SETUP-2", "BA-SETUP-4", "BA-SETUP-5", "BA-GAME-2", "BA-TURN-1")
@pytest.mark.parametrize("mode", [1, 2, 3])
def test_set_up_per_mode(mode: int) -> None:
    state = bandida(GAME.new_game(3, {"mode": mode}, seed=mode))
    assert state.table.history == (Placement(parse_card("super6"), 0, 0, 0),)
    assert GAME.current_player(state) == 0
    assert state.sizes == (3, 3, 3)
    kinds = Counter(card_kind(c) for c in state.remaining())
    assert kinds["ladder"] == (0 if mode == 1 else 1)
    assert kinds["bandido_super"] == (1 if mode == 3 else 0)
    assert len(state.remaining()) == {1: 68, 2: 69, 3: 70}[mode]
    five = GAME.new_game(2, {"mode": mode, "super_side": "super5"}, seed=1)
    assert five.table.exit_count == 5
    assert state.table.exit_count == 6


@rules("BA-SETUP-3", "BA-NOTE-4", "BA-SETUP-2")
def test_no_alarm_is_dealt() -> None:
    for seed in range(60):
        state = GAME.new_game(4, {"mode": 2}, seed=seed)
        assert not any(is_alarm(c) for hand in state.hands for c in hand)
    state = GAME.new_game(2)
    assert GAME.current_player(state) == CHANCE
    outcomes = GAME.chance_outcomes(state)
    assert sum(p for _, p in outcomes) == 1
    alarm = parse_card("L+TL+BR:alarm_discard_five")
    assert odds_of(outcomes, alarm) == Fraction(1, 68)
    after = GAME.apply(state, Draw(alarm, "plain"))
    assert after.hands == state.hands
    assert len(after.unseen) == 68
    assert after.is_chance


@rules("BA-TURN-2", "BA-OBJ-1")
def test_lay_then_draw_back_up() -> None:
    state = make([["L", "TL", "TR"], ["TL"]], pile=["L+BL", "TR", "TL"])
    after = apply(state, leaving(state, "L", 1))
    assert after.player == 1
    assert after.hands[0] == tuple(sorted(codes(["TL", "TR", "L+BL"])))
    with pytest.raises(IllegalActionError):
        apply(state, Placement(parse_card("L"), 5, 5, 0))


@rules("BA-TURN-3")
def test_change_then_lay_if_it_fits() -> None:
    # One exit facing south into a play area two rows high: only TL-like cards fit there.
    hand = ["TL+TR", "TR", "L+TL+TR"]
    state = make(
        [hand, ["L"]],
        pile=["TL", "L", "TR", "TL"],
        table=Table.start("BL"),
        options={"table_size": "3x2"},
    )
    assert legal_actions(state) == (CHANGE,)
    after = apply(state, CHANGE)
    assert after.player == 0
    assert after.changed
    assert Counter(after.pile[-3:]) == Counter(codes(hand))
    assert PASS in legal_actions(after)
    assert placements(after, "TL")
    passed = apply(after, PASS)
    assert passed.player == 1


@rules("BA-OBJ-2")
def test_backpack_adds_a_card_for_good() -> None:
    state = make([["L+TL+R+BL:backpack", "TL"], ["TL"]], start="L+R")
    p = placements(state, "L+TL+R+BL:backpack")[0]
    after = apply(state, p)
    assert after.sizes == (4, 3)
    assert len(after.hands[0]) == 4


@rules("BA-OBJ-3", "BA-OPT-7")
def test_dynamite_lays_another_card_then_draws_two() -> None:
    state = make([["L+TL+R+BR:dynamite", "L", "TL"], ["TL"]])
    after = apply(state, placements(state, "L+TL+R+BR:dynamite")[0])
    assert after.phase == ("dynamite",)
    assert GAME.current_player(after) == 0
    card = next(a for a in legal_actions(after) if isinstance(a, Placement))
    done = apply(after, card)
    assert done.player == 1
    assert len(done.hands[0]) == 3
    assert not done.phase
    # Nothing fits for the second card: the effect lapses (default) or a change is offered.
    lay = Placement(parse_card("L+TL+R+BR:dynamite"), -1, 0, 90)
    for stuck, expected in (("lapse", ()), ("change", (CHANGE,))):
        tight = make(
            [["L+TL+R+BR:dynamite", "L", "L"], ["TL"]],
            table=Table.start("L"),
            options={"table_size": "4x3", "dynamite_stuck": stuck},
        )
        after = apply(tight, lay)
        if stuck == "lapse":
            assert after.player == 1
            assert not after.phase
            assert len(after.hands[0]) == 3
        else:
            assert after.phase == ("dynamite",)
            assert legal_actions(after) == expected
            changed = apply(after, CHANGE)
            assert changed.changed or changed.player == 1


@rules("BA-OBJ-4", "BA-OPT-5", "BA-OPT-6")
def test_broken_tool_lays_every_card_then_draws_three() -> None:
    hands = [["TL+TR:broken_tool", "L", "L+TL+BR+BL"], ["TL"]]
    state = make(hands, sizes=(4, 3))
    after = apply(state, placements(state, "TL+TR:broken_tool")[0])
    assert after.phase == ("tool",)
    assert after.sizes[0] == 3
    while after.phase and after.player == 0:
        after = apply(after, next(a for a in legal_actions(after) if isinstance(a, Placement)))
    assert after.player == 1
    assert len(after.hands[0]) == 3
    later = make(hands, sizes=(4, 3), options={"tool": "over_turns"})
    held = apply(later, placements(later, "TL+TR:broken_tool")[0])
    assert held.hold == (0,)
    assert held.player == 1
    assert len(held.hands[0]) == 2
    # A card that does not fit stays in hand (keep) or goes under the pile (under).
    tool = Placement(parse_card("L+R:broken_tool"), 2, 0, 0)
    for stuck in ("keep", "under"):
        tight = make(
            [["L+R:broken_tool", "L", "L"], ["TL"]],
            pile=["TR"] * 5,
            table=Table.start("L+R"),
            options={"table_size": "5x2", "tool_stuck": stuck},
        )
        out = apply(tight, tool)
        assert out.player == 1
        assert out.sizes[0] == 3
        if stuck == "keep":
            assert out.hands[0] == tuple(sorted(codes(["L", "L", "TR"])))
        else:
            assert out.hands[0] == codes(["TR"] * 3)
            assert out.pile[-2:] == codes(["L", "L"])


@rules("BA-OBJ-5", "BA-OBJ-6", "BA-OPT-1", "BA-OPT-2", "BA-OPT-4")
def test_map_removes_three_cards_without_splitting() -> None:
    table = Table.start("super6")
    for exits in (5, 4, 3):
        state0 = make([["L"], ["TL"]], table=table)
        table = table.place(leaving(state0, "L", exits))
    state = make([["L+TL+TR:map"], ["TL"]], table=table)
    after = apply(state, placements(state, "L+TL+TR:map")[0])
    assert after.phase == ("map",)
    choices = removals(after)
    assert choices
    assert all(len(r.cards) == 3 for r in choices)
    assert all(table.history[0] not in r.cards for r in choices)
    assert all(after.table.history[-1] not in r.cards for r in choices)  # not the map itself
    done = apply(after, choices[0])
    assert len(done.table) == len(after.table) - 3
    assert len(done.discard) == 3
    assert not done.phase
    # A line of cards: only the far end may go, so fewer than three can be removed.
    line = make([["L+TL+TR:map"], ["TL"]], table=Table.start("L+R"))
    first = apply(line, placements(line, "L+TL+TR:map")[0])
    assert first.phase == ()
    assert first.player == 1
    itself = make(
        [["L+TL+TR:map"], ["TL"]], table=Table.start("L+R"), options={"map_removes": "not_super"}
    )
    mine = apply(itself, placements(itself, "L+TL+TR:map")[0])
    assert [len(r.cards) for r in removals(mine)] == [1]
    none = make(
        [["L+TL+TR:map"], ["TL"]],
        table=Table.start("L+R"),
        options={"map_removes": "not_super", "map_short": "none"},
    )
    assert apply(none, placements(none, "L+TL+TR:map")[0]).player == 1
    tunnels = make([["L+TL+TR:map"], ["TL"]], table=table, options={"map_split": "tunnels"})
    split = apply(tunnels, placements(tunnels, "L+TL+TR:map")[0])
    assert len(removals(split)) <= len(choices)


@rules("BA-OPT-3")
def test_map_reopened_exits() -> None:
    table = Table.start("L+R")
    state0 = make([["L+R"], ["TL"]], table=table)
    table = table.place(leaving(state0, "L+R", 2))
    state = make([["L+TL+TR:map"], ["TL"]], table=table, options={"map_removes": "not_super"})
    after = apply(state, placements(state, "L+TL+TR:map")[0])
    allowed = removals(after)
    forbidding = make(
        [["L+TL+TR:map"], ["TL"]],
        table=table,
        options={"map_removes": "not_super", "map_reopen": "forbidden"},
    )
    strict = apply(forbidding, placements(forbidding, "L+TL+TR:map")[0])
    assert len(removals(strict)) < len(allowed) or not allowed
    for choice in allowed:
        out = apply(after, choice)
        assert not out.table.holes()


@rules("BA-OBJ-7", "BA-GAME-3")
def test_water_bottle_is_a_flag_only() -> None:
    state = make([["TR+BL:water_bottle", "L"], ["L", "TL"]], start="L+R")
    p = placements(state, "TR+BL:water_bottle")[0]
    after = apply(state, p)
    assert after.quiet == 0
    assert "no talking" in GAME.caption(after)
    plain = make([["TR+BL", "L"], ["L", "TL"]], start="L+R")
    assert [str(a) for a in legal_actions(after)] == [
        str(a) for a in legal_actions(apply(plain, Placement(parse_card("TR+BL"), *p[1:])))
    ]


@rules("BA-ALARM-1", "BA-ALARM-2", "BA-ALARM-3", "BA-ALARM-4", "BA-OPT-10")
def test_alarm_every_player_discards_one() -> None:
    alarm = "L+TL+R:alarm_discard_one"
    state = make([["L", "TL", "TR"], ["L", "TL", "TR"]], pile=[alarm, "L+BL", "TR", "TL"])
    assert state.top_is_alarm is True
    assert "an alarm on top" in GAME.caption(state)
    after = apply(state, leaving(state, "L", 1))
    assert after.phase == ("alarm",)
    assert GAME.current_player(after) == 0
    assert after.player == 1
    laid = apply(after, placements(after, alarm)[0])
    assert laid.phase == ("discard",)
    assert laid.queue == (0, 1)
    assert laid.sizes == (2, 2)
    one = apply(laid, Discard(parse_card("TL")))
    two = apply(one, Discard(parse_card("TR")))
    assert two.sizes == (2, 2)
    assert [len(h) for h in two.hands] == [2, 2]
    assert two.player == 1
    low = make([["L"], ["L", "TL"]], pile=[alarm, "L+BL", "TR"], sizes=(1, 2))
    drawn = apply(low, leaving(low, "L", 1))
    alarmed = apply(drawn, placements(drawn, alarm)[0])
    assert alarmed.sizes == (1, 1)
    assert alarmed.queue == (1,)
    zero = make(
        [["L"], ["L", "TL"]],
        pile=[alarm, "L+BL", "TR"],
        sizes=(1, 2),
        options={"alarm_zero": "zero"},
    )
    z = apply(zero, leaving(zero, "L", 1))
    z = apply(z, placements(z, alarm)[0])
    assert z.sizes == (0, 1)


@rules("BA-ALARM-5", "BA-NOTE-4")
def test_alarm_discards_five_and_reshuffles() -> None:
    alarm = "L+TL+BR:alarm_discard_five"
    pile = [alarm, "TL", "L:ladder", "TR", "L", "TL", "TR", "TL+BL", "L+BL", "L+BL"]
    state = make([["L", "TL", "TR"], ["TL"]], pile=pile, options={"mode": 2})
    after = apply(state, leaving(state, "L", 1))
    laid = apply(after, placements(after, alarm)[0])
    assert Counter(laid.discard) == Counter(codes(["TL", "TR", "L", "TL", "TR"]))
    assert parse_card("L:ladder") in laid.remaining()
    assert not laid.pile
    assert laid.is_chance  # the shuffled pile is unseen: the drawer's refill is a draw
    outcomes = GAME.chance_outcomes(laid)
    assert sum(p for _, p in outcomes) == 1
    assert len(laid.unseen) == 4
    # From an unseen pile each discarded card is a chance node; the ladder goes aside.
    rest = tuple(sorted(codes(pile[1:])))
    five = settle(replace(state, unseen=rest, pile=(), phase=("five",), left=5))
    tl = parse_card("TL")
    odds = GAME.chance_outcomes(five)
    assert five.is_chance
    assert odds_of(odds, tl) == Fraction(2, 9)
    aside = bandida(GAME.apply(five, Draw(parse_card("L:ladder"), "plain")))
    assert aside.aside == codes(["L:ladder"])
    assert aside.left == 5


@rules("BA-OPT-9")
def test_an_alarm_that_cannot_be_laid() -> None:
    alarm = "L+TL+R:alarm_discard_one"
    lay = Placement(parse_card("L+TL"), -1, 0, 90)
    for stuck, phase in (("effect", ("discard",)), ("no_effect", ())):
        state = make(
            [["L+TL", "TL", "TR"], ["L", "TL", "TR"]],
            pile=[alarm, "TR", "TR", "TR"],
            table=Table.start("L"),
            options={"table_size": "4x2", "alarm_stuck": stuck},
        )
        after = apply(state, lay)
        assert parse_card(alarm) in after.discard
        assert after.phase == phase
        assert after.queue == ((0, 1) if stuck == "effect" else ())
        if stuck == "no_effect":
            assert after.sizes == (3, 3)
            assert len(after.hands[0]) == 3


@rules("BA-MODE-1", "BA-MODE-2", "BA-MODE-6", "BA-MODE-3")
def test_modes_one_and_two_ends() -> None:
    one = make([["L", "TL"], ["TL"]], start="L")
    won = apply(one, leaving(one, "L", 0))
    assert won.outcome == "won"
    two = make([["L", "L:ladder"], ["TL"]], start="L", options={"mode": 2})
    lost = apply(two, leaving(two, "L", 0))
    assert lost.outcome == "lost"
    assert "ladder" in lost.reason
    ladder = apply(two, leaving(two, "L:ladder", 0))
    assert ladder.outcome == "won"
    assert GAME.outcome(ladder) is not None
    assert GAME.outcome(ladder).winners == (0, 1)  # type: ignore[union-attr]


@rules("BA-MODE-4", "BA-MODE-5", "BA-MODE-6")
def test_mode_three_joins_both_super_cards() -> None:
    state = make([["bandido6", "L:ladder"], ["TL"]], start="L", options={"mode": 3})
    sides = {p.card for p in placements(state, "bandido6")}
    assert sides == {BANDIDO_SUPER6, BANDIDO_SUPER5}
    for p in placements(state, "bandido6"):
        after = apply(state, p)
        assert after.outcome is None or after.outcome == "lost"
    lost = make([["L"], ["TL"]], start="L", options={"mode": 3})
    closed = apply(lost, leaving(lost, "L", 0))
    assert closed.outcome == "lost"
    assert "joined" in closed.reason


@rules("BA-END-1", "BA-OPT-11")
def test_the_pile_running_out() -> None:
    state = make([["L", "TL", "TR"], ["TL", "TR", "L"]], pile=["L+BL"], start="L+R")
    after = apply(state, leaving(state, "L", 1))
    assert after.outcome == "lost"
    assert after.reason == "the draw pile is empty"
    late = make(
        [["L", "TL", "TR"], ["L", "TR", "TL"]],
        pile=["L+BL"],
        start="L+R",
        options={"pile_out": "must_draw"},
    )
    on = apply(late, leaving(late, "L", 1))
    assert on.outcome is None
    assert on.player == 1
    assert not on.pile_size
    last = apply(on, leaving(on, "L", 0))
    assert last.outcome == "won"  # laid from hand after the pile ran out


@rules("BA-END-2", "BA-OPT-8")
def test_holes_stuck_and_chains() -> None:
    state = GAME.new_game(2, {"mode": 1}, seed=4)
    assert state.options.hole == "loses"
    chain = make([["L+TL+R+BR:dynamite", "L+TL+TR+BR:dynamite", "L"], ["TL"]])
    first = apply(chain, placements(chain, "L+TL+R+BR:dynamite")[0])
    second = apply(first, placements(first, "L+TL+TR+BR:dynamite")[0])
    assert second.phase == ("dynamite",)
    nochain = make(
        [["L+TL+R+BR:dynamite", "L+TL+TR+BR:dynamite", "L"], ["TL"]], options={"chain": "no"}
    )
    a = apply(nochain, placements(nochain, "L+TL+R+BR:dynamite")[0])
    b = apply(a, placements(a, "L+TL+TR+BR:dynamite")[0])
    assert b.phase == ()
    assert b.player == 1


@rules("BA-OPT-13", "BA-OPT-12", "BA-GAME-1")
def test_options_per_game() -> None:
    names = GAME.option_set.names()
    assert names["mode"] == ("1", "2", "3")
    assert names["pile_out"][0] == "end"
    assert "mode" not in BANDIDO.option_set.names()
    with pytest.raises(RuleOptionError):
        BANDIDO.new_game(2, {"mode": "2"})
    with pytest.raises(RuleOptionError):
        GAME.new_game(2, {"mode": "0"})
    state = bandida(GAME.new_game(2, {"mode": 1}, seed=2))
    assert state.top_is_alarm in (True, False)
    unseen = bandida(GAME.new_game(1))
    assert unseen.top_is_alarm is None
    rng = random.Random(1)
    while unseen.outcome is None:
        action = GAME.sample_chance(unseen, rng) if unseen.is_chance else GAME.policies()[
            "greedy"
        ](unseen, rng)
        unseen = bandida(GAME.apply(unseen, action))
    assert GAME.outcome(unseen) is not None


@rules("BA-OPT-11")
def test_must_draw_in_bandido_too() -> None:
    from banditsolve.tunnels.simulate import simulate
    from banditsolve.tunnels.state import Options

    reasons: Counter[str] = Counter()
    for seed in range(12):
        states = simulate(2, seed, Options(pile_out="must_draw"))
        final = states[-1]
        reasons[final.reason] += 1
        for state in states[::10]:
            assert BANDIDO.from_notation(BANDIDO.to_notation(state)) == state
    assert reasons["a card must be drawn from the empty pile"] or reasons["no exit is left"]


@rules("BA-ALARM-1", "BA-NOTE-4", "BA-NOTE-2")
def test_the_alarms_back_shows_on_the_unseen_pile() -> None:
    state = bandida(GAME.new_game(2, {"mode": 1}))
    assert state.top_is_alarm is None
    outcomes = GAME.chance_outcomes(state)
    assert sum(p for _, p in outcomes) == 1
    plain = parse_card("L+BL")
    # P(L+BL first) * P(an alarm next): 3/68 * 2/67.
    assert dict(outcomes)[Draw(plain, "alarm")] == Fraction(3, 68) * Fraction(2, 67)
    after = bandida(GAME.apply(state, Draw(plain, "alarm")))
    assert after.top_is_alarm is True
    assert "top=alarm" in GAME.to_notation(after)
    following = GAME.chance_outcomes(after)
    assert {is_alarm(a.card) for a, _ in following} == {True}  # type: ignore[union-attr]
    assert sum(p for _, p in following) == 1
    with pytest.raises(IllegalActionError, match="not a possible draw"):
        GAME.apply(after, Draw(plain, "plain"))
    assert GAME.parse_action(after, "draw L+BL top=alarm") == Draw(plain, "alarm")
    assert GAME.from_notation(GAME.to_notation(after)) == after
    with pytest.raises(IllegalActionError):
        BANDIDO.apply(BANDIDO.new_game(2), Draw(1, "alarm"))


@rules("BA-TURN-3", "BA-OBJ-7")
def test_change_ending_the_turn_and_the_quiet_round() -> None:
    hand = ["TL+TR", "TR", "L+TL+TR"]
    state = make(
        [hand, ["L"]],
        pile=["TL", "L", "TR", "TL"],
        table=Table.start("BL"),
        options={"table_size": "3x2", "hand_change": "ends_turn"},
    )
    after = apply(state, CHANGE)
    assert after.player == 1
    assert not after.changed
    assert len(after.hands[0]) == 3
    water = make([["TR+BL:water_bottle", "L", "TL"], ["TL", "TR", "L"]], start="L+R")
    laid = apply(water, placements(water, "TR+BL:water_bottle")[0])
    assert laid.quiet == 0
    other = apply(laid, next(a for a in legal_actions(laid) if isinstance(a, Placement)))
    assert other.quiet == 0
    assert other.player == 0
    again = apply(other, next(a for a in legal_actions(other) if isinstance(a, Placement)))
    assert again.quiet == -1


@rules("BA-OPT-12", "BA-ALARM-2")
def test_an_alarm_on_top_acts_at_once() -> None:
    alarm = "L+TL+R:alarm_discard_one"
    hands = [["L", "TL", "TR"], ["L", "TL", "TR"]]
    drawn = make(hands, pile=["TR", alarm, "L+BL", "TL"])
    after = apply(drawn, leaving(drawn, "L", 1))
    assert not after.phase
    assert after.top_is_alarm is True
    shown = make(hands, pile=["TR", alarm, "L+BL", "TL"], options={"alarm_show": "top"})
    early = apply(shown, leaving(shown, "L", 1))
    assert early.phase == ("alarm",)
    assert GAME.current_player(early) == 1
