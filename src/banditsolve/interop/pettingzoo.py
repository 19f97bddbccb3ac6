"""Every registered game as a PettingZoo AEC environment (issue 29; extra ``pettingzoo``).

``env(game, players=None, render_mode=None, **options)`` returns a :class:`BanditsolveEnv`, a
``pettingzoo.AECEnv``, for any name of ``banditsolve.games()`` (or an alias), with the game's rule
options by name (``env("bandida", mode=2)``). It is written once over the game contract
(:class:`banditsolve.core.protocol.Game`): nothing in it asks which game it holds.

- **Agents** ``player_0 .. player_{n-1}``; the one to act is the game's ``current_player``
  (a player may act several times in a row: the agents do not simply take turns).
- **Chance** is never an agent's turn: after each step (and at ``reset``) the environment plays
  the chance nodes itself, each outcome drawn from the game's exact ``chance_outcomes`` by its
  own :class:`random.Random` (:func:`banditsolve.core.play.sample_chance`). The set-up is played
  the same way (``new_game`` without a seed), so the deal too comes from that generator.
- **Seeding.** ``reset(seed=s)`` seeds that generator with ``s``: the same seed gives the same
  deal and, with the same actions, the same game. ``reset()`` without a seed goes on with the
  generator as it is (a fresh one, from the system, before the first seed).
- **Observations** ``{"observation": Box, "action_mask": Box}``: the observation is the game's
  ``observation_tensor(state, player)`` (what that player may know, and nothing more) as
  ``float32`` of shape ``observation_shape(players, options)`` (its space: every finite
  ``float32``, as the contract promises finite numbers and no tighter bound), read from the
  game's ``observation_bytes`` (:func:`banditsolve.core.protocol.tensor_bytes`: the same
  numbers as ``float32`` bytes, made without the tuple; a game without it has its tuple
  converted); the mask is
  ``int8`` of length ``num_distinct_actions``, 1 at the game's ``legal_indices`` of the state
  for the agent to act, all 0 for the others and once the game is over.
- **Actions** ``Discrete(num_distinct_actions)``: the game's action indices. Los Banditos
  numbers its actions once for all states; the other games by their place in
  ``legal_actions(state)`` (:mod:`banditsolve.core.observe`), so their ranges are proven bounds
  on the number of legal actions of any state, and large. The mask is built in one pass over
  ``legal_indices`` (under 10 microseconds for Bandida's 70,562 places: one zeroed allocation,
  one assignment at the indices, a slice where they are ``0..n-1``, as in the games numbered by
  place); the legal actions and their indices are listed once per state, together (the
  contract's ``legal_actions_and_indices``, :func:`banditsolve.core.protocol.paired_listing`),
  for the mask and for the step. To read them back
  from a mask, ``np.flatnonzero(mask.view(bool))`` is 20 to 40 times as fast as on the ``int8``
  array for the large ranges (NumPy's fast path is for booleans).
- **Rewards** are the game's ``Outcome.returns`` at the end, 0 before: 1.0 split among the
  winners (a cooperative win gives every player 1.0, a loss 0.0).
- **Terminations and truncations.** A game that ends by its rules terminates every agent. The
  environment cuts a game short (truncates every agent, rewards 0) when it has taken
  ``max_steps`` steps, player moves and chance nodes alike: the game's ``max_game_length``. Where
  ``length_bounded_by_rules`` is True that bound is proven and never reached; where it is False
  (Bandida, whose set-up may redraw an alarm for ever, and Rolling Bandits, whose take-backs may
  repeat for ever) it is the cap the game names. ``max_steps`` may be lowered on an environment.
- **An illegal action** (an index the mask does not allow) raises
  :class:`~banditsolve.errors.IllegalActionError`, one line naming the agent, the index and how
  many are legal out of the range, and changes nothing; a value that is no whole number raises
  :class:`~banditsolve.errors.ArgumentTypeError`. (PettingZoo's ``TerminateIllegalWrapper``
  gives the classic games' alternative: the game ends and the mover gets a penalty.)
- **Pictures** (``render_mode``): ``"ansi"`` returns the game's text picture
  (``game.ascii(state)``), ``"human"`` prints it (after every step, too), and ``"svg"`` (this
  adapter's own mode, listed in ``metadata["render_modes"]``) returns ``game.svg(state)``.

Sizes with the default options (the observation's length, the actions, the steps at most):

>>> import banditsolve
>>> for name in banditsolve.games():
...     aec = env(name)
...     print(name, aec.observation_space("player_0")["observation"].shape,
...           aec.action_space("player_0").n, aec.max_steps, aec.game.length_bounded_by_rules)
banditos (243,) 106 1700 True
bandido (567,) 10082 29812 True
bandida (579,) 70562 30050 False
rolling (1177,) 215 20000 False

(Bandido's range grows with ``hand_size`` (48 places per card of the deck and the start card and
per card of the hand); Bandida's is the same bound for the largest hand it allows, 21 cards;
Rolling Bandits' grows with ``mercenaries=on``; the longest game with the players.)

A random agent, with the mask:

>>> aec = env("banditos")
>>> aec.reset(seed=3)
>>> for seat, agent in enumerate(aec.possible_agents):
...     _ = aec.action_space(agent).seed(seat)
>>> final = {}
>>> for agent in aec.agent_iter():
...     observation, reward, termination, truncation, info = aec.last()
...     if termination or truncation:
...         action, final[agent] = None, reward
...     else:
...         action = aec.action_space(agent).sample(observation["action_mask"])
...     aec.step(action)
>>> final, len(aec.history)
({'player_0': 0.0, 'player_1': 1.0}, 20)
>>> print(aec.game.outcome(aec.game_state).reason)
player 1 reached 12 points
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, SupportsIndex, cast

from banditsolve.core.args import expect_choice, expect_whole
from banditsolve.core.play import sample_chance
from banditsolve.core.protocol import (
    CHANCE,
    TERMINAL,
    Game,
    legal_apply,
    paired_listing,
    tensor_bytes,
)
from banditsolve.core.registry import load_game
from banditsolve.core.text import shown
from banditsolve.errors import ArgumentTypeError, IllegalActionError, RuleOptionError
from banditsolve.interop import require

#: What needs the extra, for :class:`~banditsolve.errors.MissingExtraError`.
FEATURE = "the PettingZoo adapter"

if TYPE_CHECKING:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces

    #: One agent's observation: the tensor and the action mask.
    Observation = dict[str, npt.NDArray[Any]]

    class _AECEnv:
        """What this module uses of ``pettingzoo.AECEnv``, typed (PettingZoo ships no types;
        at run time the base class is PettingZoo's own)."""

        metadata: dict[str, Any]
        possible_agents: list[str]
        agents: list[str]
        rewards: dict[str, float]
        _cumulative_rewards: dict[str, float]
        terminations: dict[str, bool]
        truncations: dict[str, bool]
        infos: dict[str, dict[str, Any]]
        agent_selection: str

        #: ``last(observe=True)``: the agent to act's observation, reward, termination,
        #: truncation and info.
        last: Callable[..., tuple[Observation | None, float, bool, bool, dict[str, Any]]]
        #: ``agent_iter(max_iter=2**63)``: the agents in the order they act.
        agent_iter: Callable[..., Iterator[str]]

        @property
        def num_agents(self) -> int: ...

        def _was_dead_step(self, action: object) -> None: ...

        def _accumulate_rewards(self) -> None: ...

else:
    _pettingzoo = require(FEATURE, "pettingzoo", "pettingzoo")
    gymnasium = require(FEATURE, "gymnasium", "pettingzoo")
    np = require(FEATURE, "numpy", "pettingzoo")
    spaces = require(FEATURE, "gymnasium.spaces", "pettingzoo")
    _AECEnv = _pettingzoo.AECEnv

#: The render modes: the two PettingZoo names and the adapter's own ``"svg"``.
RENDER_MODES = ("human", "ansi", "svg")


def env(
    game: str,
    *,
    players: int | None = None,
    render_mode: str | None = None,
    **options: object,
) -> BanditsolveEnv:
    """The registered game ``game`` (a name or an alias) as a PettingZoo AEC environment, for
    ``players`` (the game's default count without it) under the rule ``options`` by name. An
    unknown game, player count, option or render mode raises the library's error
    (:class:`~banditsolve.errors.RuleOptionError`; a value of the wrong type
    :class:`~banditsolve.errors.ArgumentTypeError`)."""
    return BanditsolveEnv(load_game(game), players=players, render_mode=render_mode, **options)


class BanditsolveEnv(_AECEnv):
    """One game of the contract as a PettingZoo AEC environment (see the module notes).

    Beside PettingZoo's attributes: ``game`` (the contract's game object), ``game_state`` (the
    game's state now, a value), ``initial_state`` (before the set-up's chance nodes),
    ``history`` (every step since ``reset``: ``(actor, action)``, the actor a player number or
    :data:`~banditsolve.core.protocol.CHANCE`, the action the game's own), ``players``,
    ``options`` and ``max_steps``.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        players: int | None = None,
        render_mode: str | None = None,
        **options: object,
    ) -> None:
        super().__init__()
        if render_mode is not None:
            expect_choice(render_mode, RENDER_MODES, "render mode", RuleOptionError)
        self.render_mode = render_mode
        self.game = game
        self.options: dict[str, object] | None = dict(options) or None
        # A first game checks the player count and the options (and names the default count).
        self.players: int = game.players(game.new_game(players, self.options))
        self.possible_agents = [f"player_{p}" for p in range(self.players)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "name": f"banditsolve_{game.name}",
            "is_parallelizable": False,
        }
        self.num_actions = game.num_distinct_actions(self.players, self.options)
        self.max_steps = game.max_game_length(self.players, self.options)
        shape = game.observation_shape(self.players, self.options)
        wide = np.finfo(np.float32)
        self._observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(wide.min, wide.max, shape, np.float32),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
            })
            for agent in self.possible_agents
        }
        self._action_spaces = {
            agent: spaces.Discrete(self.num_actions) for agent in self.possible_agents
        }
        self._rng: random.Random | None = None
        self.game_state: Any = None
        self.initial_state: Any = None
        self.history: list[tuple[int, Any]] = []
        self.steps = 0
        #: The seat to act now (None before reset and once the game is over or cut short).
        self._to_act: int | None = None
        #: The game's paired listing and its tensor as bytes (the contract's defaults where
        #: the game has no faster form of its own), looked up once.
        self._listing = paired_listing(game)
        self._tensor_bytes = tensor_bytes(game)
        #: Apply for the actions the environment takes from the state's own listing (the
        #: agent's index checked against it) or draws from its chance outcomes.
        self._apply = legal_apply(game)
        #: The legal actions of the state now and their indices (one listing per state).
        self._actions: tuple[Any, ...] = ()
        self._legal: tuple[int, ...] | None = None
        #: The mask's 1s: a slice (the indices 0..n-1) or an array of the indices.
        self._legal_array: slice | npt.NDArray[np.intp] | None = None
        self.agents = []
        self.agent_selection = self.possible_agents[0]

    def __repr__(self) -> str:
        chosen = "".join(f", {name}={value!r}" for name, value in (self.options or {}).items())
        return f"env({self.game.name!r}, players={self.players}{chosen})"

    # -- spaces -----------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[self._agent(agent)]

    def _agent(self, agent: object) -> str:
        if not isinstance(agent, str) or agent not in self._seat:
            raise RuleOptionError(
                f"unknown agent {shown(agent)} of {self.game.title}: the agents are "
                f"player_0 to player_{self.players - 1}"
            )
        return agent

    # -- playing ----------------------------------------------------------------------------------

    def reset(
        self, seed: SupportsIndex | None = None, options: dict[str, Any] | None = None
    ) -> None:
        """A new game. ``seed`` seeds the chance generator (see the module notes); PettingZoo's
        ``options`` are accepted and not read: the rule options are the environment's."""
        if seed is not None:
            self._rng = random.Random(_whole(seed, "the seed"))
        elif self._rng is None:
            self._rng = random.Random()
        self.game_state = self.initial_state = self.game.new_game(self.players, self.options)
        self.history = []
        self.steps = 0
        self._legal = self._legal_array = None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[0]
        self._advance()
        if self.render_mode == "human":
            self.render()

    def step(self, action: SupportsIndex | None) -> None:
        """Play ``action`` (an index the mask allows) for the agent to act, then the chance
        nodes that follow; a finished agent's step is ``None`` (PettingZoo's convention)."""
        agent = self.agent_selection
        seat = self._to_act
        if seat is None or agent != self.possible_agents[seat]:
            self._step_otherwise(agent, action)
            return
        # The agent to act (the game is neither over nor cut short: no reward is set).
        legal = self._legal
        place = (
            action
            if type(action) is int and legal is not None and 0 <= action < len(legal)
            and legal[action] == action  # (numbering by place)
            else self._place(agent, action)
        )
        chosen = self._actions[place]  # (listed with the indices _place read)
        self._cumulative_rewards[agent] = 0.0
        self._play(seat, chosen)
        self._advance()
        if self.render_mode == "human":
            self.render()

    def _step_otherwise(self, agent: str, action: SupportsIndex | None) -> None:
        """:meth:`step` when ``agent`` is not the one to act: before ``reset``, once the game
        is over (a finished agent's ``None``), or after ``agent_selection`` was changed."""
        self._need_state()
        if not self.agents:
            raise IllegalActionError(
                f"the {self.game.title} game is over and every agent has left: reset() first"
            )
        if self.terminations.get(agent) or self.truncations.get(agent):
            if action is not None:
                raise IllegalActionError(
                    f"{agent} has finished this {self.game.title} game: its step is None"
                )
            self._was_dead_step(action)
            return
        place = self._place(agent, action)
        chosen = self._actions[place]  # (listed with the indices _place read)
        self._cumulative_rewards[agent] = 0.0
        if any(self.rewards.values()):  # (only a game's end sets them)
            self.rewards = dict.fromkeys(self.rewards, 0.0)
        self._play(self._seat[agent], chosen)
        self._advance()
        if self.render_mode == "human":
            self.render()

    def _place(self, agent: str, action: object) -> int:
        """The place in the legal actions of ``action``, if it is a legal index for ``agent``
        now (``legal_indices`` lists the indices of ``legal_actions`` in its order)."""
        if action is None:
            raise ArgumentTypeError(
                f"the action of {agent} is None, which only a finished agent may step with"
            )
        index = action if type(action) is int else _whole(action, f"the action of {agent}")
        legal = self._legal_indices()
        if 0 <= index < len(legal) and legal[index] == index:  # (numbering by place)
            return index
        if index not in legal:
            raise IllegalActionError(
                f"action {shown(index)} is not legal for {agent} in this {self.game.title} "
                f"state: {len(legal)} of the actions 0..{self.num_actions - 1} are (the mask's 1s)"
            )
        return legal.index(index)

    def _play(self, actor: int, action: object) -> None:
        self.game_state = self._apply(self.game_state, action)
        self.history.append((actor, action))
        self.steps += 1
        self._legal = self._legal_array = None

    def _advance(self) -> None:
        """Play the chance nodes, then name the agent to act, or end the game (terminated by
        its rules, or truncated at :attr:`max_steps`)."""
        game = self.game
        rng = self._rng
        assert rng is not None
        actor = game.current_player(self.game_state)
        if actor >= 0 and self.steps < self.max_steps:  # (a player to act, at once)
            self.agent_selection = self.possible_agents[actor]
            self._to_act = actor
            return
        while actor == CHANCE and self.steps < self.max_steps:
            self._play(CHANCE, sample_chance(game, self.game_state, rng))
            actor = game.current_player(self.game_state)
        self._to_act = None
        if actor == TERMINAL:
            outcome = game.outcome(self.game_state)
            assert outcome is not None
            for agent, value in zip(self.agents, outcome.returns, strict=True):
                self.rewards[agent] = float(value)
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        elif self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[actor]
            self._to_act = actor

    def _legal_indices(self) -> tuple[int, ...]:
        """The legal indices of the state now, listed once per state with the legal actions
        (:attr:`_actions`), from the contract's ``legal_actions_and_indices``."""
        if self._legal is None:
            self._actions, self._legal = self._listing(self.game_state)
        return self._legal

    def _need_state(self) -> Any:
        if self.game_state is None:
            raise IllegalActionError(f"the {self.game.title} environment needs reset() first")
        return self.game_state

    # -- what an agent sees -----------------------------------------------------------------------

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation: the game's tensor for that player, and the action mask
        (1 at the legal indices when ``agent`` is to act, else all 0)."""
        state = self.game_state
        seat = self._seat.get(agent) if type(agent) is str else None
        if seat is None or state is None:
            state = self._need_state()
            seat = self._seat[self._agent(agent)]
        # The tensor as float32 bytes (the contract's observation_bytes: no tuple made).
        tensor = np.frombuffer(self._tensor_bytes(state, seat), dtype=np.float32).copy()
        return {"observation": tensor, "action_mask": self._mask(seat)}

    def _mask(self, seat: int) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.num_actions, dtype=np.int8)
        if seat != self._to_act:
            return mask
        if self._legal_array is None:
            legal = self._legal_indices()
            count = len(legal)
            # The indices are distinct (the contract): 0..count - 1 when these are the least
            # and the greatest (numbering by place), set as a slice.
            self._legal_array = (
                slice(count)
                if not legal or (min(legal) == 0 and max(legal) == count - 1)
                else np.fromiter(legal, dtype=np.intp, count=count)
            )
        mask[self._legal_array] = 1
        return mask

    # -- pictures ---------------------------------------------------------------------------------

    def render(self) -> str | None:
        """The state drawn: ``"ansi"`` its text picture, ``"svg"`` its SVG (both returned),
        ``"human"`` the text printed; without a render mode, a warning and None."""
        state = self._need_state()
        if self.render_mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        if self.render_mode == "svg":
            return self.game.svg(state)
        picture = self.game.ascii(state)
        if self.render_mode == "human":
            print(picture)
            return None
        return picture

    def close(self) -> None:
        """Nothing to release (no window, no process)."""


def _whole(value: object, what: str) -> int:
    """``value`` as an int: a Python or NumPy whole number (not a bool)."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise ArgumentTypeError(f"{what} must be a whole number, not {shown(value)}")
    return expect_whole(operator.index(cast("SupportsIndex", value)), what)
