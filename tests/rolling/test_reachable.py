"""Every state random play reaches, under option sets drawn at random and 2 to 4 players, is
one the readers accept (``rules.validate``): the rules and the check of what they can reach
agree, whatever the readings chosen."""

from __future__ import annotations

import random

import pytest

from banditsolve.rolling.game import GAME
from banditsolve.rolling.rules import apply_unchecked, legal_actions, sample_chance, validate
from banditsolve.rolling.state import OPTION_SET
from tests.profiles import scaled
from tests.rules import rules


@rules("RB-NOTE-2", "RB-TRUNK-1", "RB-TRUNK-3", "RB-TRUNK-5", "RB-SETUP-2", "RB-JOKER-1",
       "RB-AMBUSH-1")
@pytest.mark.parametrize("seed", range(4))
def test_every_state_of_random_play_under_random_options_is_accepted(seed: int) -> None:
    rng = random.Random(2710 + seed)
    seen = 0
    for _ in range(scaled(40, 150)):
        options = {name: rng.choice(values) for name, values in OPTION_SET.names().items()}
        players = 2 if options["mercenaries"] == "on" else rng.choice((2, 3, 4))
        state = GAME.new_game(players=players, options=options, seed=rng.randrange(10**6))
        while not state.is_terminal:
            validate(state)
            seen += 1
            if state.is_chance:
                action = sample_chance(state, rng)
            else:
                actions = legal_actions(state)
                action = actions[rng.randrange(len(actions))]
            state = apply_unchecked(state, action)
        validate(state)
    assert seen > 1000
