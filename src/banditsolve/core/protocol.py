"""The game contract: what every registered game offers, whatever its rules.

A game is one object (a :class:`Game`) whose methods take and return immutable states. It is
shaped after OpenSpiel's game/state split and pgx's pure step: the state is a value, every
method is a pure function of its arguments, and chance is an explicit player whose outcomes are
listed with exact probabilities.

Conventions every game follows (the contract suite in ``tests/contract.py`` checks them):

- :meth:`Game.current_player` is a player number ``0..n-1``, :data:`CHANCE` at a chance node,
  or :data:`TERMINAL` once the game is over.
- :meth:`Game.legal_actions` returns a tuple in a fixed, documented order; at a chance node it
  lists the chance outcomes (in the order of :meth:`Game.chance_outcomes`); at a terminal state
  it is empty.
- :meth:`Game.apply` returns a new state; an illegal action raises
  :class:`~banditsolve.errors.IllegalActionError` and the input is unchanged.
- :meth:`Game.chance_outcomes` lists ``(action, probability)`` pairs with :class:`Fraction`
  probabilities summing to exactly 1; called at a state that is not a chance node it raises
  :class:`~banditsolve.errors.IllegalActionError`.
- :meth:`Game.outcome` is ``None`` until the game is over, then an :class:`Outcome`.
- Information and numbering (issue 29, what the OpenSpiel and PettingZoo adapters need):
  :attr:`Game.perfect_information` says whether some player may ever not know part of the state
  (chance drawn face down is chance, not hidden information; a hand hidden from the others is);
  :meth:`Game.observation` and :meth:`Game.observation_tensor` give what one player may know,
  and nothing more (at a perfect-information game they determine the state); every legal action
  and chance outcome has an index in ``0..num_distinct_actions - 1`` (chance outcomes:
  ``0..max_chance_outcomes - 1``), distinct within a state, read back by
  :meth:`Game.action_from_index`; no game is longer than :meth:`Game.max_game_length` steps
  (player moves and chance nodes, as OpenSpiel counts them), where
  :attr:`Game.length_bounded_by_rules` is False the number is a cap an adapter must cut at.
- Three optional methods, for an adapter's every step: ``legal_actions_and_indices(state)``,
  ``(legal_actions(state), legal_indices(state))`` from one listing of the actions;
  ``observation_bytes(state, player)``, :meth:`Game.observation_tensor` as ``float32`` numbers
  (native byte order) without the tuple; ``apply_legal(state, action)``, :meth:`Game.apply` of
  an action the caller took from this very state's legal actions or chance outcomes, which
  the game may apply without checking it again (an action from elsewhere: no promise). A game
  that lacks them gets them from the methods above: call them as
  :func:`legal_actions_and_indices`, :func:`observation_bytes` and :func:`apply_legal` (or
  :func:`paired_listing`, :func:`tensor_bytes` and :func:`legal_apply` for the bound call,
  looked up once).
- Text forms round-trip: ``parse_action(s, action_text(s, a)) == a`` for every legal ``a``;
  ``from_notation(to_notation(s)) == s`` and ``from_json(to_json(s)) == s`` for every state the
  game can reach.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from os import PathLike
from typing import Any, Protocol, TypeVar, runtime_checkable

from banditsolve.core.observe import packed
from banditsolve.core.options import OptionSet

#: :meth:`Game.current_player` at a chance node.
CHANCE = -1
#: :meth:`Game.current_player` once the game is over.
TERMINAL = -2

S = TypeVar("S")
A = TypeVar("A")

#: A policy picks an action for the player to move; it may use ``rng`` and nothing else random.
Policy = Callable[[S, random.Random], A]

#: What the readers accept: text (notation or JSON), bytes (UTF-8), or a path to a file.
Source = str | bytes | PathLike[str]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended, the same shape for every game.

    - ``winners``: the players who won (all of them after a cooperative win, none after a
      cooperative loss, several after a shared first place).
    - ``returns``: one number per player: 1.0 split equally among the winners, 0.0 for the
      others (so a two-player game's returns sum to 1; a cooperative win gives every player 1).
    - ``reason``: why the game ended, in words (``"player 0 reached 10 points"``).
    - ``scores``: the final scores where the game has them, else ``()``.
    """

    winners: tuple[int, ...]
    returns: tuple[float, ...]
    reason: str
    scores: tuple[int, ...] = ()

    @staticmethod
    def win(
        winners: tuple[int, ...],
        players: int,
        reason: str,
        *,
        scores: tuple[int, ...] = (),
        cooperative: bool = False,
    ) -> Outcome:
        """An outcome in which ``winners`` won (``cooperative``: each winner gets 1.0)."""
        share = 1.0 if cooperative or not winners else 1.0 / len(winners)
        returns = tuple(share if p in winners else 0.0 for p in range(players))
        return Outcome(tuple(sorted(winners)), returns, reason, scores)

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "returns": list(self.returns),
            "reason": self.reason,
            "scores": list(self.scores),
        }


