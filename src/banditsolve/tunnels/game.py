"""The tunnel games on the game contract (:class:`banditsolve.core.protocol.Game`).

One engine, two games: a :class:`GameSpec` is a game as data (its name, seeds, deck edition,
options, state forms, its deal and its pictures), and :class:`TunnelGame` puts any such game on
the contract. Bandido is :data:`BANDIDO`; Bandida (seed 003) is :data:`BANDIDA`: its deck file,
:class:`~banditsolve.tunnels.bandida.state.BandidaOptions` and the rules that differ
(:mod:`banditsolve.tunnels.bandida`).

>>> from banditsolve import load_game
>>> game = load_game("bandido")
>>> state = game.new_game(2, seed=1)
>>> game.current_player(state), game.players(state), len(state.hands[0])
(0, 2, 3)
>>> action = game.legal_actions(state)[0]
>>> text = game.action_text(state, action)
>>> game.parse_action(state, text) == action
True
>>> after = game.apply(state, action)
>>> game.from_notation(game.to_notation(after)) == after
True
>>> game.chance_outcomes(game.new_game(1))[0]
(Draw(card=1, top=''), Fraction(1, 23))

Actions are :class:`~banditsolve.tunnels.geometry.Placement` (text ``NAME@x,y,r``),
:data:`~banditsolve.tunnels.state.CHANGE` (``change``), :data:`~banditsolve.tunnels.state.PASS`
(``pass``) and, at a chance node, :class:`~banditsolve.tunnels.state.Draw` (``draw NAME``).
Bandida adds :class:`~banditsolve.tunnels.state.Discard` (``discard NAME``, an alarm) and
:class:`~banditsolve.tunnels.state.Remove` (``remove NAME@x,y,r ...``, a map).

>>> bandida = load_game("bandida")
>>> state = bandida.new_game(2, {"mode": 2}, seed=3)
>>> state.options.mode, state.sizes, bandida.to_notation(state).split()[:2]
(2, (3, 3), ['bandida', 'L+TL+TR+R+BR+BL@0,0,0'])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

from banditsolve.core import io
from banditsolve.core.args import expect_players, expect_whole
from banditsolve.core.limits import MAX_SEED
from banditsolve.core.observe import places
from banditsolve.core.options import OptionSet
from banditsolve.core.play import random_policy
from banditsolve.core.protocol import CHANCE, TERMINAL, Game, Outcome, Policy, Source
from banditsolve.core.text import shown
from banditsolve.errors import ArgumentTypeError, NotationError, RuleOptionError
from banditsolve.tunnels import info, notation, render, rules
from banditsolve.tunnels.bandida import notation as bandida_notation
from banditsolve.tunnels.bandida import render as bandida_render
from banditsolve.tunnels.bandida import rules as bandida_rules
from banditsolve.tunnels.bandida.components import MODES, Mode
from banditsolve.tunnels.bandida.state import OPTION_SET as BANDIDA_OPTION_SET
from banditsolve.tunnels.bandida.state import BandidaOptions
from banditsolve.tunnels.cards import Deck, load_deck
from banditsolve.tunnels.notation import (
    BANDIDO_FORM,
    Position,
    StateForm,
    action_text,
    parse_action,
    read_json_state,
    state_from_notation,
    state_to_json,
    state_to_notation,
)
from banditsolve.tunnels.players import greedy_policy
from banditsolve.tunnels.state import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    WON,
    Action,
    Draw,
    GameState,
    Options,
    refuse_foreign,
)

#: A game's deal: ``(players, options, deck, rng)`` to the new game (the options are the game's
#: own class: a deal refuses any other).
Deal = Callable[[int, Options, Deck, random.Random | None], GameState]
#: A picture of a state with the game's title.
View = Callable[[GameState, str], str]


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One tunnel game as data: its registry name, title, seeds, deck edition (a packaged
    ``tunnels/data/<edition>.json``), its options class (and so its option set), how its
    states are written and read (``form``, which also names the other tunnel game's options,
    refused by name), its deal (``deal``, given options of its class), its pictures, its modes
    (Bandida's, each with its goal; which components each holds is the deck's data) and player
    counts."""

    name: str
    title: str
    seeds: tuple[str, ...]
    edition: str
    options: type[Options]
    form: StateForm
    deal: Deal
    caption: View
    ascii: View
    svg: View
    modes: Mapping[int, Mode] | None = None
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    default_players: int = 2

    @property
    def rules(self) -> Options:
        """The game's default rule options."""
        return self.options()


