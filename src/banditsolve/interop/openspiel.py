"""Every registered game as an OpenSpiel game (issue 29): :func:`register`, then
``pyspiel.load_game("banditsolve_<game>")``.

>>> from banditsolve.interop import openspiel
>>> openspiel.register()
>>> import pyspiel
>>> game = pyspiel.load_game("banditsolve_bandido", {"players": 3})
>>> game.num_players(), game.get_type().information.name
(3, 'IMPERFECT_INFORMATION')

Written once over the game contract (:class:`banditsolve.core.protocol.Game`), never over one
game's rules. What each OpenSpiel notion is made of:

- **Players and parameters.** ``min_players`` and ``max_players``; the game parameters are
  ``players`` (default: the count of ``new_game()`` without one) and every rule option of the
  game's :class:`~banditsolve.core.options.OptionSet`, under its name, with its default (a
  whole-number option as an ``int``, the others as text): ``load_game("banditsolve_bandida",
  {"mode": 2})``. A value the game refuses raises its
  :class:`~banditsolve.errors.RuleOptionError`.
- **Information.** ``perfect_information`` gives ``PERFECT_INFORMATION`` or
  ``IMPERFECT_INFORMATION``.
- **Chance** is explicit (``EXPLICIT_STOCHASTIC``): the set-up without a seed is a sequence of
  chance nodes, and a chance node lists ``chance_outcomes`` with their exact probabilities as
  floats. Every action, a player's or chance's, is the game's own index
  (:meth:`~banditsolve.core.protocol.Game.legal_indices`, sorted as OpenSpiel wants them), so
  ``num_distinct_actions`` and ``max_chance_outcomes`` are the game's.
- **Utility.** The returns are the game's (:class:`~banditsolve.core.protocol.Outcome`: 1.0
  shared equally by the winners, 0.0 for the others), so utilities lie in 0..1. A game whose
  ``cooperative`` is true (:func:`is_team_game`) is played by all its players as one team, and
  its utility is ``IDENTICAL`` (a win gives every player 1.0, a loss 0.0); any other game's
  returns sum to 1 (a shared first place shares the 1.0) and its utility is ``CONSTANT_SUM``
  with ``utility_sum`` 1. Every finished game's returns are checked against the type declared:
  a game that broke it raises :class:`~banditsolve.errors.InternalError`.
- **Length.** ``max_game_length`` is the game's. Where ``length_bounded_by_rules`` is False the
  number is a cap: a game that reaches it is cut there (a terminal state after exactly that
  many steps) and scored as a draw, every player the same return: ``1 / players`` in a
  constant-sum game (the 1.0 shared by all), 0.0 in a team game (not won).
- **Text.** ``str(state)`` is the game's notation; ``action_to_string`` the action's text
  (``"index N"`` for an index that names no legal action of the state, as an index by place
  means nothing elsewhere).
- **Observations.** ``observation_string`` is the game's ``observation`` (what the player sees
  now, and nothing more); ``observation_tensor`` is ``observation_tensor`` with the shape
  ``observation_shape``, through ``make_py_observer``. The information state has perfect
  recall: ``information_state_string`` is the sequence of what that player observed at every
  state of the game so far (the game's own observation, which hides what the player cannot
  see, such as a trunk opened by another player) and their own actions, one line each
  (``observed ...``, ``played ...``). There is no information-state tensor.
- **ISMCTS** needs a resampler: :func:`resample` draws a state the player cannot tell from
  the one played, over the contract alone (see there).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

import numpy as np

import banditsolve
from banditsolve.core.protocol import CHANCE, TERMINAL, Game, apply_legal, legal_actions_and_indices
from banditsolve.errors import IllegalActionError, InternalError, RuleOptionError
from banditsolve.interop import require

pyspiel: Any = require("the OpenSpiel adapter", "pyspiel", "openspiel")
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)

#: The OpenSpiel name of a game is this prefix and its registry name.
PREFIX = "banditsolve_"
#: The game parameter of the player count (a rule option may not take this name).
PLAYERS = "players"
#: How many changed histories :func:`resample` replays by default.
RESAMPLE_PROPOSALS = 8
#: After this many outcomes ``player`` would have seen at once, :func:`resample` leaves a
#: chance step alone.
SEEN_TRIES = 3

_REGISTERED: set[str] = set()

NativeGame = Game[Any, Any]


def short_name(game: str) -> str:
    """The OpenSpiel name of the registered game ``game``."""
    return PREFIX + banditsolve.load_game(game).name


def is_team_game(game: NativeGame) -> bool:
    """Whether all of ``game``'s players play as one team (utility ``IDENTICAL``): the
    contract's ``cooperative``."""
    return bool(game.cooperative)


