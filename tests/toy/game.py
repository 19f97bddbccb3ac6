"""The toy on the game contract (:class:`banditsolve.core.protocol.Game`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from banditsolve.core import io
from banditsolve.core.args import expect_players
from banditsolve.core.options import OptionSet
from banditsolve.core.play import random_policy
from banditsolve.core.protocol import CHANCE, TERMINAL, Game, Outcome, Policy, Source
from banditsolve.core.text import shown
from banditsolve.errors import NotationError
from tests.toy import info, notation, render, rules
from tests.toy.players import greedy
from tests.toy.state import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, Action, Options, Roll, State, Take


def _state(state: object) -> State:
    if not isinstance(state, State):
        raise NotationError(f"not a Nim state: {shown(state)}")
    return state


class DieNim:
    name = "nim"
    title = "Nim with a die"
    seeds: tuple[str, ...] = ()
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    perfect_information = info.PERFECT_INFORMATION
    cooperative = False
    length_bounded_by_rules = True

    @property
    def option_set(self) -> OptionSet:
        return OPTIONS

    def new_game(
        self,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        *,
        seed: int | None = None,
    ) -> State:
        count = MIN_PLAYERS if players is None else players
        expect_players(count, "Nim", MIN_PLAYERS, MAX_PLAYERS)
        read = OPTIONS.read(options)
        chosen = Options(int(read["pile"]), str(read["last"]))
        return State(chosen.pile, count, options=chosen)

    def current_player(self, state: State) -> int:
        state = _state(state)
        if state.is_over:
            return TERMINAL
        return CHANCE if state.is_chance else state.to_move

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        return rules.legal_actions(_state(state))

    def apply(self, state: State, action: Action) -> State:
        return rules.apply(_state(state), action)

    def chance_outcomes(self, state: State) -> tuple[tuple[Action, Fraction], ...]:
        return rules.chance_outcomes(_state(state))

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(_state(state))

    def validate(self, state: State) -> None:
        rules.validate(_state(state))

    def players(self, state: State) -> int:
        return _state(state).players

    def action_text(self, state: State, action: Action) -> str:
        if not isinstance(action, Roll | Take):
            raise NotationError(f"not a Nim action: {shown(action)}")
        return str(action)

    def parse_action(self, state: State, text: str) -> Action:
        words = text.split() if isinstance(text, str) else []
        if len(words) == 2 and words[1] in ("1", "2", "3"):
            if words[0] == "roll":
                return Roll(int(words[1]))
            if words[0] == "take":
                return Take(int(words[1]))
        raise NotationError(f"{shown(text)} is not a Nim action (roll N, take N)")

    def to_notation(self, state: State) -> str:
        return notation.to_notation(_state(state))

    def from_notation(self, text: str) -> State:
        return notation.from_notation(text)

    def to_json(self, state: State) -> dict[str, Any]:
        return notation.to_json(_state(state))

    def from_json(self, document: Any) -> State:
        return notation.from_json(document)

    def read_state(self, source: Source) -> State:
        return io.read_state(
            source, notation=notation.from_notation, json_document=notation.from_json
        )

    def ascii(self, state: State) -> str:
        return render.ascii_art(_state(state))

    def svg(self, state: State) -> str:
        return render.svg(_state(state))

    def policies(self) -> Mapping[str, Policy[State, Action]]:
        return {"random": random_policy(self), "greedy": greedy}

    def observation(self, state: State, player: int) -> str:
        return info.observation(_state(state), player)

    def observation_tensor(self, state: State, player: int) -> tuple[float, ...]:
        return info.observation_tensor(_state(state), player)

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
        return info.action_index(_state(state), action)

    def legal_indices(self, state: State) -> tuple[int, ...]:
        return info.legal_indices(_state(state))

    def action_from_index(self, state: State, index: int) -> Action:
        return info.action_from_index(_state(state), index)

    def max_game_length(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> int:
        self._settings(players, options)
        return info.max_game_length(options)

    def _settings(self, players: int | None, options: Mapping[str, object] | None) -> None:
        """Refuse a player count or options no game is played with."""
        if players is not None:
            expect_players(players, "Nim", MIN_PLAYERS, MAX_PLAYERS)
        OPTIONS.read(options)

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        return Roll(rng.choice((1, 2, 3)))


GAME = DieNim()
_CHECKED: Game[State, Action] = GAME
