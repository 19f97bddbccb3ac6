"""The OpenSpiel adapter (issue 29, item 1): every game registered, OpenSpiel's own random
simulation test over every game and every option that changes a game's shape, MCTS and ISMCTS
playing to the end, the information state, the length cap, and a replay through the native
contract that gives the same game."""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
import pytest

import banditsolve
from banditsolve.core.protocol import TERMINAL
from banditsolve.errors import IllegalActionError, MissingExtraError, RuleOptionError
from tests.profiles import scaled

pyspiel: Any = pytest.importorskip("pyspiel")
mcts: Any = pytest.importorskip("open_spiel.python.algorithms.mcts")
ismcts: Any = pytest.importorskip("open_spiel.python.algorithms.ismcts")

from banditsolve.interop import openspiel  # noqa: E402  (after the skip: it needs pyspiel)

openspiel.register()

GAMES = banditsolve.games()
#: What the rules say of each game (not read from the code under test): its information and
#: whether its players play as one team.
EXPECTED = {
    "banditos": ("PERFECT_INFORMATION", "CONSTANT_SUM"),
    "bandido": ("IMPERFECT_INFORMATION", "IDENTICAL"),
    "bandida": ("IMPERFECT_INFORMATION", "IDENTICAL"),
    "rolling": ("IMPERFECT_INFORMATION", "CONSTANT_SUM"),
}
#: Every game with the settings that change its shape: player counts, Bandida's three modes,
#: Rolling Bandits' mercenaries (more actions), Los Banditos' unplaceable dice.
SETTINGS: list[tuple[str, dict[str, Any]]] = [
    ("banditos", {}),
    ("banditos", {"unplaceable": "return"}),
    ("bandido", {}),
    ("bandido", {"players": 1}),
    ("bandido", {"players": 4, "hand_size": 2}),
    ("bandida", {"mode": 1}),
    ("bandida", {"mode": 2}),
    ("bandida", {"mode": 3, "players": 3}),
    ("rolling", {}),
    ("rolling", {"mercenaries": "on"}),
    ("rolling", {"players": 4}),
]


def load(name: str, params: Mapping[str, Any] | None = None) -> Any:
    return pyspiel.load_game(openspiel.PREFIX + name, dict(params or {}))


def random_game(game: Any, seed: int, most: int | None = None) -> Iterator[Any]:
    """The states of a seeded random game through pyspiel (at most ``most`` steps)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    steps = 0
    while not state.is_terminal() and (most is None or steps < most):
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(actions, weights)[0]
        else:
            action = rng.choice(state.legal_actions())
        state = state.child(action)
        steps += 1
        yield state


def check_returns(game: Any, returns: list[float]) -> None:
    """The returns of a finished game fit the game's declared utility."""
    assert all(0.0 <= r <= 1.0 for r in returns)
    utility = game.get_type().utility
    if utility == pyspiel.GameType.Utility.IDENTICAL:
        assert len(set(returns)) == 1
    else:
        assert utility == pyspiel.GameType.Utility.CONSTANT_SUM
        assert sum(returns) == pytest.approx(1.0)


# -- registration and the game type -------------------------------------------------------------


def test_every_game_is_registered_once_and_loads() -> None:
    openspiel.register()  # a second time is fine
    names = set(pyspiel.registered_names())
    assert {f"banditsolve_{name}" for name in GAMES} <= names
    game = pyspiel.load_game("banditsolve_bandido")
    assert game.num_players() == 2
    assert game.new_initial_state().is_chance_node()  # the deal is chance, explicitly


def test_the_issue_check_runs_in_a_fresh_interpreter() -> None:
    code = (
        "from banditsolve.interop import openspiel; openspiel.register(); import pyspiel; "
        "pyspiel.load_game('banditsolve_bandido')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", GAMES)
def test_the_game_type_follows_the_rules(name: str) -> None:
    native = banditsolve.load_game(name)
    kind = load(name).get_type()
    information, utility = EXPECTED[name]
    assert kind.information.name == information
    assert kind.utility.name == utility
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert (kind.min_num_players, kind.max_num_players) == (
        native.min_players,
        native.max_players,
    )
    assert openspiel.is_team_game(native) == (utility == "IDENTICAL")