@runtime_checkable
class Game(Protocol[S, A]):
    """The contract of one game. See the module notes for the conventions."""

    #: The registry name (``"banditos"``, ``"bandido"``, ...).
    name: str
    #: The game's printed title (``"Los Banditos"``).
    title: str
    #: The seed files whose rules the game follows (``("000", "001")``).
    seeds: tuple[str, ...]
    #: Allowed player counts, smallest and largest.
    min_players: int
    max_players: int

    # -- states ---------------------------------------------------------------------------------
    def new_game(
        self,
        players: int | None = None,
        options: Mapping[str, object] | None = None,
        *,
        seed: int | None = None,
    ) -> S:
        """A new game. ``options`` are the game's rule options by name (validated: an unknown
        name or value raises :class:`~banditsolve.errors.RuleOptionError`). With ``seed`` a
        game may settle its hidden set-up at once (a shuffled deck); without, set-up is a
        sequence of chance nodes."""
        ...

    @property
    def option_set(self) -> OptionSet:
        """The game's rule options (:class:`~banditsolve.core.options.OptionSet`): their names,
        values, defaults and reasons, and the one parser of them."""
        ...

    def current_player(self, state: S) -> int: ...

    def legal_actions(self, state: S) -> tuple[A, ...]: ...

    def apply(self, state: S, action: A) -> S: ...

    def chance_outcomes(self, state: S) -> tuple[tuple[A, Fraction], ...]: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def validate(self, state: S) -> None:
        """Refuse a state the rules cannot reach (the game's ``rules.validate``), with one line
        naming the rule it breaks; every reader calls it."""
        ...

    def players(self, state: S) -> int:
        """The number of players in this game."""
        ...

    # -- information and numbering (the adapters' needs, issue 29) -------------------------------
    #: True when every player always knows the whole state (face-down tiles, trunks or piles
    #: drawn by chance are chance, not hidden information); False when some player may hold
    #: what another cannot see (a hand). Each game cites the rule that decides it.
    perfect_information: bool
    #: True when the rules themselves end every game within :meth:`max_game_length` steps;
    #: False when a game may go on for ever under the rules and the length is a cap (named in
    #: ``core.limits``) at which an adapter must cut the game short.
    length_bounded_by_rules: bool
    #: True when the players play as one team, winning or losing together (Bandido, Bandida):
    #: every finished game's returns are then the same for every player; False when they play
    #: against each other (the returns of a finished game sum to 1).
    cooperative: bool

    def observation(self, state: S, player: int) -> str:
        """What ``player`` (``0..players - 1``) may know at ``state``, as text, and nothing
        more: two states that differ only in what ``player`` cannot see give the same text; in
        a perfect-information game the text determines the state."""
        ...

    def observation_tensor(self, state: S, player: int) -> tuple[float, ...]:
        """The same information as :meth:`observation` as numbers, of the fixed length
        ``prod(observation_shape(players, options))`` for every state of the game."""
        ...

    def observation_shape(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> tuple[int, ...]:
        """The shape of :meth:`observation_tensor` in games of ``players`` under ``options``."""
        ...

    def num_distinct_actions(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> int:
        """How many player-action indices there are: every legal player action of every state
        has an index in ``0..num_distinct_actions - 1``."""
        ...

    def max_chance_outcomes(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> int:
        """How many chance-outcome indices there are: every chance outcome of every state has
        an index in ``0..max_chance_outcomes - 1``."""
        ...

    def action_index(self, state: S, action: A) -> int:
        """The index of ``action`` (legal at ``state``, a player move or a chance outcome):
        distinct actions of one state get distinct indices; an action that is not legal at
        ``state`` raises :class:`~banditsolve.errors.IllegalActionError`."""
        ...

    def legal_indices(self, state: S) -> tuple[int, ...]:
        """The indices of ``legal_actions(state)``, in its order (what an adapter lists as the
        legal actions, at the cost of one pass over them)."""
        ...

    def action_from_index(self, state: S, index: int) -> A:
        """The legal action of ``state`` whose index is ``index`` (the inverse of
        :meth:`action_index`); an index that names none raises
        :class:`~banditsolve.errors.IllegalActionError`."""
        ...

    def max_game_length(
        self, players: int | None = None, options: Mapping[str, object] | None = None
    ) -> int:
        """The most steps (player moves plus chance nodes) a game of ``players`` under
        ``options`` can take, with the argument in the game's documentation."""
        ...

    # -- text forms -----------------------------------------------------------------------------
    def action_text(self, state: S, action: A) -> str: ...

    def parse_action(self, state: S, text: str) -> A: ...

    def to_notation(self, state: S) -> str: ...

    def from_notation(self, text: str) -> S: ...

    def to_json(self, state: S) -> dict[str, Any]: ...

    def from_json(self, document: Any) -> S: ...

    def read_state(self, source: Source) -> S:
        """A state from the notation, JSON text, bytes, or a file holding either."""
        ...

    # -- pictures -------------------------------------------------------------------------------
    def ascii(self, state: S) -> str: ...

    def svg(self, state: S) -> str: ...

    # -- players --------------------------------------------------------------------------------
    def policies(self) -> Mapping[str, Policy[S, A]]:
        """The built-in policies by name; ``"random"`` is always one of them."""
        ...


def is_chance(game: Game[S, A], state: S) -> bool:
    return game.current_player(state) == CHANCE


def is_terminal(game: Game[S, A], state: S) -> bool:
    return game.current_player(state) == TERMINAL


def probability_text(p: Fraction) -> str:
    """A probability as the text the JSON forms use: ``"1/6"`` (exact)."""
    return str(p)


def paired_listing(game: Game[S, A]) -> Callable[[S], tuple[tuple[A, ...], tuple[int, ...]]]:
    """``game``'s ``legal_actions_and_indices``: its own where it has one (one listing of the
    actions), else :meth:`Game.legal_actions` and :meth:`Game.legal_indices` in turn."""
    own: Callable[[S], tuple[tuple[A, ...], tuple[int, ...]]] | None = getattr(
        game, "legal_actions_and_indices", None
    )
    if own is not None:
        return own
    return lambda state: (game.legal_actions(state), game.legal_indices(state))


def legal_actions_and_indices(game: Game[S, A], state: S) -> tuple[tuple[A, ...], tuple[int, ...]]:
    """``(game.legal_actions(state), game.legal_indices(state))``, in one listing where the
    game offers it (:func:`paired_listing`)."""
    return paired_listing(game)(state)


def tensor_bytes(game: Game[S, A]) -> Callable[[S, int], bytes]:
    """``game``'s ``observation_bytes``: its own where it has one (no tuple made), else
    :meth:`Game.observation_tensor` as ``float32`` bytes (those the game kept with the tuple,
    :func:`~banditsolve.core.observe.packed`, where it did)."""
    own: Callable[[S, int], bytes] | None = getattr(game, "observation_bytes", None)
    if own is not None:
        return own

    def converted(state: S, player: int) -> bytes:
        tensor = game.observation_tensor(state, player)
        raw = packed(tensor)
        return array("f", tensor).tobytes() if raw is None else raw

    return converted


def observation_bytes(game: Game[S, A], state: S, player: int) -> bytes:
    """``game.observation_tensor(state, player)`` as ``float32`` numbers in native byte order
    (``4 * len(tensor)`` bytes; ``numpy.frombuffer(raw, numpy.float32)`` reads it), made
    without the tuple where the game offers it (:func:`tensor_bytes`)."""
    return tensor_bytes(game)(state, player)


def legal_apply(game: Game[S, A]) -> Callable[[S, A], S]:
    """``game``'s ``apply_legal`` (the state after an action taken from that state's own
    legal actions or chance outcomes, not checked again) where it has one, else
    :meth:`Game.apply`."""
    own: Callable[[S, A], S] | None = getattr(game, "apply_legal", None)
    return game.apply if own is None else own


def apply_legal(game: Game[S, A], state: S, action: A) -> S:
    """``game.apply(state, action)`` for an ``action`` taken from ``state``'s own legal
    actions or chance outcomes, without the game's check of it where the game offers that
    (:func:`legal_apply`); an action from elsewhere: call :meth:`Game.apply`."""
    return legal_apply(game)(state, action)
