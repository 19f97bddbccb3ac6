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

from banditsolve.banditos import notation, rules
from banditsolve.banditos.players import PLAYERS
from banditsolve.banditos.rules import Action
from banditsolve.banditos.state import (
    OPTION_VALUES,
    Options,
    State,
    expect_state,
    initial_state,
)
from banditsolve.core.io import json_type
from banditsolve.core.options import OptionSet, OptionSpec
from banditsolve.core.protocol import CHANCE, TERMINAL, Outcome, Policy, Source
from banditsolve.core.text import excerpt, shown
from banditsolve.errors import RuleOptionError

# An interim bridge to the one options system (the game's own specs replace it).
_OPTION_SET = OptionSet(
    "Los Banditos",
    tuple(OptionSpec(n, v, v[0], "see specs/los-banditos.md") for n, v in OPTION_VALUES.items()),
)


class LosBanditos:
    """The Los Banditos game object: two players, chance for tiles and dice."""

    name = "banditos"
    title = "Los Banditos"
    seeds: tuple[str, ...] = ("000", "001")
    min_players = 2
    max_players = 2

    @property
    def option_set(self) -> OptionSet:
        return _OPTION_SET

    def validate(self, state: State) -> None:
        expect_state(state)

    def options(self, values: Mapping[str, object] | None) -> Options:
        """Rule options from ``name -> value`` (text values, as from the command line)."""
        if values is None:
            return Options()
        if not isinstance(values, Mapping):
            raise RuleOptionError(
                f"Los Banditos rule options are a mapping name -> value, not {json_type(values)}"
            )
        names = self.option_set.names()
        for key in values:
            if not isinstance(key, str) or key not in names:
                raise RuleOptionError(
                    f"unknown Los Banditos rule option {excerpt(str(key))} "
                    f"(options are {', '.join(names)})"
                )
        return Options(**values)  # type: ignore[arg-type]

    def new_game(
        self,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        *,
        seed: int | None = None,
    ) -> State:
        if players is not None and (type(players) is not int or players != 2):
            raise RuleOptionError(
                f"Los Banditos is played by 2 players, not {shown(players)}"
            )
        return initial_state(self.options(options))

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
        return notation.read_position(source)

    def ascii(self, state: State) -> str:
        return expect_state(state).ascii()

    def svg(self, state: State) -> str:
        return expect_state(state).svg()

    def policies(self) -> Mapping[str, Policy[State, Action]]:
        return PLAYERS

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        return rules.sample_chance(state, rng)


GAME = LosBanditos()
