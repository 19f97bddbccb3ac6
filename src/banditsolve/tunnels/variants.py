"""The tunnel games on the game contract (:class:`banditsolve.core.protocol.Game`).

One engine, several games: a :class:`Variant` is data (the name, the seeds, the deck edition,
the rule presets and the options it reads), and :class:`TunnelGame` puts any variant on the
contract. Bandido is :data:`BANDIDO`; Bandida (seed 003) is :data:`BANDIDA`: its deck file,
:data:`~banditsolve.tunnels.game.BANDIDA_RULES` and its own options (``mode`` 1, 2, 3 and the
readings of ``specs/bandida.md``).

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
:data:`~banditsolve.tunnels.game.CHANGE` (``change``), :data:`~banditsolve.tunnels.game.PASS`
(``pass``) and, at a chance node, :class:`~banditsolve.tunnels.game.Draw` (``draw NAME``).
Bandida adds :class:`~banditsolve.tunnels.game.Discard` (``discard NAME``, an alarm) and
:class:`~banditsolve.tunnels.game.Remove` (``remove NAME@x,y,r ...``, a map).

>>> bandida = load_game("bandida")
>>> state = bandida.new_game(2, {"mode": 2}, seed=3)
>>> state.options.mode, state.sizes, bandida.to_notation(state).split()[:2]
(2, (3, 3), ['bandida', 'L+TL+TR+R+BR+BL@0,0,0'])
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from banditsolve.core.io import expect_object, load_json, read_text
from banditsolve.core.options import Kind, OptionSet, OptionSpec
from banditsolve.core.play import random_policy
from banditsolve.core.protocol import CHANCE, TERMINAL, Outcome, Policy, Source
from banditsolve.errors import NotationError, RuleOptionError
from banditsolve.tunnels import game as rules
from banditsolve.tunnels import notation
from banditsolve.tunnels.cards import Deck, card_name, load_deck, parse_card
from banditsolve.tunnels.game import (
    BANDIDA_OPTIONS,
    BANDIDA_RULES,
    BANDIDA_VALUES,
    CHANGE,
    PASS,
    WON,
    Action,
    Discard,
    Draw,
    GameState,
    Options,
    Remove,
    TableSizes,
    bandida_only,
    shown,
)
from banditsolve.tunnels.geometry import Placement


@dataclass(frozen=True, slots=True)
class Variant:
    """One tunnel game as data: its registry name, title, seeds, deck edition (a packaged
    ``tunnels/data/<edition>.json``), rule presets (the options that differ from Bandido's
    defaults) and player counts."""

    name: str
    title: str
    seeds: tuple[str, ...]
    edition: str
    presets: Mapping[str, object] = field(default_factory=dict)
    min_players: int = 1
    max_players: int = 4
    default_players: int = 2
    #: Does the variant read Bandida's options (``mode`` and the special cards' readings)?
    bandida: bool = False

    @property
    def rules(self) -> Options:
        """The variant's default rule options."""
        return Options.from_mapping(self.presets)


#: Bandido (seed 004). Players: seed 004 names solo play (the same rules with a hand of 3);
#: the upper bound of 4 is not in the seeds (the box's count; our reading, BD-SETUP-1).
BANDIDO_VARIANT = Variant("bandido", "Bandido", ("004",), "bandido")
#: Bandida (seed 003): its deck, its readings of the shared rules, mode 1 by default; 1 to 4
#: players (the seed deals "to every player" and names no count: BA-SETUP-2).
BANDIDA_VARIANT = Variant(
    "bandida", "Bandida", ("003",), "bandida", dict(BANDIDA_RULES), bandida=True
)


