"""Rolling Bandits on the game contract (:class:`banditsolve.core.protocol.Game`).

>>> from banditsolve import load_game
>>> game = load_game("rolling")
>>> state = game.new_game(3, seed=1)
>>> game.current_player(state), len(state.train)
(0, 17)
>>> [str(a) for a in game.legal_actions(state)]
['roll']
>>> state = game.apply(state, game.legal_actions(state)[0])
>>> game.current_player(state) == CHANCE, len(game.chance_outcomes(state))
(True, 792)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from banditsolve.core.args import expect_players, expect_whole
from banditsolve.core.io import read_state
from banditsolve.core.limits import MAX_SEED
from banditsolve.core.observe import places
from banditsolve.core.options import OptionSet
from banditsolve.core.protocol import CHANCE, TERMINAL, Game, Outcome, Policy, Source
from banditsolve.errors import RuleOptionError
from banditsolve.rolling import info, notation, render, rules
from banditsolve.rolling.edition import Edition, default_edition, register
from banditsolve.rolling.players import PLAYERS
from banditsolve.rolling.rules import Action
from banditsolve.rolling.state import OPTION_SET, Options, State, expect_state


class RollingBandits:
    """The Rolling Bandits game object: 2 to 4 players; chance deals the train, the trunks'
    symbols, every roll and what each trunk holds. One object per edition (:data:`GAME` plays
    the bundled, reconstructed one; :meth:`with_edition` makes another)."""

    name: str = "rolling"
    title: str = "Rolling Bandits"
    seeds: tuple[str, ...] = ("002",)
    min_players: int = 2
    max_players: int = 4
    perfect_information: bool = info.PERFECT_INFORMATION
    cooperative: bool = False  # each player for themselves
    length_bounded_by_rules: bool = False

    def __init__(self, edition: Edition | None = None) -> None:
        self.edition = register(edition or default_edition())

    def with_edition(self, edition: Edition) -> RollingBandits:
        return RollingBandits(edition)

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
        """A new game; with ``seed`` the set-up (train order and trunk symbols) is dealt at once
        by a seeded shuffle, else it is a sequence of chance nodes."""
        opts = Options.from_mapping(options)
        if players is None:
            players = 2
        expect_players(players, "Rolling Bandits", 2, 4)
        state = rules.new_state(players, opts, self.edition)
        if seed is not None:
            expect_whole(seed, "the seed", 0, MAX_SEED, RuleOptionError)
            state = rules.deal_setup(state, random.Random(f"rolling-setup-{seed}"))
        return state

    def players(self, state: State) -> int:
        expect_state(state)
        return state.players

    def current_player(self, state: State) -> int:
        expect_state(state)
        if state.is_terminal:
            return TERMINAL
        if state.is_chance:
            return CHANCE
        return state.to_move

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        expect_state(state)
        return rules.legal_actions(state)

    def apply(self, state: State, action: Action) -> State:
        expect_state(state)
        return rules.apply(state, action)

    def apply_legal(self, state: State, action: Action) -> State:
        """:meth:`apply` of an action taken from this state's legal actions or chance
        outcomes, not checked again (``rules.apply_unchecked``)."""
        return rules.apply_unchecked(expect_state(state), action)

    def chance_outcomes(self, state: State) -> tuple[tuple[Action, Fraction], ...]:
        expect_state(state)
        return rules.chance_outcomes(state)

    def outcome(self, state: State) -> Outcome | None:
        expect_state(state)
        if not state.is_terminal:
            return None
        best = rules.winners(state)
        scores = state.scores
        names = " and ".join(f"player {p}" for p in best)
        tie = " (tie shared)" if len(best) > 1 else ""
        reason = f"the train is taken; {names} won with {scores[best[0]]} points{tie}"
        return Outcome.win(best, state.players, reason, scores=scores)

    def observation(self, state: State, player: int) -> str:
        return info.observation(expect_state(state), player)

    def observation_tensor(self, state: State, player: int) -> tuple[float, ...]:
        return info.observation_tensor(expect_state(state), player, self.edition)

    def observation_bytes(self, state: State, player: int) -> bytes:
        """:meth:`observation_tensor` as ``float32`` bytes, without the tuple."""
        return info.observation_bytes(expect_state(state), player, self.edition)

    def observation_shape(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> tuple[int, ...]:
        self._options(players, options)
        return (info.tensor_length(self.edition),)

    def num_distinct_actions(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> int:
        return info.distinct_actions(self.edition, self._options(players, options))

    def max_chance_outcomes(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> int:
        self._options(players, options)
        return info.chance_outcomes(self.edition)

    def action_index(self, state: State, action: Action) -> int:
        return info.action_index(expect_state(state), action)

    def legal_indices(self, state: State) -> tuple[int, ...]:
        return places(len(rules.legal_actions(expect_state(state))))

    def legal_actions_and_indices(
        self, state: State
    ) -> tuple[tuple[Action, ...], tuple[int, ...]]:
        """``(legal_actions(state), legal_indices(state))`` from one listing."""
        legal = rules.legal_actions(expect_state(state))
        return legal, places(len(legal))

    def action_from_index(self, state: State, index: int) -> Action:
        return info.action_from_index(expect_state(state), index, self.edition)

    def max_game_length(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> int:
        """A cap, not a bound: the rules let a game go on for ever (see
        :mod:`banditsolve.rolling.info`)."""
        self._options(players, options)
        return info.MAX_GAME_LENGTH

    def _options(self, players: int | None, options: Mapping[str, object] | None) -> Options:
        """The options, refused with the player count as :meth:`new_game` refuses them."""
        if players is not None:
            expect_players(players, "Rolling Bandits", 2, 4)
        return Options.from_mapping(options)

    def action_text(self, state: State, action: Action) -> str:
        expect_state(state)
        return str(action)

    def parse_action(self, state: State, text: str) -> Action:
        expect_state(state)
        return rules.parse_action(text)

    def to_notation(self, state: State) -> str:
        expect_state(state)
        return notation.format_state(state)

    def from_notation(self, text: str) -> State:
        return notation.parse_state(text)

    def to_json(self, state: State) -> dict[str, Any]:
        expect_state(state)
        return notation.to_json(state)

    def from_json(self, document: Any) -> State:
        return notation.from_json(document)

    def read_state(self, source: Source) -> State:
        return read_state(
            source, notation=notation.parse_state, json_document=notation.from_json,
            what="position", picture=self.ascii,
        )

    def ascii(self, state: State) -> str:
        expect_state(state)
        return render.ascii_picture(state)

    def svg(self, state: State) -> str:
        expect_state(state)
        return render.svg_picture(state)

    def policies(self) -> Mapping[str, Policy[State, Action]]:
        return PLAYERS

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        expect_state(state)
        return rules.sample_chance(state, rng)


GAME = RollingBandits()

#: mypy proves here that the adapter fits the game contract.
_CHECKED: Game[State, Action] = GAME