def default_players(game: NativeGame) -> int:
    """The player count of ``game.new_game()`` without one."""
    return game.players(game.new_game())


def parameters(game: NativeGame) -> dict[str, int | str]:
    """The OpenSpiel game parameters of ``game`` and their defaults: ``players`` and every rule
    option (a whole-number option as an int, the others as text)."""
    specs = list(game.option_set)
    if any(spec.name == PLAYERS for spec in specs):
        raise InternalError(f"{game.title} has a rule option called {PLAYERS}, the player count")
    out: dict[str, int | str] = {PLAYERS: default_players(game)}
    for spec in specs:
        out[spec.name] = int(spec.default) if spec.kind == "int" else spec.default
    return out


def game_type(game: NativeGame) -> Any:
    """The ``pyspiel.GameType`` of ``game`` (see the module notes)."""
    kind = pyspiel.GameType
    return kind(
        short_name=PREFIX + game.name,
        long_name=f"banditsolve {game.title}",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            kind.Information.PERFECT_INFORMATION
            if game.perfect_information
            else kind.Information.IMPERFECT_INFORMATION
        ),
        utility=kind.Utility.IDENTICAL if is_team_game(game) else kind.Utility.CONSTANT_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game),
    )


def register(games: tuple[str, ...] | None = None) -> None:
    """Register every game of :func:`banditsolve.games` (or those named) with OpenSpiel as
    ``banditsolve_<name>``; a game already registered is left as it is."""
    for name in banditsolve.games() if games is None else games:
        register_game(banditsolve.load_game(name))


