"""The tunnel games' hidden hands (``tunnels/info.py``): a player sees their own hand, the
others' only as counts, and neither the pile's order nor its cards."""

from __future__ import annotations

import json
from typing import Any

import pytest

from banditsolve import load_game
from tests.rules import rules


@rules("BA-GAME-3", "BD-SETUP-2")
@pytest.mark.parametrize("name", ["bandido", "bandida"])
def test_a_player_sees_their_own_hand_and_only_counts_of_the_rest(name: str) -> None:
    game: Any = load_game(name)
    state = game.new_game(3, seed=5)
    assert not game.perfect_information
    assert game.length_bounded_by_rules == (name == "bandido")  # (BA-SETUP-3: a cap)
    for player in range(3):
        seen = json.loads(game.observation(state, player))
        for p, hand in enumerate(seen["hands"]):
            if p == player:
                assert hand == game.to_json(state)["hands"][p]
            else:
                assert hand == len(state.hands[p])
        assert seen["pile"] == len(state.pile)
        assert seen["unseen"] == len(state.unseen)
        assert seen["placements"] == game.to_json(state)["placements"]


@pytest.mark.parametrize("name", ["bandido", "bandida"])
def test_two_deals_with_the_same_hand_and_another_pile_look_the_same_to_its_holder(
    name: str,
) -> None:
    """Solo games: the player's hand is all they see of the deal, whatever the pile holds."""
    game: Any = load_game(name)
    by_hand: dict[tuple[int, ...], tuple[str, str, tuple[int, ...]]] = {}
    for seed in range(400):
        state = game.new_game(1, seed=seed)
        hand = state.hands[0]
        seen = (game.observation(state, 0), str(game.observation_tensor(state, 0)), state.pile)
        if hand in by_hand and by_hand[hand][2] != state.pile:
            assert by_hand[hand][:2] == seen[:2]
            return
        by_hand.setdefault(hand, seen)
    pytest.fail("no two deals with the same hand")