def _bandido_deal(
    players: int, options: Options, deck: Deck, rng: random.Random | None
) -> GameState:
    return rules.new_game(players, options, deck=deck, rng=rng)


def _bandida_deal(
    players: int, options: Options, deck: Deck, rng: random.Random | None
) -> GameState:
    if not isinstance(options, BandidaOptions):
        raise RuleOptionError("Bandida's games are played with BandidaOptions")
    return bandida_rules.new_game(players, options, deck=deck, rng=rng)


#: Bandido (seed 004). Players: seed 004 names solo play (the same rules with a hand of 3);
#: the upper bound of 4 is not in the seeds (the box's count; our reading, BD-SETUP-1).
BANDIDO_SPEC = GameSpec(
    "bandido",
    "Bandido",
    ("004",),
    "bandido",
    Options,
    replace(BANDIDO_FORM, foreign=BANDIDA_OPTION_SET),
    _bandido_deal,
    render.caption,
    render.state_ascii,
    render.state_svg,
)
#: Bandida (seed 003): its deck, its options (Bandida's readings of the shared rules, mode 1 by
#: default) and its rules; 1 to 4 players (the seed deals "to every player" and names no
#: count: BA-SETUP-2).
BANDIDA_SPEC = GameSpec(
    "bandida",
    "Bandida",
    ("003",),
    "bandida",
    BandidaOptions,
    bandida_notation.FORM,
    _bandida_deal,
    bandida_render.caption,
    bandida_render.state_ascii,
    bandida_render.state_svg,
    modes=MODES,
)


