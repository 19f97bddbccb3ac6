"""Los Banditos on the game contract (:class:`banditsolve.core.Game`).

>>> from banditsolve import load_game
>>> game = load_game("banditos")
>>> state = game.new_game()
>>> game.current_player(state) == CHANCE
True
>>> [str(p) for _, p in game.chance_outcomes(state)]
['2/5', '3/10', '3/10']
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from banditsolve.banditos import info, notation, render, rules
from banditsolve.banditos.actions import Action
from banditsolve.banditos.players import PLAYERS
from banditsolve.banditos.state import OPTION_SET, Options, State, expect_state, initial_state
from banditsolve.core.args import expect_players, expect_whole
from banditsolve.core.io import read_state
from banditsolve.core.limits import MAX_SEED
from banditsolve.core.options import OptionSet
from banditsolve.core.protocol import CHANCE, TERMINAL, Game, Outcome, Policy, Source
from banditsolve.errors import RuleOptionError


class LosBanditos:
    """The Los Banditos game object: two players, chance for tiles and dice."""

    name = "banditos"
    title = "Los Banditos"
    seeds: tuple[str, ...] = ("000", "001")
    min_players = 2
    max_players = 2
    perfect_information = info.PERFECT_INFORMATION
    cooperative = False  # a duel (LB-WIN-1)
    length_bounded_by_rules = True

    @property
    def option_set(self) -> OptionSet:
        return OPTION_SET

    def validate(self, state: State) -> None:
        rules.validate(state)

    def new_game(
        self,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        *,
        seed: int | None = None,
    ) -> State:
        if players is not None:
            expect_players(players, "Los Banditos", 2, 2)
        if seed is not None:  # (no hidden set-up: the seed is checked as every game's is)
            expect_whole(seed, "the seed", 0, MAX_SEED, RuleOptionError)
        return initial_state(Options.from_mapping(options))

    def players(self, state: State) -> int:
        expect_state(state)
        return 2

    def current_player(self, state: State) -> int:
        expect_state(state)
        if state.is_terminal:
            return TERMINAL
        if state.is_chance:
            return CHANCE
        return state.to_move

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        return tuple(rules.legal_actions(state))

    def apply(self, state: State, action: Action) -> State:
        return rules.apply(state, action)

    def chance_outcomes(self, state: State) -> tuple[tuple[Action, Fraction], ...]:
        return tuple(rules.chance_outcomes(state))

    def outcome(self, state: State) -> Outcome | None:
        winner = expect_state(state).winner
        if winner is None:
            return None
        scores = state.scores
        return Outcome.win(
            (winner,), 2, f"player {winner} reached {scores[winner]} points", scores=scores
        )

    def action_text(self, state: State, action: Action) -> str:
        expect_state(state)
        return str(rules.check_action(action))

    def parse_action(self, state: State, text: str) -> Action:
        expect_state(state)
        return rules.parse_action(text)

    def to_notation(self, state: State) -> str:
        return notation.format_position(state)

    def from_notation(self, text: str) -> State:
        return notation.parse_position(text)

    def to_json(self, state: State) -> dict[str, Any]:
        return notation.to_json(state)

    def from_json(self, document: Any) -> State:
        return notation.from_json(document)

    def read_state(self, source: Source) -> State:
        return read_state(
            source, notation=notation.parse_position, json_document=notation.from_json,
            what="position", picture=self.ascii,
        )

    def ascii(self, state: State) -> str:
        return render.ascii_picture(expect_state(state))

    def svg(self, state: State) -> str:
        return render.svg_picture(expect_state(state))

    def policies(self) -> Mapping[str, Policy[State, Action]]:
        return PLAYERS

    def observation(self, state: State, player: int) -> str:
        return info.observation(expect_state(state), player)

    def observation_tensor(self, state: State, player: int) -> tuple[float, ...]:
        return info.observation_tensor(expect_state(state), player)

    def observation_bytes(self, state: State, player: int) -> bytes:
        """:meth:`observation_tensor` as ``float32`` bytes, without the tuple."""
        return info.observation_bytes(expect_state(state), player)

    def observation_shape(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> tuple[int, ...]:
        self._settings(players, options)
        return (info.TENSOR_LENGTH,)

    def num_distinct_actions(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> int:
        self._settings(players, options)
        return info.DISTINCT_ACTIONS

    def max_chance_outcomes(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> int:
        self._settings(players, options)
        return info.CHANCE_OUTCOMES

    def action_index(self, state: State, action: Action) -> int:
        return info.action_index(expect_state(state), action)

    def legal_indices(self, state: State) -> tuple[int, ...]:
        return info.legal_indices(expect_state(state))

    def legal_actions_and_indices(
        self, state: State
    ) -> tuple[tuple[Action, ...], tuple[int, ...]]:
        """``(legal_actions(state), legal_indices(state))`` from one listing."""
        legal = tuple(rules.legal_actions(expect_state(state)))
        return legal, tuple(map(info.index_of, legal))

    def action_from_index(self, state: State, index: int) -> Action:
        return info.action_from_index(expect_state(state), index)

    def max_game_length(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> int:
        self._settings(players, options)
        return info.MAX_GAME_LENGTH

    def _settings(self, players: int | None, options: Mapping[str, object] | None) -> None:
        """Refuse a player count or options no game is played with."""
        if players is not None:
            expect_players(players, "Los Banditos", 2, 2)
        Options.from_mapping(options)

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        return rules.sample_chance(state, rng)


GAME = LosBanditos()

#: The adapter fits the game contract (mypy checks this line).
_CHECKED: Game[State, Action] = GAME