@pytest.mark.parametrize(("name", "params"), SETTINGS)
def test_the_game_info_is_the_contract_s(name: str, params: dict[str, Any]) -> None:
    native = banditsolve.load_game(name)
    game = load(name, params)
    players = params.get("players", 2)
    options = {k: v for k, v in params.items() if k != "players"}
    assert game.num_players() == players
    assert game.num_distinct_actions() == native.num_distinct_actions(players, options)
    assert game.max_chance_outcomes() == native.max_chance_outcomes(players, options)
    assert game.max_game_length() == native.max_game_length(players, options)
    assert tuple(game.observation_tensor_shape()) == native.observation_shape(players, options)
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)


def test_every_rule_option_is_a_game_parameter() -> None:
    for name in GAMES:
        native = banditsolve.load_game(name)
        spec = load(name).get_type().parameter_specification
        assert set(spec) == {"players", *(s.name for s in native.option_set)}
    assert load("bandida", {"mode": 3}).get_parameters()["mode"] == 3
    state = load("bandida", {"mode": 3}).new_initial_state()
    assert state.native.options.mode == 3


def test_a_value_the_game_refuses_is_its_own_error() -> None:
    with pytest.raises(RuleOptionError, match="mode"):
        load("bandida", {"mode": 4})
    with pytest.raises(RuleOptionError, match="players"):
        load("banditos", {"players": 3})


def test_the_missing_extra_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # (an import of it now fails)
    monkeypatch.delitem(sys.modules, "banditsolve.interop.openspiel")
    with pytest.raises(MissingExtraError) as caught:
        importlib.import_module("banditsolve.interop.openspiel")
    text = str(caught.value)
    assert "\n" not in text
    assert "banditsolve[openspiel]" in text
    assert "pyspiel" in text


# -- OpenSpiel's own conformance test -----------------------------------------------------------


@pytest.mark.parametrize(("name", "params"), SETTINGS)
def test_random_sim_test(name: str, params: dict[str, Any]) -> None:
    sims = scaled(2, 6) if name in ("bandida", "rolling") else scaled(5, 20)
    if params.get("players", 2) > 2 and name == "rolling":
        sims = scaled(1, 4)  # (four players: the longest games)
    game = load(name, params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)
    _check_a_random_game_s_returns(game, name)