class TunnelGame:
    """A tunnel game on the contract. States are :class:`~banditsolve.tunnels.state.GameState`
    values (Bandida's: :class:`~banditsolve.tunnels.bandida.state.BandidaState`)."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.name = spec.name
        self.title = spec.title
        self.seeds = spec.seeds
        self.min_players = spec.min_players
        self.max_players = spec.max_players
        #: The player count of :meth:`new_game` without one (BD-SETUP-1, BA-SETUP-2): 2.
        self.default_players = spec.default_players
        #: The hands are hidden from the other players (:mod:`banditsolve.tunnels.info`).
        self.perfect_information = info.PERFECT_INFORMATION
        self.cooperative = True  # the players win or lose together
        #: Bandido's rules bound its length; Bandida's set-up may redraw an alarm for ever
        #: (BA-SETUP-3): its max_game_length is a cap (:mod:`banditsolve.tunnels.info`).
        self.length_bounded_by_rules = spec.modes is None

    def __repr__(self) -> str:
        return f"TunnelGame({self.name!r})"

    @cached_property
    def deck(self) -> Deck:
        """The deck of the variant's edition."""
        return load_deck(self.spec.edition)

    @cached_property
    def base(self) -> Options:
        """The variant's default options."""
        return self.spec.rules

    @property
    def option_set(self) -> OptionSet:
        """The game's rule options: names, values, defaults, reasons, and their one parser."""
        return self.spec.options.OPTION_SET

    def _state(self, state: object) -> GameState:
        """``state`` if it is a state of this game (the other tunnel game's is refused)."""
        if not isinstance(state, GameState):
            raise ArgumentTypeError(f"expected a tunnel game state, not {shown(state)}")
        if type(state.options) is not self.spec.options:
            game = "bandido" if state.variant is None else state.variant.name
            raise NotationError(f"a {game} game state is not a state of {self.title}")
        return state

    def read_position(
        self, source: object, *, hypothetical: bool = False, mode: int | None = None
    ) -> Position:
        """A position (a table and the cards still to come) of this game from text (notation
        or JSON), UTF-8 bytes, a file or ``-``; a position of the other tunnel game is refused.
        ``mode``: the Bandida mode the position is a question of (the one the position says, or
        mode 1, without it): without remaining cards they are the mode's pile less the table,
        and a component the mode lacks is refused with its rule (the ladder outside modes 2 and
        3, BA-SETUP-4; Bandido's super card outside mode 3, BA-DECK-5). Bandido has no modes.
        The one position reader: :func:`banditsolve.tunnels.notation.read_position`."""
        return notation.read_position(
            source, self.deck, hypothetical=hypothetical, game=self.name, mode=mode
        )

    def read_position_or_state(
        self, source: object, *, hypothetical: bool = False, mode: int | None = None
    ) -> Position | GameState:
        """A game state when its form says so (a notation with ``FIELD=VALUE`` words after its
        bar, a JSON document with ``"hands"``: read as :meth:`read_state` reads one), else a
        position read exactly as :meth:`read_position` reads it (BD-CLOSE-6). Text, UTF-8
        bytes, a file or ``-``, read once; an error names the file it came from."""

        def from_text(text: str) -> Position | GameState:
            if notation.is_state_text(text):
                return self.from_notation(text)
            return notation.from_notation(
                text, self.deck, hypothetical=hypothetical, game=self.name, mode=mode
            )

        def from_document(data: Any) -> Position | GameState:
            if notation.is_state_document(data):
                return self.from_json(data)
            return notation.from_json(
                data, self.deck, hypothetical=hypothetical, game=self.name, mode=mode
            )

        def picture(read: Position | GameState) -> str:
            # (new and apply print game states: a position's text is never their picture)
            return self.ascii(read) if isinstance(read, GameState) else ""

        return io.read_state(
            source, notation=from_text, json_document=from_document, what="position",
            picture=picture,
        )

    def refuse_foreign(self, values: object) -> None:
        """Refuse, with one line saying whose it is, an option (or a value) of the mapping
        ``values`` that only the other tunnel game reads (BA-OPT-13)."""
        refuse_foreign(values, self.option_set, self.spec.form.foreign)

    def validate(self, state: GameState) -> None:
        """Refuse a state the rules cannot reach (:func:`banditsolve.tunnels.rules.validate`)."""
        rules.validate(self._state(state), self.deck)

    # -- states -----------------------------------------------------------------------------------

    def options(self, values: Mapping[str, object] | None = None) -> Options:
        """Rule options from ``name -> value`` over the variant's defaults (text values
        accepted, as from the command line); unknown names or values, and the other tunnel
        game's options, raise :class:`RuleOptionError`."""
        if values is None:
            return self.base
        self.refuse_foreign(values)
        return self.spec.options.from_mapping(values)

    def new_game(
        self,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        *,
        seed: int | None = None,
    ) -> GameState:
        """A new game: the super card down and the deal to come. With ``seed`` the deck is
        shuffled by ``random.Random(seed)`` and dealt at once (the pile order is then known:
        the same game as ``play_game(players, seed)``); without, the deal is a sequence of
        chance nodes."""
        count = self.spec.default_players if players is None else players
        expect_players(count, self.title, self.min_players, self.max_players)
        if seed is not None:
            expect_whole(seed, "the seed", 0, MAX_SEED, RuleOptionError)
        chosen = self.options(options)
        rng = None if seed is None else random.Random(seed)
        return self.spec.deal(count, chosen, self.deck, rng)

    def players(self, state: GameState) -> int:
        return self._state(state).players

    def current_player(self, state: GameState) -> int:
        state = self._state(state)
        if state.outcome is not None:
            return TERMINAL
        if state.is_chance:
            return CHANCE
        return state.to_act

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        return rules.legal_actions(self._state(state))

    def apply(self, state: GameState, action: Action) -> GameState:
        return rules.apply(self._state(state), action)

    def chance_outcomes(self, state: GameState) -> tuple[tuple[Action, Fraction], ...]:
        outcomes: tuple[tuple[Draw, Fraction], ...] = rules.chance_outcomes(self._state(state))
        return outcomes

    def sample_chance(self, state: GameState, rng: random.Random) -> Action:
        """A draw with the right probabilities (the engine's own sampler)."""
        return rules.sample_chance(self._state(state), rng)

    def outcome(self, state: GameState) -> Outcome | None:
        state = self._state(state)
        if state.outcome is None:
            return None
        players = state.players
        if state.outcome == WON:
            return Outcome.win(tuple(range(players)), players, state.reason, cooperative=True)
        return Outcome((), (0.0,) * players, state.reason)

    # -- text forms -------------------------------------------------------------------------------

    def action_text(self, state: GameState, action: Action) -> str:
        self._state(state)
        return action_text(action)

    def parse_action(self, state: GameState, text: str) -> Action:
        """``NAME@x,y,r`` (either name of the card), ``change``, ``pass``, ``draw NAME``;
        in Bandida also ``discard NAME`` and ``remove NAME@x,y,r ...``."""
        self._state(state)
        return parse_action(text)

    def to_notation(self, state: GameState) -> str:
        return state_to_notation(self._state(state), self.spec.form)

    def from_notation(self, text: str) -> GameState:
        return state_from_notation(text, self.spec.form, self.deck)

    def to_json(self, state: GameState) -> dict[str, Any]:
        return state_to_json(self._state(state), self.spec.form)

    def from_json(self, document: Any) -> GameState:
        """A game state from its JSON document (text or parsed), or a puzzle's game document
        (a position with hands and pile: see :func:`~banditsolve.tunnels.notation.
        game_state`)."""
        return read_json_state(
            io.read_document(document, "game state"), self.spec.form, self.deck
        )

    def read_state(self, source: Source) -> GameState:
        """A game state from text (its notation or JSON), UTF-8 bytes, a file or ``-``."""
        return io.read_state(
            source, notation=self.from_notation, json_document=self.from_json, what="game state",
            picture=self.ascii,
        )

    # -- information and numbering (:mod:`banditsolve.tunnels.info`) -------------------------------

    def observation(self, state: GameState, player: int) -> str:
        return info.observation(self._state(state), player, self.spec.form)

    def observation_tensor(self, state: GameState, player: int) -> tuple[float, ...]:
        return info.observation_tensor(self._state(state), player, self.deck)

    def observation_bytes(self, state: GameState, player: int) -> bytes:
        """:meth:`observation_tensor` as ``float32`` bytes, without the tuple."""
        return info.observation_bytes(self._state(state), player, self.deck)

    def observation_shape(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> tuple[int, ...]:
        self._settings(players, options)
        return (info.tensor_length(self.deck, self.spec.options),)

    def num_distinct_actions(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> int:
        _, chosen = self._settings(players, options)
        return info.distinct_actions(self.deck, chosen, self.spec.modes is not None)

    def max_chance_outcomes(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> int:
        self._settings(players, options)
        return info.chance_outcomes(self.deck)

    def action_index(self, state: GameState, action: Action) -> int:
        return info.action_index(self._state(state), action, self.title)

    def legal_indices(self, state: GameState) -> tuple[int, ...]:
        return places(len(rules.legal_actions(self._state(state))))

    def legal_actions_and_indices(
        self, state: GameState
    ) -> tuple[tuple[Action, ...], tuple[int, ...]]:
        """``(legal_actions(state), legal_indices(state))`` from one listing."""
        legal = rules.legal_actions(self._state(state))
        return legal, places(len(legal))

    def action_from_index(self, state: GameState, index: int) -> Action:
        state = self._state(state)
        size = (
            self.max_chance_outcomes()
            if state.is_chance
            else info.distinct_actions(self.deck, state.options, self.spec.modes is not None)
        )
        return info.action_from_index(state, index, size, self.title)

    def max_game_length(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> int:
        count, _ = self._settings(players, options)
        return info.max_game_length(self.deck, count, self.spec.modes is not None)

    def _settings(
        self, players: int | None, options: Mapping[str, object] | None
    ) -> tuple[int, Options]:
        """The player count (the most when None) and the options, refused as :meth:`new_game`
        refuses them."""
        count = self.max_players if players is None else players
        expect_players(count, self.title, self.min_players, self.max_players)
        return count, self.options(options)

    # -- pictures ---------------------------------------------------------------------------------

    def caption(self, state: GameState) -> str:
        """One line saying where the game stands (turn, last card, pile, whose move, result)."""
        return self.spec.caption(self._state(state), self.title)

    def ascii(self, state: GameState) -> str:
        return self.spec.ascii(self._state(state), self.title)

    def svg(self, state: GameState) -> str:
        return self.spec.svg(self._state(state), self.title)

    # -- players ----------------------------------------------------------------------------------

    def policies(self) -> Mapping[str, Policy[GameState, Action]]:
        return {"random": random_policy(self), "greedy": greedy_policy}


#: Bandido on the game contract (registered as ``bandido``).
BANDIDO = TunnelGame(BANDIDO_SPEC)
#: Bandida on the game contract (registered as ``bandida``).
BANDIDA = TunnelGame(BANDIDA_SPEC)

# mypy proves that both adapters fit the contract.
_CHECKED_BD: Game[GameState, Action] = BANDIDO
_CHECKED_BA: Game[GameState, Action] = BANDIDA
