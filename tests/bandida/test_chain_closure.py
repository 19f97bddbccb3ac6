"""The closure question of a Bandida game under ``chain=no``, where a map laid in a chain takes
nothing off (BA-CLOSE-5): ``impossible`` only when no line closes, whichever maps are chained."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from banditsolve.tunnels.rules import settle
from banditsolve.tunnels.solvers.closure import can_close, min_cards_to_close
from banditsolve.tunnels.solvers.result import Closure
from banditsolve.tunnels.state import GameState
from tests.bandida.helpers import bandida, chained_map_game, codes
from tests.rules import rules

Ask = Callable[..., Closure]
ASKS = (can_close, min_cards_to_close)


def with_hand(chain: str, hand: tuple[str, ...]) -> GameState:
    return settle(replace(chained_map_game(chain), hands=(tuple(sorted(codes(hand))),)))


@rules("BA-CLOSE-5", "BA-OPT-8")
@pytest.mark.parametrize("ask", ASKS)
def test_a_game_won_through_a_chained_map_is_not_called_impossible(ask: Ask) -> None:
    """The review's game: the broken tool, the map laid under it as a plain card, then TL+TR
    close the tunnel (the game solver wins it, test_solve_endgame). With every map removing
    no line closes: ``impossible`` under ``chain=yes``, and under ``chain=no`` ``unknown``
    naming the chained map (its line is no certificate the rules replay)."""
    lost = ask(chained_map_game("yes"), hypothetical=True, time_limit=10)
    assert lost.status == "impossible", lost.reason
    open_ = ask(chained_map_game("no"), hypothetical=True, time_limit=10)
    assert open_.status == "unknown", open_.reason
    assert "L+TL+TR:map laid in a chain" in open_.reason
    assert "chain=no" in open_.reason


@rules("BA-CLOSE-5")
@pytest.mark.parametrize("ask", ASKS)
def test_without_a_dynamite_or_the_tool_a_map_always_removes(ask: Ask) -> None:
    """The same game with a plain L+R for the broken tool: nothing can carry the map, so it
    removes whatever the chain option says and the game cannot be closed."""
    hand = ("L+R", "L+TL+TR:map", "TL+TR")
    for chain in ("no", "yes"):
        r = ask(with_hand(chain, hand), hypothetical=True, time_limit=10)
        assert r.status == "impossible", (chain, r.reason)
        assert "chain" not in r.reason


@rules("BA-CLOSE-5")
def test_impossible_stands_when_the_chained_lines_fail_too() -> None:
    """Without TL+TR no line closes, the map chained or not: ``impossible``, its reason
    saying the chained lines were asked too."""
    r = can_close(with_hand("no", ("L+R:broken_tool", "L+TL+TR:map")), hypothetical=True)
    assert r.status == "impossible", r.reason
    assert r.reason.endswith("also with any map laid in a chain, taking nothing off (chain=no)")


@rules("BA-CLOSE-5")
def test_a_chain_under_way_counts_without_a_dynamite_among_the_cards() -> None:
    """A state in the dynamite's phase (its second card still to come) may chain the map even
    with no dynamite or tool left among the cards."""
    hand = ("L+R", "L+TL+TR:map", "TL+TR")
    mid = replace(bandida(with_hand("no", hand)), phase=("dynamite",))
    r = can_close(mid, hypothetical=True, time_limit=10)
    assert r.status == "unknown", r.reason
    assert "laid in a chain" in r.reason


@rules("BA-CLOSE-5")
def test_the_chained_lines_keep_to_the_node_limit() -> None:
    """The chained lines share the question's node limit: with all of it spent on the first
    question the answer is ``unknown`` naming the limit, never more nodes than the limit."""
    state = chained_map_game("no")
    full = can_close(state, hypothetical=True)
    assert full.status == "unknown"
    for most in (10, 40, full.stats.nodes - 1):
        r = can_close(state, hypothetical=True, node_limit=most)
        assert r.status == "unknown", r.reason
        assert r.stats.nodes <= most, (most, r.stats.nodes)
    r = can_close(chained_map_game("yes"), hypothetical=True)
    spent = can_close(state, hypothetical=True, node_limit=r.stats.nodes)
    assert "node limit ran out" in spent.reason
    assert "in a chain" in spent.reason


@rules("BA-CLOSE-5", "BA-OPT-5", "BA-SOLVE-3")
def test_a_tool_that_lays_over_turns_carries_no_map() -> None:
    """Under ``tool=over_turns`` the broken tool's cards are laid one a turn: no chain, so the
    map removes and the game is lost, for ``close`` and for ``solve`` alike."""
    from banditsolve.tunnels import solve_game

    state = chained_map_game("no", tool="over_turns")
    r = can_close(state, hypothetical=True, time_limit=10)
    assert r.status == "impossible", r.reason
    assert solve_game(state, hypothetical=True, time_limit=10).status == "lose"
