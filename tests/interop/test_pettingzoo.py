"""The PettingZoo adapter (issue 29, item 2): PettingZoo's own API and seed tests on every
registered game (and Bandida's modes, several player counts), the masks against the legal
actions at every step, episodes replayed through the native contract, the chance draws against
their exact odds, seeding, truncation, illegal actions, the pictures, the errors and the
missing extra.

Nothing here names a game's rules: the cases are the registry's games, their options by name and
their player counts; the expected values come from the game contract, never from the adapter.
"""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]
from pettingzoo.utils.wrappers import TerminateIllegalWrapper  # type: ignore[import-untyped]

import banditsolve
import banditsolve.interop
from banditsolve.core.protocol import CHANCE, TERMINAL
from banditsolve.core.registry import register, unregister
from banditsolve.errors import (
    ArgumentTypeError,
    BanditsolveError,
    IllegalActionError,
    MissingExtraError,
    RuleOptionError,
)
from banditsolve.interop.pettingzoo import BanditsolveEnv, env
from tests.contract import assert_clear_message, chi_square, chi_square_bound
from tests.profiles import scaled
from tests.toy import ENTRY as TOY

#: (game, players, options): every registered game with its defaults, then more counts and
#: every Bandida mode.
DEFAULTS: list[tuple[str, int | None, dict[str, Any]]] = [
    (name, None, {}) for name in banditsolve.games()
]
MORE: list[tuple[str, int | None, dict[str, Any]]] = [
    ("bandido", 1, {}),
    ("bandido", 4, {"hand_size": 5}),
    ("bandida", 2, {"mode": 2}),
    ("bandida", 3, {"mode": 3}),
    ("rolling", 3, {}),
    ("rolling", 4, {}),
    ("rolling", 2, {"mercenaries": "on"}),
]
CASES = DEFAULTS + MORE
#: The warnings PettingZoo's api_test gives any environment with a dictionary observation (its
#: classic games are exempted by name); any other warning fails the test.
DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def _id(case: tuple[str, int | None, dict[str, Any]]) -> str:
    name, players, options = case
    extra = "".join(f",{k}={v}" for k, v in options.items())
    return f"{name}-{players or 'default'}{extra}"


def make(case: tuple[str, int | None, dict[str, Any]]) -> BanditsolveEnv:
    name, players, options = case
    return env(name, players=players, **options)


@pytest.fixture(params=CASES, ids=[_id(c) for c in CASES])
def case(request: pytest.FixtureRequest) -> tuple[str, int | None, dict[str, Any]]:
    found: tuple[str, int | None, dict[str, Any]] = request.param
    return found


def test_every_registered_game_is_a_case() -> None:
    assert sorted(name for name, _, _ in DEFAULTS) == sorted(banditsolve.games())


# -- PettingZoo's own tests ------------------------------------------------------------------------


def test_pettingzoo_api_test_passes(case: tuple[str, int | None, dict[str, Any]]) -> None:
    aec = make(case)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec, num_cycles=scaled(200, 1000))
    unexpected = {
        str(w.message)
        for w in caught
        if not str(w.message).startswith(DICT_OBSERVATION_WARNINGS)
    }
    assert unexpected == set()


def test_pettingzoo_seed_test_passes(case: tuple[str, int | None, dict[str, Any]]) -> None:
    seed_test(lambda: make(case), num_cycles=scaled(200, 1000))
    first, second = make(case), make(case)
    first.reset(seed=11)
    second.reset(seed=11)
    agent = first.agent_selection
    assert second.agent_selection == agent
    assert np.array_equal(first.observe(agent)["observation"],
                          second.observe(agent)["observation"])  # the same seed, the same deal


# -- random games through the environment ----------------------------------------------------------


def _episode(aec: BanditsolveEnv, seed: int, rng: random.Random) -> Iterator[tuple[str, int]]:
    """A random masked game from ``reset(seed=seed)``; yields each agent's ``(agent, index)``
    before stepping it."""
    aec.reset(seed=seed)
    for agent in aec.agent_iter():
        observation, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            aec.step(None)
            continue
        assert observation is not None
        allowed = np.flatnonzero(observation["action_mask"])
        index = int(allowed[rng.randrange(len(allowed))])
        yield agent, index
        aec.step(index)