def _state(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise NotationError(f"expected a tunnel game state, not {shown(state)}")
    return state


class TunnelGame:
    """A tunnel game on the contract. States are :class:`GameState` values."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.name = variant.name
        self.title = variant.title
        self.seeds = variant.seeds
        self.min_players = variant.min_players
        self.max_players = variant.max_players
        #: The player count of :meth:`new_game` without one (BD-SETUP-1, BA-SETUP-2): 2.
        self.default_players = variant.default_players

    def __repr__(self) -> str:
        return f"TunnelGame({self.name!r})"

    @cached_property
    def deck(self) -> Deck:
        """The deck of the variant's edition."""
        return load_deck(self.variant.edition)

    @cached_property
    def base(self) -> Options:
        """The variant's default options."""
        return self.variant.rules

    # -- states -------------------------------------------------------------------------------

    def option_names(self) -> Mapping[str, tuple[str, ...]]:
        """Each option and its values, the variant's default first. ``table_size`` lists a few
        play areas, and ``in`` accepts any ``WxH`` of 2..60 cells
        (:class:`~banditsolve.tunnels.game.TableSizes`)."""
        defaults = self.base.to_text()
        return {
            name: type(values)(
                (
                    defaults[name],
                    *(
                        v
                        for v in values
                        if v != defaults[name]
                        and (self.variant.bandida or v not in BANDIDA_VALUES.get(name, ()))
                    ),
                )
            )
            for name, values in Options.names().items()
            if self.variant.bandida or name not in BANDIDA_OPTIONS
        }

    @cached_property
    def option_set(self) -> OptionSet:
        """An interim bridge to the one options system (the variant's own specs replace it)."""
        specs = []
        for name, values in self.option_names().items():
            kind: Kind = "int" if name in ("hand_size", "mode") else "text"
            check = TableSizes.check if name == "table_size" else None
            specs.append(
                OptionSpec(name, tuple(values), values[0], "see specs/", kind=kind, check=check)
            )
        return OptionSet(self.title, tuple(specs))

    def validate(self, state: GameState) -> None:
        _state(state)

    def options(self, values: Mapping[str, object] | None = None) -> Options:
        """Rule options from ``name -> value`` over the variant's defaults (text values
        accepted, as from the command line); unknown names or values raise
        :class:`RuleOptionError`."""
        if values is None:
            return self.base
        if not self.variant.bandida and isinstance(values, Mapping):
            what = bandida_only(values)
            if what is not None:
                raise RuleOptionError(f"option {what} is Bandida's; {self.title} has no {what}")
        chosen = Options.from_mapping(values, self.base)
        if self.variant.bandida and not chosen.mode:
            raise RuleOptionError("option mode must be 1, 2 or 3")
        return chosen

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
        count = self.variant.default_players if players is None else players
        if (
            isinstance(count, bool)
            or not isinstance(count, int)
            or not self.min_players <= count <= self.max_players
        ):
            raise RuleOptionError(
                f"{self.title} is played by {self.min_players} to {self.max_players} players,"
                f" not {shown(count)}"
            )
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RuleOptionError(f"the seed must be a whole number, not {shown(seed)}")
        chosen = self.options(options)
        rng = None if seed is None else random.Random(seed)
        return rules.new_game(count, chosen, deck=self.deck, rng=rng)

    def players(self, state: GameState) -> int:
        return _state(state).players

    def current_player(self, state: GameState) -> int:
        state = _state(state)
        if state.outcome is not None:
            return TERMINAL
        if state.is_chance:
            return CHANCE
        return state.to_act

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        return rules.legal_actions(_state(state))

    def apply(self, state: GameState, action: Action) -> GameState:
        return rules.apply(_state(state), action)

    def chance_outcomes(self, state: GameState) -> tuple[tuple[Action, Fraction], ...]:
        return rules.chance_outcomes(_state(state))

    def sample_chance(self, state: GameState, rng: random.Random) -> Action:
        """A draw with the right probabilities (the engine's own sampler)."""
        return rules.sample_chance(_state(state), rng)

    def outcome(self, state: GameState) -> Outcome | None:
        state = _state(state)
        if state.outcome is None:
            return None
        players = state.players
        if state.outcome == WON:
            return Outcome.win(tuple(range(players)), players, state.reason, cooperative=True)
        return Outcome((), (0.0,) * players, state.reason)

    # -- text forms ---------------------------------------------------------------------------

    def action_text(self, state: GameState, action: Action) -> str:
        if not isinstance(action, Placement | Draw | Discard | Remove) and action not in (
            CHANGE,
            PASS,
        ):
            raise NotationError(f"not a tunnel game action: {shown(action)}")
        return str(action)

    def parse_action(self, state: GameState, text: str) -> Action:
        """``NAME@x,y,r`` (either name of the card), ``change``, ``pass``, ``draw NAME``;
        in Bandida also ``discard NAME`` and ``remove NAME@x,y,r ...``."""
        return parse_action(text)

    def to_notation(self, state: GameState) -> str:
        return notation.state_to_notation(_state(state), self.name, self.base)

    def from_notation(self, text: str) -> GameState:
        if isinstance(text, str) and text.split()[:1]:
            notation.check_notation_game(text.split()[0], self.name)
        return notation.state_from_notation(text, self.base, self.deck)

    def to_json(self, state: GameState) -> dict[str, Any]:
        return notation.state_to_json(_state(state), self.name)

    def from_json(self, document: Any) -> GameState:
        if isinstance(document, str) and not document.strip():
            raise NotationError("empty JSON game state")
        doc = expect_object(
            load_json(document, "JSON game state") if isinstance(document, str) else document,
            "a game state document",
        )
        notation.check_json_game(doc, self.name)
        from banditsolve.tunnels.puzzles import game_state, is_game_document

        if is_game_document(doc):
            # A puzzle's game document: a position with hands and pile, "player" optional.
            return game_state(doc, self.base, self.deck)
        return notation.state_from_json(doc, self.base, self.deck)

    def parse_state(self, text: str) -> GameState:
        """A game state from its notation or JSON text (JSON when it starts with ``{``)."""
        if text.lstrip()[:1] in ("{", "["):
            return self.from_json(text)
        return self.from_notation(text)

    def read_state(self, source: Source) -> GameState:
        text, where = read_text(source, "game state")
        try:
            return self.parse_state(text)
        except NotationError as exc:
            if where == "game state":
                raise
            raise NotationError(f"{where}: {exc}") from None

    # -- pictures -----------------------------------------------------------------------------

    def caption(self, state: GameState) -> str:
        """One line saying where the game stands (turn, last card, pile, whose move, result)."""
        return _state(state).caption(self.title)

    def ascii(self, state: GameState) -> str:
        from banditsolve.tunnels.render import ascii_art

        state = _state(state)
        hands = "; ".join(
            f"player {i}: {' '.join(card_name(c) for c in hand) or '-'}"
            + (f" ({len(hand)} of hand size {state.size(i)})" if state.options.mode else "")
            for i, hand in enumerate(state.hands)
        )
        lines = [
            ascii_art(state.table, state.remaining(), area=state.options.area),
            self.caption(state),
            f"hands: {hands}",
        ]
        if state.options.mode:
            lines.append(self.bandida_line(state))
        return "\n".join(lines)

    def bandida_line(self, state: GameState) -> str:
        """Bandida's state in words: the mode's goal, the top of the pile (an alarm's back is
        marked), what is pending, and the cards out of the game."""
        goal = {
            1: "close every exit",
            2: "lay the ladder and close every other exit",
            3: "lay Bandido's super card and the ladder, join them, close every other exit",
        }[state.options.mode]
        top = {None: "unknown", True: "an alarm", False: "no alarm"}[state.top_is_alarm]
        parts = [f"mode {state.options.mode}: {goal}", f"top of the pile: {top}"]
        if state.phase:
            parts.append("pending: " + ", ".join(state.phase))
        if state.quiet >= 0:
            parts.append(f"water bottle: no talking until player {state.quiet} plays again")
        if state.discard:
            parts.append(f"out of the game: {len(state.discard)}")
        return "; ".join(parts)

    def svg(self, state: GameState) -> str:
        from banditsolve.tunnels.render import svg

        state = _state(state)
        caption = self.caption(state)
        if state.options.mode:
            sizes = ", ".join(
                f"p{i} {len(h)}/{state.size(i)}" for i, h in enumerate(state.hands)
            )
            caption = f"{caption}; hands {sizes}; {self.bandida_line(state)}"
        return svg(
            state.table,
            remaining=state.remaining(),
            caption=caption,
            area=state.options.area,
        )

    # -- players ------------------------------------------------------------------------------

    def policies(self) -> Mapping[str, Policy[GameState, Action]]:
        return {"random": random_policy(self), "greedy": rules.greedy_policy}


def parse_action(text: object) -> Action:
    """Read an action's text: ``NAME@x,y,r``, ``change``, ``pass`` or ``draw NAME``."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be given as text, not {shown(text)}")
    words = text.split()
    if words == ["change"]:
        return CHANGE
    if words == ["pass"]:
        return PASS
    if len(words) == 2 and words[0] == "draw":
        return Draw(parse_card(words[1]))
    if len(words) == 3 and words[0] == "draw" and words[2] in ("top=alarm", "top=plain"):
        return Draw(parse_card(words[1]), words[2][4:])
    if len(words) == 2 and words[0] == "discard":
        return Discard(parse_card(words[1]))
    if 2 <= len(words) <= 4 and words[0] == "remove":
        cards = []
        for i, word in enumerate(words[1:], start=1):
            item = notation.parse_placement_token(word, f"removal {i}")
            cards.append(notation.placement_of(item, f"removal {i} {shown(word)}"))
        return Remove(tuple(cards))
    if len(words) == 1 and "@" in words[0]:
        item = notation.parse_placement_token(words[0], "placement")
        return notation.placement_of(item, f"placement {shown(words[0])}")
    raise NotationError(
        f"{shown(text)} is not an action (NAME@x,y,r, change, pass, draw NAME,"
        " discard NAME or remove NAME@x,y,r ...)"
    )


#: Bandido on the game contract (registered as ``bandido``).
BANDIDO = TunnelGame(BANDIDO_VARIANT)
#: Bandida on the game contract (registered as ``bandida``).
BANDIDA = TunnelGame(BANDIDA_VARIANT)