def _check_a_random_game_s_returns(game: Any, name: str) -> None:
    """One seeded random game to its end: the returns follow the game type the adapter
    declared (a team game's are all equal, the others' sum to 1)."""
    rng = random.Random(7)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes],
                                           [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    if banditsolve.load_game(name).cooperative:
        assert len(set(returns)) == 1, returns
    else:
        assert sum(returns) == pytest.approx(1.0), returns


@pytest.mark.slow
@pytest.mark.parametrize(("name", "params"), SETTINGS)
def test_random_sim_test_long(name: str, params: dict[str, Any]) -> None:
    game = load(name, params)
    pyspiel.random_sim_test(game, num_sims=50, serialize=True, verbose=False)
    _check_a_random_game_s_returns(game, name)


# -- states: chance, observations, the information state, replay -------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_chance_is_the_game_s_with_its_odds(name: str) -> None:
    native = banditsolve.load_game(name)
    seen = 0
    for state in random_game(load(name), seed=7, most=300):
        if not state.is_chance_node():
            continue
        outcomes = state.chance_outcomes()
        assert [i for i, _ in outcomes] == sorted(i for i, _ in outcomes)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        exact = native.chance_outcomes(state.native)
        odds = {native.action_index(state.native, a): float(p) for a, p in exact}
        assert dict(outcomes) == odds
        seen += 1
    assert seen > 0


@pytest.mark.parametrize("name", GAMES)
def test_the_information_state_has_perfect_recall(name: str) -> None:
    game = load(name)
    previous: list[str] = []
    for state in random_game(game, seed=3, most=60):
        now = [state.information_state_string(p) for p in range(game.num_players())]
        for p, text in enumerate(now):
            assert text.endswith("observed " + state.observation_string(p))
            if previous:
                assert text.startswith(previous[p] + "\n")
        previous = now
    # Each player's own moves are in their information state, and the others' are not.
    last = state
    mover_lines = [line for line in now[0].splitlines() if line.startswith("played ")]
    moves0 = sum(1 for step in last.full_history() if step.player == 0)
    assert len(mover_lines) == moves0


def test_a_hand_is_hidden_from_the_other_player() -> None:
    # Bandido: after the deal, player 0 holds three cards that player 1 cannot see.
    game = load("bandido")
    state = next(s for s in random_game(game, seed=5) if not s.is_chance_node())
    assert len(state.native.hands[0]) == 3
    assert state.observation_string(0) != state.observation_string(1)
    assert '"hands":[[' in state.observation_string(0)  # player 0 sees their own cards ...
    assert '"hands":[3,' in state.observation_string(1)  # ... player 1 only how many
    assert '"hands":[3,' in state.information_state_string(1)
    assert '"hands":[[' not in state.information_state_string(1)


@pytest.mark.parametrize("name", GAMES)
def test_the_tensor_is_the_game_s_observation(name: str) -> None:
    native = banditsolve.load_game(name)
    game = load(name)
    size = int(np.prod(game.observation_tensor_shape()))
    for state in list(random_game(game, seed=11, most=40))[::7]:
        for p in range(game.num_players()):
            tensor = state.observation_tensor(p)
            assert len(tensor) == size
            assert tensor == pytest.approx(native.observation_tensor(state.native, p))


@pytest.mark.parametrize(("name", "params"), SETTINGS[::2])
def test_a_replay_through_the_contract_is_the_same_game(name: str, params: dict[str, Any]) -> None:
    native = banditsolve.load_game(name)
    game = load(name, params)
    *_, last = random_game(game, seed=scaled(13, 17))
    players = params.get("players")
    options = {k: v for k, v in params.items() if k != "players"}
    state = native.new_game(players, options or None)
    for step in last.full_history():
        state = native.apply(state, native.action_from_index(state, step.action))
    assert native.to_notation(state) == str(last)
    assert native.current_player(state) == TERMINAL
    outcome = native.outcome(state)
    assert outcome is not None
    assert list(outcome.returns) == last.returns()
    check_returns(game, last.returns())


def test_action_text_is_the_game_s_and_an_unknown_index_is_named() -> None:
    game = load("banditos")
    state = next(s for s in random_game(game, seed=1) if not s.is_chance_node())
    texts = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
    assert "roll" in texts
    assert state.action_to_string(state.current_player(), 105) == "index 105"
    with pytest.raises(IllegalActionError):
        state.apply_action(105)


# -- the length cap -----------------------------------------------------------------------------


class Capped:
    """A game on the contract with a short length cap (everything else is the game's)."""

    def __init__(self, name: str, cap: int) -> None:
        self._game = banditsolve.load_game(name)
        self.name = f"{name}_capped_{cap}"
        self.cap = cap

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._game, attribute)

    def max_game_length(self, players: int | None = None, options: Any = None) -> int:
        return self.cap


@pytest.mark.parametrize(("name", "draw"), [("rolling", 0.5), ("bandida", 0.0)])
def test_a_game_cut_at_its_cap_is_a_draw(name: str, draw: float) -> None:
    assert not banditsolve.load_game(name).length_bounded_by_rules
    short = openspiel.register_game(Capped(name, 30))
    game = pyspiel.load_game(short)
    assert game.max_game_length() == 30
    *_, last = random_game(game, seed=2)
    assert last.is_terminal()
    assert len(last.history()) == 30
    assert banditsolve.load_game(name).current_player(last.native) != TERMINAL  # cut, not over
    assert last.returns() == [draw, draw]
    assert last.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        last.apply_action(0)


# -- OpenSpiel's algorithms play every game -----------------------------------------------------


def play(game: Any, bots: list[Any], seed: int) -> Any:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=weights)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return state


def mcts_bot(game: Any, simulations: int, seed: int, rollout: int | None) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed), max_length=rollout)
    return mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=np.random.RandomState(seed))


#: Rollouts cut short in the quick tests (a cut rollout is worth 0 to everyone).
ROLLOUT = 8


@pytest.mark.parametrize("name", GAMES)
def test_mcts_plays_every_game_to_the_end(name: str) -> None:
    game = load(name)
    bot = mcts_bot(game, 3, seed=1, rollout=ROLLOUT)
    last = play(game, [bot] * game.num_players(), seed=2)
    check_returns(game, last.returns())


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_mcts_with_whole_rollouts(name: str) -> None:
    game = load(name)
    bot = mcts_bot(game, 20, seed=1, rollout=None)
    last = play(game, [bot] * game.num_players(), seed=3)
    check_returns(game, last.returns())


