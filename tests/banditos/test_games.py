"""Random legal games: the Los Banditos invariants after every step (LB-TURN-*, LB-WIN-*,
LB-END-1): dice and tiles conserved, scores, side sizes, refills, the hand, the bag.

The generic contract (round trips, chance sums, purity, illegal actions, terminal states) is
checked for every game by ``tests/contract.py``; only what is particular to this game is here."""

from __future__ import annotations

import random

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from banditsolve.banditos.dice import DICE_PER_COLOUR, colour_counts
from banditsolve.banditos.players import greedy_player, random_player
from banditsolve.banditos.rules import Action, apply, legal_actions, sample_chance
from banditsolve.banditos.state import Options, State, initial_state
from tests.banditos.strategies import played_states
from tests.profiles import scaled
from tests.rules import rules


def check_invariants(state: State) -> None:
    on_tiles = colour_counts(state.dice_on_tiles())
    in_hand = colour_counts(state.hand)
    for colour in range(4):
        assert state.bag[colour] + on_tiles[colour] + in_hand[colour] == DICE_PER_COLOUR
    tiles = [s.value for s in state.row if s] + list(state.won[0]) + list(state.won[1])
    for value, count in zip((1, 2, 3), (4, 3, 3), strict=True):
        assert tiles.count(value) + state.stack[value - 1] == count
    assert state.scores == (sum(state.won[0]), sum(state.won[1]))
    for _, tile in state.tiles_in_play():
        assert all(len(side) <= 3 for side in tile.sides)
        assert not (len(tile.sides[0]) == 3 and len(tile.sides[1]) == 3)
    if not state.is_chance and not state.is_terminal:
        assert all(s is not None for s in state.row) or state.stack_size == 0
    assert len(state.hand) <= state.dice_to_draw
    if state.roll_pending:
        assert sum(state.bag) >= state.dice_to_draw  # LB-TURN-7
    if state.is_terminal:
        winner = state.winner
        assert winner is not None
        assert state.scores[winner] >= 10 > state.scores[1 - winner]


@rules("LB-TURN-1", "LB-TURN-2", "LB-TURN-3", "LB-TURN-4", "LB-TURN-7", "LB-WIN-1", "LB-WIN-2",
       "LB-END-1", "LB-OPT-4")
def test_thousands_of_random_games_keep_every_invariant() -> None:
    seeds = range(scaled(1000, 2000))
    assert _play_games(seeds) == len(seeds)


@pytest.mark.slow
def test_many_more_random_games_keep_every_invariant() -> None:
    assert _play_games(range(1000, 11000)) == 10000


def _play_games(seeds: range) -> int:
    """Play every seed's game, checking the invariants at each state; the number finished."""
    finished = 0
    for seed in seeds:
        # Mostly games with a random player (short, wide-ranging); every 20th greedy v greedy
        # (long, with full sides and claims).
        if seed % 20 == 0:
            pair = (greedy_player, greedy_player)
        else:
            pair = (random_player, greedy_player) if seed % 2 else (greedy_player, random_player)
        options = Options(
            proof="bag" if seed % 3 == 0 else "strict",
            unplaceable="return" if seed % 5 == 0 else "give_up",
        )
        last = initial_state(options)
        for state in played_states(pair, seed=seed, options=options):
            check_invariants(state)
            last = state
        assert last.winner is not None
        assert last.scores[last.winner] >= 10 > last.scores[1 - last.winner]
        finished += 1
    return finished


class RandomGame(RuleBasedStateMachine):
    """Hypothesis drives the choices; chance is sampled from its own seed."""

    def __init__(self) -> None:
        super().__init__()
        self.state = initial_state()
        self.rng = random.Random(0)

    @rule(choice=st.integers(0, 10_000), seed=st.integers(0, 2**32))
    def step(self, choice: int, seed: int) -> None:
        if self.state.is_terminal:
            return
        action: Action
        if self.state.is_chance:
            action = sample_chance(self.state, random.Random(seed))
        else:
            actions = legal_actions(self.state)
            action = actions[choice % len(actions)]
        self.state = apply(self.state, action)

    @invariant()
    def consistent(self) -> None:
        check_invariants(self.state)


RandomGame.TestCase.settings = settings(max_examples=30, stateful_step_count=80, deadline=None)
TestRandomGame = rules("LB-TURN-5")(RandomGame.TestCase)