#: Above this many legal actions a state's mask is checked on a spread sample of them (with the
#: count): ``action_index`` by place is a pass over the legal actions each.
SAMPLED = 200


def _spread(items: tuple[Any, ...], most: int) -> list[Any]:
    if len(items) <= most:
        return list(items)
    step = (len(items) - 1) / (most - 1)
    return [items[round(k * step)] for k in range(most)]


def _check_observations(aec: BanditsolveEnv, acting: str) -> None:
    """Every agent's observation against the contract at the state now: the tensor for that
    player; the mask 1 exactly at the acting agent's legal actions (their ``action_index``;
    a spread sample of them and their count for a state with very many), 0 for the others."""
    game, state = aec.game, aec.game_state
    seat = game.current_player(state)
    assert seat >= 0, "an agent is asked to act at a chance node or after the end"
    assert acting == f"player_{seat}"
    legal = game.legal_actions(state)
    for p, agent in enumerate(aec.possible_agents):
        seen = aec.observe(agent)
        tensor = np.array(game.observation_tensor(state, p), dtype=np.float32)
        assert np.array_equal(seen["observation"], tensor), f"{agent}'s tensor"
        mask = seen["action_mask"]
        assert mask.dtype == np.int8
        assert mask.shape == (game.num_distinct_actions(aec.players, aec.options),)
        assert set(np.unique(mask).tolist()) <= {0, 1}
        if agent != acting:
            assert not mask.any(), f"{agent} is not to act but has a mask"
            continue
        assert int(mask.sum()) == len(legal), "the mask and the legal actions differ in count"
        for action in _spread(legal, SAMPLED):
            assert mask[game.action_index(state, action)] == 1, f"{action!r} is not in the mask"
        if len(legal) <= SAMPLED:
            continue
        for index in _spread(tuple(np.flatnonzero(mask).tolist()), 20):
            assert any(game.action_from_index(state, index) == a for a in legal)


def test_masks_and_observations_follow_the_contract_at_every_step(
    case: tuple[str, int | None, dict[str, Any]],
) -> None:
    aec = make(case)
    rng = random.Random(5)
    for seed in range(scaled(2, 6)):
        moves = 0
        for agent, _ in _episode(aec, seed, rng):
            _check_observations(aec, agent)
            moves += 1
        assert moves > 0
        assert aec.agents == []


def _replay(aec: BanditsolveEnv, chosen: list[tuple[str, int]]) -> Any:
    """The env's game replayed on the contract alone: a new game, the env's chance outcomes
    (each checked to be one the node lists), the agents' indices read by action_from_index."""
    game = aec.game
    state = game.new_game(aec.players, aec.options)
    chances = [action for actor, action in aec.history if actor == CHANCE]
    moves = iter(chosen)
    drawn = iter(chances)
    steps = 0
    while game.current_player(state) != TERMINAL and steps < aec.steps:
        seat = game.current_player(state)
        if seat == CHANCE:
            outcome = next(drawn)
            assert any(outcome == a for a, _ in game.chance_outcomes(state))
            state = game.apply(state, outcome)
        else:
            agent, index = next(moves)
            assert agent == f"player_{seat}"
            state = game.apply(state, game.action_from_index(state, index))
        steps += 1
    assert next(moves, None) is None, "the env took more moves than the replay"
    assert next(drawn, None) is None, "the env drew more chance outcomes than the replay"
    return state


def test_an_episode_replays_through_the_native_contract(
    case: tuple[str, int | None, dict[str, Any]],
) -> None:
    aec = make(case)
    game = aec.game
    rng = random.Random(11)
    for seed in range(scaled(3, 10)):
        final: dict[str, float] = {}
        chosen: list[tuple[str, int]] = []
        aec.reset(seed=seed)
        for agent in aec.agent_iter():
            observation, reward, termination, truncation, _ = aec.last()
            if termination or truncation:
                final[agent] = reward
                aec.step(None)
                continue
            assert observation is not None
            allowed = np.flatnonzero(observation["action_mask"])
            index = int(allowed[rng.randrange(len(allowed))])
            chosen.append((agent, index))
            aec.step(index)
        state = _replay(aec, chosen)
        assert game.to_notation(state) == game.to_notation(aec.game_state)
        assert state == aec.game_state
        outcome = game.outcome(state)
        assert outcome is not None, f"seed {seed}: the game did not end"
        assert final == {f"player_{p}": r for p, r in enumerate(outcome.returns)}
        assert len(aec.history) == aec.steps <= game.max_game_length(aec.players, aec.options)


