"""A one-cell hole in Bandida (BA-END-2, BA-OPT-14): lost only once no map can undo it."""

from __future__ import annotations

import pytest

from banditsolve.core.play import simulate as core_simulate
from banditsolve.errors import NotationError, RuleOptionError
from banditsolve.tunnels.bandida.ends import hole_is_final, maps_left
from banditsolve.tunnels.bandida.state import BandidaState
from banditsolve.tunnels.cards import parse_card
from banditsolve.tunnels.game import BANDIDO
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.rules import apply, legal_actions
from banditsolve.tunnels.state import Discard, Options
from banditsolve.tunnels.table import Table
from tests.bandida.helpers import GAME, make, placements, removals
from tests.rules import rules
from tests.tunnels.test_table import hole_table

MAP = "L+TL+TR:map"
HOLE = "an exit runs into a one-cell hole"
#: Plain cards for the pile (as many copies as the decks hold, so notation reads them back).
PLAIN = ["L+BL", "TL+BL", "L+BL", "L+TR+BL", "TL+BL", "L+BL", "L+TL", "L+TL", "TL+BR", "L+TR"]


def _walls() -> tuple[Table, Placement]:
    """The super card with two cards around the empty cell (-1, 0), and the placement of
    ``TR`` that walls the super card's west exit into it (a one-cell hole)."""
    table = hole_table()
    return Table.start("super6").place_all(list(table.history[1:3])), table.history[3]


def _hole(
    hands: list[list[str]], pile: list[str], **options: object
) -> tuple[BandidaState, BandidaState]:
    """A Bandida state (player 0 to lay ``TR`` first) and the state after laying it."""
    before, wall = _walls()
    state = make(hands, pile=pile, table=before, options=options)
    assert state.outcome is None
    assert wall in legal_actions(state)
    return state, apply(state, wall)


@rules("BA-END-2", "BA-OPT-14", "BA-OBJ-5", "BA-OPT-3")
def test_a_map_in_the_pile_keeps_the_game_on_and_can_undo_the_hole() -> None:
    _, after = _hole([["TR", "L", "L"]], [MAP, *PLAIN])
    assert after.table.holes() == ((-1, 0),)
    assert after.outcome is None
    assert maps_left(after)
    # The map was on top: player 0 (alone) drew it and lays it now; its removals are pending.
    assert parse_card(MAP) in after.hands[0]
    laid = apply(after, placements(after, MAP)[0])
    assert laid.outcome is None
    assert laid.phase == ("map",)
    assert laid.table.holes()
    # Every removal takes off a card next to the hole: the hole is gone, play goes on.
    (removal,) = removals(laid)
    next_to_hole = {(-2, 0), (-1, -1), (-1, 1)}
    assert any(next_to_hole & set(p.cells) for p in removal.cards)
    on = apply(laid, removal)
    assert on.outcome is None
    assert not on.table.holes()
    assert not on.phase
    assert legal_actions(on)
    assert not maps_left(on)
    # The same under dead_exit=loses (the hole is a dead exit, not yet for good).
    _, dead = _hole([["TR", "L", "L"]], [MAP, *PLAIN], dead_exit="loses")
    assert dead.outcome is None
    # The former reading stays selectable: lost at once.
    _, at_once = _hole([["TR", "L", "L"]], [MAP, *PLAIN], hole="loses_at_once")
    assert (at_once.outcome, at_once.reason) == ("lost", HOLE)


@rules("BA-END-2", "BA-OPT-14")
def test_a_map_in_another_hand_keeps_the_game_on() -> None:
    _, after = _hole([["TR", "L", "L"], [MAP, "L", "TL"]], PLAIN)
    assert after.outcome is None
    assert after.table.holes()
    assert after.player == 1


@rules("BA-END-2", "BD-END-4")
def test_a_hole_with_no_map_left_loses_at_once() -> None:
    _, after = _hole([["TR", "L", "L"], ["TL", "L+R", "TL+TR"]], PLAIN)
    assert (after.outcome, after.reason) == ("lost", HOLE)
    assert not maps_left(after)
    # A map already out of the game (laid before, or discarded) does not count.
    gone = make([["TR", "L", "L"]], pile=PLAIN, table=_walls()[0], discard=(parse_card(MAP),))
    lost = apply(gone, _walls()[1])
    assert (lost.outcome, lost.reason) == ("lost", HOLE)


@rules("BA-END-2", "BA-ALARM-4")
def test_the_last_map_discarded_by_an_alarm_loses_then() -> None:
    _, after = _hole([["TR", MAP, "L"]], ["L+TL+R:alarm_discard_one", *PLAIN])
    assert after.outcome is None
    assert after.phase == ("alarm",)
    asked = apply(after, legal_actions(after)[0])
    assert asked.outcome is None
    assert asked.phase == ("discard",)
    kept = apply(asked, Discard(parse_card("L")))
    assert kept.outcome is None
    assert kept.table.holes()
    lost = apply(asked, Discard(parse_card(MAP)))
    assert (lost.outcome, lost.reason) == ("lost", HOLE)
    # With a second map still in the pile, discarding one changes nothing.
    _, two = _hole([["TR", MAP, "L"]], ["L+TL+R:alarm_discard_one", "L+TR+BR:map", *PLAIN])
    asked_two = apply(two, legal_actions(two)[0])
    assert apply(asked_two, Discard(parse_card(MAP))).outcome is None


@rules("BA-END-2", "BA-ALARM-5")
def test_the_last_map_discarded_from_the_pile_loses_then() -> None:
    pile = ["L+TL+BR:alarm_discard_five", "L+BL", MAP, *PLAIN]
    _, after = _hole([["TR", "L", "L"]], pile)
    assert after.outcome is None
    assert after.phase == ("alarm",)
    lost = apply(after, legal_actions(after)[0])
    assert (lost.outcome, lost.reason) == ("lost", HOLE)
    assert parse_card(MAP) in lost.discard