HIDDEN = [name for name in GAMES if not banditsolve.load_game(name).perfect_information]


def ismcts_bot(game: Any, simulations: int, seed: int, rollout: int | None) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed), max_length=rollout)
    bot = ismcts.ISMCTSBot(
        game, evaluator, 2.0, simulations, max_world_samples=2,
        random_state=np.random.RandomState(seed),
    )
    rng = random.Random(seed)
    bot.set_resampler(lambda state, player: openspiel.resample(state, player, rng=rng))
    return bot


@pytest.mark.parametrize("name", HIDDEN)
def test_ismcts_plays_the_games_with_hidden_information(name: str) -> None:
    assert HIDDEN == ["bandido", "bandida", "rolling"]
    game = load(name)
    bot = ismcts_bot(game, 3, seed=4, rollout=ROLLOUT)
    last = play(game, [bot] * game.num_players(), seed=5)
    check_returns(game, last.returns())


def test_ismcts_refuses_a_perfect_information_game() -> None:
    game = load("banditos")
    bot = ismcts_bot(game, 3, seed=4, rollout=ROLLOUT)
    state = next(s for s in random_game(game, seed=1) if len(s.legal_actions()) > 1
                 and not s.is_chance_node())
    with pytest.raises(AssertionError):
        bot.step(state)


def hidden_moment(name: str, game: Any) -> Any:
    """A state of a random game where a player holds something another cannot see: a
    tunnel game after the deal (every hand hidden), Rolling Bandits with a closed trunk held."""
    for seed in range(40):
        for state in random_game(game, seed=seed):
            if state.is_chance_node() or state.is_terminal():
                continue
            native = state.native
            if name != "rolling" or any(
                not trunk.used for held in native.trunks for trunk in held
            ):
                return state
    raise AssertionError(f"no state of {name} hides anything")


@pytest.mark.parametrize("name", HIDDEN)
def test_a_resampled_state_looks_the_same_to_the_player(name: str) -> None:
    game = load(name)
    state = hidden_moment(name, game)
    rng = random.Random(1)
    changed = 0
    for player in range(game.num_players()):
        for _ in range(3):
            other = openspiel.resample(state, player, rng=rng)
            assert other.information_state_string(player) == state.information_state_string(
                player
            )
            assert other.observation_string(player) == state.observation_string(player)
            assert other.history() != state.history() or str(other) == str(state)
            changed += str(other) != str(state)
    assert changed > 0  # the hidden part does change


def test_chance_outcomes_changed_by_a_caller_are_not_changed_for_the_next() -> None:
    """OpenSpiel's MCTS shuffles the outcome list it is given, in place: each call must hand
    out a list of its own (a shared one made later chance nodes of the process, and so whole
    games, depend on what had run before)."""
    game = pyspiel.load_game("banditsolve_rolling", {"players": 2})
    state = game.new_initial_state()
    while not state.is_chance_node() or len(state.chance_outcomes()) < 3:
        state.apply_action(state.legal_actions()[0] if not state.is_chance_node()
                           else state.chance_outcomes()[0][0])
    first = state.chance_outcomes()
    expected = list(first)
    assert expected == sorted(expected)  # by index
    random.Random(1).shuffle(first)
    assert state.chance_outcomes() == expected
    assert state.clone().chance_outcomes() == expected


def test_an_mcts_game_does_not_depend_on_what_ran_before() -> None:
    def play(seed: int) -> list[int]:
        game = pyspiel.load_game("banditsolve_rolling", {"players": 2})
        stream = np.random.RandomState(seed)
        bot = mcts.MCTSBot(game, 2.0, 5, mcts.RandomRolloutEvaluator(1, stream),
                           random_state=stream)
        rng = random.Random(seed)
        state = game.new_initial_state()
        actions: list[int] = []
        while not state.is_terminal() and len(actions) < 80:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = int(bot.step(state))
            actions.append(action)
            state.apply_action(action)
        return actions

    alone = play(3)
    play(4)  # another game in between, as a study's worker plays them
    assert play(3) == alone