def test_chance_is_drawn_with_the_exact_odds() -> None:
    """The first chance node of a game (the same at every reset) drawn at many seeds: the
    frequencies follow the game's chance_outcomes (a chi-square test, as the contract's)."""
    for name in banditsolve.games():
        aec = env(name)
        start = aec.game.new_game(aec.players, aec.options)
        assert aec.game.current_player(start) == CHANCE
        outcomes = aec.game.chance_outcomes(start)
        counts: Counter[int] = Counter()
        for seed in range(scaled(400, 2000)):
            aec.reset(seed=seed)
            first = aec.history[0]
            assert first[0] == CHANCE
            counts[next(i for i, (a, _) in enumerate(outcomes) if a == first[1])] += 1
        stat, df = chi_square([counts[i] for i in range(len(outcomes))], [p for _, p in outcomes])
        assert stat <= chi_square_bound(df), f"{name}: chi-square {stat:.1f} on {df} df"


# -- seeding -------------------------------------------------------------------------------------


def _game_of(aec: BanditsolveEnv, seed: int) -> list[str]:
    """The notation of every state of a game played with fixed agent choices (the first legal
    index, then the last, by turns)."""
    aec.reset(seed=seed)
    seen = [aec.game.to_notation(aec.game_state)]
    for turn, agent in enumerate(aec.agent_iter(max_iter=60)):
        observation, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            aec.step(None)
            continue
        assert observation is not None
        allowed = np.flatnonzero(observation["action_mask"])
        aec.step(int(allowed[0 if turn % 2 else -1]))
        seen.append(f"{agent} {aec.game.to_notation(aec.game_state)}")
    return seen


def test_the_same_seed_replays_exactly_and_others_deal_otherwise(
    case: tuple[str, int | None, dict[str, Any]],
) -> None:
    first, second = make(case), make(case)
    for seed in (0, 7, 2**40):
        assert _game_of(first, seed) == _game_of(second, seed)
        assert _game_of(first, seed) == _game_of(first, seed)
    deals = set()
    for seed in range(8):
        first.reset(seed=seed)
        deals.add(first.game.to_notation(first.game_state))
    assert len(deals) > 1, "eight seeds dealt one game"


def test_a_reset_without_a_seed_goes_on_with_the_generator() -> None:
    """``reset()`` draws on from the last seed: the same games after the same seed, and
    games that differ from one another."""

    def deals(aec: BanditsolveEnv) -> list[str]:
        aec.reset(seed=3)
        found = [aec.game.to_notation(aec.game_state)]
        for _ in range(3):
            aec.reset()
            found.append(aec.game.to_notation(aec.game_state))
        return found

    first = deals(env("bandido"))
    assert deals(env("bandido")) == first
    assert len(set(first)) == len(first)
    fresh = env("bandido")
    fresh.reset()  # no seed ever: a generator seeded by the system
    assert fresh.agents == fresh.possible_agents


def test_a_seed_must_be_a_whole_number() -> None:
    aec = env("banditos")
    aec.reset(seed=np.int64(4))
    with pytest.raises(ArgumentTypeError) as caught:
        aec.reset(seed=1.5)  # type: ignore[arg-type]
    assert_clear_message(caught.value)


# -- ends: terminations, truncations, rewards ----------------------------------------------------


def test_a_game_cut_short_is_truncated_not_terminated() -> None:
    aec = env("rolling")
    assert not aec.game.length_bounded_by_rules
    assert aec.max_steps == aec.game.max_game_length(aec.players, aec.options)
    aec.max_steps = 40
    seen: dict[str, tuple[float, bool, bool]] = {}
    moves = sum(1 for _ in _episode_recording(aec, seen))
    assert aec.steps == 40
    assert aec.game.outcome(aec.game_state) is None, "the game ended by itself within 40 steps"
    assert seen == dict.fromkeys(aec.possible_agents, (0.0, False, True))
    assert moves < 40