def register_game(game: NativeGame) -> str:
    """Register one game object on the contract as ``banditsolve_<game.name>`` (once: a name
    already registered is left as it is) and return that name."""
    name = PREFIX + game.name
    if name in _REGISTERED:
        return name
    kind = game_type(game)
    cls = type(f"Spiel_{game.name}", (SpielGame,), {"native": game, "kind": kind})
    cls.__module__ = __name__
    globals()[cls.__name__] = cls  # (pickle finds a game's class by its name here)
    pyspiel.register_game(kind, cls)
    _REGISTERED.add(name)
    return name


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """A banditsolve game as a ``pyspiel.Game``: :func:`register_game` makes one subclass per
    game, with the game object as ``native`` and its ``GameType`` as ``kind``."""

    native: NativeGame
    kind: Any

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        settings: dict[str, Any] = {**self.kind.parameter_specification, **dict(params or {})}
        native = self.native
        self.players = int(settings[PLAYERS])
        self.options = {k: v for k, v in settings.items() if k != PLAYERS}
        self.team = is_team_game(native)
        self.cap = native.max_game_length(self.players, self.options)
        self.capped = not native.length_bounded_by_rules
        self.shape = tuple(native.observation_shape(self.players, self.options))
        info = pyspiel.GameInfo(
            num_distinct_actions=native.num_distinct_actions(self.players, self.options),
            max_chance_outcomes=native.max_chance_outcomes(self.players, self.options),
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None if self.team else 1.0,
            max_game_length=self.cap,
        )
        super().__init__(self.kind, info, settings)

    def new_initial_state(self) -> SpielState:
        return SpielState(self, self.native.new_game(self.players, self.options))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> Observer:
        if params:
            raise RuleOptionError(f"{self.native.title} takes no observation parameters")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and not (
            iig_obs_type.public_info
            and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise RuleOptionError(
                f"{self.native.title} gives a player's own observation only (public_info and "
                "private_info SINGLE_PLAYER)"
            )
        return Observer(self, recall)


class Trail:
    """One step of a game's history, shared by every state that has it: the native state after
    it, who acted (a player, :data:`CHANCE`, or :data:`TERMINAL` at the start), the action, the
    step before, and what each player observed here (filled on first use)."""

    __slots__ = ("action", "actor", "before", "seen", "state")

    def __init__(self, before: Trail | None, state: Any, actor: int, action: Any) -> None:
        self.before = before
        self.state = state
        self.actor = actor
        self.action = action
        self.seen: dict[int, str] = {}

    def observed(self, game: NativeGame, player: int) -> str:
        text = self.seen.get(player)
        if text is None:
            text = self.seen[player] = game.observation(self.state, player)
        return text

    def path(self) -> list[Trail]:
        """The steps from the start to this one."""
        out: list[Trail] = []
        step: Trail | None = self
        while step is not None:
            out.append(step)
            step = step.before
        out.reverse()
        return out


class Core:
    """What a :class:`SpielState` holds, in one object that OpenSpiel's clone (a deep copy of
    the state's attributes) copies in constant time: the game, the trail (immutable, shared),
    the steps taken, and what is known of the current state: the player to act (OpenSpiel's
    number) and its legal indices with their native actions, once listed."""

    __slots__ = ("actions", "game", "indices", "player", "steps", "trail")

    def __init__(self, game: SpielGame, trail: Trail, steps: int) -> None:
        self.game = game
        self.trail = trail
        self.steps = steps
        self.player: int | None = None
        self.indices: tuple[int, ...] | None = None
        #: The native actions at the places of ``indices``; at a chance node the outcomes,
        #: ``(action, probability)``.
        self.actions: tuple[Any, ...] = ()

    def __deepcopy__(self, memo: dict[int, object]) -> Core:
        copy = Core(self.game, self.trail, self.steps)
        copy.player, copy.indices, copy.actions = self.player, self.indices, self.actions
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a flat list of steps (the trail's links would nest as deep as the game
        is long)."""
        steps = [(t.state, t.actor, t.action) for t in self.trail.path()]
        return (_core, (self.game, steps, self.steps))

    def chosen(self, index: int) -> Any:
        """The native action of the legal index ``index`` when the legal indices are listed
        (by place, ``index`` is at place ``index``), else None."""
        indices = self.indices
        if indices is None:
            return None
        if 0 <= index < len(indices) and indices[index] == index:
            place = index
        elif index in indices:
            place = indices.index(index)
        else:
            return None
        chosen = self.actions[place]
        return chosen[0] if self.player == _CHANCE else chosen


#: Chance outcomes as OpenSpiel lists them, by the outcomes' tuple (kept alive here, so its id
#: is not reused): games hand out one shared tuple per distribution, such as a roll of n dice.
_PAIRS: dict[int, tuple[object, tuple[int, ...], list[tuple[int, float]]]] = {}
_MAX_PAIRS = 512


def _chance_pairs(
    outcomes: tuple[tuple[Any, Fraction], ...], indices: tuple[int, ...]
) -> list[tuple[int, float]]:
    """``(index, probability)`` for each outcome, sorted by index: a new list each call, since
    callers may change it in place (OpenSpiel's MCTS shuffles the list it is given; a shared
    list so shuffled changed every later chance node of the process)."""
    entry = _PAIRS.get(id(outcomes))
    if entry is not None and entry[0] is outcomes and entry[1] == indices:
        return list(entry[2])
    pairs = sorted(zip(indices, (float(p) for _, p in outcomes), strict=True))
    if len(_PAIRS) >= _MAX_PAIRS:
        _PAIRS.clear()
    _PAIRS[id(outcomes)] = (outcomes, indices, pairs)
    return list(pairs)


def _core(game: SpielGame, steps: list[tuple[Any, int, Any]], count: int) -> Core:
    """A :class:`Core` from its pickled steps."""
    trail: Trail | None = None
    for state, actor, action in steps:
        trail = Trail(trail, state, actor, action)
    if trail is None:
        raise InternalError("a pickled OpenSpiel state without its first step")
    return Core(game, trail, count)


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A state of a :class:`SpielGame`: the native state and the history that led to it."""

    def __init__(self, game: SpielGame, state: Any) -> None:
        super().__init__(game)
        self.core = Core(game, Trail(None, state, TERMINAL, None), 0)

    @property
    def native(self) -> Any:
        """The banditsolve state."""
        return self.core.trail.state

    def trail(self) -> list[Trail]:
        """The history: every step from the start to here."""
        return self.core.trail.path()

    def cut(self) -> bool:
        """Whether the game was cut at its length cap."""
        core = self.core
        return core.game.capped and core.steps >= core.game.cap

    def current_player(self) -> int:
        core = self.core
        if core.player is None:
            player = core.game.native.current_player(core.trail.state)
            if player == TERMINAL or self.cut():
                player = int(pyspiel.PlayerId.TERMINAL)
            elif player == CHANCE:
                player = int(pyspiel.PlayerId.CHANCE)
            core.player = player
        return core.player

    def is_terminal(self) -> bool:
        return self.current_player() == _TERMINAL

    def _list(self) -> tuple[int, ...]:
        """The legal indices of this state (kept with their native actions, from one listing:
        the contract's ``legal_actions_and_indices``)."""
        core = self.core
        if core.indices is None:
            actions, indices = legal_actions_and_indices(core.game.native, core.trail.state)
            core.actions, core.indices = tuple(actions), tuple(indices)
        return core.indices

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        if player == _CHANCE:
            return [i for i, _ in self.chance_outcomes()]
        return sorted(self._list())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player() != _CHANCE:
            return []
        core = self.core
        native = core.game.native
        outcomes: tuple[tuple[Any, Fraction], ...] = native.chance_outcomes(core.trail.state)
        indices = tuple(native.legal_indices(core.trail.state))
        core.indices = indices
        core.actions = outcomes
        return _chance_pairs(outcomes, indices)

    def _apply_action(self, action: int) -> None:
        core = self.core
        native = core.game.native
        state = core.trail.state
        if self.is_terminal():
            raise IllegalActionError(f"the {native.title} game is over")
        chosen = core.chosen(action)
        if chosen is None:
            chosen = native.action_from_index(state, action)
        actor = CHANCE if self.current_player() == _CHANCE else self.current_player()
        # (chosen from this state's own listing or outcomes, or by action_from_index: legal)
        after = apply_legal(native, state, chosen)
        core.trail = Trail(core.trail, after, actor, chosen)
        core.steps += 1
        core.player = None
        core.indices = None
        core.actions = ()

    def _action_to_string(self, player: int, action: int) -> str:
        native = self.core.game.native
        try:
            chosen = native.action_from_index(self.native, action)
        except IllegalActionError:
            return f"index {action}"
        return str(native.action_text(self.native, chosen))

    def returns(self) -> list[float]:
        game = self.core.game
        players = game.players
        if not self.is_terminal():
            return [0.0] * players
        if self.cut():
            return [0.0 if game.team else 1.0 / players] * players
        outcome = game.native.outcome(self.native)
        if outcome is None:  # pragma: no cover - the contract: terminal exactly with an outcome
            raise InternalError(f"a finished {game.native.title} game has no outcome")
        values = [float(r) for r in outcome.returns]
        if game.team and len(set(values)) > 1:
            raise InternalError(f"{game.native.title}: a team game's returns differ: {values}")
        if not game.team and abs(sum(values) - 1.0) > 1e-9:
            raise InternalError(f"{game.native.title}: the returns {values} do not sum to 1")
        return values

    def information_state(self, player: int) -> str:
        """What ``player`` observed at every state so far and their own actions, one line each
        (perfect recall)."""
        native = self.core.game.native
        lines: list[str] = []
        before: Trail | None = None
        for step in self.trail():
            if before is not None and step.actor == player:
                lines.append("played " + native.action_text(before.state, step.action))
            lines.append("observed " + step.observed(native, player))
            before = step
        return "\n".join(lines)

    def __str__(self) -> str:
        return str(self.core.game.native.to_notation(self.native))


class Observer:
    """OpenSpiel's observer of a game: the current observation (text and tensor), or with
    ``recall`` the information state (text only)."""

    def __init__(self, game: SpielGame, recall: bool) -> None:
        self.game = game
        self.recall = recall
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if not recall:
            self.tensor = np.zeros(int(np.prod(game.shape)), np.float32)
            self.dict["observation"] = self.tensor.reshape(game.shape)

    def set_from(self, state: SpielState, player: int) -> None:
        if self.tensor is None:
            raise RuleOptionError(f"{self.game.native.title} has no information-state tensor")
        self.tensor[:] = self.game.native.observation_tensor(state.native, player)

    def string_from(self, state: SpielState, player: int) -> str:
        if self.recall:
            return state.information_state(player)
        return str(self.game.native.observation(state.native, player))


# -- ISMCTS: a state the player cannot tell from the one played ---------------------------------


def resample(
    state: SpielState,
    player: int,
    *,
    proposals: int = RESAMPLE_PROPOSALS,
    rng: random.Random | None = None,
) -> SpielState:
    """A state of the same game that ``player`` cannot tell from ``state``: the same
    information state (every observation and own action the same), for ISMCTS
    (``bot.set_resampler(resample)``).

    Written over the contract alone, it changes chance: it picks a chance step of the history
    and another outcome there (drawn with its probability); when ``player`` would see that
    outcome at once it tries again (a step where that happened :data:`SEEN_TRIES` times is left
    alone), else it replays the rest of the history's actions after it and keeps the change
    when every action stays legal and ``player`` observes the same at every step, up to
    ``proposals`` replays. So it is a short Markov chain over the
    histories ``player`` cannot tell apart, started at the true one: not an exact draw from the
    player's beliefs (a hidden part that no proposal changed is still the truth), but never a
    state that tells ``player`` more than they know or contradicts what they saw."""
    draw = rng or random.Random()
    game = state.core.game
    path = state.trail()
    candidates = [k for k in range(1, len(path)) if path[k].actor == CHANCE]
    misses: dict[int, int] = {}
    replays = 0
    for _ in range(SEEN_TRIES * len(candidates) + proposals):
        if replays >= proposals or not candidates:
            break
        k = draw.choice(candidates)
        changed, seen = _propose(game.native, path, k, player, draw)
        if seen:  # the player saw another outcome there: try that step less
            misses[k] = misses.get(k, 0) + 1
            if misses[k] >= SEEN_TRIES:
                candidates.remove(k)
            continue
        replays += 1
        if changed is not None:
            path = changed
    return _rebuilt(game, path)


def _rebuilt(game: SpielGame, path: list[Trail]) -> SpielState:
    """A state of ``game`` that went through ``path`` (OpenSpiel's history made by replaying
    its indices; the trail, with what was observed on it, is ``path`` itself)."""
    out = SpielState(game, path[0].state)
    for before, step in itertools.pairwise(path):
        out.apply_action(game.native.action_index(before.state, step.action))
    out.core.trail = path[-1]
    return out


def _propose(
    native: NativeGame, path: list[Trail], k: int, player: int, draw: random.Random
) -> tuple[list[Trail] | None, bool]:
    """``path`` with another outcome at its chance step ``k`` and the rest replayed (None when
    an action turns illegal or ``player`` would observe something else), and whether the
    player would have seen the change at ``k`` itself (or there is no other outcome)."""
    outcomes = native.chance_outcomes(path[k - 1].state)
    weights = [float(p) for _, p in outcomes]
    (action,) = draw.choices([a for a, _ in outcomes], weights)
    if len(outcomes) < 2 or action == path[k].action:
        return None, len(outcomes) < 2
    out = path[:k]
    for step, chosen in _replayed(path, k, action):
        try:
            state = native.apply(out[-1].state, chosen)
        except IllegalActionError:
            return None, False
        trail = Trail(out[-1], state, step.actor, chosen)
        if trail.observed(native, player) != step.observed(native, player):
            return None, step is path[k]
        out.append(trail)
    return out, False


def _replayed(path: list[Trail], k: int, action: Any) -> Iterator[tuple[Trail, Any]]:
    """The steps of ``path`` from ``k`` on, each with the action to replay (``action`` at
    ``k``, the history's own after it)."""
    yield path[k], action
    for step in path[k + 1 :]:
        yield step, step.action