@rules("BA-END-2", "BA-OPT-3", "BA-OBJ-5")
def test_the_last_map_laid_with_the_hole_left_loses_then() -> None:
    # map_reopen=forbidden: every card here is joined by a tunnel, so the map removes nothing.
    _, after = _hole([["TR", "L", "L"]], [MAP, *PLAIN], map_reopen="forbidden")
    assert after.outcome is None
    for p in placements(after, MAP):
        lost = apply(after, p)
        assert (lost.outcome, lost.reason) == ("lost", HOLE), p


@rules("BD-END-4", "BD-OPT-3", "BA-OPT-14")
def test_bandido_is_unchanged_a_hole_loses_at_once() -> None:
    from banditsolve.tunnels.rules import state_from

    before, wall = _walls()
    rest = [parse_card(n) for n in PLAIN]
    state = state_from(before, [[wall.card, parse_card("L"), parse_card("L")]], rest)
    after = apply(state, wall)
    assert (after.outcome, after.reason) == ("lost", HOLE)
    assert hole_is_final(Options(), map_left=False)
    assert hole_is_final(
        Options(), map_left=maps_left(after)
    )
    assert "loses_at_once" not in BANDIDO.option_set.names()["hole"]
    assert GAME.option_set.names()["hole"] == ("loses", "illegal", "loses_at_once")
    # One refusal, one message, from Python, from Options and from a document.
    one = "option hole=loses_at_once is Bandida's; Bandido has no hole=loses_at_once"
    with pytest.raises(RuleOptionError, match=one):
        BANDIDO.options({"hole": "loses_at_once"})
    # Nor can Options make one for Bandido (mode 0), whose notation could not say it.
    with pytest.raises(RuleOptionError, match=one):
        Options(hole="loses_at_once")
    document = BANDIDO.to_json(state)
    document["options"]["hole"] = "loses_at_once"
    with pytest.raises(NotationError, match=f"game state options: {one}"):
        BANDIDO.from_json(document)


@rules("BA-END-2", "BA-END-1", "BA-OPT-14", "BA-NOTE-1")
def test_random_games_never_end_on_a_hole_a_map_could_undo() -> None:
    """The issue's reproduction: seeded random Bandida games end on a hole only with no map
    left; with hole=loses_at_once most still end on it while maps remain. The notation reads
    such ends back, and refuses ``end=lost:hole`` where the option says the hole is not final."""
    early = 0
    for seed in range(10):
        _, steps = core_simulate(GAME, seed=seed, players=2)
        final = steps[-1].state
        assert GAME.from_notation(GAME.to_notation(final)) == final
        if final.reason == HOLE:
            assert not maps_left(final), seed
        _, steps = core_simulate(GAME, seed=seed, players=2, options={"hole": "loses_at_once"})
        final = steps[-1].state
        if final.reason == HOLE and maps_left(final):
            early += 1
            text = GAME.to_notation(final)
            assert GAME.from_notation(text) == final
            document = GAME.to_json(final)
            document["options"]["hole"] = "loses"
            with pytest.raises(NotationError, match="end=lost:hole"):
                GAME.from_json(document)
    assert early >= 5


@rules("BA-SOLVE-1", "BA-END-2", "BA-CLOSE-2")
def test_the_endgame_solver_keeps_a_hole_the_pending_map_can_undo() -> None:
    """The map just laid is the last one, its removals still to come: the solver does not cut
    the branch on the hole (the closure solver's static reason), and finds the win."""
    from banditsolve.tunnels import solve_game

    pile = [MAP, "L", "TL", "TR", "TL+TR", "L+TL", "TR", "TL", "L", "TL", "TR", "L", "TL", "TR"]
    _, after = _hole([["TR", "L", "L"]], pile)
    laid = apply(after, placements(after, MAP)[0])
    assert laid.phase == ("map",)
    assert laid.table.holes()
    assert maps_left(laid)
    result = solve_game(laid, time_limit=20, hypothetical=True)
    assert result.status == "win", result


@rules("BA-OPT-14", "BD-OPT-3", "BA-CLOSE-2")
def test_a_hole_under_hole_illegal_is_refused() -> None:
    """No card makes a hole under ``hole=illegal`` (and a map's removal never does): a state
    whose exit runs into one under that reading is refused as one the game cannot reach. A
    closure question asked of such a table under ``illegal`` or ``loses_at_once`` (the game
    then already lost) is refused; under ``loses`` it is answered."""
    from dataclasses import replace

    from banditsolve.errors import SolverError
    from banditsolve.tunnels import can_close
    from banditsolve.tunnels.reachable import check_no_hole

    # (the table check of every tunnel state's validate: the helper's states hold part of
    # the deck only, which validate refuses first)
    _, after = _hole([["TR", "L", "L"]], [MAP, *PLAIN])
    check_no_hole(after)  # (under loses, a state of the game)
    illegal = replace(after, options=replace(after.options, hole="illegal"))
    with pytest.raises(NotationError, match=r"hole \(-1, 0\).*hole=illegal"):
        check_no_hole(illegal)
    cards = [parse_card(c) for c in (MAP, "L", "L+BL", "TL+BL")]
    for hole, why in (("illegal", "no card makes one"), ("loses_at_once", "lost at once")):
        with pytest.raises(SolverError, match=why):
            can_close(after.table, cards, options={"hole": hole}, hypothetical=True)
    asked = can_close(after.table, cards, options={"hole": "loses"}, hypothetical=True)
    assert asked.status in ("closable", "impossible")