def _episode_recording(
    aec: BanditsolveEnv, seen: dict[str, tuple[float, bool, bool]], seed: int = 1
) -> Iterator[str]:
    """A game from ``reset(seed=seed)`` whose agents play the game's ``"random"`` policy
    (``"greedy"`` where it has one), read back to indices by ``action_index``; ``seen`` gets each
    agent's last reward, termination and truncation."""
    game = aec.game
    policy = game.policies().get("greedy", game.policies()["random"])
    rng = random.Random(seed)
    aec.reset(seed=seed)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, _ = aec.last()
        if termination or truncation:
            seen[agent] = (reward, termination, truncation)
            assert observation is not None
            assert not observation["action_mask"].any()
            aec.step(None)
            continue
        state = aec.game_state
        aec.step(game.action_index(state, policy(state, rng)))
        yield agent


def test_a_game_that_ends_by_its_rules_terminates_with_its_returns() -> None:
    for name in banditsolve.games():
        aec = env(name)
        seen: dict[str, tuple[float, bool, bool]] = {}
        for _ in _episode_recording(aec, seen):
            pass
        outcome = aec.game.outcome(aec.game_state)
        assert outcome is not None
        assert seen == {
            f"player_{p}": (r, True, False) for p, r in enumerate(outcome.returns)
        }


def test_a_cooperative_win_gives_every_player_one() -> None:
    """A won game of each cooperative game (the first of the seeds won by the greedy policy):
    1.0 to every player."""
    for name, players in (("bandido", 1), ("bandida", 2)):
        aec = env(name, players=players)
        for seed in range(scaled(150, 400)):
            seen: dict[str, tuple[float, bool, bool]] = {}
            for _ in _episode_recording(aec, seen, seed):
                pass
            outcome = aec.game.outcome(aec.game_state)
            assert outcome is not None
            if outcome.winners:
                assert seen == dict.fromkeys(aec.possible_agents, (1.0, True, False))
                break
        else:
            pytest.fail(f"no {name} game of the seeds was won")


# -- illegal actions -----------------------------------------------------------------------------


def _snapshot(aec: BanditsolveEnv) -> tuple[Any, ...]:
    return (aec.game_state, list(aec.history), aec.agent_selection, dict(aec.rewards))


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    for name in banditsolve.games():
        aec = env(name)
        aec.reset(seed=2)
        observation, *_ = aec.last()
        assert observation is not None
        mask = observation["action_mask"]
        illegal = int(np.flatnonzero(mask == 0)[0])
        before = _snapshot(aec)
        for bad in (illegal, aec.num_actions, -1, 10**30):
            with pytest.raises(IllegalActionError) as caught:
                aec.step(bad)
            assert_clear_message(caught.value)
            assert bad == 10**30 or f"action {bad} " in str(caught.value)
            assert _snapshot(aec) == before
        assert f"0..{aec.num_actions - 1}" in _message(aec, illegal)
        for wrong in (1.5, "3", [1], None, True):
            with pytest.raises(ArgumentTypeError) as refused:
                aec.step(wrong)  # type: ignore[arg-type]
            assert_clear_message(refused.value)
            assert _snapshot(aec) == before
        aec.step(np.int32(np.flatnonzero(mask)[0]))  # a NumPy whole number is an index too
        assert len(aec.history) > len(before[1])


def _message(aec: BanditsolveEnv, action: int) -> str:
    try:
        aec.step(action)
    except IllegalActionError as exc:
        return str(exc)
    raise AssertionError(f"action {action} was accepted")


def test_a_finished_agent_steps_with_none_only() -> None:
    aec = env("banditos")
    aec.reset(seed=1)
    rng = random.Random(3)
    while not aec.terminations[aec.agent_selection]:
        observation, *_ = aec.last()
        assert observation is not None
        allowed = np.flatnonzero(observation["action_mask"])
        aec.step(int(allowed[rng.randrange(len(allowed))]))
    before = list(aec.agents)
    with pytest.raises(IllegalActionError) as caught:
        aec.step(0)
    assert_clear_message(caught.value)
    assert aec.agents == before
    aec.step(None)
    assert len(aec.agents) == len(before) - 1


