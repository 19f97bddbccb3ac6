"""The built-in players and the studies' ``claim-aware`` policy (``players.claim_aware_player``,
which ``banditos/study.py`` offers to the studies) play legal moves and do what they say."""

from __future__ import annotations

import random

from banditsolve.banditos import study
from banditsolve.banditos.actions import Claim, Place
from banditsolve.banditos.dice import Die
from banditsolve.banditos.notation import parse_position
from banditsolve.banditos.players import PLAYERS, claim_aware_player, greedy_player
from banditsolve.banditos.rules import apply, legal_actions
from banditsolve.core.hooks import Task
from tests.banditos.strategies import played_states
from tests.rules import rules


@rules("LB-CLAIM-2", "LB-TURN-3")
def test_claim_aware_places_a_die_where_the_tile_can_be_claimed_at_once() -> None:
    state = parse_position("1:k2k3:g1/2:r6r6:b1/3::/1:: 112233 -:- 0h:k1r6")
    for seed in range(5):
        choice = claim_aware_player(state, random.Random(seed))
        assert choice == Place(Die.parse("r6"), 2)
        assert Claim(2) in legal_actions(apply(state, choice))
    assert greedy_player(state, random.Random(0)) != Place(Die.parse("r6"), 2)


@rules("LB-CLAIM-2", "LB-OPT-1")
def test_claim_aware_avoids_filling_a_side_it_cannot_claim() -> None:
    # k4 would make the black straight 4-5-6, which a blue three of a kind beats (strict proof).
    state = parse_position("3:k5k6:b1/1::/2::/1:: 112233 -:- 0h:k4")
    stuck = Place(Die.parse("k4"), 1)
    assert greedy_player(state, random.Random(0)) == stuck
    for seed in range(10):
        choice = claim_aware_player(state, random.Random(seed))
        assert choice != stuck
        assert choice in legal_actions(state)


@rules("LB-TURN-5")
def test_every_policy_plays_only_legal_actions() -> None:
    policies = [*PLAYERS.values(), claim_aware_player]
    for seed in range(6):
        for first in policies:
            for reached in played_states((first, claim_aware_player), seed=seed)[:-1]:
                if reached.is_chance or reached.is_terminal:
                    continue
                assert first(reached, random.Random(seed)) in legal_actions(reached)


def test_the_study_offers_claim_aware_and_montecarlo() -> None:
    assert study.policy_names() == ("claim-aware", "montecarlo")
    task = Task("t", 0, "banditos", "simulate", 1, (), (("samples", 2),))
    offered = study.policies(task)
    assert offered["claim-aware"] is claim_aware_player
    state = parse_position("1:k6k6:r1/1::b5b5b6/-/- - 3321:3221 0h:k2g4")
    assert offered["montecarlo"](state, random.Random(0)) in legal_actions(state)
