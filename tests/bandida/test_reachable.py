"""Every state random play reaches, in every mode and under option sets drawn at random, is one
the readers accept (``validate``), and every such game ends: the rules and the check of what
they can reach agree, whatever the readings chosen."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from banditsolve.errors import NotationError
from banditsolve.tunnels import rules
from banditsolve.tunnels.bandida.rules import expect
from banditsolve.tunnels.bandida.state import OPTION_SET, BandidaOptions
from banditsolve.tunnels.game import BANDIDA
from banditsolve.tunnels.simulate import simulate
from banditsolve.tunnels.state import LOST, REASONS
from tests.profiles import scaled
from tests.rules import rules as spec_rules


def random_options(rng: random.Random) -> BandidaOptions:
    """Every option at a value drawn at random (the play area left unbounded)."""
    values = {name: rng.choice(choices) for name, choices in OPTION_SET.names().items()}
    values["table_size"] = "unbounded"
    return BandidaOptions.from_mapping(values)


@spec_rules("BA-NOTE-1", "BA-OBJ-2", "BA-OBJ-3", "BA-OBJ-4", "BA-OBJ-7", "BA-ALARM-2", "BA-END-2")
@pytest.mark.parametrize("seed", range(4))
def test_every_state_of_random_play_under_random_options_is_accepted(seed: int) -> None:
    rng = random.Random(2700 + seed)
    for _ in range(scaled(60, 200)):
        options = random_options(rng)
        game = simulate(rng.choice((2, 3, 4)), rng.randrange(10**6), options)
        assert game[-1].outcome is not None  # (simulate raises if a game does not end)
        for state in game:
            rules.validate(state)


#: Both hand sizes one, and an alarm that drives them to zero: seed 448461's game loses at
#: its first alarm, every card discarded (it once went on for ever, both players passing).
ZERO = {"hand_size": "1", "alarm_zero": "zero", "pile_out": "must_draw",
        "hand_change": "ends_turn"}


@spec_rules("BA-OPT-10")
def test_a_game_where_no_hand_can_hold_a_card_again_is_lost() -> None:
    game = simulate(2, 448461, BandidaOptions.from_mapping(ZERO))
    end = expect(game[-1])
    assert end.outcome == LOST
    assert end.reason == REASONS["no-hand"]
    assert not any(end.hands)
    assert end.sizes == (0, 0)
    assert BANDIDA.from_notation(BANDIDA.to_notation(end)) == end
    # The reason must be true of the state: with a card in a hand it is refused.
    before = next(s for s in reversed(game) if any(s.hands) and s.outcome is None)
    with pytest.raises(NotationError, match="BA-OPT-10"):
        rules.validate(replace(before, outcome=LOST, reason=REASONS["no-hand"], to_draw=()))