def test_stepping_before_reset_or_after_the_end_is_refused() -> None:
    aec = env("banditos")
    with pytest.raises(IllegalActionError) as caught:
        aec.step(0)
    assert_clear_message(caught.value)
    with pytest.raises(IllegalActionError):
        aec.observe("player_0")
    rng = random.Random(0)
    for _ in _episode(aec, 1, rng):
        pass
    with pytest.raises(IllegalActionError) as over:
        aec.step(0)
    assert_clear_message(over.value)
    with pytest.raises(RuleOptionError) as unknown:
        aec.observe("player_7")
    assert_clear_message(unknown.value)


def test_pettingzoos_terminate_illegal_wrapper_is_the_alternative() -> None:
    """Wrapped in PettingZoo's TerminateIllegalWrapper, an illegal index ends the game with the
    penalty for the mover instead of the library's error."""
    wrapped = TerminateIllegalWrapper(env("bandido"), illegal_reward=-1)
    wrapped.reset(seed=0)
    mover = wrapped.agent_selection
    observation, *_ = wrapped.last()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[mover] == -1


# -- pictures ------------------------------------------------------------------------------------


def test_the_render_modes_draw_the_games_pictures(capsys: pytest.CaptureFixture[str]) -> None:
    for name in banditsolve.games():
        text, svg, human = env(name, render_mode="ansi"), env(name, render_mode="svg"), env(
            name, render_mode="human"
        )
        for aec in (text, svg):
            aec.reset(seed=4)
        human.reset(seed=4)
        capsys.readouterr()
        drawn = text.render()
        assert isinstance(drawn, str)
        assert drawn == text.game.ascii(text.game_state)
        assert drawn.strip()
        picture = svg.render()
        assert isinstance(picture, str)
        assert ET.fromstring(picture).tag.rsplit("}", 1)[-1] == "svg"
        assert picture == svg.game.svg(svg.game_state)
        assert human.render() is None
        assert capsys.readouterr().out == drawn + "\n"
        observation, *_ = human.last()
        assert observation is not None
        human.step(int(np.flatnonzero(observation["action_mask"])[0]))
        assert capsys.readouterr().out == human.game.ascii(human.game_state) + "\n"
        assert "svg" in text.metadata["render_modes"]


def test_render_without_a_mode_warns_and_a_bad_mode_is_refused() -> None:
    aec = env("bandido")
    aec.reset(seed=0)
    with pytest.warns(UserWarning, match="render mode"):
        assert aec.render() is None
    with pytest.raises(RuleOptionError) as caught:
        env("bandido", render_mode="rgb_array")
    assert_clear_message(caught.value)
    assert "ansi" in str(caught.value)
    with pytest.raises(ArgumentTypeError):
        env("bandido", render_mode=3)  # type: ignore[arg-type]


# -- construction: names, options, spaces ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "options", "error"),
    [
        ("no-such-game", None, {}, RuleOptionError),
        (3, None, {}, ArgumentTypeError),
        ("bandido", 9, {}, RuleOptionError),
        ("bandido", 0, {}, RuleOptionError),
        ("bandido", "2", {}, ArgumentTypeError),
        ("bandido", None, {"hand_size": "99"}, RuleOptionError),
        ("bandido", None, {"no_such_option": "x"}, RuleOptionError),
        ("bandido", None, {"mode": 2}, RuleOptionError),  # Bandida's option
        ("bandida", None, {"mode": 4}, RuleOptionError),
        ("banditos", 3, {}, RuleOptionError),
        ("rolling", None, {"mercenaries": "maybe"}, RuleOptionError),
    ],
)
def test_bad_games_counts_and_options_raise_the_librarys_errors(
    name: Any, players: Any, options: dict[str, Any], error: type[BanditsolveError]
) -> None:
    with pytest.raises(error) as caught:
        env(name, players=players, **options)
    assert_clear_message(caught.value)


def test_aliases_and_options_reach_the_game() -> None:
    aec = env("bda", players=3, mode=2)
    assert aec.game.name == "bandida"
    aec.reset(seed=1)
    assert aec.game.players(aec.game_state) == 3
    assert aec.possible_agents == ["player_0", "player_1", "player_2"]
    assert aec.game.to_json(aec.game_state)["options"]["mode"] in (2, "2")
    assert str(aec) == "banditsolve_bandida"
    assert repr(aec) == "env('bandida', players=3, mode=2)"


def test_the_spaces_have_the_contracts_sizes(
    case: tuple[str, int | None, dict[str, Any]],
) -> None:
    aec = make(case)
    game = aec.game
    players, options = aec.players, aec.options
    assert len(aec.possible_agents) == players
    for agent in aec.possible_agents:
        space = aec.observation_space(agent)
        assert space is aec.observation_space(agent)
        assert space["observation"].shape == game.observation_shape(players, options)
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (game.num_distinct_actions(players, options),)
        assert space["action_mask"].dtype == np.int8
        assert aec.action_space(agent).n == game.num_distinct_actions(players, options)


def test_bandidos_action_range_grows_with_the_hand() -> None:
    small, large = env("bandido", hand_size=3), env("bandido", hand_size=10)
    assert large.num_actions > small.num_actions
    assert large.action_space("player_0").n == large.game.num_distinct_actions(2, {"hand_size": 10})


# -- a game the library does not ship -------------------------------------------------------------


def test_a_plugged_in_game_is_an_environment_too() -> None:
    """The toy of ``tests/toy`` (Nim with a die), registered as a plug-in: the adapter knows no
    game, so it serves this one as any other; the toy has neither optional method of the
    contract (``legal_actions_and_indices``, ``observation_bytes``): their defaults serve."""
    register(TOY)
    try:
        aec = env("nim")
        assert not hasattr(aec.game, "legal_actions_and_indices")
        assert not hasattr(aec.game, "observation_bytes")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(aec, num_cycles=100)
        seed_test(lambda: env("nim"), num_cycles=100)
        rng = random.Random(1)
        for seed in range(5):
            chosen = list(_episode(aec, seed, rng))
            assert _replay(aec, chosen) == aec.game_state
        aec.reset(seed=0)
        _check_observations(aec, aec.agent_selection)  # (the defaults' tensor and mask)
    finally:
        unregister("nim")


# -- the optional extra ----------------------------------------------------------------------------


@pytest.mark.parametrize("missing", ["pettingzoo", "gymnasium"])
def test_a_missing_extra_is_one_line_naming_it(
    monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    monkeypatch.setitem(sys.modules, missing, None)  # (import then raises ImportError)
    monkeypatch.delitem(sys.modules, "banditsolve.interop.pettingzoo")
    monkeypatch.delattr(banditsolve.interop, "pettingzoo", raising=False)
    with pytest.raises(MissingExtraError) as caught:
        importlib.import_module("banditsolve.interop.pettingzoo")
    assert_clear_message(caught.value)
    assert isinstance(caught.value, ImportError)
    assert f"package {missing}," in str(caught.value)
    assert "pip install 'banditsolve[pettingzoo]'" in str(caught.value)


def test_importing_the_library_imports_no_pettingzoo() -> None:
    code = (
        "import sys, banditsolve, banditsolve.interop\n"
        "banditsolve.load_game('bandido').new_game()\n"
        "print(sorted(m for m in ('pettingzoo', 'gymnasium') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"


# -- bigger runs ----------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", banditsolve.games())
def test_every_option_value_passes_the_api_test(name: str) -> None:
    game = banditsolve.load_game(name)
    for option, values in game.option_set.names().items():
        for value in values:
            setting: dict[str, Any] = {option: value}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                made = env(name, **setting)
                api_test(made, num_cycles=100)
            seed_test(lambda s=setting: env(name, **s), num_cycles=100)
            shape = game.observation_shape(None, setting)
            assert made.observation_space("player_0")["observation"].shape == shape


@pytest.mark.slow
@pytest.mark.parametrize("name", banditsolve.games())
def test_many_replays_at_every_player_count(name: str) -> None:
    game = banditsolve.load_game(name)
    for players in range(game.min_players, game.max_players + 1):
        aec = env(name, players=players)
        rng = random.Random(players)
        for seed in range(20):
            chosen = list(_episode(aec, seed, rng))
            assert _replay(aec, chosen) == aec.game_state

